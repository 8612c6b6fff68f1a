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
            return FindCover(query, candidatePoints, null, threats, ref results, out answer);
        }

        /// <summary>FindCover with extra danger per candidate (null = none): candidateDanger[i] is added to
        /// the map's value at candidate i and needs one value per candidate; read during the call only.</summary>
        public int FindCover(CoverQuery query, Vec3[] candidatePoints, float[] candidateDanger, Threat[] threats,
            ref TacticalResult[] results, out TacticalAnswer answer)
        {
            if (results == null) results = new TacticalResult[Math.Max(1, (int)query.TopK)];
            while (true)
            {
                uint n;
                TacticalAnswer a;
                Result r;
                fixed (Vec3* p = candidatePoints)
                fixed (float* d = candidateDanger)
                fixed (Threat* t = threats)
                fixed (TacticalResult* out_ = results)
                {
                    query.Candidates.Points = p;
                    query.Candidates.PointCount = (uint)(candidatePoints == null ? 0 : candidatePoints.Length);
                    query.CandidateDanger = d;
                    query.CandidateDangerCount = (uint)(candidateDanger == null ? 0 : candidateDanger.Length);
                    query.Threats = t;
                    query.ThreatCount = (uint)(threats == null ? 0 : threats.Length);
                    r = NativeMethods.argus_world_find_cover(H, &query, out_, (uint)results.Length, &n, &a);
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
            return FindFlank(query, candidatePoints, null, ref results, out answer);
        }

        /// <summary>FindFlank with extra danger per candidate (null = none), as for FindCover.</summary>
        public int FindFlank(FlankQuery query, Vec3[] candidatePoints, float[] candidateDanger, ref TacticalResult[] results,
            out TacticalAnswer answer)
        {
            if (results == null) results = new TacticalResult[Math.Max(1, (int)query.TopK)];
            while (true)
            {
                uint n;
                TacticalAnswer a;
                Result r;
                fixed (Vec3* p = candidatePoints)
                fixed (float* d = candidateDanger)
                fixed (TacticalResult* out_ = results)
                {
                    query.Candidates.Points = p;
                    query.Candidates.PointCount = (uint)(candidatePoints == null ? 0 : candidatePoints.Length);
                    query.CandidateDanger = d;
                    query.CandidateDangerCount = (uint)(candidateDanger == null ? 0 : candidateDanger.Length);
                    r = NativeMethods.argus_world_find_flank(H, &query, out_, (uint)results.Length, &n, &a);
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

        // ---- two phases (the engine casts the rays, e.g. one RaycastCommand batch) -------------------------------

        /// <summary>First half of a cover query: every ray it could need (threat eye → spot), valid until
        /// FinishFindCover succeeds, CancelFindCover, the next BeginFindCover or Dispose.</summary>
        public RayArray BeginFindCover(CoverQuery query, Vec3[] candidatePoints, Threat[] threats)
        {
            return BeginFindCover(query, candidatePoints, null, threats);
        }

        /// <summary>BeginFindCover with extra danger per candidate (null = none); the array may change once
        /// this returns (the pending query keeps the scores).</summary>
        public RayArray BeginFindCover(CoverQuery query, Vec3[] candidatePoints, float[] candidateDanger, Threat[] threats)
        {
            NativeRayArray rays;
            fixed (Vec3* p = candidatePoints)
            fixed (float* d = candidateDanger)
            fixed (Threat* t = threats)
            {
                query.Candidates.Points = p;
                query.Candidates.PointCount = (uint)(candidatePoints == null ? 0 : candidatePoints.Length);
                query.CandidateDanger = d;
                query.CandidateDangerCount = (uint)(candidateDanger == null ? 0 : candidateDanger.Length);
                query.Threats = t;
                query.ThreatCount = (uint)(threats == null ? 0 : threats.Length);
                Check(NativeMethods.argus_world_find_cover_begin(H, &query, &rays));
            }
            _tacticalRays.Bump();
            return new RayArray(rays, _tacticalRays);
        }

        /// <summary>Second half: hits[i] answers ray i (count = the rays' Length); results as FindCover gives them.</summary>
        public int FinishFindCover(RayHit[] hits, int count, ref TacticalResult[] results, out TacticalAnswer answer)
        {
            return FinishTactical(hits, count, ref results, out answer);
        }

        /// <summary>Abandons a begun cover query.</summary>
        public void CancelFindCover()
        {
            Check(NativeMethods.argus_world_find_cover_cancel(H));
            _tacticalRays.Bump();
        }

        // A flank casts no rays: FindFlank answers in one call (ABI 3 has no two-phase flank).
        int FinishTactical(RayHit[] hits, int count, ref TacticalResult[] results, out TacticalAnswer answer)
        {
            if (hits == null && count > 0) throw new ArgumentNullException("hits");
            if (count < 0 || hits != null && count > hits.Length) throw new ArgumentOutOfRangeException("count");
            if (results == null) results = new TacticalResult[8];
            while (true)
            {
                uint n;
                TacticalAnswer a;
                Result r;
                fixed (RayHit* h = hits)
                fixed (TacticalResult* out_ = results)
                {
                    r = NativeMethods.argus_world_find_cover_finish(H, h, (uint)count, out_, (uint)results.Length, &n, &a);
                }
                if (r != Result.BufferTooSmall)
                {
                    if (r != Result.Ok) FailHits(r, hits, count);
                    Check(r);
                    _tacticalRays.Bump();
                    answer = a;
                    return (int)n;
                }
                results = new TacticalResult[n]; // the query stays pending: answer again with room
            }
        }
    }
}
