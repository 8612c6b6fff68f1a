using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.Editor.Tests
{
    /// <summary>Edit-mode checks: the native library loads with the ABI the bindings expect, the
    /// components' lesson defaults are the library's, and the menu builds a complete guard.</summary>
    public class PackageEditorTests
    {
        [Test]
        public void NativeLibrary_LoadsWithTheExpectedAbi()
        {
            Library.EnsureLoaded();
            string expected = Constants.VERSION_MAJOR + "." + Constants.VERSION_MINOR + "." + Constants.VERSION_PATCH;
            Assert.AreEqual(expected, Library.Version);
        }

        [Test]
        public void ComponentDefaults_AreTheLibraryDefaults()
        {
            AgentDef d = AgentDef.Default();
            var go = new GameObject("defaults");
            var target = new GameObject("target");
            try
            {
                Assert.AreEqual(d.Hearing.Sensitivity, go.AddComponent<HearingSensor>().hearingSensitivity);
                var memory = go.AddComponent<PerceptionMemory>();
                Assert.AreEqual(d.Memory.DecayPerSecond, memory.decayPerSecond);
                Assert.AreEqual(d.Memory.ForgetThreshold, memory.forgetThreshold);
                var brain = go.AddComponent<EnemyBrain>();
                Assert.AreEqual(d.Brain.SearchDuration, brain.searchDuration);
                Assert.AreEqual(d.Brain.InvestigateTimeout, brain.investigateTimeout);
                Assert.AreEqual(AIState.Idle, brain.state);
                Assert.AreEqual((int)d.Team, go.GetComponent<PerceptionAgent>().team);
                Assert.AreEqual((int)TargetDef.Default().Team, target.AddComponent<PerceptionTarget>().team);
                var steps = go.AddComponent<Footsteps>();
                Assert.AreEqual(15f, steps.runLoudness);
                Assert.AreEqual(6f, steps.walkLoudness);
            }
            finally
            {
                Object.DestroyImmediate(go);
                Object.DestroyImmediate(target);
            }
        }

        [Test]
        public void Enums_MatchTheNativeConstants()
        {
            Assert.AreEqual((uint)BrainState.Idle, (uint)AIState.Idle);
            Assert.AreEqual((uint)BrainState.Investigating, (uint)AIState.Investigating);
            Assert.AreEqual((uint)BrainState.Chasing, (uint)AIState.Chasing);
            Assert.AreEqual((uint)BrainState.Searching, (uint)AIState.Searching);
            Assert.AreEqual((uint)global::Argus.AwarenessMeterStage.Suspicious, (uint)AwarenessStage.Suspicious);
            Assert.AreEqual((uint)global::Argus.AwarenessMeterStage.Aware, (uint)AwarenessStage.Aware);
        }

        [Test]
        public void Menu_CreatesACompleteGuard()
        {
            ArgusMenu.CreateGuard();
            GameObject guard = UnityEditor.Selection.activeGameObject;
            Assert.IsNotNull(guard, "the new guard is selected");
            try
            {
                Assert.IsNotNull(guard.GetComponent<PerceptionAgent>(), "added by RequireComponent");
                Assert.IsNotNull(guard.GetComponent<FieldOfViewSensor>());
                Assert.IsNotNull(guard.GetComponent<HearingSensor>());
                Assert.IsNotNull(guard.GetComponent<PerceptionSystem>());
                Assert.IsNotNull(guard.GetComponent<PerceptionMemory>());
                Assert.IsNotNull(guard.GetComponent<EnemyBrain>());
            }
            finally
            {
                Object.DestroyImmediate(guard);
            }
        }
    }
}
