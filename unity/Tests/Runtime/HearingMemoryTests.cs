using System.Collections.Generic;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.Tests
{
    /// <summary>Lesson §5–§7: sounds, percepts, memory decay, through the components.</summary>
    public class HearingMemoryTests
    {
        LessonScene scene;
        GameObject guard;
        List<Vector3> heard;

        [SetUp]
        public void SetUp()
        {
            scene = new LessonScene();
            guard = scene.Guard(Vector3.zero, Vector3.forward);
            heard = new List<Vector3>();
            guard.GetComponent<HearingSensor>().OnHeardSound += heard.Add;
        }

        [TearDown]
        public void TearDown() { scene.Destroy(); }

        Footsteps PlayerBehindTheGuard(float distance)
        {
            // Behind the guard so that only hearing can notice it.
            return scene.Player(new Vector3(0f, 0f, -distance)).GetComponent<Footsteps>();
        }

        [Test]
        public void Trace_RunningFootstepAt10m_IsHeard()
        {
            var steps = PlayerBehindTheGuard(10f);
            steps.isRunning = true;
            steps.OnFootstep();
            scene.Step(0.1f);
            Assert.AreEqual(1, heard.Count);
            Assert.AreEqual(-10f, heard[0].z, 1e-4f);
        }

        [Test]
        public void Trace_WalkingFootstepAt10m_IsNotHeard()
        {
            var steps = PlayerBehindTheGuard(10f);
            steps.isRunning = false;
            steps.OnFootstep();
            scene.Step(0.1f);
            Assert.AreEqual(0, heard.Count);
        }

        [Test]
        public void Trace_HearingRadiusIsInclusive()
        {
            AudioPerception.EmitSound(new Vector3(0f, 0f, -6f), 6f, null);
            scene.Step(0.1f);
            Assert.AreEqual(1, heard.Count);
        }

        [Test]
        public void EmitSound_RaisesTheBusAtOnce()
        {
            var bus = new List<SoundEvent>();
            System.Action<SoundEvent> listener = bus.Add;
            AudioPerception.OnSoundEmitted += listener;
            try
            {
                var steps = PlayerBehindTheGuard(10f);
                steps.isRunning = true;
                steps.OnFootstep();
                Assert.AreEqual(1, bus.Count);
                Assert.AreEqual(15f, bus[0].loudness);
                Assert.AreSame(steps.gameObject, bus[0].source);
            }
            finally
            {
                AudioPerception.OnSoundEmitted -= listener;
            }
        }

        [Test]
        public void Field_hearingSensitivity_IsForwarded()
        {
            guard.GetComponent<HearingSensor>().hearingSensitivity = 2f;
            var steps = PlayerBehindTheGuard(10f);
            steps.OnFootstep(); // walking: 6 m × 2 = 12 m >= 10 m
            scene.Step(0.1f);
            Assert.AreEqual(1, heard.Count);
        }

        [Test]
        public void Field_footstepLoudness_IsForwarded()
        {
            var steps = PlayerBehindTheGuard(10f);
            steps.walkLoudness = 11f;
            steps.OnFootstep();
            scene.Step(0.1f);
            Assert.AreEqual(1, heard.Count);
        }

        [Test]
        public void Field_soundMask_IsForwarded()
        {
            guard.GetComponent<HearingSensor>().soundMask = 1 << LessonScene.ObstacleLayer;
            var steps = PlayerBehindTheGuard(5f);
            steps.isRunning = true;
            steps.OnFootstep();
            scene.Step(0.1f);
            Assert.AreEqual(0, heard.Count);
        }

        [Test]
        public void PerceptionSystem_ReportsSightAndSoundAsPercepts()
        {
            var percepts = new List<Percept>();
            guard.GetComponent<PerceptionSystem>().OnPercept += percepts.Add;
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            AudioPerception.EmitSound(new Vector3(0f, 0f, -3f), 6f, null);
            scene.Step(0.25f);
            Assert.AreEqual(2, percepts.Count);
            Assert.AreEqual(PerceptType.Sound, percepts[0].type);
            Assert.AreEqual(-3f, percepts[0].position.z, 1e-4f);
            Assert.AreEqual(PerceptType.Sight, percepts[1].type);
            Assert.AreEqual(5f, percepts[1].position.z, 1e-4f);
            Assert.AreSame(player.transform, percepts[1].target);
            Assert.AreEqual(0.25f, percepts[1].timestamp, 1e-5f);
        }

        [Test]
        public void PerceptionSystem_player_FiltersOtherTargets()
        {
            var percepts = new List<Percept>();
            var system = guard.GetComponent<PerceptionSystem>();
            system.OnPercept += percepts.Add;
            scene.Player(new Vector3(1f, 0f, 5f));
            var player = scene.Player(new Vector3(-1f, 0f, 5f));
            system.player = player.transform;
            scene.Step(0.1f);
            Assert.AreEqual(1, percepts.Count);
            Assert.AreSame(player.transform, percepts[0].target);
        }

        [Test]
        public void Trace_MemoryDecaysAt0_2PerSecond_ThenIsForgotten()
        {
            var memory = guard.GetComponent<PerceptionMemory>();
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            Transform forgotten = null;
            memory.OnForgotten += (t, p) => forgotten = t;
            scene.Step(0.1f);                                   // seen: confidence 1
            Assert.AreEqual(1f, memory.Confidence, 1e-5f);
            player.transform.position = new Vector3(0f, 0f, 40f); // gone
            scene.Step(0.1f, 10);
            Assert.AreEqual(0.8f, memory.Confidence, 1e-4f);
            Assert.AreEqual(5f, memory.LastKnownPosition.z, 1e-4f);
            scene.Step(0.1f, 30);                               // 4 s unseen
            Assert.AreEqual(0.2f, memory.Confidence, 1e-4f);
            Assert.IsNull(forgotten);
            scene.Step(0.1f, 8);                                // 4.8 s: 0.04 < 0.05
            Assert.AreEqual(0f, memory.Confidence);
            Assert.AreSame(player.transform, forgotten);
            // As in the lesson: forgetting zeroes Confidence and leaves LastKnownPosition alone.
            Assert.AreEqual(5f, memory.LastKnownPosition.z, 1e-4f, "LastKnownPosition keeps the last value");
        }

        [Test]
        public void LastKnownPosition_AfterForgetting_KeepsTheLastValue_EvenIfNeverReadBefore()
        {
            var memory = guard.GetComponent<PerceptionMemory>();
            var player = scene.Player(new Vector3(1f, 0f, 6f));
            scene.Step(0.1f);
            player.transform.position = new Vector3(0f, 0f, 40f);
            scene.Step(0.1f, 60);                               // forgotten, never read while remembered
            Assert.AreEqual(0f, memory.Confidence);
            Assert.AreEqual(1f, memory.LastKnownPosition.x, 1e-4f);
            Assert.AreEqual(6f, memory.LastKnownPosition.z, 1e-4f);
        }

        [Test]
        public void Field_decayPerSecond_IsForwarded()
        {
            var memory = guard.GetComponent<PerceptionMemory>();
            memory.decayPerSecond = 0.5f;
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.1f);
            player.transform.position = new Vector3(0f, 0f, 40f);
            scene.Step(0.1f, 10);
            Assert.AreEqual(0.5f, memory.Confidence, 1e-4f);
        }

        [Test]
        public void Field_forgetThreshold_IsForwarded()
        {
            var memory = guard.GetComponent<PerceptionMemory>();
            memory.forgetThreshold = 0.5f;
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.1f);
            player.transform.position = new Vector3(0f, 0f, 40f);
            scene.Step(0.1f, 20);                               // 0.6
            Assert.AreEqual(0.6f, memory.Confidence, 1e-4f);
            scene.Step(0.1f, 6);                                // 0.48 < 0.5
            Assert.AreEqual(0f, memory.Confidence);
        }
    }
}
