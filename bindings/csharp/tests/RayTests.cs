using System;
using System.Collections.Generic;
using System.Text;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>Engine rays (callback and two-phase) give the built-in backend's answers.</summary>
    [TestFixture]
    public class RayTests
    {
        // A seeded scene of axis-aligned boxes with agents walking circles among targets.
        sealed class Scene
        {
            public readonly List<AgentId> Agents = new List<AgentId>();
            public readonly List<TargetId> Targets = new List<TargetId>();
            public readonly BoxEngine Engine = new BoxEngine();
            uint _rng;

            public Scene(World world, uint seed)
            {
                _rng = seed * 2654435761u + 1;
                for (int i = 0; i < 30; i++)
                {
                    Vec3 half = Support.V(F(0.3f, 2), F(0.5f, 2), F(0.3f, 2));
                    Vec3 center = Support.V(F(0, 40), half.Y, F(0, 40));
                    world.CreateBox(center, Quat.Identity, half);
                    Engine.Centers.Add(center);
                    Engine.Halves.Add(half);
                }
                for (int i = 0; i < 25; i++)
                {
                    AgentDef def = AgentDef.Default();
                    def.Position = Support.V(F(0, 40), 0, F(0, 40));
                    float a = F(0, 6.28f);
                    def.Forward = Support.V((float)Math.Sin(a), 0, (float)Math.Cos(a));
                    def.Sight.ViewRadius = 15;
                    Agents.Add(world.CreateAgent(def));
                }
                for (int i = 0; i < 12; i++)
                {
                    TargetDef def = TargetDef.Default();
                    def.Position = Support.V(F(0, 40), 0, F(0, 40));
                    Targets.Add(world.CreateTarget(def));
                }
            }

            float F(float lo, float hi)
            {
                _rng ^= _rng << 13;
                _rng ^= _rng >> 17;
                _rng ^= _rng << 5;
                return lo + (hi - lo) * (_rng % 100000) / 100000f;
            }

            public void Drive(World world, int step)
            {
                for (int i = 0; i < Targets.Count; i++)
                {
                    float a = step * 0.05f + i;
                    world.SetTargetPose(Targets[i], Support.V(20 + 15 * (float)Math.Cos(a), 0, 20 + 15 * (float)Math.Sin(a)), Support.V(0, 0, 1));
                }
                for (int i = 0; i < Agents.Count; i++)
                {
                    float a = step * 0.07f + i * 0.5f;
                    world.SetAgentPose(Agents[i], world.GetAgentState(Agents[i]).Position,
                        Support.V((float)Math.Sin(a), 0, (float)Math.Cos(a)));
                }
            }
        }

        static string Events(World world)
        {
            var s = new StringBuilder();
            PerceptArray p = world.Percepts;
            for (int i = 0; i < p.Length; i++)
                s.AppendFormat("P{0}:{1}:{2}:{3:R}:{4:R};", p[i].Agent.Index, p[i].Target.Index, p[i].Kind, p[i].Position.X, p[i].Strength);
            BrainEventArray b = world.BrainEvents;
            for (int i = 0; i < b.Length; i++) s.AppendFormat("B{0}:{1}>{2};", b[i].Agent.Index, b[i].From, b[i].To);
            ForgetEventArray f = world.ForgetEvents;
            for (int i = 0; i < f.Length; i++) s.AppendFormat("F{0}:{1};", f[i].Agent.Index, f[i].Target.Index);
            AwarenessEventArray w = world.AwarenessEvents;
            for (int i = 0; i < w.Length; i++) s.AppendFormat("W{0}:{1}>{2};", w[i].Agent.Index, w[i].From, w[i].To);
            return s.ToString();
        }

        static List<string> Run(string mode, uint seed)
        {
            WorldDef def = WorldDef.Default();
            if (mode != "builtin") def.RayBackend = RayBackend.Engine;
            var stream = new List<string>();
            using (var world = new World(def))
            {
                var scene = new Scene(world, seed);
                if (mode == "callback") world.SetRayCaster(scene.Engine);
                var hits = new RayHit[0];
                for (int step = 0; step < 80; step++)
                {
                    scene.Drive(world, step);
                    if (mode == "two-phase")
                    {
                        RayArray rays = world.BeginStep(1 / 30f);
                        if (hits.Length < rays.Length) hits = new RayHit[rays.Length];
                        for (int i = 0; i < rays.Length; i++) hits[i] = scene.Engine.Cast(rays[i]);
                        world.FinishStep(hits, rays.Length);
                    }
                    else
                    {
                        world.Step(1 / 30f);
                    }
                    stream.Add(Events(world));
                }
                if (mode == "callback") Assert.Greater(scene.Engine.RaysSeen, 0, "the engine was asked");
            }
            return stream;
        }

        [Test]
        public void CallbackAndTwoPhaseStepsGiveTheBuiltInAnswers()
        {
            foreach (uint seed in new uint[] { 1, 2, 3 })
            {
                List<string> builtin = Run("builtin", seed);
                int percepts = 0;
                foreach (string s in builtin) percepts += s.Split('P').Length - 1;
                Assert.Greater(percepts, 50, "the scene exercises sight");
                CollectionAssert.AreEqual(builtin, Run("callback", seed), "callback, seed " + seed);
                CollectionAssert.AreEqual(builtin, Run("two-phase", seed), "two-phase, seed " + seed);
            }
        }

        [Test]
        public void AnEngineRayWorldWithoutCasterRefusesToStep()
        {
            WorldDef def = WorldDef.Default();
            def.RayBackend = RayBackend.Engine;
            using (var world = new World(def))
            {
                WorldTests.Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                WorldTests.PointTarget(world, Support.V(0, 0, 5));
                Assert.AreEqual(Result.NoRayBackend, Assert.Throws<ArgusException>(() => world.Step(0.1f)).Code);
                world.BeginStep(0.1f);
                Assert.AreEqual(Result.StepInProgress, Assert.Throws<ArgusException>(() => world.Step(0.1f)).Code);
                world.CancelStep();
                Assert.AreEqual(Result.NoStepInProgress, Assert.Throws<ArgusException>(() => world.CancelStep()).Code);
            }
        }

        [Test]
        public void ACallbackThatThrowsDoesNotCrashAndIsReportedAfterTheCall()
        {
            WorldDef def = WorldDef.Default();
            def.RayBackend = RayBackend.Engine;
            using (var world = new World(def))
            {
                AgentId guard = WorldTests.Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                TargetId target = WorldTests.PointTarget(world, Support.V(0, 0, 5));
                var engine = new BoxEngine { Throw = true };
                world.SetRayCaster(engine);
                var e = Assert.Throws<RayCallbackException>(() => world.Step(0.1f));
                Assert.IsInstanceOf<InvalidOperationException>(e.InnerException);
                Assert.AreEqual(0, world.Percepts.Length, "the failed step published nothing");
                Assert.AreEqual(0.0, world.Time, "the failed step did not happen");
                Assert.AreEqual(1, engine.Calls);

                engine.Throw = false;
                world.Step(0.1f);
                Assert.AreEqual(1, world.Percepts.Length, "the world works on after the failure");
                Assert.IsTrue(world.CanSee(guard, target).Seen);
                world.SetRayCaster(null);
                Assert.AreEqual(Result.NoRayBackend, Assert.Throws<ArgusException>(() => world.Step(0.1f)).Code);
            }
        }

        [Test]
        public void ACallbackThatThrowsLeavesTheWorldExactlyAsItWas()
        {
            // A chasing guard whose engine fails: before ABI 3 the batch counted as blocked, so the
            // guard lost its target (Chasing -> Searching) and time advanced.
            WorldDef def = WorldDef.Default();
            def.RayBackend = RayBackend.Engine;
            using (var world = new World(def))
            {
                AgentId guard = WorldTests.Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                WorldTests.PointTarget(world, Support.V(0, 0, 5));
                var engine = new BoxEngine();
                world.SetRayCaster(engine);
                for (int i = 0; i < 3; i++) world.Step(0.1f);
                Assert.AreEqual(BrainState.Chasing, world.GetAgentState(guard).BrainState);
                Assert.AreEqual(1, world.Percepts.Length);
                byte[] before = world.Save();
                double time = world.Time;
                engine.Throw = true;
                Assert.Throws<RayCallbackException>(() => world.Step(0.1f));
                CollectionAssert.AreEqual(before, world.Save(), "a save after the failed step equals the one before");
                Assert.AreEqual(time, world.Time);
                Assert.AreEqual(BrainState.Chasing, world.GetAgentState(guard).BrainState);
                Assert.AreEqual(1, world.Percepts.Length, "the event arrays are still the last step's");
                engine.Throw = false;
                world.Step(0.1f);
                Assert.AreEqual(BrainState.Chasing, world.GetAgentState(guard).BrainState);
            }
        }

        [Test]
        public void AForgottenWorldWithACasterIsStillCollected()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            uint before = Library.LiveWorldCount;
            var thread = new System.Threading.Thread(() =>
            {
                ForgetWorldsWithCasters();
                WorldTests.ScrubStack(64);
            });
            thread.Start();
            thread.Join();
            WorldTests.CollectUntil(before);
            Assert.AreEqual(before, Library.LiveWorldCount);
        }

        static void ForgetWorldsWithCasters()
        {
            for (int i = 0; i < 100; i++) new World().SetRayCaster(new BoxEngine());
        }
    }
}
