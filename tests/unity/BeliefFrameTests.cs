// Belief search (EnemyBrain.search = Belief) in the stand-in's frame loop: a world whose walk graph is
// a grid (PerceptionWorld.walkGraph = Grid, built at enable), guards walking NavMeshAgents to their
// search points, a squad of one team sharing one belief and spreading out, and the gizmo heat map
// (the stand-in records every Gizmos call with its colour).
using System;
using System.Collections.Generic;
using System.Reflection;
using Argus.Perception;
using Argus.Perception.Tests;
using NUnit.Framework;
using UnityEngine;
using UnityEngine.AI;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class BeliefFrameTests
    {
        const float Dt = 1f / 30f;

        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        static void Wall(Vector3 center, Vector3 size)
        {
            var wall = new GameObject("Wall");
            wall.layer = LessonScene.ObstacleLayer;
            wall.transform.position = center;
            wall.AddComponent<BoxCollider>().size = size;
            wall.AddComponent<PerceptionOccluder>();
        }

        // A wall along z = 15 from x 0 to 24 (with doorway: from x 0 to 12 and from 15 to 30, the doorway
        // between); the world's walk grid covers 30 x 30 m in 0.5 m cells.
        static PerceptionWorld Level(bool doorway = false)
        {
            if (!doorway) Wall(new Vector3(12f, 1.5f, 15f), new Vector3(24f, 3f, 0.6f));
            else
            {
                Wall(new Vector3(6f, 1.5f, 15f), new Vector3(12f, 3f, 0.6f));
                Wall(new Vector3(22.5f, 1.5f, 15f), new Vector3(15f, 3f, 0.6f));
            }
            var go = new GameObject("World");
            go.SetActive(false);
            var w = go.AddComponent<PerceptionWorld>();
            w.walkGraph = PerceptionWorld.WalkGraphSource.Grid;
            var bounds = new Bounds();
            bounds.SetMinMax(Vector3.zero, new Vector3(30f, 0f, 30f));
            w.walkGridBounds = bounds;
            w.walkCellSize = 0.5f;
            go.SetActive(true);
            Assert.AreEqual(3600u, w.Native.WalkGraph.NodeCount, "the grid built at enable");
            return w;
        }

        static EnemyBrain Guard(Vector3 position, EnemyBrain.SearchMode search = EnemyBrain.SearchMode.Belief)
        {
            var go = new GameObject("Guard");
            go.transform.position = position;
            go.transform.rotation = Quaternion.LookRotation(Vector3.forward);
            go.AddComponent<NavMeshAgent>().speed = 2f;
            var sight = go.AddComponent<FieldOfViewSensor>();
            sight.targetMask = 1 << LessonScene.PlayerLayer;
            sight.obstacleMask = 1 << LessonScene.ObstacleLayer;
            sight.viewRadius = 15f;
            sight.viewAngle = 120f;
            go.AddComponent<PerceptionMemory>();
            var brain = go.AddComponent<EnemyBrain>();
            brain.search = search;
            brain.searchDuration = 30f;
            return brain;
        }

        static GameObject Player(Vector3 position)
        {
            var go = new GameObject("Player");
            go.layer = LessonScene.PlayerLayer;
            go.transform.position = position;
            go.AddComponent<PerceptionTarget>();
            return go;
        }

        // Seen for half a second at (6, 0, 11), then gone behind the wall.
        static void SeenThenLost(GameObject player)
        {
            StandIn.Player.Run(0.5f, Dt);
            player.transform.position = new Vector3(20f, 0f, 26f);
        }

        [Test]
        public void AGuardSearchingByBelief_WalksItsNavMeshAgentToItsSearchPoints()
        {
            Level();
            EnemyBrain brain = Guard(new Vector3(5f, 0f, 6f));
            GameObject player = Player(new Vector3(6f, 0f, 11f));
            SeenThenLost(player);
            var points = new List<Vector3>();
            for (int f = 0; f < 90; f++)
            {
                StandIn.Player.Frame(Dt);
                if (brain.HasSearchPoint && (points.Count == 0 || points[points.Count - 1] != brain.SearchPoint)) points.Add(brain.SearchPoint);
            }
            Assert.AreEqual(AIState.Searching, brain.state);
            BeliefInfo info;
            Assert.IsTrue(brain.TryGetBelief(out info));
            float[] p = null;
            int n = brain.GetBelief(ref p);
            double total = 0;
            for (int i = 0; i < n; i++) total += p[i];
            Assert.AreEqual(1.0, total, 1e-5, "the probabilities sum to 1");
            Assert.IsTrue(brain.HasSearchPoint);
            Assert.AreEqual(brain.SearchPoint, brain.MoveTarget);
            Assert.AreEqual(brain.SearchPoint, brain.GetComponent<NavMeshAgent>().destination, "the NavMeshAgent walks to the search point");
            Assert.Greater(points.Count, 1, "from one search point to the next");
        }

        [Test]
        public void ThreeGuardsOfOneTeam_ShareOneBelief_AndPickDifferentSearchPoints()
        {
            // The player, running (topSpeed 3), is seen at the doorway and gone through it: the belief
            // spreads into the rooms behind the wall, out of the guards' sight.
            Level(true);
            var guards = new[] { Guard(new Vector3(10f, 0f, 6f)), Guard(new Vector3(13.5f, 0f, 6f)), Guard(new Vector3(17f, 0f, 6f)) };
            GameObject player = Player(new Vector3(13.5f, 0f, 14f));
            player.GetComponent<PerceptionTarget>().topSpeed = 3f;
            StandIn.Player.Run(0.5f, Dt);
            player.transform.position = new Vector3(25f, 0f, 26f);
            StandIn.Player.Run(3f, Dt);
            var infos = new BeliefInfo[3];
            for (int g = 0; g < 3; g++)
            {
                Assert.AreEqual(AIState.Searching, guards[g].state, "guard " + g);
                Assert.IsTrue(guards[g].TryGetBelief(out infos[g]), "guard " + g);
                Assert.AreEqual(3u, infos[g].OwnerCount, "one belief for the three");
                Assert.AreEqual(0u, infos[g].OwnerTeam);
                Assert.IsTrue(infos[g].HasSearchPoint, "guard " + g);
                Assert.AreEqual(guards[g].SearchPoint, guards[g].GetComponent<NavMeshAgent>().destination);
            }
            for (int a = 0; a < 3; a++)
                for (int b = a + 1; b < 3; b++)
                    Assert.Greater((guards[a].SearchPoint - guards[b].SearchPoint).magnitude, 0.1f,
                        "guards " + a + " and " + b + " search different places (4 m tiles): " + guards[a].SearchPoint + " " + guards[b].SearchPoint);
            Console.WriteLine("three guards' search points after 3 s: " + guards[0].SearchPoint + " " + guards[1].SearchPoint + " " + guards[2].SearchPoint);

            // Not sharing: each keeps its own belief.
            foreach (var g in guards) g.shareBelief = false;
            player.transform.position = new Vector3(13.5f, 0f, 14f);
            StandIn.Player.Run(0.5f, Dt);
            player.transform.position = new Vector3(25f, 0f, 26f);
            StandIn.Player.Run(1f, Dt);
            foreach (var g in guards)
            {
                BeliefInfo own;
                Assert.IsTrue(g.TryGetBelief(out own));
                Assert.AreEqual(1u, own.OwnerCount);
                Assert.AreEqual(Constants.BELIEF_NOT_SHARED, own.OwnerTeam);
            }
        }

        [Test]
        public void AGuardWithTheDefaultSearch_KeepsNone_AndWalksToTheLastKnownPosition()
        {
            Level();
            EnemyBrain brain = Guard(new Vector3(5f, 0f, 6f), EnemyBrain.SearchMode.LastKnownPosition);
            Assert.AreEqual(EnemyBrain.SearchMode.LastKnownPosition, new GameObject("Default").AddComponent<EnemyBrain>().search);
            GameObject player = Player(new Vector3(6f, 0f, 11f));
            SeenThenLost(player);
            StandIn.Player.Run(1f, Dt);
            Assert.AreEqual(AIState.Searching, brain.state);
            BeliefInfo info;
            Assert.IsFalse(brain.TryGetBelief(out info));
            Assert.IsFalse(brain.HasSearchPoint);
            Assert.AreEqual(11f, brain.GetComponent<NavMeshAgent>().destination.z, 0.01f);
        }

        [Test]
        public void ARefusedGiveUpProbability_IsLogged_TheSearchGoesOn()
        {
            Level();
            EnemyBrain brain = Guard(new Vector3(5f, 0f, 6f));
            GameObject player = Player(new Vector3(6f, 0f, 11f));
            SeenThenLost(player);
            StandIn.Player.Run(0.5f, Dt);
            brain.giveUpProbability = 1.5f;
            Assert.DoesNotThrow(() => StandIn.Player.Run(0.5f, Dt));
            int logged = 0;
            foreach (string line in Debug.StandInLog)
                if (line.StartsWith("exception: ") && line.Contains("give-up probability")) logged++;
            Assert.AreEqual(1, logged, "logged once, naming the field: " + string.Join(" | ", Debug.StandInLog.ToArray()));
            Assert.AreEqual(AIState.Searching, brain.state, "the old settings stay");
            Assert.AreEqual(0.002f, brain.GetComponent<PerceptionAgent>().World.Native.GetAgentDef(brain.GetComponent<PerceptionAgent>().Id).Brain.GiveUpProbability);
            var range = (UnityEngine.RangeAttribute)Attribute.GetCustomAttribute(typeof(EnemyBrain).GetField("giveUpProbability"), typeof(UnityEngine.RangeAttribute));
            Assert.IsNotNull(range, "the Inspector keeps it in 0..1");
            Assert.AreEqual(0f, range.min);
            Assert.AreEqual(1f, range.max);
        }

        // ---- the gizmo heat map ------------------------------------------------------------------------

        static void Selected(MonoBehaviour b)
        {
            MethodInfo m = b.GetType().GetMethod("OnDrawGizmosSelected", BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
            Assert.IsNotNull(m, b.GetType().Name + ".OnDrawGizmosSelected");
            m.Invoke(b, null);
        }

        static void WorldGizmos(PerceptionWorld w)
        {
            MethodInfo m = typeof(PerceptionWorld).GetMethod("OnDrawGizmos", BindingFlags.Instance | BindingFlags.NonPublic);
            m.Invoke(w, null);
        }

        static int Holding(EnemyBrain brain, out int peakNode, out WalkNode[] nodes)
        {
            float[] p = null;
            int n = brain.GetBelief(ref p), holding = 0;
            peakNode = 0;
            for (int i = 0; i < n; i++)
            {
                if (p[i] > 0f) holding++;
                if (p[i] > p[peakNode]) peakNode = i;
            }
            nodes = null;
            brain.GetComponent<PerceptionAgent>().World.Native.GetWalkNodes(ref nodes);
            return holding;
        }

        [Test]
        public void SelectedGuard_DrawsItsBelief_AsAHeatMap_WithItsSearchPoint()
        {
            PerceptionWorld world = Level();
            EnemyBrain brain = Guard(new Vector3(5f, 0f, 6f));
            GameObject player = Player(new Vector3(6f, 0f, 11f));
            SeenThenLost(player);
            StandIn.Player.Run(1f, Dt);
            int peakNode;
            WalkNode[] nodes;
            int holding = Holding(brain, out peakNode, out nodes);
            Assert.Greater(holding, 1);
            Assert.Less(holding, 3600, "nodes holding nothing (cleared by the guard's view) exist");

            Gizmos.StandInClear();
            Selected(brain);
            Assert.AreEqual(0, Gizmos.StandInSpheres, "the world draws every belief already (GizmoBeliefs): not twice");
            world.gizmoFlags &= ~PerceptionWorld.GizmoBeliefs;
            Selected(brain);
            int solid = 0, wire = 0;
            Color atPeak = Color.clear;
            Vector3 peakAt = UnityArgus(nodes[peakNode].Position);
            for (int i = 0; i < Gizmos.StandInSphereCenters.Count; i++)
            {
                if (Gizmos.StandInSphereWire[i]) { wire++; Assert.AreEqual(brain.SearchPoint, Gizmos.StandInSphereCenters[i]); continue; }
                solid++;
                if (Gizmos.StandInSphereCenters[i] == peakAt) atPeak = Gizmos.StandInSphereColors[i];
            }
            Assert.AreEqual(holding, solid, "one sphere per node holding probability, none for the others");
            Assert.AreEqual(1, wire, "the search point");
            Assert.AreEqual(PerceptionWorld.BeliefColor(1f), atPeak, "the peak is red");
            Assert.Greater(atPeak.r, 0.9f);
            Assert.Less(atPeak.g, 0.2f);
            Assert.Greater(PerceptionWorld.BeliefColor(0.05f).b, 0.8f, "little is blue");
            Assert.AreEqual(1, Gizmos.StandInLines, "a line from the guard to its search point");

            // The lesson's search: nothing to draw.
            brain.search = EnemyBrain.SearchMode.LastKnownPosition;
            Gizmos.StandInClear();
            Selected(brain);
            Assert.AreEqual(0, Gizmos.StandInSpheres);
        }

        [Test]
        public void WorldGizmoFlag_DrawsEachBeliefOnce()
        {
            PerceptionWorld world = Level();
            Assert.AreNotEqual(0, world.gizmoFlags & PerceptionWorld.GizmoBeliefs, "on by default");
            var guards = new[] { Guard(new Vector3(4f, 0f, 6f)), Guard(new Vector3(8f, 0f, 6f)) };
            GameObject player = Player(new Vector3(6f, 0f, 11f));
            SeenThenLost(player);
            StandIn.Player.Run(1f, Dt);
            int peakNode;
            WalkNode[] nodes;
            int holding = Holding(guards[0], out peakNode, out nodes);

            world.gizmoFlags = PerceptionWorld.GizmoBeliefs;
            Gizmos.StandInClear();
            WorldGizmos(world);
            int solid = 0, wire = 0;
            for (int i = 0; i < Gizmos.StandInSphereWire.Count; i++) if (Gizmos.StandInSphereWire[i]) wire++; else solid++;
            Assert.AreEqual(holding, solid, "the team's one belief, drawn once");
            Assert.AreEqual(2, wire, "each guard's search point");
            Assert.AreEqual(holding, world.DrawBeliefs());

            world.gizmoFlags = 0;
            Gizmos.StandInClear();
            WorldGizmos(world);
            Assert.AreEqual(0, Gizmos.StandInSpheres, "flag off: no heat map");
        }

        static Vector3 UnityArgus(Vec3 v) { return new Vector3(v.X, v.Y, v.Z); }
    }
}
