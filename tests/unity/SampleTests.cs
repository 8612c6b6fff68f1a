using System;
using System.Collections.Generic;
using System.IO;
using System.Text.RegularExpressions;
using Argus.Perception.Samples;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.StandInTests
{
    /// <summary>The Courtyard sample plays like the Rust demo: within 20 s the guards go through all
    /// four brain states, and the running player is heard and seen.</summary>
    [TestFixture]
    public class SampleTests
    {
        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        [Test]
        public void Courtyard_ShowsAllFourStates()
        {
            var demo = new GameObject("Courtyard").AddComponent<CourtyardDemo>();
            var seen = new HashSet<AIState>();
            int heard = 0, sightings = 0;
            foreach (var g in demo.Guards)
            {
                g.OnStateChanged += (from, to) => seen.Add(to);
                g.GetComponent<HearingSensor>().OnHeardSound += p => heard++;
                g.GetComponent<FieldOfViewSensor>().OnTargetSeen += (t, p) => sightings++;
            }
            Assert.AreEqual(3, demo.World.Native.Counts.Agents);
            Assert.AreEqual(CourtyardDemo.Walls.Length, (int)demo.World.Native.Counts.Occluders);
            StandIn.Player.Run(20f, 1f / 30f);
            CollectionAssert.IsSubsetOf(new[] { AIState.Investigating, AIState.Chasing, AIState.Searching, AIState.Idle }, seen);
            Assert.Greater(heard, 0);
            Assert.Greater(sightings, 0);
            Assert.AreEqual("waits", demo.Player.Doing, "hidden behind the east wall at the end");
        }

        // ---- the sample's scene (Courtyard.unity): Unity's YAML scene format, checked without an editor ----

        // $ARGUS_UNITY_PACKAGE: an installed copy (the UPM tarball unpacked); else unity/ of the checkout.
        static string PackageDir
        {
            get
            {
                string installed = Environment.GetEnvironmentVariable("ARGUS_UNITY_PACKAGE");
                return string.IsNullOrEmpty(installed) ? Path.Combine(CorpusTests.Root(), "unity") : installed;
            }
        }

        static string SampleDir { get { return Path.Combine(PackageDir, "Samples~/Courtyard"); } }

        sealed class SceneObject
        {
            public int ClassId;
            public long FileId;
            public string Type, Body;
        }

        // The scene's documents: "--- !u!<class id> &<file id>" then "<Type>:" and its fields.
        static List<SceneObject> ParseScene(string text)
        {
            StringAssert.StartsWith("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!", text);
            var objects = new List<SceneObject>();
            string[] parts = Regex.Split(text, @"^--- ", RegexOptions.Multiline);
            for (int i = 1; i < parts.Length; i++)
            {
                Match m = Regex.Match(parts[i], @"^!u!(\d+) &(\d+)\n(\w+):\n");
                Assert.IsTrue(m.Success, "a document header: " + parts[i].Split('\n')[0]);
                objects.Add(new SceneObject { ClassId = int.Parse(m.Groups[1].Value), FileId = long.Parse(m.Groups[2].Value),
                    Type = m.Groups[3].Value, Body = parts[i].Substring(m.Length) });
                foreach (var line in objects[objects.Count - 1].Body.Split('\n'))
                    if (line.Length > 0) StringAssert.IsMatch(@"^(  )+(- )?[\w ]+:( .*)?$|^(  )+- \w+: .*$", line, "a YAML mapping line");
            }
            return objects;
        }

        // Unity's class ids of what the scene holds (the YAML class ID reference).
        static readonly Dictionary<int, string> ClassIds = new Dictionary<int, string>
        {
            { 1, "GameObject" }, { 4, "Transform" }, { 20, "Camera" }, { 29, "OcclusionCullingSettings" }, { 81, "AudioListener" },
            { 104, "RenderSettings" }, { 108, "Light" }, { 114, "MonoBehaviour" }, { 157, "LightmapSettings" }, { 196, "NavMeshSettings" },
        };

        [Test]
        public void CourtyardScene_Parses_AndEveryReferenceResolves()
        {
            string scene = Path.Combine(SampleDir, "Courtyard.unity");
            Assert.IsTrue(File.Exists(scene + ".meta"), "imported with its .meta");
            var objects = ParseScene(File.ReadAllText(scene));
            var byId = new Dictionary<long, SceneObject>();
            foreach (var o in objects)
            {
                Assert.IsFalse(byId.ContainsKey(o.FileId), "file id " + o.FileId + " twice");
                byId[o.FileId] = o;
                Assert.AreEqual(ClassIds[o.ClassId], o.Type, "class id " + o.ClassId);
            }
            // Local references point into the file; components and their GameObjects agree both ways.
            foreach (var o in objects)
                foreach (Match r in Regex.Matches(o.Body, @"\{fileID: (-?\d+)\}"))
                {
                    long id = long.Parse(r.Groups[1].Value);
                    Assert.IsTrue(id == 0 || byId.ContainsKey(id), o.Type + " " + o.FileId + " refers to a missing " + id);
                }
            var scriptGuids = new Dictionary<string, string>();
            foreach (var meta in Directory.GetFiles(PackageDir, "*.cs.meta", SearchOption.AllDirectories))
                scriptGuids[Regex.Match(File.ReadAllText(meta), @"guid: (\w+)").Groups[1].Value] = Path.GetFileName(meta);
            int scripts = 0;
            foreach (var o in objects)
            {
                if (o.Type == "GameObject")
                    foreach (Match c in Regex.Matches(o.Body, @"- component: \{fileID: (\d+)\}"))
                        StringAssert.Contains("m_GameObject: {fileID: " + o.FileId + "}", byId[long.Parse(c.Groups[1].Value)].Body);
                Match go = Regex.Match(o.Body, @"m_GameObject: \{fileID: (\d+)\}");
                if (go.Success) StringAssert.Contains("- component: {fileID: " + o.FileId + "}", byId[long.Parse(go.Groups[1].Value)].Body);
                if (o.Type != "MonoBehaviour") continue;
                Match script = Regex.Match(o.Body, @"m_Script: \{fileID: 11500000, guid: (\w+), type: 3\}");
                Assert.IsTrue(script.Success, "a MonoBehaviour names its script");
                Assert.IsTrue(scriptGuids.ContainsKey(script.Groups[1].Value), "script GUID " + script.Groups[1].Value + " is no .cs.meta of the package");
                scripts++;
            }
            Assert.AreEqual(1, scripts);
        }

        [Test]
        public void CourtyardScene_Plays()
        {
            // Loads the scene into the stand-in as Unity would: each GameObject with its Transform and its
            // MonoBehaviours (the script found by its .meta GUID); then 20 s of play, as above.
            string text = File.ReadAllText(Path.Combine(SampleDir, "Courtyard.unity"));
            var objects = ParseScene(text);
            var scriptByGuid = new Dictionary<string, string>();
            foreach (var meta in Directory.GetFiles(SampleDir, "*.cs.meta"))
                scriptByGuid[Regex.Match(File.ReadAllText(meta), @"guid: (\w+)").Groups[1].Value] = Path.GetFileName(meta).Replace(".cs.meta", "");
            var made = new Dictionary<long, GameObject>();
            foreach (var o in objects)
                if (o.Type == "GameObject") made[o.FileId] = new GameObject(Regex.Match(o.Body, @"m_Name: (.*)\n").Groups[1].Value);
            CourtyardDemo demo = null;
            foreach (var o in objects)
            {
                if (o.Type != "MonoBehaviour") continue;
                GameObject owner = made[long.Parse(Regex.Match(o.Body, @"m_GameObject: \{fileID: (\d+)\}").Groups[1].Value)];
                string name = scriptByGuid[Regex.Match(o.Body, @"guid: (\w+)").Groups[1].Value];
                Type type = typeof(CourtyardDemo).Assembly.GetType("Argus.Perception.Samples." + name, true);
                var c = owner.AddComponent(type);
                if (c is CourtyardDemo) demo = (CourtyardDemo)c;
            }
            Assert.IsNotNull(demo, "the scene holds the CourtyardDemo");
            var seen = new HashSet<AIState>();
            foreach (var g in demo.Guards) g.OnStateChanged += (from, to) => seen.Add(to);
            StandIn.Player.Run(20f, 1f / 30f);
            CollectionAssert.IsSubsetOf(new[] { AIState.Investigating, AIState.Chasing, AIState.Searching, AIState.Idle }, seen);
        }

        [Test]
        public void Courtyard_ShowsSomethingWithoutGizmos()
        {
            // Play must show the scene without gizmos: walls, guards and the player are primitives with
            // renderers, and every guard's view cone is a LineRenderer updated at run time.
            var demo = new GameObject("Courtyard").AddComponent<CourtyardDemo>();
            int walls = 0;
            foreach (var occluder in StandIn.Player.FindAll<PerceptionOccluder>())
            {
                Assert.IsNotNull(occluder.GetComponent<MeshRenderer>(), "a wall has a renderer");
                walls++;
            }
            Assert.AreEqual(CourtyardDemo.Walls.Length, walls);
            Assert.IsNotNull(demo.Player.GetComponentInChildren<MeshRenderer>(), "the player has a renderer");
            StandIn.Player.Run(0.5f, 1f / 30f);
            foreach (var g in demo.Guards)
            {
                Assert.IsNotNull(g.GetComponentInChildren<MeshRenderer>(), g.name + " has a renderer");
                var sight = g.GetComponent<FieldOfViewSensor>();
                var cone = g.GetComponentInChildren<LineRenderer>();
                Assert.IsNotNull(cone, g.name + " has a cone");
                Assert.IsTrue(cone.useWorldSpace && cone.loop);
                Assert.Greater(cone.positionCount, 8);
                Vector3 eye = g.transform.position + Vector3.up * sight.eyeHeight;
                Assert.AreEqual(0f, (cone.GetPosition(0) - eye).magnitude, 0.05f, "the cone starts at the eye");
                Vector3 mid = cone.GetPosition(cone.positionCount / 2) - eye;
                Assert.AreEqual(sight.viewRadius, mid.magnitude, 0.05f, "its arc is at viewRadius");
                Assert.Greater(Vector3.Dot(mid.normalized, g.transform.forward), 0.99f, "centred on the facing");
            }
            // The cone turns red while its guard sees the player.
            bool red = false;
            for (int i = 0; i < 600 && !red; i++)
            {
                StandIn.Player.Frame(1f / 30f);
                foreach (var g in demo.Guards)
                {
                    var cone = g.GetComponentInChildren<LineRenderer>();
                    if (g.GetComponent<FieldOfViewSensor>().visibleTargets.Count > 0) red |= cone.startColor.r > 0.9f && cone.startColor.g < 0.5f;
                }
            }
            Assert.IsTrue(red, "a seeing guard's cone is red");
        }
    }
}
