using System;
using System.Diagnostics;
using System.Reflection;
using Argus;

// The C# half of the benchmark (run.sh): the `town` scene of town.rs, built and driven the same way
// through Argus.World (bulk poses, step, every event read). Usage: Argus.Bench.exe AGENTS STEPS.
// Prints "ns_per_step N checksum C bytes_per_step B".
static class TownBench
{
    static ulong _rng = 7 | 1;

    static ulong Next()
    {
        _rng ^= _rng << 13;
        _rng ^= _rng >> 7;
        _rng ^= _rng << 17;
        return _rng;
    }

    static float F(float lo, float hi)
    {
        return lo + (hi - lo) * ((float)(Next() >> 40) / (float)(1UL << 24));
    }

    const float Tau = 6.28318548f;
    const int Frames = 120;

    static int Main(string[] args)
    {
        int n = args.Length > 0 ? int.Parse(args[0]) : 2000;
        int steps = args.Length > 1 ? int.Parse(args[1]) : 300;
        float side = 256.0f * (float)Math.Sqrt(n / 10000.0f);
        using (var world = new World())
        {
            for (int i = 0; i < n / 5; i++)
            {
                OccluderDef def = OccluderDef.Default();
                Vec3 half = new Vec3(F(0.5f, 3.5f), F(0.5f, 3.5f), F(0.5f, 3.5f));
                def.Shape = ShapeKind.Box;
                def.HalfExtents = half;
                def.Position = new Vec3(F(0, side), half.Y, F(0, side));
                double a = F(0, Tau) / 2.0;
                def.Rotation = new Quat(0, (float)Math.Sin(a), 0, (float)Math.Cos(a));
                world.CreateOccluder(def);
            }
            var agents = new AgentId[n];
            var positions = new Vec3[n];
            var forwards = new Vec3[n];
            var angles = new float[n];
            for (int i = 0; i < n; i++)
            {
                AgentDef def = AgentDef.Default();
                def.Position = new Vec3(F(0, side), 0, F(0, side));
                float a = F(0, Tau);
                def.Forward = new Vec3((float)Math.Sin(a), 0, (float)Math.Cos(a));
                def.Sight.ViewRadius = 15;
                def.Sight.ViewAngle = 110;
                def.Sight.RateHz = 10;
                agents[i] = world.CreateAgent(def);
                positions[i] = def.Position;
                angles[i] = a;
            }
            int m = n / 10;
            var targets = new TargetId[m];
            var homes = new Vec3[m];
            for (int i = 0; i < m; i++)
            {
                TargetDef def = TargetDef.Default();
                def.Position = new Vec3(F(0, side), 0, F(0, side));
                targets[i] = world.CreateTarget(def);
                homes[i] = def.Position;
            }
            var tpositions = new Vec3[m];
            var tforwards = new Vec3[m];
            for (int i = 0; i < m; i++) tforwards[i] = new Vec3(1, 0, 0);
            // The game's side of a frame (where everyone faces, where targets walk) is computed ahead
            // for Frames frames and copied in: the benchmark times Argus and its bindings, not Math.Sin.
            var forwardFrames = new Vec3[Frames][];
            var targetFrames = new Vec3[Frames][];
            for (int f = 0; f < Frames; f++)
            {
                forwardFrames[f] = new Vec3[n];
                targetFrames[f] = new Vec3[m];
                for (int i = 0; i < n; i++)
                {
                    double a = angles[i] + f * 0.02;
                    forwardFrames[f][i] = new Vec3((float)Math.Sin(a), 0, (float)Math.Cos(a));
                }
                for (int i = 0; i < m; i++)
                {
                    float dx = (float)Math.Sin(f * 0.05 + i) * 3.0f;
                    targetFrames[f][i] = new Vec3(homes[i].X + dx, 0, homes[i].Z);
                }
            }
            ulong checksum = 0;

            MethodInfo counter = typeof(GC).GetMethod("GetAllocatedBytesForCurrentThread");
            Func<long> allocated = counter == null ? null : (Func<long>)Delegate.CreateDelegate(typeof(Func<long>), counter);
            long bytes0 = allocated == null ? 0 : allocated(); // first call builds the counter's wrapper
            var watch = new Stopwatch();
            for (int f = 0; f < 60 + steps; f++)
            {
                if (f == 60)
                {
                    if (allocated != null) bytes0 = allocated();
                    watch.Start();
                }
                Array.Copy(forwardFrames[f % Frames], forwards, n);
                Array.Copy(targetFrames[f % Frames], tpositions, m);
                world.SetAgentPoses(agents, positions, forwards, n);
                world.SetTargetPoses(targets, tpositions, tforwards, m);
                world.Step(1.0f / 60.0f);
                PerceptArray p = world.Percepts;
                for (int k = 0; k < p.Length; k++) checksum += p[k].Agent.Index + p[k].Target.Index;
                BrainEventArray b = world.BrainEvents;
                for (int k = 0; k < b.Length; k++) checksum += (ulong)b[k].To;
                ForgetEventArray g = world.ForgetEvents;
                for (int k = 0; k < g.Length; k++) checksum += g[k].Target.Index;
                AwarenessEventArray w = world.AwarenessEvents;
                for (int k = 0; k < w.Length; k++) checksum += (ulong)w[k].To;
            }
            watch.Stop();
            long bytes = allocated == null ? -1 : allocated() - bytes0;
            double ns = watch.Elapsed.TotalMilliseconds * 1e6 / steps;
            Console.WriteLine("ns_per_step {0:F0} checksum {1} bytes_per_step {2}", ns, checksum,
                bytes < 0 ? "unknown" : (bytes / (double)steps).ToString("F2"));
        }
        return 0;
    }
}
