using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.Tests
{
    /// <summary>Every public setting of the components reaches the native agent and target defs:
    /// each field gets a value the library never uses by default, and the def read back from the
    /// native world must carry it. (The behaviour of each field is tested in the other fixtures.)</summary>
    public class ForwardingTests
    {
        LessonScene scene;

        [SetUp]
        public void SetUp() { scene = new LessonScene(); }

        [TearDown]
        public void TearDown() { scene.Destroy(); }

        [Test]
        public void EveryAgentField_ReachesTheNativeDef()
        {
            var go = scene.Guard(Vector3.zero, Vector3.forward);
            var sight = go.GetComponent<FieldOfViewSensor>();
            var hearing = go.GetComponent<HearingSensor>();
            var memory = go.GetComponent<PerceptionMemory>();
            var brain = go.GetComponent<EnemyBrain>();
            var agent = go.GetComponent<PerceptionAgent>();
            agent.team = 7;
            agent.perceiveNeutral = true;
            agent.perceiveFriendly = true;
            sight.viewRadius = 11f;
            sight.viewAngle = 91f;
            sight.targetMask = 0x30;
            sight.obstacleMask = 0x500;
            sight.eyeHeight = 1.1f;
            sight.loseSightRadius = 12f;
            sight.peripheralRadius = 4f;
            sight.peripheralAngle = 170f;
            sight.sightRateHz = 7f;
            sight.useAwareness = true;
            sight.awarenessRisePerSecond = 2.5f;
            sight.awarenessFallPerSecond = 0.35f;
            sight.awarenessFarFactor = 0.15f;
            sight.awarenessEdgeFactor = 0.45f;
            sight.awarenessSuspicious = 0.2f;
            sight.awarenessAlert = 0.6f;
            sight.awarenessAware = 0.9f;
            hearing.hearingSensitivity = 1.5f;
            hearing.soundMask = 0x6;
            hearing.muffleMask = 0x8;
            hearing.obstruction = HearingSensor.Obstruction.WalkAroundWalls;
            memory.decayPerSecond = 0.3f;
            memory.forgetThreshold = 0.07f;
            brain.searchDuration = 5f;
            brain.investigateTimeout = 9f;
            brain.search = EnemyBrain.SearchMode.Belief;
            brain.giveUpProbability = 0.03f;
            brain.shareBelief = false;
            scene.Step(0.1f);

            AgentDef d = scene.World.Native.GetAgentDef(agent.Id);
            Assert.AreEqual(7u, d.Team);
            Assert.AreEqual(Constants.DETECT_HOSTILE | Constants.DETECT_NEUTRAL | Constants.DETECT_FRIENDLY, d.DetectMask);
            Assert.IsTrue(d.Sight.Enabled);
            Assert.AreEqual(11f, d.Sight.ViewRadius);
            Assert.AreEqual(91f, d.Sight.ViewAngle);
            Assert.AreEqual(0x30u, d.Sight.TargetMask);
            Assert.AreEqual(0x500u, d.Sight.ObstacleMask);
            Assert.AreEqual(1.1f, d.Sight.EyeOffset.Y);
            Assert.AreEqual(12f, d.Sight.LoseSightRadius);
            Assert.AreEqual(4f, d.Sight.PeripheralRadius);
            Assert.AreEqual(170f, d.Sight.PeripheralAngle);
            Assert.AreEqual(7f, d.Sight.RateHz);
            Assert.IsTrue(d.Awareness.Enabled);
            Assert.AreEqual(2.5f, d.Awareness.RisePerSecond);
            Assert.AreEqual(0.35f, d.Awareness.FallPerSecond);
            Assert.AreEqual(0.15f, d.Awareness.FarFactor);
            Assert.AreEqual(0.45f, d.Awareness.EdgeFactor);
            Assert.AreEqual(0.2f, d.Awareness.SuspiciousThreshold);
            Assert.AreEqual(0.6f, d.Awareness.AlertThreshold);
            Assert.AreEqual(0.9f, d.Awareness.AwareThreshold);
            Assert.IsTrue(d.Hearing.Enabled);
            Assert.AreEqual(1.5f, d.Hearing.Sensitivity);
            Assert.AreEqual(0x6u, d.Hearing.SoundMask);
            Assert.AreEqual(0x8u, d.Hearing.ObstacleMask);
            Assert.AreEqual(HearingPath.Walk, d.Hearing.Path);
            Assert.AreEqual(0.3f, d.Memory.DecayPerSecond);
            Assert.AreEqual(0.07f, d.Memory.ForgetThreshold);
            Assert.IsTrue(d.Brain.Enabled);
            Assert.AreEqual(5f, d.Brain.SearchDuration);
            Assert.AreEqual(9f, d.Brain.InvestigateTimeout);
            Assert.AreEqual(SearchKind.Belief, d.Brain.Search);
            Assert.AreEqual(0.03f, d.Brain.GiveUpProbability);
            Assert.IsFalse(d.Brain.ShareBelief);
        }

        [Test]
        public void AMissingSense_IsOffNatively()
        {
            // Only a FieldOfViewSensor: no hearing, no brain (the library's defaults have both on).
            var go = new GameObject("eyes only");
            try
            {
                go.AddComponent<FieldOfViewSensor>();
                scene.Step(0.1f);
                AgentDef d = scene.World.Native.GetAgentDef(go.GetComponent<PerceptionAgent>().Id);
                Assert.IsTrue(d.Sight.Enabled);
                Assert.IsFalse(d.Hearing.Enabled);
                Assert.IsFalse(d.Brain.Enabled);
            }
            finally
            {
                Object.DestroyImmediate(go);
            }
            // Only a HearingSensor: no sight.
            var ears = new GameObject("ears only");
            try
            {
                ears.AddComponent<HearingSensor>();
                scene.Step(0.1f);
                AgentDef d = scene.World.Native.GetAgentDef(ears.GetComponent<PerceptionAgent>().Id);
                Assert.IsFalse(d.Sight.Enabled);
                Assert.IsTrue(d.Hearing.Enabled);
            }
            finally
            {
                Object.DestroyImmediate(ears);
            }
        }

        [Test]
        public void EveryTargetField_ReachesTheNativeDef()
        {
            var go = scene.Player(new Vector3(0f, 0f, 5f));
            var target = go.GetComponent<PerceptionTarget>();
            target.team = 5;
            target.detectable = false;
            target.checkPoints = new[] { new Vector3(0f, 0.2f, 0f), new Vector3(0f, 0.4f, 0f), new Vector3(0f, 0.6f, 0f) };
            target.topSpeed = 3.5f;
            scene.Step(0.1f);
            TargetDef d = scene.World.Native.GetTargetDef(target.Id);
            Assert.AreEqual(5u, d.Team);
            Assert.AreEqual(1u << LessonScene.PlayerLayer, d.Layers);
            Assert.IsFalse(d.Enabled);
            Assert.AreEqual(3u, d.CheckPointCount);
            Assert.AreEqual(3.5f, d.TopSpeed);
            Assert.AreEqual(0.2f, CheckPointY(ref d, 0), 1e-6f);
            Assert.AreEqual(0.4f, CheckPointY(ref d, 1), 1e-6f);
            Assert.AreEqual(0.6f, CheckPointY(ref d, 2), 1e-6f);
        }

        static unsafe float CheckPointY(ref TargetDef d, int i)
        {
            fixed (TargetDef* p = &d) return p->CheckPointOffsets[3 * i + 1];
        }
    }
}
