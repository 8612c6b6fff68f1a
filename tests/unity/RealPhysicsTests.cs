// Physics as real Unity does it (issue 47): queries see colliders where the last physics step or
// Physics.SyncTransforms left them (autoSyncTransforms is off by default), so the package syncs before
// its own rays; a disabled collider is no wall (scanned or under a PerceptionOccluder); MeshCollider
// walls block rays; a mesh without Read/Write warns, naming the object, instead of becoming an empty
// occluder.
using Argus.Perception;
using Argus.Perception.Tests;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class RealPhysicsTests
    {
        const float Dt = 1f / 30f;

        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        static PerceptionWorld NewWorld(PerceptionWorld.LineOfSightSource source, int scanMask = 0)
        {
            var go = new GameObject("World");
            go.SetActive(false);
            var w = go.AddComponent<PerceptionWorld>();
            w.lineOfSight = source;
            w.occluderScanMask = scanMask;
            go.SetActive(true);
            return w;
        }

        static FieldOfViewSensor Guard()
        {
            var go = new GameObject("Guard");
            var sight = go.AddComponent<FieldOfViewSensor>();
            sight.targetMask = 1 << LessonScene.PlayerLayer;
            sight.sightRateHz = 0f;
            return sight;
        }

        static GameObject Player(Vector3 position)
        {
            var go = new GameObject("Player");
            go.layer = LessonScene.PlayerLayer;
            go.transform.position = position;
            go.AddComponent<PerceptionTarget>();
            return go;
        }

        static GameObject Box(string name, Vector3 center, Vector3 size)
        {
            var go = new GameObject(name);
            go.layer = LessonScene.ObstacleLayer;
            go.transform.position = center;
            go.AddComponent<BoxCollider>().size = size;
            return go;
        }

        // A quad facing both ways (front faces toward -Z and +Z), 4 m wide and 4 m high, centred on its transform.
        static Mesh Quad(string name)
        {
            var m = new Mesh { name = name };
            m.vertices = new[] { new Vector3(-2f, -2f, 0f), new Vector3(2f, -2f, 0f), new Vector3(2f, 2f, 0f), new Vector3(-2f, 2f, 0f) };
            m.triangles = new[] { 0, 1, 2, 0, 2, 3, 0, 2, 1, 0, 3, 2 };
            return m;
        }

        // Moves its wall in Update: after the frame's physics step, as a game script moves things.
        sealed class WallMover : MonoBehaviour
        {
            public Transform wall;
            public Vector3 to;
            void Update() { if (wall != null) wall.position = to; }
        }

        [Test]
        public void StandIn_QueriesSeeTheLastPhysicsStep_NotTheLiveTransform()
        {
            var wall = Box("Wall", new Vector3(0f, 0f, 3f), new Vector3(2f, 2f, 0.2f));
#if !UNITY_6000_4_OR_NEWER
            Assert.IsFalse(Physics.autoSyncTransforms, "Unity's default since 2018.3 (deprecated in 6000.4: the package never reads it)");
#endif
            Assert.IsTrue(Physics.Raycast(Vector3.zero, Vector3.forward, 10f, -1));
            wall.transform.position = new Vector3(10f, 0f, 3f);
            Assert.IsTrue(Physics.Raycast(Vector3.zero, Vector3.forward, 10f, -1), "physics still has the old pose");
            Physics.SyncTransforms();
            Assert.IsFalse(Physics.Raycast(Vector3.zero, Vector3.forward, 10f, -1), "synced");
            wall.transform.position = new Vector3(0f, 0f, 3f);
            StandIn.Player.Frame(Dt);
            Assert.IsTrue(Physics.Raycast(Vector3.zero, Vector3.forward, 10f, -1), "the frame's physics step synced");
        }

        [Test]
        public void UnityPhysics_WallMovedInUpdate_BlocksThatFramesStep_AndQueries()
        {
            NewWorld(PerceptionWorld.LineOfSightSource.UnityPhysics);
            var guard = Guard();
            var player = Player(new Vector3(0f, 0f, 8f));
            var wall = Box("Door", new Vector3(20f, 1.5f, 4f), new Vector3(3f, 3f, 0.3f));
            StandIn.Player.Frame(Dt);
            CollectionAssert.Contains(guard.visibleTargets, player.transform);

            // A script slides the door shut in Update; the world steps in LateUpdate of the same frame.
            var mover = new GameObject("Mover").AddComponent<WallMover>();
            mover.wall = wall.transform;
            mover.to = new Vector3(0f, 1.5f, 4f);
            int syncs = Physics.StandInSyncCalls;
            StandIn.Player.Frame(Dt);
            CollectionAssert.DoesNotContain(guard.visibleTargets, player.transform, "the step saw the door where it is now");
            Assert.Greater(Physics.StandInSyncCalls, syncs, "the package called Physics.SyncTransforms");

            // An immediate query right after a move, with no frame in between.
            mover.to = new Vector3(20f, 1.5f, 4f);
            wall.transform.position = mover.to;
            Assert.IsTrue(guard.CanSeeTarget(player.transform), "CanSeeTarget syncs too");
        }

        [Test]
        public void ColliderScan_LeavesDisabledCollidersOut()
        {
            var wall = Box("Disabled wall", new Vector3(0f, 1.5f, 4f), new Vector3(3f, 3f, 0.3f));
            wall.GetComponent<BoxCollider>().enabled = false;
            Box("Enabled wall", new Vector3(10f, 1.5f, 4f), new Vector3(3f, 3f, 0.3f));
            var world = NewWorld(PerceptionWorld.LineOfSightSource.ArgusOccluders, 1 << LessonScene.ObstacleLayer);
            Assert.AreEqual(1u, world.Native.Counts.Occluders, "only the enabled collider is a wall");
            var guard = Guard();
            var player = Player(new Vector3(0f, 0f, 8f));
            Assert.IsTrue(guard.CanSeeTarget(player.transform), "seen through the disabled collider, as physics would");
        }

        [Test]
        public void PerceptionOccluder_FollowsItsColliderBeingEnabled()
        {
            NewWorld(PerceptionWorld.LineOfSightSource.ArgusOccluders);
            var guard = Guard();
            var player = Player(new Vector3(0f, 0f, 8f));
            var door = Box("Door", new Vector3(0f, 1.5f, 4f), new Vector3(3f, 3f, 0.3f));
            var box = door.GetComponent<BoxCollider>();
            box.enabled = false; // an open door: its collider off
            var occluder = door.AddComponent<PerceptionOccluder>();
            Assert.IsTrue(occluder.Id.IsNull, "a disabled collider is no wall");
            StandIn.Player.Frame(Dt);
            CollectionAssert.Contains(guard.visibleTargets, player.transform);
            box.enabled = true;  // shut
            StandIn.Player.Frame(Dt);
            Assert.IsFalse(occluder.Id.IsNull);
            CollectionAssert.DoesNotContain(guard.visibleTargets, player.transform, "the shut door blocks at the next step");
            box.enabled = false; // open again
            StandIn.Player.Frame(Dt);
            Assert.IsTrue(occluder.Id.IsNull);
            CollectionAssert.Contains(guard.visibleTargets, player.transform);
        }

        [Test]
        public void MeshColliderWall_BlocksUnityPhysicsRays()
        {
            NewWorld(PerceptionWorld.LineOfSightSource.UnityPhysics);
            var guard = Guard();
            var player = Player(new Vector3(0f, 0f, 8f));
            Assert.IsTrue(guard.CanSeeTarget(player.transform));
            var wall = new GameObject("Mesh wall");
            wall.transform.position = new Vector3(0f, 1.5f, 4f);
            wall.AddComponent<MeshCollider>().sharedMesh = Quad("wall");
            RaycastHit hit;
            Assert.IsTrue(Physics.Raycast(new Vector3(0f, 1.6f, 0f), Vector3.forward, out hit, 10f, -1), "the stand-in's ray hits the mesh");
            Assert.AreEqual(4f, hit.distance, 1e-4f);
            Assert.IsFalse(guard.CanSeeTarget(player.transform), "the mesh wall blocks sight");
            Assert.IsFalse(guard.HasLineOfSight(new Vector3(0f, 1.6f, 0f), Vector3.forward, 8f), "the lesson's ray, by Unity physics");
            Assert.IsTrue(guard.HasLineOfSight(new Vector3(0f, 1.6f, 0f), Vector3.forward, 3.5f), "short of the wall");
            StandIn.Player.Frame(Dt);
            CollectionAssert.DoesNotContain(guard.visibleTargets, player.transform);
        }

        [Test]
        public void StandIn_MeshCollider_HitsFrontFacesOnly_AsPhysXDoes()
        {
            var go = new GameObject("One-sided");
            var m = new Mesh();
            m.vertices = new[] { new Vector3(-1f, -1f, 0f), new Vector3(-1f, 1f, 0f), new Vector3(1f, 1f, 0f), new Vector3(1f, -1f, 0f) };
            m.triangles = new[] { 0, 1, 2, 0, 2, 3 }; // clockwise seen from -Z: the front faces -Z
            go.AddComponent<MeshCollider>().sharedMesh = m;
            Assert.IsTrue(Physics.Raycast(new Vector3(0f, 0f, -5f), Vector3.forward, 10f, -1), "from the front");
            Assert.IsFalse(Physics.Raycast(new Vector3(0f, 0f, 5f), Vector3.back, 10f, -1), "from the back");
            Physics.queriesHitBackfaces = true;
            Assert.IsTrue(Physics.Raycast(new Vector3(0f, 0f, 5f), Vector3.back, 10f, -1), "queriesHitBackfaces");
        }

        [Test]
        public void UnreadableMesh_WarnsNamingTheObject_InsteadOfAnEmptyWall()
        {
            NewWorld(PerceptionWorld.LineOfSightSource.ArgusOccluders, 1 << LessonScene.ObstacleLayer);
            var wall = new GameObject("Statue");
            wall.layer = LessonScene.ObstacleLayer;
            var mesh = Quad("statue_lod0");
            mesh.UploadMeshData(true); // Read/Write off, as a model imported without it
            wall.AddComponent<MeshCollider>().sharedMesh = mesh;
            Debug.StandInLog.Clear();
            var occluder = wall.AddComponent<PerceptionOccluder>();
            Assert.IsTrue(occluder.Id.IsNull, "no empty occluder");
            Assert.AreEqual(1, Debug.StandInLog.Count, string.Join("\n", Debug.StandInLog));
            string log = Debug.StandInLog[0];
            StringAssert.StartsWith("warning: ", log);
            StringAssert.Contains("'Statue'", log);
            StringAssert.Contains("'statue_lod0'", log);
            StringAssert.Contains("Read/Write", log);

            // The collider scan says the same (and reads nothing: no "Not allowed to access" error).
            Object.Destroy(occluder);
            Debug.StandInLog.Clear();
            var world2 = NewWorld(PerceptionWorld.LineOfSightSource.ArgusOccluders, 1 << LessonScene.ObstacleLayer);
            Assert.AreEqual(0u, world2.Native.Counts.Occluders);
            Assert.AreEqual(1, Debug.StandInLog.Count, string.Join("\n", Debug.StandInLog));
            StringAssert.Contains("'Statue'", Debug.StandInLog[0]);
        }
    }
}
