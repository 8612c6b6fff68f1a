// A console program as a plain .NET/Mono user writes it: it references only the packaged Argus.dll
// (lib/net45 of the .nupkg; tests/release/netstandard_check.sh builds it on lib/netstandard2.0) and
// finds libargus beside itself. It runs the lesson's vision and hearing traces and prints
// "trace: N passed, N failed"; with the native library missing it prints the bindings' message and exits 3.
using System;
using Argus;

static class Trace
{
    static int passed, failed;

    static void Check(bool ok, string what)
    {
        if (ok) passed++;
        else { failed++; Console.Error.WriteLine("FAILED: " + what); }
    }

    static Vec3 V(float x, float y, float z) { return new Vec3 { X = x, Y = y, Z = z }; }

    static Vec3 AtAngle(float degrees, float distance)
    {
        double r = degrees * Math.PI / 180.0;
        return V((float)(Math.Sin(r) * distance), 0, (float)(Math.Cos(r) * distance));
    }

    static int Main()
    {
        try
        {
            Library.EnsureLoaded();
        }
        catch (DllNotFoundException e)
        {
            Console.WriteLine(e.Message);
            return 3;
        }
        Console.WriteLine("Argus " + Library.Version + ", assembly " +
            typeof(World).Assembly.GetName().Version);
        using (var world = new World())
        {
            // The lesson's guard: at the origin facing +Z, eye at its feet, sensing every step.
            AgentDef def = AgentDef.Default();
            def.Position = V(0, 0, 0);
            def.Forward = V(0, 0, 1);
            def.Sight.EyeOffset = V(0, 0, 0);
            def.Sight.RateHz = 0;
            AgentId guard = world.CreateAgent(def);
            object[][] cases = {
                new object[] { V(0, 0, 5), true, "ahead" }, new object[] { V(0, 0, 10), true, "at the radius" },
                new object[] { V(0, 0, 15), false, "too far" }, new object[] { AtAngle(45, 8), true, "on the cone edge" },
                new object[] { AtAngle(46, 8), false, "past the edge" }, new object[] { V(0, 0, -5), false, "behind" },
            };
            foreach (object[] c in cases)
            {
                TargetDef t = TargetDef.Default();
                t.Position = (Vec3)c[0];
                t.SetCheckPoints(V(0, 0, 0));
                TargetId id = world.CreateTarget(t);
                Check(world.CanSee(guard, id).Seen == (bool)c[1], "vision: " + c[2]);
                world.DestroyTarget(id);
            }
            // Hearing: a running footstep (loudness 15) 10 m away is heard at strength 1 - 10/15.
            SoundDef sound = SoundDef.Default();
            sound.Position = V(10, 0, 0);
            sound.Loudness = 15;
            world.EmitSound(sound);
            world.Step(0.1f);
            PerceptArray percepts = world.Percepts;
            Check(percepts.Length == 1, "hearing: one percept");
            if (percepts.Length == 1)
                Check(Math.Abs(percepts[0].Strength - (1 - 10f / 15f)) < 1e-6, "hearing: strength");
            sound.Loudness = 6; // walking: out of earshot
            world.EmitSound(sound);
            world.Step(0.1f);
            Check(world.Percepts.Length == 0, "hearing: a walk at 10 m is not heard");
        }
        Console.WriteLine("loaded: " + Library.LoadedPath());
        Console.WriteLine("trace: " + passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
