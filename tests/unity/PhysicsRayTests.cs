// Line of sight by Unity physics (PerceptionWorld.lineOfSight = UnityPhysics) against the stand-in's
// colliders, which follow PhysX's rules where the package depends on them: triggers per
// QueryTriggerInteraction and Physics.queriesHitTriggers, a ray starting inside a collider does not
// hit it, parent transforms combine. One trigger rule and the agent's and target's own colliders
// left out, in the step's RaycastCommand batch and in the immediate queries alike.
using System.Collections.Generic;
using Argus.Perception;
using Argus.Perception.Tests;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class PhysicsRayTests
    {
        const float Dt = 1f / 30f;

        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        static PerceptionWorld NewWorld(bool raysHitTriggers = false)
        {
            var go = new GameObject("World");
            go.SetActive(false);
            var w = go.AddComponent<PerceptionWorld>();
            w.lineOfSight = PerceptionWorld.LineOfSightSource.UnityPhysics;
            w.raysHitTriggers = raysHitTriggers;
            go.SetActive(true);
            return w;
        }

        // A guard with the default obstacle mask (Everything), a body capsule and a visor: a child
        // collider in front of the eyes, positioned in the guard's local space.
        static FieldOfViewSensor Guard(Vector3 position)
        {
            var go = new GameObject("Guard");
            go.transform.position = position;
            var body = go.AddComponent<CapsuleCollider>();
            body.center = new Vector3(0f, 1f, 0f);
            body.height = 2f;
            body.radius = 0.4f;
            var visor = new GameObject("Visor");
            visor.transform.SetParent(go.transform, false);
            visor.transform.localPosition = new Vector3(0f, 1.6f, 0.3f);
            visor.AddComponent<BoxCollider>().size = new Vector3(0.4f, 0.2f, 0.05f);
            var sight = go.AddComponent<FieldOfViewSensor>();
            sight.targetMask = 1 << LessonScene.PlayerLayer;
            sight.sightRateHz = 0f;
            return sight;
        }

        static GameObject CapsulePlayer(Vector3 position)
        {
            var go = new GameObject("Player");
            go.layer = LessonScene.PlayerLayer;
            go.transform.position = position;
            var c = go.AddComponent<CapsuleCollider>();
            c.center = new Vector3(0f, 1f, 0f);
            c.height = 2f;
            c.radius = 0.4f;
            go.AddComponent<PerceptionTarget>();
            return go;
        }

        static GameObject Box(Vector3 center, Vector3 size, bool trigger)
        {
            var go = new GameObject(trigger ? "Trigger" : "Wall");
            go.transform.position = center;
            var b = go.AddComponent<BoxCollider>();
            b.size = size;
            b.isTrigger = trigger;
            return go;
        }

        static bool SeenByStep(FieldOfViewSensor guard, GameObject player)
        {
            StandIn.Player.Frame(Dt);
            return guard.visibleTargets.Contains(player.transform);
        }

        // ---- the stand-in follows Unity ----------------------------------------------------------------

        [Test]
        public void StandIn_RayStartingInsideACollider_DoesNotHitIt()
        {
            Box(Vector3.zero, new Vector3(2f, 2f, 2f), false);
            var sphere = new GameObject("Sphere");
            sphere.transform.position = new Vector3(10f, 0f, 0f);
            sphere.AddComponent<SphereCollider>().radius = 1f;
            var capsule = CapsulePlayer(new Vector3(20f, 0f, 0f));
            RaycastHit hit;
            Assert.IsFalse(Physics.Raycast(Vector3.zero, Vector3.forward, out hit, 5f, -1), "inside the box");
            Assert.IsFalse(Physics.Raycast(new Vector3(10f, 0f, 0f), Vector3.forward, out hit, 5f, -1), "inside the sphere");
            Assert.IsFalse(Physics.Raycast(new Vector3(20f, 1f, 0f), Vector3.forward, out hit, 5f, -1), "inside the capsule");
            Assert.IsTrue(Physics.Raycast(new Vector3(20f, 1f, -5f), Vector3.forward, out hit, 10f, -1), "from outside");
            Assert.AreEqual(capsule.GetComponent<CapsuleCollider>(), hit.collider);
            Assert.AreEqual(4.6f, hit.distance, 1e-4f);
        }

        [Test]
        public void StandIn_Triggers_FollowQueryTriggerInteraction_AndTheGlobalSetting()
        {
            Box(new Vector3(0f, 0f, 3f), Vector3.one, true);
            RaycastHit hit;
            Assert.IsTrue(Physics.queriesHitTriggers, "Unity's default");
            Assert.IsTrue(Physics.Raycast(Vector3.zero, Vector3.forward, out hit, 10f, -1), "UseGlobal, global on");
            Assert.IsFalse(Physics.Raycast(Vector3.zero, Vector3.forward, out hit, 10f, -1, QueryTriggerInteraction.Ignore));
            Physics.queriesHitTriggers = false;
            Assert.IsFalse(Physics.Raycast(Vector3.zero, Vector3.forward, out hit, 10f, -1), "UseGlobal, global off");
            Assert.IsTrue(Physics.Raycast(Vector3.zero, Vector3.forward, out hit, 10f, -1, QueryTriggerInteraction.Collide));
        }

        [Test]
        public void StandIn_ParentTransformsCombine()
        {
            var parent = new GameObject("Parent");
            parent.transform.position = new Vector3(5f, 0f, 0f);
            parent.transform.rotation = Quaternion.AngleAxis(90f, Vector3.up);
            var child = new GameObject("Child");
            child.transform.SetParent(parent.transform, false);
            child.transform.localPosition = new Vector3(0f, 0f, 2f);
            Assert.AreEqual(7f, child.transform.position.x, 1e-4f);
            Assert.AreEqual(0f, child.transform.position.z, 1e-4f);
            Assert.AreEqual(1f, child.transform.forward.x, 1e-4f);
            parent.transform.position = new Vector3(0f, 0f, 0f);
            Assert.AreEqual(2f, child.transform.position.x, 1e-4f, "the child follows its parent");
            Assert.IsTrue(child.transform.IsChildOf(parent.transform));
            Assert.IsTrue(child.transform.IsChildOf(child.transform));
            Assert.IsFalse(parent.transform.IsChildOf(child.transform));
        }

        // ---- own colliders ------------------------------------------------------------------------------

        [Test]
        public void CapsulePlayer_AndGuardWithColliders_AreSeen_ByTheStepAndByCanSeeTarget()
        {
            NewWorld();
            var guard = Guard(Vector3.zero);
            var player = CapsulePlayer(new Vector3(0f, 0f, 6f));
            Assert.IsTrue(SeenByStep(guard, player), "the step's batch leaves out the player's capsule and the guard's visor");
            Assert.IsTrue(guard.CanSeeTarget(player.transform), "so does CanSeeTarget");
            SightResult r;
            Assert.IsTrue(guard.CheckSight(player.transform, out r));
            Assert.AreEqual(1f, r.Fraction, 1e-6f);

            // A real wall still blocks, and so does another player's capsule in between.
            var wall = Box(new Vector3(0f, 1.5f, 3f), new Vector3(3f, 3f, 0.2f), false);
            Assert.IsFalse(SeenByStep(guard, player), "a wall blocks the step");
            Assert.IsFalse(guard.CanSeeTarget(player.transform), "a wall blocks CanSeeTarget");
            Object.Destroy(wall);
            var other = CapsulePlayer(new Vector3(0f, 0f, 3f));
            other.layer = 0;
            Assert.IsFalse(SeenByStep(guard, player), "someone else's capsule blocks");
            Assert.IsFalse(guard.CanSeeTarget(player.transform));
            Assert.IsTrue(guard.CanSeeTarget(other.transform) || other.layer != LessonScene.PlayerLayer);
        }

        [Test]
        public void CharacterControllerPlayer_IsSeen()
        {
            NewWorld();
            var guard = Guard(Vector3.zero);
            var go = new GameObject("Player");
            go.layer = LessonScene.PlayerLayer;
            go.transform.position = new Vector3(1f, 0f, 7f);
            var cc = go.AddComponent<CharacterController>();
            cc.center = new Vector3(0f, 1f, 0f);
            go.AddComponent<PerceptionTarget>();
            Assert.IsTrue(SeenByStep(guard, go));
            Assert.IsTrue(guard.CanSeeTarget(go.transform));
        }

        [Test]
        public void Visor_FollowsTheGuard_AndIsStillLeftOut()
        {
            NewWorld();
            var guard = Guard(Vector3.zero);
            var player = CapsulePlayer(new Vector3(7f, 0f, 0f));
            guard.transform.rotation = Quaternion.AngleAxis(90f, Vector3.up); // now facing +X, the visor too
            Assert.IsTrue(SeenByStep(guard, player));
            Assert.IsTrue(guard.CanSeeTarget(player.transform));
        }

        // ---- one trigger rule -----------------------------------------------------------------------------

        [Test]
        public void Triggers_AreIgnoredByDefault_InTheStepAndTheImmediateQueries()
        {
            var world = NewWorld();
            var guard = Guard(Vector3.zero);
            var player = CapsulePlayer(new Vector3(0f, 0f, 6f));
            Box(new Vector3(0f, 1.5f, 3f), new Vector3(4f, 3f, 1f), true); // an alarm zone, say
            Assert.IsTrue(Physics.queriesHitTriggers, "Unity's default global setting: hit triggers");
            Assert.IsTrue(SeenByStep(guard, player), "the step ignores the trigger");
            Assert.IsTrue(guard.CanSeeTarget(player.transform), "CanSeeTarget agrees with the step");
            Assert.IsTrue(Physics.queriesHitTriggers, "the global setting is left as it was");

            // Opting in on the world: the trigger blocks, whatever the global setting says.
            world.raysHitTriggers = true;
            Physics.queriesHitTriggers = false;
            Assert.IsFalse(SeenByStep(guard, player), "opted in: the step hits the trigger");
            Assert.IsFalse(guard.CanSeeTarget(player.transform), "opted in: so does CanSeeTarget");
            Assert.IsFalse(Physics.queriesHitTriggers, "the global setting is left as it was");
        }

        [Test]
        public void Cover_IgnoresTriggers_AsTheStepDoes()
        {
            NewWorld();
            Box(new Vector3(0f, 1f, 5f), new Vector3(4f, 2f, 1f), true);
            var wall = Box(new Vector3(10f, 1f, 5f), new Vector3(4f, 2f, 1f), false);
            var candidates = new List<Vector3> { new Vector3(0f, 0.5f, 8f), new Vector3(10f, 0.5f, 8f) };
            Vector3 best = TacticalQueries.FindBestCover(new Vector3(0f, 0f, 9f), new Vector3(5f, 1.6f, 0f), candidates, null, ~0);
            Assert.AreEqual(10f, best.x, 1e-4f, "behind the wall, not behind the trigger");
            Assert.IsNotNull(wall);
        }

        // ---- scans ------------------------------------------------------------------------------------------

        [Test]
        public void ColliderScan_UsesFindObjectsByType_WhereItExists()
        {
            Box(new Vector3(0f, 1f, 3f), Vector3.one, false).layer = LessonScene.ObstacleLayer;
            int before = Object.StandInFindObjectsOfTypeCalls;
            var go = new GameObject("World");
            go.SetActive(false);
            var w = go.AddComponent<PerceptionWorld>();
            w.occluderScanMask = 1 << LessonScene.ObstacleLayer;
            go.SetActive(true);
            Assert.AreEqual(1u, w.Native.Counts.Occluders);
#if UNITY_2022_2_OR_NEWER
            Assert.AreEqual(before, Object.StandInFindObjectsOfTypeCalls, "FindObjectsByType, not the obsolete FindObjectsOfType");
#else
            Assert.AreEqual(before + 1, Object.StandInFindObjectsOfTypeCalls, "2021.3 before .18 has only FindObjectsOfType");
#endif
        }
    }
}
