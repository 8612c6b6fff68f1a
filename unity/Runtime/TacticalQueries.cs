using System.Collections.Generic;
using UnityEngine;

namespace Argus.Perception
{
    /// <summary>A threat as tactical queries see it (beyond the lesson's single eye position).</summary>
    public struct ThreatView
    {
        /// <summary>Feet position.</summary>
        public Vector3 position;
        /// <summary>Eye position (rays to cover candidates start here).</summary>
        public Vector3 eye;
        /// <summary>Facing (flank candidates must lie outside its cone).</summary>
        public Vector3 forward;
    }

    /// <summary>One ranked answer of a tactical query.</summary>
    public struct TacticalSpot
    {
        /// <summary>The candidate.</summary>
        public Vector3 position;
        /// <summary>Cover: danger × 10 + travel (lower is better). Flank: −facing dot − danger (higher is better).</summary>
        public float score;
        /// <summary>Index in the candidate list.</summary>
        public int candidateIndex;
        /// <summary>Cover: how many threats cannot see it.</summary>
        public int hiddenFrom;
    }

    /// <summary>
    /// The lesson's tactical queries (§11), with its names and arguments, answered natively.
    /// Cover: a candidate the threat's eye cannot see (a ray to it is blocked by an occluder on
    /// obstacleMask), lowest danger × 10 + travel distance wins; none → selfPos. Flank: a candidate
    /// outside the threat's forward cone (facing dot ≤ 0.3), highest −dot − danger wins; none →
    /// enemyPos. dangerMap may be null (no danger term). The world is dangerMap's, else the default.
    /// </summary>
    public static class TacticalQueries
    {
        static Vec3[] s_Points = new Vec3[0];
        static Threat[] s_Threats = new Threat[1];
        static TacticalResult[] s_Results = new TacticalResult[1];
        static readonly ThreatView[] s_OneThreat = new ThreatView[1];

        /// <summary>The best cover from a threat whose eye is at threatEyePos (lesson §11).</summary>
        public static Vector3 FindBestCover(Vector3 selfPos, Vector3 threatEyePos, List<Vector3> candidates,
            InfluenceMap dangerMap, LayerMask obstacleMask)
        {
            ThreatView t;
            t.position = threatEyePos;
            t.eye = threatEyePos;
            t.forward = Vector3.forward;
            s_OneThreat[0] = t;
            Vector3 best;
            FindCover(selfPos, s_OneThreat, candidates, dangerMap, obstacleMask, true, 1, null, out best);
            return best;
        }

        /// <summary>The best flanking spot around an enemy at enemyPos facing enemyForward (lesson §11).</summary>
        public static Vector3 FindFlankPosition(Vector3 enemyPos, Vector3 enemyForward, List<Vector3> candidates,
            InfluenceMap dangerMap)
        {
            ThreatView t;
            t.position = enemyPos;
            t.eye = enemyPos;
            t.forward = enemyForward;
            Vector3 best;
            FindFlank(t, candidates, dangerMap, 1, null, out best);
            return best;
        }

        /// <summary>Beyond the lesson: cover from several threats (hidden from all, or from the most),
        /// the best <paramref name="topK"/> spots into <paramref name="results"/> (may be null); returns
        /// their number; <paramref name="best"/> is the first, or selfPos when none.</summary>
        public static int FindCover(Vector3 selfPos, IList<ThreatView> threats, List<Vector3> candidates,
            InfluenceMap dangerMap, LayerMask obstacleMask, bool hiddenFromAll, int topK, List<TacticalSpot> results,
            out Vector3 best)
        {
            World world = WorldOf(dangerMap);
            CoverQuery q = CoverQuery.Default();
            q.SelfPosition = UnityArgus.ToArgus(selfPos);
            q.ObstacleMask = UnityArgus.Mask(obstacleMask);
            q.Mode = hiddenFromAll ? CoverMode.HiddenFromAll : CoverMode.HiddenFromMost;
            q.TopK = (uint)Mathf.Max(1, topK);
            if (dangerMap != null) q.Map = dangerMap.Id;
            int nt = threats == null ? 0 : threats.Count;
            if (s_Threats.Length != nt) s_Threats = new Threat[nt];
            for (int i = 0; i < nt; i++)
            {
                s_Threats[i].Position = UnityArgus.ToArgus(threats[i].position);
                s_Threats[i].Eye = UnityArgus.ToArgus(threats[i].eye);
                s_Threats[i].Forward = UnityArgus.ToArgus(threats[i].forward);
            }
            Fill(candidates);
            TacticalAnswer answer;
            int n = world.FindCover(q, s_Points, s_Threats, ref s_Results, out answer);
            Copy(n, results);
            best = UnityArgus.ToUnity(answer.Position);
            return n;
        }

        /// <summary>Beyond the lesson: the best <paramref name="topK"/> flanking spots into
        /// <paramref name="results"/> (may be null); returns their number; <paramref name="best"/> is
        /// the first, or the threat's position when none.</summary>
        public static int FindFlank(ThreatView threat, List<Vector3> candidates, InfluenceMap dangerMap, int topK,
            List<TacticalSpot> results, out Vector3 best)
        {
            World world = WorldOf(dangerMap);
            FlankQuery q = FlankQuery.Default();
            q.Threat.Position = UnityArgus.ToArgus(threat.position);
            q.Threat.Eye = UnityArgus.ToArgus(threat.eye);
            q.Threat.Forward = UnityArgus.ToArgus(threat.forward);
            q.TopK = (uint)Mathf.Max(1, topK);
            if (dangerMap != null) q.Map = dangerMap.Id;
            Fill(candidates);
            TacticalAnswer answer;
            int n = world.FindFlank(q, s_Points, ref s_Results, out answer);
            Copy(n, results);
            best = UnityArgus.ToUnity(answer.Position);
            return n;
        }

        static void Copy(int n, List<TacticalSpot> results)
        {
            if (results == null) return;
            results.Clear();
            for (int i = 0; i < n; i++)
            {
                TacticalSpot s;
                s.position = UnityArgus.ToUnity(s_Results[i].Position);
                s.score = s_Results[i].Score;
                s.candidateIndex = (int)s_Results[i].CandidateIndex;
                s.hiddenFrom = (int)s_Results[i].HiddenFrom;
                results.Add(s);
            }
        }

        static World WorldOf(InfluenceMap map)
        {
            PerceptionWorld w = map != null ? map.World : PerceptionWorld.Default;
            if (w == null || w.Native == null)
                throw new System.InvalidOperationException("Tactical queries need an enabled PerceptionWorld");
            return w.Native;
        }

        // The bindings take the whole array as the candidate list: an exact-length buffer, reused
        // while the candidate count stays the same.
        static void Fill(List<Vector3> candidates)
        {
            int n = candidates == null ? 0 : candidates.Count;
            if (s_Points.Length != n) s_Points = new Vec3[n];
            for (int i = 0; i < n; i++) s_Points[i] = UnityArgus.ToArgus(candidates[i]);
        }
    }
}
