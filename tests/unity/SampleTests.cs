using System.Collections.Generic;
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

        [Test]
        public void Courtyard_ShowsSomethingWithoutGizmos()
        {
            // Play must show the scene without gizmos: walls, guards and the player are primitives with
            // renderers, and every guard's view cone is a LineRenderer updated at run time.
            var demo = new GameObject("Courtyard").AddComponent<CourtyardDemo>();
            int walls = 0;
            foreach (var occluder in Object.FindObjectsOfType<PerceptionOccluder>())
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
