using System.Text.RegularExpressions;
using NUnit.Framework;
using UnityEngine;
using UnityEngine.TestTools;

namespace Argus.Perception.Tests
{
    /// <summary>Belief search through the components (EnemyBrain.search = Belief over the world's walk
    /// grid): a guard that loses the player behind a wall keeps a belief of where the player can be now
    /// (probabilities summing to 1) and walks to its search point; the lesson's search keeps none; the
    /// player's topSpeed is how fast the belief spreads; bad values are refused with the old settings kept.</summary>
    public class BeliefSearchTests
    {
        LessonScene scene;

        [SetUp]
        public void SetUp() { scene = new LessonScene(); }

        [TearDown]
        public void TearDown() { scene.Destroy(); }

        // A wall along z = 15 from x 0 to 24, a walk grid of 0.5 m cells over 30 x 30 m (3,600 nodes), a
        // guard at (5, 0, 6) facing +z that sees the player at (6, 0, 11), then loses it behind the wall.
        EnemyBrain GuardLosesThePlayer(EnemyBrain.SearchMode search, out GameObject player, float topSpeed = 1.4f)
        {
            scene.Wall(new Vector3(12f, 1.5f, 15f), new Vector3(24f, 3f, 0.6f));
            var bounds = new Bounds();
            bounds.SetMinMax(Vector3.zero, new Vector3(30f, 0f, 30f));
            scene.World.walkGridBounds = bounds;
            scene.World.walkCellSize = 0.5f;
            scene.World.BuildWalkGrid();
            GameObject guard = scene.Guard(new Vector3(5f, 0f, 6f), Vector3.forward);
            guard.GetComponent<FieldOfViewSensor>().viewRadius = 15f;
            guard.GetComponent<FieldOfViewSensor>().viewAngle = 120f;
            var brain = guard.GetComponent<EnemyBrain>();
            brain.search = search;
            brain.searchDuration = 30f;
            player = scene.Player(new Vector3(6f, 0f, 11f));
            player.GetComponent<PerceptionTarget>().topSpeed = topSpeed;
            scene.Step(0.1f, 5);
            Assert.AreEqual(AIState.Chasing, brain.state);
            player.transform.position = new Vector3(20f, 0f, 24f);
            scene.Step(0.1f, 10);
            Assert.AreEqual(AIState.Searching, brain.state);
            return brain;
        }

        [Test]
        public void ByBelief_AGuardThatLosesThePlayer_KeepsABelief_AndWalksToItsSearchPoint()
        {
            GameObject player;
            EnemyBrain brain = GuardLosesThePlayer(EnemyBrain.SearchMode.Belief, out player);
            BeliefInfo info;
            Assert.IsTrue(brain.TryGetBelief(out info), "searching by belief over the walk grid");
            Assert.AreEqual(player.GetComponent<PerceptionTarget>().Id, info.Target);
            Assert.AreEqual(3600u, info.NodeCount);
            Assert.AreEqual(1u, info.OwnerCount);
            Assert.AreEqual(0u, info.OwnerTeam, "shared by its team (shareBelief, on by default)");
            Assert.IsTrue(info.HasSearchPoint);

            float[] p = null;
            Assert.AreEqual(3600, brain.GetBelief(ref p));
            double total = 0, peak = 0;
            foreach (float x in p) { total += x; peak = System.Math.Max(peak, x); }
            Assert.AreEqual(1.0, total, 1e-5, "the probabilities sum to 1");
            Assert.AreEqual(info.Peak, (float)peak, 1e-7f);
            float[] again = p;
            brain.GetBelief(ref again);
            Assert.AreSame(p, again, "a buffer big enough is reused");

            Assert.IsTrue(brain.HasSearchPoint);
            Assert.AreEqual(info.SearchPoint.X, brain.SearchPoint.x);
            Assert.AreEqual(info.SearchPoint.Z, brain.SearchPoint.z);
            Assert.IsTrue(brain.HasMoveTarget);
            Assert.AreEqual(brain.SearchPoint, brain.MoveTarget, "the guard walks to its search point");
            Assert.Greater(brain.GetBeliefAt(brain.SearchPoint), 0f, "a search point where the player can be");
            var points = new SearchPoint[4];
            int n = brain.GetSearchPoints(points);
            Assert.That(n, Is.InRange(1, 4));
            for (int i = 1; i < n; i++) Assert.LessOrEqual(points[i].Probability, points[i - 1].Probability, "most probable first");

            // The player seen again: the belief moves there (it is chased, no search point).
            player.transform.position = new Vector3(6f, 0f, 11f);
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Chasing, brain.state);
            Assert.IsTrue(brain.TryGetBelief(out info), "kept while chasing");
            Assert.Greater(brain.GetBeliefAt(new Vector3(6f, 0f, 11f)), 0.5f, "seen: the mass is where the player is");
        }

        [Test]
        public void Defaults_AreTheLibrarys()
        {
            var brain = scene.Guard(Vector3.zero, Vector3.forward).GetComponent<EnemyBrain>();
            var target = scene.Player(new Vector3(0f, 0f, 5f)).GetComponent<PerceptionTarget>();
            AgentDef agent = AgentDef.Default();
            Assert.AreEqual(EnemyBrain.SearchMode.LastKnownPosition, brain.search, "the lesson's search");
            Assert.AreEqual((int)agent.Brain.Search, (int)brain.search);
            Assert.AreEqual(agent.Brain.GiveUpProbability, brain.giveUpProbability);
            Assert.AreEqual(agent.Brain.ShareBelief, brain.shareBelief);
            Assert.AreEqual(TargetDef.Default().TopSpeed, target.topSpeed);
            Assert.AreEqual((int)SearchKind.LastKnownPosition, (int)EnemyBrain.SearchMode.LastKnownPosition);
            Assert.AreEqual((int)SearchKind.Belief, (int)EnemyBrain.SearchMode.Belief);
        }

        [Test]
        public void TheLessonsSearch_KeepsNoBelief()
        {
            GameObject player;
            EnemyBrain brain = GuardLosesThePlayer(EnemyBrain.SearchMode.LastKnownPosition, out player);
            Assert.AreEqual(EnemyBrain.SearchMode.LastKnownPosition, brain.search);
            BeliefInfo info;
            Assert.IsFalse(brain.TryGetBelief(out info));
            float[] p = null;
            Assert.AreEqual(0, brain.GetBelief(ref p));
            Assert.AreEqual(0, brain.GetSearchPoints(new SearchPoint[4]));
            Assert.IsFalse(brain.HasSearchPoint);
            Assert.AreEqual(0f, brain.GetBeliefAt(new Vector3(6f, 0f, 11f)));
            Assert.AreEqual(11f, brain.MoveTarget.z, 1e-4f, "walks to the last known position");
        }

        [Test]
        public void ByBelief_WithoutAWalkGraph_SearchesAsTheLessonDoes()
        {
            GameObject guard = scene.Guard(Vector3.zero, Vector3.forward);
            var brain = guard.GetComponent<EnemyBrain>();
            brain.search = EnemyBrain.SearchMode.Belief;
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.1f);
            player.transform.position = new Vector3(0f, 0f, -30f);
            scene.Step(0.1f, 3);
            Assert.AreEqual(AIState.Searching, brain.state);
            BeliefInfo info;
            Assert.IsFalse(brain.TryGetBelief(out info));
            Assert.AreEqual(5f, brain.MoveTarget.z, 1e-4f, "the last known position");
        }

        [Test]
        public void TopSpeed_IsHowFastTheBeliefSpreads()
        {
            GameObject player;
            EnemyBrain slow = GuardLosesThePlayer(EnemyBrain.SearchMode.Belief, out player, 0.5f);
            scene.Step(0.1f, 10);
            int slowNodes = NodesHolding(slow);
            scene.Destroy();
            scene = new LessonScene();
            EnemyBrain fast = GuardLosesThePlayer(EnemyBrain.SearchMode.Belief, out player, 4f);
            scene.Step(0.1f, 10);
            int fastNodes = NodesHolding(fast);
            System.Console.WriteLine("nodes holding probability 2 s after losing the player: " + slowNodes + " at 0.5 m/s, " + fastNodes + " at 4 m/s");
            Assert.Greater(slowNodes, 0);
            Assert.Greater(fastNodes, 2 * slowNodes, "a faster player can be in more places after the same time");
        }

        static int NodesHolding(EnemyBrain brain)
        {
            float[] p = null;
            int n = brain.GetBelief(ref p), holding = 0;
            for (int i = 0; i < n; i++) if (p[i] > 0f) holding++;
            return holding;
        }

        [Test]
        public void ABadGiveUpProbability_IsRefused_TheOldSettingsStay()
        {
            GameObject player;
            EnemyBrain brain = GuardLosesThePlayer(EnemyBrain.SearchMode.Belief, out player);
            AgentId id = brain.GetComponent<PerceptionAgent>().Id;
            LogAssert.Expect(LogType.Exception, new Regex("give-up"));
            brain.giveUpProbability = 1.5f; // past [Range(0, 1)]: only a script can set it
            Assert.DoesNotThrow(() => scene.Step(0.1f, 3), "a refused def does not stop the world");
            Assert.AreEqual(0.002f, scene.World.Native.GetAgentDef(id).Brain.GiveUpProbability, "the old settings stay");
            Assert.AreEqual(AIState.Searching, brain.state);
            brain.giveUpProbability = 1f; // fixed: no place holds all of it, the search gives up at once
            scene.Step(0.1f, 2);
            Assert.AreEqual(1f, scene.World.Native.GetAgentDef(id).Brain.GiveUpProbability);
            Assert.AreEqual(AIState.Idle, brain.state);
        }

        [Test]
        public void ABadTopSpeed_IsRefused_TheOldSettingsStay()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            var target = player.GetComponent<PerceptionTarget>();
            scene.Step(0.1f);
            LogAssert.Expect(LogType.Exception, new Regex("INVALID_ARGUMENT"));
            target.topSpeed = float.NaN;
            Assert.DoesNotThrow(() => scene.Step(0.1f, 3));
            Assert.AreEqual(1.4f, scene.World.Native.GetTargetDef(target.Id).TopSpeed, "the old settings stay");
            target.topSpeed = 2f;
            scene.Step(0.1f);
            Assert.AreEqual(2f, scene.World.Native.GetTargetDef(target.Id).TopSpeed, "fixed: applied");
        }
    }
}
