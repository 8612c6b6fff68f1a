using System.Collections.Generic;
using UnityEngine;

namespace Argus.Perception
{
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
        static readonly Threat[] s_Threat = new Threat[1];
        static TacticalResult[] s_Results = new TacticalResult[1];

        /// <summary>The best cover from a threat whose eye is at threatEyePos (lesson §11).</summary>
        public static Vector3 FindBestCover(Vector3 selfPos, Vector3 threatEyePos, List<Vector3> candidates,
            InfluenceMap dangerMap, LayerMask obstacleMask)
        {
            World world = WorldOf(dangerMap);
            CoverQuery q = CoverQuery.Default();
            q.SelfPosition = UnityArgus.ToArgus(selfPos);
            q.ObstacleMask = UnityArgus.Mask(obstacleMask);
            if (dangerMap != null) q.Map = dangerMap.Id;
            s_Threat[0].Position = UnityArgus.ToArgus(threatEyePos);
            s_Threat[0].Eye = UnityArgus.ToArgus(threatEyePos);
            s_Threat[0].Forward = new Vec3(0f, 0f, 1f);
            Fill(candidates);
            TacticalAnswer answer;
            world.FindCover(q, s_Points, s_Threat, ref s_Results, out answer);
            return UnityArgus.ToUnity(answer.Position);
        }

        /// <summary>The best flanking spot around an enemy at enemyPos facing enemyForward (lesson §11).</summary>
        public static Vector3 FindFlankPosition(Vector3 enemyPos, Vector3 enemyForward, List<Vector3> candidates,
            InfluenceMap dangerMap)
        {
            World world = WorldOf(dangerMap);
            FlankQuery q = FlankQuery.Default();
            q.Threat.Position = UnityArgus.ToArgus(enemyPos);
            q.Threat.Eye = UnityArgus.ToArgus(enemyPos);
            q.Threat.Forward = UnityArgus.ToArgus(enemyForward);
            if (dangerMap != null) q.Map = dangerMap.Id;
            Fill(candidates);
            TacticalAnswer answer;
            world.FindFlank(q, s_Points, ref s_Results, out answer);
            return UnityArgus.ToUnity(answer.Position);
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
