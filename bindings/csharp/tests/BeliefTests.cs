using System;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>Belief search (issue 44) through the object model: a guard that loses the player behind a
    /// wall keeps a belief over the walk graph and walks to a search point where it holds probability;
    /// the lesson's search keeps none; bad settings are refused with the agent unchanged.</summary>
    [TestFixture]
    public class BeliefTests
    {
        static World Level(SearchKind search, out AgentId guard, out TargetId player)
        {
            var world = new World(WorldDef.Default());
            world.CreateBox(Support.V(12, 1.5f, 15), Quat.Identity, Support.V(12, 1.5f, 0.3f));
            WalkGridDef grid = WalkGridDef.Default();
            grid.Width = 60;
            grid.Depth = 60;
            world.SetWalkGrid(grid);
            AgentDef def = AgentDef.Default();
            def.Position = Support.V(5, 0, 6);
            def.Sight.ViewRadius = 15;
            def.Sight.ViewAngle = 120;
            def.Brain.Search = search;
            def.Brain.SearchDuration = 30;
            guard = world.CreateAgent(def);
            TargetDef td = TargetDef.Default();
            td.Position = Support.V(6, 0, 11);
            player = world.CreateTarget(td);
            for (int k = 0; k < 5; k++) world.Step(0.1f);
            world.SetTargetPose(player, Support.V(20, 0, 24), Support.V(0, 0, 1));
            for (int k = 0; k < 10; k++) world.Step(0.1f);
            return world;
        }

        [Test]
        public void AGuardThatLosesThePlayerSearchesByItsBelief()
        {
            AgentId guard;
            TargetId player;
            using (World world = Level(SearchKind.Belief, out guard, out player))
            {
                Assert.AreEqual(BrainState.Searching, world.GetAgentState(guard).BrainState);
                BeliefInfo info;
                Assert.IsTrue(world.TryGetBelief(guard, out info));
                Assert.AreEqual(player, info.Target);
                Assert.AreEqual(3600u, info.NodeCount);
                Assert.IsTrue(info.HasSearchPoint);
                float[] p = null;
                Assert.AreEqual(3600, world.GetBelief(guard, ref p));
                double total = 0;
                foreach (float x in p) total += x;
                Assert.AreEqual(1.0, total, 1e-5);
                Assert.Greater(world.GetBeliefAt(guard, info.SearchPoint), 0f);
                var points = new SearchPoint[3];
                int n = world.GetSearchPoints(guard, points);
                Assert.That(n, Is.InRange(1, 3));
                AgentState state = world.GetAgentState(guard);
                Assert.AreEqual(info.SearchPoint.X, state.MoveTarget.X);
            }
        }

        [Test]
        public void TheLessonsSearchKeepsNoBeliefAndBadSettingsAreRefused()
        {
            AgentId guard;
            TargetId player;
            using (World world = Level(SearchKind.LastKnownPosition, out guard, out player))
            {
                BeliefInfo info;
                Assert.IsFalse(world.TryGetBelief(guard, out info));
                float[] p = null;
                Assert.AreEqual(0, world.GetBelief(guard, ref p));
                Assert.AreEqual(0, world.GetSearchPoints(guard, new SearchPoint[4]));
                BrainSettings brain = world.GetBrain(guard);
                BrainSettings bad = brain;
                bad.GiveUpProbability = 1.5f;
                var e = Assert.Throws<ArgusException>(() => world.SetBrain(guard, bad));
                StringAssert.Contains("give-up", e.Message);
                Assert.AreEqual(brain.GiveUpProbability, world.GetBrain(guard).GiveUpProbability);
                TargetDef td = TargetDef.Default();
                Assert.AreEqual(1.4f, td.TopSpeed);
                td.TopSpeed = float.NaN;
                Assert.Throws<ArgusException>(() => world.CreateTarget(td));
            }
        }
    }
}
