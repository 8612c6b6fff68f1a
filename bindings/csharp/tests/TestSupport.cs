using System;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>The library's test hooks: exported only by a test build (cargo feature `testing`, e.g.
    /// <c>cargo build --lib --features testing</c>), never declared in argus.h or the bindings.</summary>
    public static class TestHooks
    {
        /// <summary>The panic firewall's hook's symbol.</summary>
        public const string TriggerPanicSymbol = "argus_testing_trigger_panic";

        /// <summary>Panics inside the library: returns Panic and poisons the world.</summary>
        [DllImport(NativeMethods.Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        public static extern Result argus_testing_trigger_panic(WorldHandle world);
    }

    /// <summary>Paths, processes and the managed allocation counter the tests share.</summary>
    public static class Support
    {
        /// <summary>The checkout's root: $ARGUS_ROOT, else found upwards from the test assembly.</summary>
        public static string Root
        {
            get
            {
                string env = Environment.GetEnvironmentVariable("ARGUS_ROOT");
                if (!string.IsNullOrEmpty(env)) return env;
                string dir = Path.GetDirectoryName(typeof(Support).Assembly.Location);
                while (dir != null && !File.Exists(Path.Combine(dir, "include", "argus.h"))) dir = Path.GetDirectoryName(dir);
                if (dir == null) throw new InvalidOperationException("set ARGUS_ROOT to the checkout");
                return dir;
            }
        }

        /// <summary>The directory holding libargus.so ($ARGUS_LIB_DIR, else target/ci).</summary>
        public static string LibDir
        {
            get
            {
                string env = Environment.GetEnvironmentVariable("ARGUS_LIB_DIR");
                return !string.IsNullOrEmpty(env) ? env : Path.Combine(Root, "target", "ci");
            }
        }

        /// <summary>Runs a program; returns its stdout, failing the test on a non-zero exit.</summary>
        public static string Run(string file, string args)
        {
            string output;
            int code = Run(file, args, null, out output);
            Assert.AreEqual(0, code, file + " " + args + " failed:\n" + output);
            return output;
        }

        /// <summary>Runs a program (with LD_LIBRARY_PATH replaced when libraryPath is not null); returns its
        /// exit code, stdout and stderr in output.</summary>
        public static int Run(string file, string args, string libraryPath, out string output)
        {
            var info = new ProcessStartInfo(file, args)
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                WorkingDirectory = Root,
            };
            if (libraryPath != null) info.EnvironmentVariables["LD_LIBRARY_PATH"] = libraryPath;
            using (var p = Process.Start(info))
            {
                var stderrTask = p.StandardError.ReadToEndAsync();
                string stdout = p.StandardOutput.ReadToEnd();
                p.WaitForExit();
                output = stdout + stderrTask.Result;
                return p.ExitCode;
            }
        }

        // GC.GetAllocatedBytesForCurrentThread exists in Mono 6's runtime but not in the reference
        // assemblies mcs compiles against: bind it once through reflection (no allocation per call).
        static readonly Func<long> AllocatedBytesFn = BindAllocatedBytes();

        static Func<long> BindAllocatedBytes()
        {
            MethodInfo m = typeof(GC).GetMethod("GetAllocatedBytesForCurrentThread", BindingFlags.Public | BindingFlags.Static);
            return m == null ? null : (Func<long>)Delegate.CreateDelegate(typeof(Func<long>), m);
        }

        /// <summary>Managed bytes this thread allocated so far (exact), or -1 when the runtime cannot say.</summary>
        public static long AllocatedBytes()
        {
            return AllocatedBytesFn == null ? -1 : AllocatedBytesFn();
        }

        public static Vec3 V(float x, float y, float z)
        {
            return new Vec3(x, y, z);
        }
    }

    /// <summary>An "engine" that casts rays against its own list of axis-aligned boxes (slab test), as a
    /// game engine casts against its colliders; counts its calls.</summary>
    public sealed class BoxEngine : IRayCaster
    {
        public readonly System.Collections.Generic.List<Vec3> Centers = new System.Collections.Generic.List<Vec3>();
        public readonly System.Collections.Generic.List<Vec3> Halves = new System.Collections.Generic.List<Vec3>();
        public int Calls;
        public int RaysSeen;
        public bool Throw;

        public void CastRays(RayArray rays, RayHits hits)
        {
            Calls++;
            RaysSeen += rays.Length;
            if (Throw) throw new InvalidOperationException("engine failure on purpose");
            for (int i = 0; i < rays.Length; i++) hits[i] = Cast(rays[i]);
        }

        public RayHit Cast(EngineRay ray)
        {
            float best = float.PositiveInfinity;
            for (int b = 0; b < Centers.Count; b++)
            {
                float t;
                if (Slab(ray, Centers[b], Halves[b], out t) && t < best) best = t;
            }
            var hit = new RayHit();
            if (best <= ray.MaxDistance)
            {
                hit.Hit = true;
                hit.Distance = best;
            }
            return hit;
        }

        static bool Slab(EngineRay ray, Vec3 c, Vec3 h, out float t)
        {
            float[] o = { ray.Origin.X - c.X, ray.Origin.Y - c.Y, ray.Origin.Z - c.Z };
            float[] d = { ray.Direction.X, ray.Direction.Y, ray.Direction.Z };
            float[] e = { h.X, h.Y, h.Z };
            float lo = 0, hi = float.PositiveInfinity;
            t = 0;
            bool inside = true;
            for (int k = 0; k < 3; k++)
            {
                if (Math.Abs(o[k]) > e[k]) inside = false;
                if (Math.Abs(d[k]) < 1e-12f)
                {
                    if (Math.Abs(o[k]) > e[k]) return false;
                    continue;
                }
                float t1 = (-e[k] - o[k]) / d[k], t2 = (e[k] - o[k]) / d[k];
                if (t1 > t2) { float s = t1; t1 = t2; t2 = s; }
                lo = Math.Max(lo, t1);
                hi = Math.Min(hi, t2);
                if (lo > hi) return false;
            }
            if (inside) return false; // engines ignore colliders that contain the ray's origin
            t = lo;
            return true;
        }
    }
}
