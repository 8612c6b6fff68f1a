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
    }
}
