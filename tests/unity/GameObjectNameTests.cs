// The engine's names in recordings (#46): every PerceptionAgent, PerceptionTarget and PerceptionOccluder
// (and every collider of the occluder scan) labels its native thing with its GameObject's name; a rename
// reaches the world at the next step after the component joined, when a recording starts, in turn while
// recording, and at RefreshNames(). Read back through Argus.World.GetLabel and from the world rebuilt
// from a recording made of the scene.
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Text;
using Argus.Perception.Tests;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class GameObjectNameTests
    {
        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        static AgentId Agent(GameObject go) { return go.GetComponent<PerceptionAgent>().Id; }
        static TargetId Target(GameObject go) { return go.GetComponent<PerceptionTarget>().Id; }
        static OccluderId Occluder(GameObject go) { return go.GetComponent<PerceptionOccluder>().Id; }

        // The occluders the world made from its collider scan (no component holds their ids).
        static List<OccluderId> Scanned(PerceptionWorld world)
        {
            FieldInfo f = typeof(PerceptionWorld).GetField("m_ScannedOccluders", BindingFlags.NonPublic | BindingFlags.Instance);
            return (List<OccluderId>)f.GetValue(world);
        }

        [Test]
        public void ARecordingOfTheSceneHoldsTheGameObjectNames()
        {
            var lesson = new LessonScene();
            PerceptionWorld world = lesson.World;
            // A crate the world's collider scan turns into an occluder (no PerceptionOccluder on it).
            var crate = new GameObject("Crate 🧱");
            crate.layer = LessonScene.ObstacleLayer;
            crate.transform.position = new Vector3(3f, 0f, 3f);
            crate.AddComponent<BoxCollider>().size = Vector3.one;
            world.enabled = false;
            world.occluderScanMask = 1 << LessonScene.ObstacleLayer;
            world.enabled = true; // a new native world: the scan, then every member joins again

            GameObject guard = lesson.Guard(Vector3.zero, Vector3.forward);
            GameObject scout = lesson.Guard(new Vector3(6f, 0f, 0f), Vector3.left);
            GameObject player = lesson.Player(new Vector3(0f, 0f, 6f));
            GameObject wall = lesson.Wall(new Vector3(-2f, 0f, 4f), new Vector3(2f, 3f, 0.4f));
            Assert.AreEqual("Guard", world.Native.GetLabel(Agent(guard)), "labelled with the GameObject's name when created");
            Assert.AreEqual("Wall", world.Native.GetLabel(Occluder(wall)));
            Assert.AreEqual(1, Scanned(world).Count, "the crate was scanned");
            Assert.AreEqual("Crate 🧱", world.Native.GetLabel(Scanned(world)[0]), "a scanned collider has its GameObject's name");
            // A spawner names what it has just made: read again at the next step.
            guard.name = "G1";
            scout.name = "Späher Ω";
            player.name = "Élodie (player)";
            wall.name = "North wall";
            lesson.Step(0.1f);
            Assert.AreEqual("G1", world.Native.GetLabel(Agent(guard)));
            Assert.AreEqual("Späher Ω", world.Native.GetLabel(Agent(scout)));
            Assert.AreEqual("Élodie (player)", world.Native.GetLabel(Target(player)));
            Assert.AreEqual("North wall", world.Native.GetLabel(Occluder(wall)));
            // Once joined, a rename outside a recording waits for one (or RefreshNames): no name read per frame.
            scout.name = "Scout";
            lesson.Step(0.1f);
            Assert.AreEqual("Späher Ω", world.Native.GetLabel(Agent(scout)), "not read at every step");

            world.StartRecording(); // reads every name: the recording starts with "Scout"
            Assert.AreEqual("Scout", world.Native.GetLabel(Agent(scout)), "a recording starts with the names of its start");
            lesson.Step(0.1f, 3);
            guard.name = "G1 (alerted)"; // renamed while recording: read within a step (5 members <= NamesPerStep)
            lesson.Step(0.1f, 3);
            Assert.AreEqual("G1 (alerted)", world.Native.GetLabel(Agent(guard)));
            byte[] bytes = world.Native.StopRecording();

            Assert.AreEqual(6u, Replay.Verify(bytes).StepsReplayed);
            using (Argus.World rebuilt = Argus.World.FromRecording(bytes))
            {
                ushort tag = rebuilt.Tag;
                Assert.AreEqual("G1 (alerted)", rebuilt.GetLabel(Agent(guard).WithWorld(tag)), "the name after the rename");
                Assert.AreEqual("Scout", rebuilt.GetLabel(Agent(scout).WithWorld(tag)));
                Assert.AreEqual("Élodie (player)", rebuilt.GetLabel(Target(player).WithWorld(tag)));
                Assert.AreEqual("North wall", rebuilt.GetLabel(Occluder(wall).WithWorld(tag)));
                Assert.AreEqual("Crate 🧱", rebuilt.GetLabel(Scanned(world)[0].WithWorld(tag)));
            }
            using (Argus.World early = Argus.World.FromRecording(bytes, 3))
                Assert.AreEqual("G1", early.GetLabel(Agent(guard).WithWorld(early.Tag)), "before the rename, the old name");
            Assert.AreEqual(0, Debug.StandInLog.FindAll(l => l.StartsWith("exception")).Count, string.Join("\n", Debug.StandInLog.ToArray()));
        }

        [Test]
        public void WhileRecordingNamesAreReadInTurnAndRefreshNamesReadsThemAll()
        {
            var lesson = new LessonScene();
            PerceptionWorld world = lesson.World;
            GameObject guard = lesson.Guard(Vector3.zero, Vector3.forward);
            var crowd = new List<GameObject>();
            for (int i = 0; i < 2 * PerceptionWorld.NamesPerStep; i++) crowd.Add(lesson.Player(new Vector3(i, 0f, 8f)));
            lesson.Step(0.1f);
            crowd[crowd.Count - 1].name = "Last";
            guard.name = "G7";
            world.RefreshNames();
            Assert.AreEqual("Last", world.Native.GetLabel(Target(crowd[crowd.Count - 1])), "RefreshNames reads every name");
            Assert.AreEqual("G7", world.Native.GetLabel(Agent(guard)));

            world.StartRecording();
            int members = 1 + crowd.Count;
            for (int i = 0; i < crowd.Count; i++) crowd[i].name = "P" + i;
            int steps = (members + PerceptionWorld.NamesPerStep - 1) / PerceptionWorld.NamesPerStep;
            lesson.Step(0.1f, steps - 1);
            Assert.AreEqual("Last", world.Native.GetLabel(Target(crowd[crowd.Count - 1])),
                "NamesPerStep names a step: the last one is not read yet");
            lesson.Step(0.1f);
            for (int i = 0; i < crowd.Count; i++)
                Assert.AreEqual("P" + i, world.Native.GetLabel(Target(crowd[i])), "every name read within members / NamesPerStep steps");
            world.Native.StopRecording();
        }

        [Test]
        public void ANameLongerThanALabelIsCutAtACharacterBoundary()
        {
            var lesson = new LessonScene();
            GameObject guard = lesson.Guard(Vector3.zero, Vector3.forward);
            GameObject player = lesson.Player(new Vector3(0f, 0f, 6f));
            guard.name = new string('€', 100);            // 300 bytes of UTF-8
            var emoji = new StringBuilder("a");
            for (int i = 0; i < 64; i++) emoji.Append("🧱"); // 1 + 64 × 4 = 257 bytes
            player.name = emoji.ToString();
            lesson.Step(0.1f);
            string g = lesson.World.Native.GetLabel(Agent(guard));
            Assert.AreEqual(new string('€', 85), g, "the longest whole prefix: 85 × 3 = 255 bytes");
            string p = lesson.World.Native.GetLabel(Target(player));
            Assert.AreEqual(emoji.ToString().Substring(0, 1 + 63 * 2), p, "never half a surrogate pair (253 bytes)");
            Assert.AreEqual(0, Debug.StandInLog.FindAll(l => l.StartsWith("exception")).Count, string.Join("\n", Debug.StandInLog.ToArray()));
        }
    }
}
