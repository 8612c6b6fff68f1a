// Tests that need the stand-in's player loop (frames, NavMeshAgent motion, allocation counters,
// the editor's reload event), so they run on Mono only. The lesson's traces with hand-stepped
// worlds are in unity/Tests/Runtime and run both here and in the Unity editor.
using System;
using System.Collections.Generic;
using Argus.Perception;
using Argus.Perception.Tests;
using NUnit.Framework;
using UnityEngine;
using UnityEngine.AI;

namespace Argus.Perception.StandInTests
{
    /// <summary>Walks a path of waypoints at a speed, in Update (a stand-in for a player controller).</summary>
    public class ScriptedWalker : MonoBehaviour
    {
        public readonly Queue<Vector3> waypoints = new Queue<Vector3>();
        public float speed = 4f;

        void Update()
        {
            if (waypoints.Count == 0) return;
            Vector3 goal = waypoints.Peek();
            transform.position = Vector3.MoveTowards(transform.position, goal, speed * Time.deltaTime);
            if ((transform.position - goal).sqrMagnitude < 1e-6f) waypoints.Dequeue();
        }
    }

    [TestFixture]
    public class FrameLoopTests
    {
        const float Dt = 1f / 30f;

        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        static PerceptionWorld NewWorld(PerceptionWorld.LineOfSightSource los = PerceptionWorld.LineOfSightSource.ArgusOccluders,
            PerceptionWorld.SettingsSync sync = PerceptionWorld.SettingsSync.EveryFrame)
        {
            var go = new GameObject("World");
            go.SetActive(false);
            var w = go.AddComponent<PerceptionWorld>();
            w.lineOfSight = los;
            w.settingsSync = sync;
            go.SetActive(true);
            return w;
        }

        static GameObject Guard(Vector3 position, Vector3 forward)
        {
            var go = new GameObject("Guard");
            go.transform.position = position;
            go.transform.rotation = Quaternion.LookRotation(forward);
            go.AddComponent<NavMeshAgent>().speed = 2f;
            go.AddComponent<FieldOfViewSensor>().targetMask = 1 << LessonScene.PlayerLayer;
            go.AddComponent<HearingSensor>();
            go.AddComponent<PerceptionSystem>();
            go.AddComponent<PerceptionMemory>();
            go.AddComponent<EnemyBrain>();
            return go;
        }

        static GameObject Player(Vector3 position)
        {
            var go = new GameObject("Player");
            go.layer = LessonScene.PlayerLayer;
            go.transform.position = position;
            go.AddComponent<PerceptionTarget>();
            go.AddComponent<Footsteps>();
            go.AddComponent<ScriptedWalker>();
            return go;
        }

        static GameObject Wall(Vector3 center, Vector3 size, bool occluder = true)
        {
            var go = new GameObject("Wall");
            go.layer = LessonScene.ObstacleLayer;
            go.transform.position = center;
            go.AddComponent<BoxCollider>().size = size;
            if (occluder) go.AddComponent<PerceptionOccluder>();
            return go;
        }

        [Test]
        public void Frames_GuardSees_Chases_LosesSight_Searches_GivesUp()
        {
            NewWorld();
            var guard = Guard(new Vector3(0f, 0f, 0f), Vector3.forward);
            var brain = guard.GetComponent<EnemyBrain>();
            var memory = guard.GetComponent<PerceptionMemory>();
            var player = Player(new Vector3(0f, 0f, 8f));
            Wall(new Vector3(5f, 1.5f, 12f), new Vector3(0.5f, 3f, 6f)); // a wall east of the player
            var states = new List<AIState>();
            float confidenceWhenSearching = -1f, searchStart = -1f, idleAt = -1f;
            Vector3 searchedAt = Vector3.zero;
            brain.OnStateChanged += (from, to) =>
            {
                states.Add(to);
                if (to == AIState.Searching)
                {
                    confidenceWhenSearching = memory.Confidence;
                    searchedAt = memory.LastKnownPosition;
                    searchStart = Time.time;
                }
                if (to == AIState.Idle) idleAt = Time.time;
            };

            StandIn.Player.Run(0.5f, Dt);
            Assert.AreEqual(AIState.Chasing, brain.state, "sees the player ahead");
            float before = Vector3.Distance(guard.transform.position, player.transform.position);
            StandIn.Player.Run(0.5f, Dt);
            Assert.Less(Vector3.Distance(guard.transform.position, player.transform.position), before, "the NavMeshAgent closes in");

            // The player sprints round the wall's far end and away, out of sight.
            var walk = player.GetComponent<ScriptedWalker>();
            walk.speed = 15f;
            walk.waypoints.Enqueue(new Vector3(7f, 0f, 9f));
            walk.waypoints.Enqueue(new Vector3(7f, 0f, 14f));
            walk.waypoints.Enqueue(new Vector3(40f, 0f, 40f));
            StandIn.Player.Run(10f, Dt);
            CollectionAssert.AreEqual(new[] { AIState.Chasing, AIState.Searching, AIState.Idle }, states);
            Assert.Greater(confidenceWhenSearching, 0f, "still remembers when the search starts");
            Assert.AreEqual(searchedAt, guard.GetComponent<NavMeshAgent>().destination, "walks to the last known position");
            Assert.AreEqual(4f, idleAt - searchStart, 2 * Dt, "gives up after searchDuration");
            Assert.AreEqual(AIState.Idle, brain.state);
        }

        [Test]
        public void Frames_RunningFootstepBehind_GuardInvestigates_WalksThere_Searches()
        {
            NewWorld();
            var guard = Guard(Vector3.zero, Vector3.forward);
            var brain = guard.GetComponent<EnemyBrain>();
            var player = Player(new Vector3(0f, 0f, -9f));
            var states = new List<AIState>();
            Vector3 whereSearchBegan = Vector3.zero;
            brain.OnStateChanged += (from, to) =>
            {
                states.Add(to);
                if (to == AIState.Searching) whereSearchBegan = guard.transform.position;
            };
            var steps = player.GetComponent<Footsteps>();
            steps.isRunning = true;
            steps.OnFootstep();
            StandIn.Player.Frame(Dt);
            Assert.AreEqual(AIState.Investigating, brain.state);
            Assert.AreEqual(1, guard.GetComponent<NavMeshAgent>().StandInSetDestinationCount);
            player.transform.position = new Vector3(30f, 0f, -30f); // and sneaks away
            StandIn.Player.Run(4.6f, Dt);                           // 9 m at 2 m/s, then arrival
            Assert.AreEqual(AIState.Searching, brain.state, "arrived: searches the spot");
            Assert.Less(Vector3.Distance(whereSearchBegan, new Vector3(0f, 0f, -9f)), 1.1f, "searching began on arrival");
            CollectionAssert.AreEqual(new[] { AIState.Investigating, AIState.Searching }, states);
        }

        [Test]
        public void Frames_WithoutEvents_AllocateNothing([Values(PerceptionWorld.SettingsSync.EveryFrame, PerceptionWorld.SettingsSync.OnChange)] PerceptionWorld.SettingsSync sync)
        {
            NewWorld(sync: sync);
            for (int i = 0; i < 20; i++)
            {
                Guard(new Vector3(i * 3f, 0f, 0f), Vector3.back);          // facing away from every target
                Player(new Vector3(i * 3f, 0f, 20f));
            }
            Wall(new Vector3(30f, 1f, 10f), new Vector3(60f, 2f, 0.5f));
            StandIn.Player.Run(2f, Dt);                                   // warm up: buffers grown, JIT done
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000; i++) StandIn.Player.Frame(Dt);
            long bytes = GC.GetAllocatedBytesForCurrentThread() - before;
            Console.WriteLine("managed bytes over 1000 frames without events (" + sync + "): " + bytes);
            Assert.AreEqual(0, bytes);
        }

        [Test]
        public void Frames_WithSightEventsEveryFrame_AllocateNothing([Values(PerceptionWorld.SettingsSync.EveryFrame, PerceptionWorld.SettingsSync.OnChange)] PerceptionWorld.SettingsSync sync)
        {
            NewWorld(sync: sync);
            int percepts = 0;
            for (int i = 0; i < 10; i++)
            {
                var g = Guard(new Vector3(i * 10f, 0f, 0f), Vector3.forward);
                g.GetComponent<FieldOfViewSensor>().sightRateHz = 0f;
                g.GetComponent<NavMeshAgent>().enabled = false;
                g.GetComponent<PerceptionSystem>().OnPercept += p => percepts++;
                Player(new Vector3(i * 10f, 0f, 5f));    // each guard sees only its own
            }
            StandIn.Player.Run(1f, Dt);
            percepts = 0;
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000; i++) StandIn.Player.Frame(Dt);
            long bytes = GC.GetAllocatedBytesForCurrentThread() - before;
            Console.WriteLine("managed bytes over 1000 frames with " + percepts + " percepts (" + sync + "): " + bytes);
            Assert.AreEqual(10000, percepts);
            Assert.AreEqual(0, bytes);
        }

        [Test]
        public void Frames_WhereGuardsFirstSeeTargets_AllocateNothing([Values(PerceptionWorld.SettingsSync.EveryFrame, PerceptionWorld.SettingsSync.OnChange)] PerceptionWorld.SettingsSync sync)
        {
            // The layer bench's case: guards that have never seen anything start seeing targets
            // during measured frames (a first sighting must not grow a list).
            NewWorld(sync: sync);
            var walkers = new List<ScriptedWalker>();
            for (int i = 0; i < 10; i++)
            {
                var g = Guard(new Vector3(i * 10f, 0f, 0f), Vector3.forward);
                g.GetComponent<NavMeshAgent>().enabled = false;
                g.GetComponent<EnemyBrain>().driveNavMeshAgent = false;
                var p = Player(new Vector3(i * 10f, 0f, 30f));           // out of range, walking in
                walkers.Add(p.GetComponent<ScriptedWalker>());
            }
            StandIn.Player.Run(1f, Dt);
            foreach (var w in walkers) w.waypoints.Enqueue(w.transform.position + new Vector3(0f, 0f, -25f));
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 300; i++) StandIn.Player.Frame(Dt);
            long bytes = GC.GetAllocatedBytesForCurrentThread() - before;
            foreach (var w in walkers) Assert.AreEqual(0, w.waypoints.Count, "arrived");
            var sensors = StandIn.Player.FindAll<FieldOfViewSensor>();
            int seeing = 0;
            foreach (var s in sensors) if (s.visibleTargets.Count > 0) seeing++;
            Assert.AreEqual(10, seeing, "every guard now sees its target");
            Console.WriteLine("managed bytes over 300 frames of first sightings (" + sync + "): " + bytes);
            Assert.AreEqual(0, bytes);
        }

        [Test]
        public void VisibleTargets_AlwaysEqualTheMemorysSeenRecords([Values(0f, 10f, 7f)] float rateHz)
        {
            // visibleTargets follows the step's seen / lost events only (no memory read): every frame
            // it must equal what the memory says was seen at the latest tick.
            NewWorld();
            var rng = new System.Random(3);
            var sensors = new List<FieldOfViewSensor>();
            var players = new List<GameObject>();
            for (int i = 0; i < 6; i++)
            {
                var g = Guard(new Vector3(i * 4f, 0f, 0f), Vector3.forward);
                g.GetComponent<NavMeshAgent>().enabled = false;
                var s = g.GetComponent<FieldOfViewSensor>();
                s.sightRateHz = rateHz;
                sensors.Add(s);
            }
            for (int i = 0; i < 8; i++) players.Add(Player(new Vector3(i * 3f, 0f, 6f)));
            Wall(new Vector3(10f, 1f, 3f), new Vector3(4f, 2f, 0.3f));
            int nonEmpty = 0, changes = 0;
            for (int frame = 0; frame < 300; frame++)
            {
                if (frame % 7 == 0)
                    foreach (var p in players)
                        p.transform.position = new Vector3((float)rng.NextDouble() * 24f, 0f, (float)rng.NextDouble() * 14f - 2f);
                StandIn.Player.Frame(Dt);
                foreach (var s in sensors)
                {
                    var memory = s.GetComponent<PerceptionMemory>();
                    var seen = new List<Transform>();
                    foreach (var p in players)
                    {
                        MemoryRecord r;
                        if (memory.TryGetRecord(p.transform, out r) && r.Seen) seen.Add(p.transform);
                    }
                    CollectionAssert.AreEquivalent(seen, s.visibleTargets, "frame " + frame);
                    if (seen.Count > 0) nonEmpty++;
                }
                if (frame % 7 == 0) changes++;
            }
            Assert.Greater(nonEmpty, 100, "guards did see targets");
        }

        [Test]
        public void VisibleTargets_DropADestroyedTarget_AtOnce()
        {
            NewWorld();
            var g = Guard(Vector3.zero, Vector3.forward);
            g.GetComponent<NavMeshAgent>().enabled = false;
            var sight = g.GetComponent<FieldOfViewSensor>();
            sight.sightRateHz = 2f; // a slow tick: the list must not wait for it
            var player = Player(new Vector3(0f, 0f, 5f));
            StandIn.Player.Run(0.6f, Dt);
            Assert.AreEqual(1, sight.visibleTargets.Count);
            UnityEngine.Object.Destroy(player);
            Assert.AreEqual(0, sight.visibleTargets.Count, "gone from visibleTargets when it leaves the world");
            StandIn.Player.Frame(Dt);
            Assert.AreEqual(0, sight.visibleTargets.Count);
        }

        [Test]
        public void BrainOutputs_AlwaysEqualTheNativeState([Values(true, false)] bool navMesh)
        {
            // Brains read their outputs from the step's bulk GetAgentStates: every step when they walk
            // a NavMeshAgent, otherwise when a script asks. Either way, what a script reads after a
            // step is the native state of that step.
            var world = NewWorld();
            var rng = new System.Random(5);
            var brains = new List<EnemyBrain>();
            var players = new List<GameObject>();
            for (int i = 0; i < 5; i++)
            {
                var g = Guard(new Vector3(i * 5f, 0f, 0f), Vector3.forward);
                g.GetComponent<NavMeshAgent>().enabled = navMesh;
                g.GetComponent<EnemyBrain>().driveNavMeshAgent = navMesh;
                g.GetComponent<FieldOfViewSensor>().sightRateHz = 0f;
                brains.Add(g.GetComponent<EnemyBrain>());
            }
            for (int i = 0; i < 3; i++) players.Add(Player(new Vector3(i * 8f, 0f, 6f)));
            int busy = 0;
            for (int frame = 0; frame < 400; frame++)
            {
                if (frame % 40 == 0)
                    foreach (var p in players)
                        p.transform.position = new Vector3((float)rng.NextDouble() * 30f - 3f, 0f, (float)rng.NextDouble() * 30f - 10f);
                StandIn.Player.Frame(Dt);
                if (frame % 3 == 1) continue; // some frames nobody asks
                foreach (var b in brains)
                {
                    AgentState s = world.Native.GetAgentState(b.GetComponent<PerceptionAgent>().Id);
                    Assert.AreEqual((AIState)s.BrainState, b.state, "frame " + frame);
                    Assert.AreEqual(s.HasMoveTarget, b.HasMoveTarget, "frame " + frame);
                    Assert.AreEqual(s.BrainTimer, b.StateTimer, "frame " + frame);
                    if (s.HasMoveTarget)
                    {
                        Assert.AreEqual(s.MoveTarget.X, b.MoveTarget.x, "frame " + frame);
                        Assert.AreEqual(s.MoveTarget.Z, b.MoveTarget.z, "frame " + frame);
                    }
                    PerceptionTarget focus = world.TargetFor(s.Focus);
                    Assert.AreSame(focus != null ? focus.transform : null, b.Focus, "frame " + frame);
                    if (b.state != AIState.Idle) busy++;
                }
            }
            Assert.Greater(busy, 100, "brains were busy");
        }

        [Test]
        public void World_OwnsTheNativeWorld_DisableReleases_EnableRebuilds()
        {
            uint live = Library.LiveWorldCount;
            var guard = Guard(Vector3.zero, Vector3.forward);   // before any world: waits
            Player(new Vector3(0f, 0f, 5f));
            Assert.IsTrue(guard.GetComponent<PerceptionAgent>().Id.IsNull);
            var world = NewWorld();
            Assert.AreEqual(live + 1, Library.LiveWorldCount);
            Assert.IsFalse(guard.GetComponent<PerceptionAgent>().Id.IsNull, "joined when the world was enabled");
            Assert.AreEqual(1u, world.Native.Counts.Agents);
            Assert.AreEqual(1u, world.Native.Counts.Targets);
            StandIn.Player.Frame(Dt);
            Assert.AreEqual(AIState.Chasing, guard.GetComponent<EnemyBrain>().state);

            world.enabled = false;
            Assert.AreEqual(live, Library.LiveWorldCount, "OnDisable destroys the native world");
            Assert.IsTrue(guard.GetComponent<PerceptionAgent>().Id.IsNull);
            Assert.AreEqual(AIState.Idle, guard.GetComponent<EnemyBrain>().state);
            StandIn.Player.Frame(Dt);                              // no world: nothing breaks

            world.enabled = true;
            Assert.AreEqual(live + 1, Library.LiveWorldCount);
            Assert.AreEqual(1u, world.Native.Counts.Agents, "members rejoin the new world");
            StandIn.Player.Frame(Dt);
            Assert.AreEqual(AIState.Chasing, guard.GetComponent<EnemyBrain>().state);

            UnityEngine.Object.Destroy(guard);
            Assert.AreEqual(0u, world.Native.Counts.Agents, "destroying the guard destroys its agent");
            UnityEngine.Object.Destroy(world.gameObject);
            Assert.AreEqual(live, Library.LiveWorldCount, "OnDestroy releases the world");
        }

        [Test]
        public void World_IsReleasedBeforeADomainReload()
        {
            uint live = Library.LiveWorldCount;
            var world = NewWorld();
            Assert.AreEqual(live + 1, Library.LiveWorldCount);
            UnityEditor.AssemblyReloadEvents.StandInRaiseBeforeReload();
            Assert.AreEqual(live, Library.LiveWorldCount);
            Assert.IsFalse(world.IsCreated);
        }

        [Test]
        public void Layers_MapOneToOne()
        {
            var world = NewWorld();
            var guard = Guard(Vector3.zero, Vector3.forward);
            var sight = guard.GetComponent<FieldOfViewSensor>();
            sight.targetMask = 1 << 31;
            var player = Player(new Vector3(0f, 0f, 5f));
            player.layer = 31;
            StandIn.Player.Frame(Dt);
            Assert.IsTrue(sight.CanSeeTarget(player.transform), "layer 31 is bit 31");
            AgentDef def = world.Native.GetAgentDef(guard.GetComponent<PerceptionAgent>().Id);
            Assert.AreEqual(0x80000000u, def.Sight.TargetMask);
            TargetDef t = world.Native.GetTargetDef(player.GetComponent<PerceptionTarget>().Id);
            Assert.AreEqual(0x80000000u, t.Layers);
            var wall = Wall(new Vector3(0f, 1f, 3f), new Vector3(2f, 2f, 0.5f));
            wall.layer = 30;
            sight.obstacleMask = 1 << 30;
            StandIn.Player.Frame(Dt);
            Assert.IsFalse(sight.CanSeeTarget(player.transform), "the occluder followed its layer to 30");
        }

        [Test]
        public void Occluders_FromEveryColliderShape_Block()
        {
            NewWorld();
            var guard = Guard(Vector3.zero, Vector3.forward);
            var sight = guard.GetComponent<FieldOfViewSensor>();
            sight.eyeHeight = 1f;
            var player = Player(new Vector3(0f, 0f, 8f));
            player.GetComponent<PerceptionTarget>().checkPoints = new[] { new Vector3(0f, 1f, 0f) };
            Assert.IsTrue(sight.CanSeeTarget(player.transform));

            var shapes = new List<GameObject>();
            var sphere = new GameObject("sphere");
            sphere.transform.position = new Vector3(0f, 1f, 4f);
            sphere.AddComponent<SphereCollider>().radius = 0.5f;
            shapes.Add(sphere);
            var capsule = new GameObject("capsule");
            capsule.transform.position = new Vector3(0f, 1f, 4f);
            var cc = capsule.AddComponent<CapsuleCollider>();
            cc.direction = 0; // along X, across the line of sight
            cc.height = 3f;
            cc.radius = 0.3f;
            shapes.Add(capsule);
            var mesh = new GameObject("mesh");
            mesh.transform.position = new Vector3(0f, 1f, 4f);
            var m = new Mesh();
            m.vertices = new[] { new Vector3(-1f, -1f, 0f), new Vector3(1f, -1f, 0f), new Vector3(1f, 1f, 0f), new Vector3(-1f, 1f, 0f) };
            m.triangles = new[] { 0, 1, 2, 0, 2, 3 };
            mesh.AddComponent<MeshCollider>().sharedMesh = m;
            shapes.Add(mesh);
            foreach (var s in shapes)
            {
                var occ = s.AddComponent<PerceptionOccluder>();
                Assert.IsFalse(occ.Id.IsNull, s.name);
                Assert.IsFalse(sight.CanSeeTarget(player.transform), s.name + " blocks");
                s.SetActive(false);
                Assert.IsTrue(sight.CanSeeTarget(player.transform), s.name + " removed");
            }
        }

        [Test]
        public void Occluder_Movable_FollowsItsTransform()
        {
            NewWorld();
            var guard = Guard(Vector3.zero, Vector3.forward);
            var player = Player(new Vector3(0f, 0f, 8f));
            var door = Wall(new Vector3(0f, 1.5f, 4f), new Vector3(2f, 3f, 0.3f));
            door.GetComponent<PerceptionOccluder>().movable = true;
            StandIn.Player.Frame(Dt);
            Assert.IsFalse(guard.GetComponent<FieldOfViewSensor>().CanSeeTarget(player.transform));
            door.transform.position = new Vector3(5f, 1.5f, 4f);           // the door slides open
            StandIn.Player.Frame(Dt);
            Assert.IsTrue(guard.GetComponent<FieldOfViewSensor>().CanSeeTarget(player.transform));
        }

        [Test]
        public void ColliderScan_MakesOccludersWithoutComponents()
        {
            Wall(new Vector3(0f, 1.5f, 4f), new Vector3(2f, 3f, 0.3f), false);
            var go = new GameObject("World");
            go.SetActive(false);
            var world = go.AddComponent<PerceptionWorld>();
            world.occluderScanMask = 1 << LessonScene.ObstacleLayer;
            go.SetActive(true);
            Assert.AreEqual(1u, world.Native.Counts.Occluders);
            var guard = Guard(Vector3.zero, Vector3.forward);
            var player = Player(new Vector3(0f, 0f, 8f));
            Assert.IsFalse(guard.GetComponent<FieldOfViewSensor>().CanSeeTarget(player.transform));
        }

        [Test]
        public void UnityPhysics_TwoPhaseStep_AnswersLikeTheOccluders()
        {
            // The same scene twice: walls as Argus occluders, then as plain colliders cast by
            // RaycastCommand batches. Every guard's visible targets must agree.
            var answers = new List<string>[2];
            for (int pass = 0; pass < 2; pass++)
            {
                StandIn.Player.Reset();
                NewWorld(pass == 0 ? PerceptionWorld.LineOfSightSource.ArgusOccluders : PerceptionWorld.LineOfSightSource.UnityPhysics);
                var sensors = new List<FieldOfViewSensor>();
                var players = new List<GameObject>();
                for (int i = 0; i < 5; i++)
                {
                    var g = Guard(new Vector3(i * 4f, 0f, 0f), Vector3.forward);
                    g.GetComponent<NavMeshAgent>().enabled = false;
                    g.GetComponent<FieldOfViewSensor>().sightRateHz = 0f;
                    sensors.Add(g.GetComponent<FieldOfViewSensor>());
                }
                for (int i = 0; i < 9; i++) players.Add(Player(new Vector3(i * 2f, 0f, 3f + (i % 3) * 3f)));
                Wall(new Vector3(4f, 1.5f, 4.5f), new Vector3(5f, 3f, 0.4f), pass == 0);
                Wall(new Vector3(13f, 1.5f, 7f), new Vector3(3f, 3f, 0.4f), pass == 0);
                int batches = RaycastCommand.StandInBatches;
                StandIn.Player.Frame(Dt);
                if (pass == 1) Assert.Greater(RaycastCommand.StandInBatches, batches, "rays went through ScheduleBatch");
                answers[pass] = new List<string>();
                foreach (var s in sensors)
                {
                    var names = new List<string>();
                    foreach (var t in s.visibleTargets) names.Add(t.position.ToString());
                    names.Sort();
                    answers[pass].Add(string.Join(" ", names.ToArray()));
                    foreach (var p in players)
                        answers[pass].Add(s.CanSeeTarget(p.transform) ? "y" : "n");
                }
            }
            CollectionAssert.AreEqual(answers[0], answers[1]);
            CollectionAssert.Contains(answers[1], "n", "some target is hidden");
            CollectionAssert.Contains(answers[1], "y", "some target is seen");
        }

        [Test]
        public void Gizmos_DrawTheCardsPicture()
        {
            var world = NewWorld();
            var guard = Guard(Vector3.zero, Vector3.forward);
            guard.GetComponent<FieldOfViewSensor>().eyeHeight = 1f;
            Player(new Vector3(-1f, 0f, 5f));
            Player(new Vector3(2f, 0f, 8f));
            Wall(new Vector3(2f, 1.5f, 6f), new Vector3(2f, 3f, 0.3f));
            StandIn.Player.Frame(Dt);
            Gizmos.StandInLineColors.Clear();
            int drawn = world.DrawDebug(63);
            Assert.Greater(drawn, 10);
            bool green = false, red = false;
            foreach (var c in Gizmos.StandInLineColors)
            {
                Color32 k = new Color32((byte)(c.r * 255f + 0.5f), (byte)(c.g * 255f + 0.5f), (byte)(c.b * 255f + 0.5f), (byte)(c.a * 255f + 0.5f));
                uint rgba = (uint)(k.r << 24 | k.g << 16 | k.b << 8 | k.a);
                if (rgba == Constants.COLOR_SEEN) green = true;
                if (rgba == Constants.COLOR_BLOCKED) red = true;
            }
            Assert.IsTrue(green, "a green line to the seen target");
            Assert.IsTrue(red, "a red ray stopping at the wall");
        }

        [Test]
        public void Inspector_ShowsTheNativeCounts()
        {
            var world = NewWorld();
            Guard(Vector3.zero, Vector3.forward);
            var editor = new Argus.Perception.Editor.PerceptionWorldEditor();
            editor.target = world;
            UnityEditor.EditorGUILayout.StandInLabels.Clear();
            editor.OnInspectorGUI();
            CollectionAssert.Contains(UnityEditor.EditorGUILayout.StandInLabels, "Agents: 1");
        }

        [Test]
        public void ComponentAddedBeforeItsSiblings_StillGetsTheirSettings()
        {
            var world = NewWorld();
            var go = new GameObject("late");
            var agent = go.AddComponent<PerceptionAgent>();
            Assert.IsFalse(world.Native.GetAgentDef(agent.Id).Sight.Enabled);
            var sight = go.AddComponent<FieldOfViewSensor>();
            sight.viewRadius = 23f;
            StandIn.Player.Frame(Dt);
            AgentDef def = world.Native.GetAgentDef(agent.Id);
            Assert.IsTrue(def.Sight.Enabled);
            Assert.AreEqual(23f, def.Sight.ViewRadius);
        }
    }
}
