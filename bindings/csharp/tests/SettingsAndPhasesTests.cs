using System;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>Per-sense settings of a live agent, and cover/flank queries in two phases.</summary>
    [TestFixture]
    public class SettingsAndPhasesTests
    {
        [Test]
        public void EachSenseIsReadAndWrittenAsOneGroupAndBadValuesChangeNothing()
        {
            using (var world = new World())
            {
                AgentId guard = WorldTests.Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                TargetId far = WorldTests.PointTarget(world, Support.V(0, 0, 15));
                Assert.IsFalse(world.CanSee(guard, far).Seen, "15 m is beyond the default 10 m");

                SightSettings sight = world.GetSight(guard);
                Assert.AreEqual(10f, sight.ViewRadius);
                sight.ViewRadius = 20;
                world.SetSight(guard, sight);
                Assert.AreEqual(20f, world.GetSight(guard).ViewRadius);
                Assert.AreEqual(20f, world.GetAgentDef(guard).Sight.ViewRadius, "the def reads the same group");
                Assert.IsTrue(world.CanSee(guard, far).Seen);

                sight.ViewAngle = float.NaN;
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(() => world.SetSight(guard, sight)).Code);
                Assert.AreEqual(90f, world.GetSight(guard).ViewAngle, "a refused group leaves the agent unchanged");

                HearingSettings hearing = world.GetHearing(guard);
                hearing.Sensitivity = 2;
                world.SetHearing(guard, hearing);
                Assert.AreEqual(2f, world.GetHearing(guard).Sensitivity);
                MemorySettings memory = world.GetMemorySettings(guard);
                memory.DecayPerSecond = 0.5f;
                world.SetMemorySettings(guard, memory);
                Assert.AreEqual(0.5f, world.GetMemorySettings(guard).DecayPerSecond);
                BrainSettings brain = world.GetBrain(guard);
                Assert.AreEqual(4f, brain.SearchDuration, "the lesson's 4 s search");
                brain.SearchDuration = 6;
                world.SetBrain(guard, brain);
                Assert.AreEqual(6f, world.GetBrain(guard).SearchDuration);
                AwarenessSettings awareness = world.GetAwareness(guard);
                awareness.Enabled = true;
                world.SetAwareness(guard, awareness);
                Assert.IsTrue(world.GetAwareness(guard).Enabled);
            }
        }

        [Test]
        public void CoverAndFlankInTwoPhasesGiveTheOneCallAnswers()
        {
            using (var world = new World())
            {
                world.CreateBox(Support.V(5, 1, 5), Quat.Identity, Support.V(1, 1, 1));
                world.CreateBox(Support.V(-4, 1, 6), Quat.Identity, Support.V(1.5f, 1, 0.5f));
                var threats = new[]
                {
                    new Threat { Position = Support.V(5, 0, 0), Eye = Support.V(5, 1.6f, 0), Forward = Support.V(0, 0, 1) },
                    new Threat { Position = Support.V(-4, 0, 0), Eye = Support.V(-4, 1.6f, 0), Forward = Support.V(0, 0, 1) },
                };
                var spots = new Vec3[40];
                for (int i = 0; i < spots.Length; i++) spots[i] = Support.V(-8 + (i % 8) * 2.3f, 0, 3 + (i / 8) * 1.7f);
                CoverQuery cover = CoverQuery.Default();
                cover.Candidates.Kind = CandidateKind.Points;
                cover.Mode = CoverMode.HiddenFromMost;
                cover.TopK = 5;
                TacticalResult[] direct = null, phased = new TacticalResult[1];
                TacticalAnswer a1, a2;
                int n1 = world.FindCover(cover, spots, threats, ref direct, out a1);
                Assert.Greater(n1, 0, "the scene has cover");

                RayArray rays = world.BeginFindCover(cover, spots, threats);
                Assert.Greater(rays.Length, 0);
                var hits = new RayHit[rays.Length];
                var engine = new BoxEngine();
                engine.Centers.Add(Support.V(5, 1, 5));
                engine.Halves.Add(Support.V(1, 1, 1));
                engine.Centers.Add(Support.V(-4, 1, 6));
                engine.Halves.Add(Support.V(1.5f, 1, 0.5f));
                for (int i = 0; i < rays.Length; i++) hits[i] = engine.Cast(rays[i]);
                Assert.AreEqual(Result.InvalidArgument,
                    Assert.Throws<ArgusException>(() => world.FinishFindCover(hits, hits.Length - 1, ref phased, out a2)).Code,
                    "a wrong count is refused and the query stays pending");
                int n2 = world.FinishFindCover(hits, hits.Length, ref phased, out a2);
                Assert.AreEqual(n1, n2);
                Assert.AreEqual(a1.Found, a2.Found);
                for (int i = 0; i < n1; i++)
                {
                    Assert.AreEqual(direct[i].CandidateIndex, phased[i].CandidateIndex);
                    Assert.AreEqual(direct[i].Score, phased[i].Score, 1e-5f);
                }
                Assert.AreEqual(Result.NoStepInProgress, Assert.Throws<ArgusException>(() => world.CancelFindCover()).Code);

            }
        }
    }
}
