// What a Unity developer expects of the components (issue 47): the world steps after other scripts'
// LateUpdate; runtime state is not serialized; the lesson's helpers on vectors; UnityEvents beside the
// C# events; edit-mode gizmos when selected; [Min] where a value cannot be negative; and the near sense
// of the default guard, which keeps a guard trailing a crouched player chasing.
using System;
using System.Collections.Generic;
using System.Reflection;
using Argus.Perception;
using Argus.Perception.Editor;
using NUnit.Framework;
using UnityEditor;
using UnityEngine;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class UnityConventionsTests
    {
        const float Dt = 1f / 30f;

        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        static PerceptionWorld NewWorld() { return new GameObject("World").AddComponent<PerceptionWorld>(); }

        static FieldOfViewSensor Guard()
        {
            var sight = new GameObject("Guard").AddComponent<FieldOfViewSensor>();
            sight.sightRateHz = 0f;
            return sight;
        }

        static GameObject Player(Vector3 position)
        {
            var go = new GameObject("Player");
            go.transform.position = position;
            go.AddComponent<PerceptionTarget>();
            return go;
        }

        // Moves its target in LateUpdate at the default order 0, as a camera rig or an IK script does.
        sealed class LateMover : MonoBehaviour
        {
            public Transform target;
            public Vector3 to;
            void LateUpdate() { if (target != null) target.position = to; }
        }

        [Test]
        public void World_StepsAfterOtherScriptsLateUpdate()
        {
            Assert.AreEqual(10000, PerceptionWorld.ExecutionOrder);
            var order = (DefaultExecutionOrder[])typeof(PerceptionWorld).GetCustomAttributes(typeof(DefaultExecutionOrder), false);
            Assert.AreEqual(PerceptionWorld.ExecutionOrder, order[0].order);
            NewWorld();
            var guard = Guard();
            var player = Player(new Vector3(30f, 0f, 5f));
            StandIn.Player.Frame(Dt);
            Assert.AreEqual(0, guard.visibleTargets.Count);
            var mover = new GameObject("Mover").AddComponent<LateMover>();
            mover.target = player.transform;
            mover.to = new Vector3(0f, 0f, 5f);
            StandIn.Player.Frame(Dt);
            CollectionAssert.Contains(guard.visibleTargets, player.transform, "moved in LateUpdate, seen by the same frame's step");
        }

        [Test]
        public void VisibleTargets_IsRuntimeState_NotSerialized()
        {
            FieldInfo f = typeof(FieldOfViewSensor).GetField("visibleTargets");
            Assert.IsTrue(f.IsDefined(typeof(NonSerializedAttribute), false), "[NonSerialized]: not saved into scenes");
        }

        [Test]
        public void ExerciseHelpers_TakeVectors_AsTheLessonWritesThem()
        {
            NewWorld();
            var sight = Guard(); // viewRadius 10, viewAngle 90
            // Lesson §2-§4's worked trace: the agent at the origin facing +Z.
            Assert.IsTrue(sight.WithinRange(Vector3.zero, new Vector3(0f, 0f, 10f)), "10 m: inclusive");
            Assert.IsFalse(sight.WithinRange(Vector3.zero, new Vector3(0f, 0f, 10.01f)));
            Assert.IsTrue(sight.WithinAngle(Vector3.forward, Vector3.zero, new Vector3(3f, 0f, 4f)), "36.9° of 45°");
            Assert.IsFalse(sight.WithinAngle(Vector3.forward, Vector3.zero, new Vector3(4f, 0f, 3f)), "53.1°");
            Assert.IsTrue(sight.WithinAngle(Vector3.forward, Vector3.zero, new Vector3(4f, 0f, 3f), 120f), "the exercise's own angle");
            Assert.IsTrue(sight.IsBehindTarget(Vector3.forward, new Vector3(0f, 0f, 5f), Vector3.zero), "the target faces away");
            Assert.IsFalse(sight.IsBehindTarget(Vector3.back, new Vector3(0f, 0f, 5f), Vector3.zero));

            Vector3 eye = new Vector3(0f, 1.6f, 0f);
            Assert.IsTrue(sight.HasLineOfSight(eye, Vector3.forward, 8f), "nothing in the way");
            var wall = new GameObject("Wall");
            wall.transform.position = new Vector3(0f, 1.5f, 4f);
            wall.AddComponent<BoxCollider>().size = new Vector3(2f, 3f, 0.3f);
            wall.AddComponent<PerceptionOccluder>();
            Assert.IsFalse(sight.HasLineOfSight(eye, Vector3.forward, 8f), "the wall at 4 m");
            Assert.IsTrue(sight.HasLineOfSight(eye, Vector3.forward, 3f), "stops before the wall");
            sight.obstacleMask = 0;
            Assert.IsTrue(sight.HasLineOfSight(eye, Vector3.forward, 8f), "the wall is off obstacleMask");
        }

        [Test]
        public void UnityEvents_AreRaised_BesideTheCSharpEvents()
        {
            NewWorld();
            var guard = ArgusMenu.Create("Guard", typeof(FieldOfViewSensor), typeof(HearingSensor), typeof(PerceptionSystem),
                typeof(PerceptionMemory), typeof(EnemyBrain));
            var sight = guard.GetComponent<FieldOfViewSensor>();
            sight.sightRateHz = 0f;
            var log = new List<string>();
            sight.onTargetSeen.AddListener((t, p) => log.Add("seen " + t.name));
            sight.onTargetLost.AddListener((t, p) => log.Add("lost " + t.name));
            guard.GetComponent<HearingSensor>().onHeardSound.AddListener(p => log.Add("heard"));
            guard.GetComponent<PerceptionSystem>().onPercept.AddListener(p => log.Add("percept " + p.type));
            guard.GetComponent<EnemyBrain>().onStateChanged.AddListener((a, b) => log.Add(a + "->" + b));
            var player = Player(new Vector3(0f, 0f, 5f));
            StandIn.Player.Frame(Dt);
            CollectionAssert.Contains(log, "seen Player");
            CollectionAssert.Contains(log, "percept Sight");
            CollectionAssert.Contains(log, "Idle->Chasing");
            player.transform.position = new Vector3(0f, 0f, 30f);
            StandIn.Player.Frame(Dt);
            CollectionAssert.Contains(log, "lost Player");
            AudioPerception.EmitSound(new Vector3(0f, 0f, -3f), 15f, null);
            StandIn.Player.Frame(Dt);
            CollectionAssert.Contains(log, "heard");
            CollectionAssert.Contains(log, "percept Sound");
        }

        [Test]
        public void Gizmos_DrawTheSensesInEditMode_WhenSelected()
        {
            // No world: edit mode. The Scene view calls OnDrawGizmosSelected on the selected object.
            var sight = Guard();
            sight.transform.position = new Vector3(2f, 0f, 0f);
            var hearing = sight.gameObject.AddComponent<HearingSensor>();
            hearing.hearingSensitivity = 2f;
            Gizmos.StandInLineEnds.Clear();
            Selected(sight);
            Vector3 eye = sight.transform.position + new Vector3(0f, sight.eyeHeight, 0f);
            float far = 0f, near = float.MaxValue;
            foreach (var end in Gizmos.StandInLineEnds)
            {
                float d = (end - eye).magnitude;
                if (d > 0.01f) { far = Math.Max(far, d); near = Math.Min(near, d); }
            }
            Assert.AreEqual(sight.viewRadius, far, 1e-3f, "the cone reaches viewRadius");
            Assert.AreEqual(sight.peripheralRadius, near, 1e-3f, "the near sense's circle");
            Gizmos.StandInLineEnds.Clear();
            Selected(hearing);
            float heard = 0f;
            foreach (var end in Gizmos.StandInLineEnds) heard = Math.Max(heard, (end - hearing.transform.position).magnitude);
            Assert.AreEqual(15f * 2f, heard, 1e-3f, "a running footstep's reach, loudness x sensitivity");
        }

        static void Selected(MonoBehaviour b)
        {
            MethodInfo m = b.GetType().GetMethod("OnDrawGizmosSelected", BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
            Assert.IsNotNull(m, b.GetType().Name + ".OnDrawGizmosSelected");
            m.Invoke(b, null);
        }

        [Test]
        public void FieldsThatCannotBeNegative_CarryMin()
        {
            var fields = new Dictionary<Type, string[]>
            {
                { typeof(FieldOfViewSensor), new[] { "viewRadius", "loseSightRadius", "peripheralRadius", "sightRateHz",
                    "awarenessRisePerSecond", "awarenessFallPerSecond", "awarenessFarFactor", "awarenessEdgeFactor" } },
                { typeof(HearingSensor), new[] { "hearingSensitivity" } },
                { typeof(PerceptionMemory), new[] { "decayPerSecond", "forgetThreshold" } },
                { typeof(EnemyBrain), new[] { "searchDuration", "investigateTimeout", "arrivalDistance" } },
                { typeof(Footsteps), new[] { "runLoudness", "walkLoudness" } },
                { typeof(PerceptionTarget), new[] { "topSpeed" } },
            };
            foreach (var kv in fields)
                foreach (var name in kv.Value)
                {
                    var min = (MinAttribute)Attribute.GetCustomAttribute(kv.Key.GetField(name), typeof(MinAttribute));
                    Assert.IsNotNull(min, kv.Key.Name + "." + name);
                    Assert.AreEqual(0f, min.min, kv.Key.Name + "." + name);
                }
        }

        // ---- the near sense --------------------------------------------------------------------------------

        [Test]
        public void MenuGuard_HasTheNearSense()
        {
            ArgusMenu.CreateGuard();
            var sight = Selection.activeGameObject.GetComponent<FieldOfViewSensor>();
            Assert.AreEqual(FieldOfViewSensor.DefaultNearRadius, sight.peripheralRadius);
            Assert.AreEqual(1.5f, sight.peripheralRadius);
            Assert.AreEqual(360f, sight.peripheralAngle);
        }

        // A guard made by the menu trails a crouched player (chest point 0.5 m up, below the 90° cone
        // from a 1.6 m eye at 1 m) for 10 s: it keeps Chasing at every frame. Without the near sense it
        // loses the player, which is what the test's second half shows.
        [Test]
        public void GuardTrailingACrouchedPlayer_KeepsChasing_ForTenSeconds()
        {
            Assert.AreEqual(0, StateChangesTrailing(true), "with the default near sense");
            StandIn.Player.Reset();
            int without = StateChangesTrailing(false);
            Console.WriteLine("trailing a crouched player for 10 s without the near sense: " + without + " brain state changes");
            Assert.Greater(without, 0, "without it the guard loses a crouched player next to him");
        }

        static int StateChangesTrailing(bool nearSense)
        {
            NewWorld();
            ArgusMenu.CreateGuard();
            GameObject guard = Selection.activeGameObject;
            if (!nearSense) guard.GetComponent<FieldOfViewSensor>().peripheralRadius = 0f;
            var brain = guard.GetComponent<EnemyBrain>();
            var player = Player(new Vector3(0f, 0f, 1f));
            var target = player.GetComponent<PerceptionTarget>();
            target.checkPoints = new[] { new Vector3(0f, 1.3f, 0f) }; // standing: seen dead ahead
            for (int i = 0; i < 10; i++) StandIn.Player.Frame(Dt);
            Assert.AreEqual(AIState.Chasing, brain.state, "the guard spots the standing player");
            target.checkPoints = new[] { new Vector3(0f, 0.5f, 0f) }; // crouched: 47.7° below the eye's level
            int changes = 0;
            brain.OnStateChanged += (from, to) => changes++;
            for (int i = 0; i < (int)(10f / Dt); i++)
            {
                float z = 1f + 1.2f * Time.time;    // the player sneaks on at 1.2 m/s, the guard 1 m behind
                player.transform.position = new Vector3(0f, 0f, z);
                guard.transform.position = new Vector3(0f, 0f, z - 1f);
                StandIn.Player.Frame(Dt);
                if (nearSense) Assert.AreEqual(AIState.Chasing, brain.state, "at " + Time.time + " s");
            }
            return changes;
        }
    }
}
