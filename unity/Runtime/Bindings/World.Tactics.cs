using System;

namespace Argus
{
    public sealed unsafe partial class World
    {
        /// <summary>Cover spots hidden from the threats, best first, into results (grown when too small);
        /// returns their number. Start from <see cref="CoverQuery.Default"/>; candidatePoints is used when
        /// query.Candidates.Kind is CANDIDATES_POINTS (may be null otherwise).</summary>
        public int FindCover(CoverQuery query, Vec3[] candidatePoints, Threat[] threats, ref TacticalResult[] results,
            out TacticalAnswer answer)
        {
            if (results == null) results = new TacticalResult[Math.Max(1, (int)query.TopK)];
            while (true)
            {
                uint n;
                TacticalAnswer a;
                Result r;
                fixed (Vec3* p = candidatePoints)
                fixed (Threat* t = threats)
                fixed (TacticalResult* out_ = results)
                {
                    query.Candidates.Points = p;
                    query.Candidates.PointCount = (uint)(candidatePoints == null ? 0 : candidatePoints.Length);
                    query.Threats = t;
                    query.ThreatCount = (uint)(threats == null ? 0 : threats.Length);
                    r = NativeMethods.argus_world_find_cover(_handle, &query, out_, (uint)results.Length, &n, &a);
                }
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    answer = a;
                    return (int)n;
                }
                results = new TacticalResult[n];
            }
        }

        /// <summary>Flanking spots behind the threat's facing, best first, into results (grown when too
        /// small); returns their number. Start from <see cref="FlankQuery.Default"/>.</summary>
        public int FindFlank(FlankQuery query, Vec3[] candidatePoints, ref TacticalResult[] results, out TacticalAnswer answer)
        {
            if (results == null) results = new TacticalResult[Math.Max(1, (int)query.TopK)];
            while (true)
            {
                uint n;
                TacticalAnswer a;
                Result r;
                fixed (Vec3* p = candidatePoints)
                fixed (TacticalResult* out_ = results)
                {
                    query.Candidates.Points = p;
                    query.Candidates.PointCount = (uint)(candidatePoints == null ? 0 : candidatePoints.Length);
                    r = NativeMethods.argus_world_find_flank(_handle, &query, out_, (uint)results.Length, &n, &a);
                }
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    answer = a;
                    return (int)n;
                }
                results = new TacticalResult[n];
            }
        }
    }
}
