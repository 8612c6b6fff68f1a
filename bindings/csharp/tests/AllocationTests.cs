using System;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>The steady state (push poses, step, read every event by index and by foreach) allocates
    /// nothing managed.</summary>
    [TestFixture]
    public class AllocationTests
    {
        [Test]
        public void AStepWithPosesAndEventsAllocatesZeroManagedBytes()
        {
            using (var world = new World())
            {
                const int n = 200;
                var agents = new AgentId[n];
                var targets = new TargetId[n / 10];
                var positions = new Vec3[n];
                var forwards = new Vec3[n];
                var tpositions = new Vec3[targets.Length];
                var tforwards = new Vec3[targets.Length];
                for (int i = 0; i < n; i++)
                {
                    AgentDef def = AgentDef.Default();
                    def.Position = Support.V(i % 20 * 3, 0, i / 20 * 3);
                    agents[i] = world.CreateAgent(def);
                }
                for (int i = 0; i < targets.Length; i++) targets[i] = world.CreateTarget(TargetDef.Default());
                var percepts = new PerceptEvent[1024];
                long sink = 0;
                Action<int> frame = step =>
                {
                    for (int i = 0; i < n; i++)
                    {
                        float a = step * 0.1f + i;
                        positions[i] = new Vec3(i % 20 * 3, 0, i / 20 * 3);
                        forwards[i] = new Vec3((float)Math.Sin(a), 0, (float)Math.Cos(a));
                    }
                    for (int i = 0; i < targets.Length; i++)
                    {
                        tpositions[i] = new Vec3(step * 0.2f % 60, 0, i * 3);
                        tforwards[i] = new Vec3(1, 0, 0);
                    }
                    world.SetAgentPoses(agents, positions, forwards, n);
                    world.SetTargetPoses(targets, tpositions, tforwards, targets.Length);
                    world.Step(1 / 30f);
                    PerceptArray p = world.Percepts;
                    for (int i = 0; i < p.Length; i++) sink += p[i].Target.Index;
                    if (p.Length <= percepts.Length) p.CopyTo(percepts);
                    BrainEventArray b = world.BrainEvents;
                    for (int i = 0; i < b.Length; i++) sink += (long)b[i].To;
                    ForgetEventArray f = world.ForgetEvents;
                    for (int i = 0; i < f.Length; i++) sink += f[i].Target.Index;
                    AwarenessEventArray w = world.AwarenessEvents;
                    for (int i = 0; i < w.Length; i++) sink += (long)w[i].To;
                    // foreach over every view: struct enumerators, nothing boxed.
                    foreach (PerceptEvent e in p) sink += e.Agent.Index;
                    foreach (BrainEvent e in b) sink += (long)e.From;
                    foreach (ForgetEvent e in f) sink += e.Agent.Index;
                    foreach (AwarenessEvent e in w) sink += (long)e.From;
                    foreach (SightEvent e in world.SeenEvents) sink += e.Target.Index;
                    foreach (SightEvent e in world.LostEvents) sink += e.Agent.Index;
                };
                // Warm up: JIT-compiles every path (first forget/awareness events appear late) and grows native buffers.
                for (int s = 0; s < 1000; s++) frame(s);
                GC.Collect();
                GC.WaitForPendingFinalizers(); // earlier tests' forgotten worlds are finalised now, not during the window
                // The counters' own first calls allocate (Mono builds their wrappers lazily): call them once.
                Support.AllocatedBytes();
                GC.CollectionCount(0);
                long before = Support.AllocatedBytes();
                int gcBefore = GC.CollectionCount(0);
                for (int s = 1000; s < 2000; s++) frame(s);
                long allocated = Support.AllocatedBytes() - before;
                Assert.GreaterOrEqual(before, 0L, "this runtime cannot count allocated bytes");
                Console.WriteLine("managed bytes per steady-state step: {0} (over 1000 steps; {1} events read)",
                    allocated / 1000.0, sink);
                Assert.AreEqual(0, allocated, "managed bytes allocated over 1000 steps");
                // Collections are process-wide (NUnit's own threads allocate), so they are reported, not asserted.
                Console.WriteLine("gen-0 collections during the window (any thread): {0}", GC.CollectionCount(0) - gcBefore);
                Assert.Greater(sink, 0, "events were read");
            }
        }
    }
}
