using System.Collections.Generic;
using UnityEngine;

namespace Argus.Perception
{
    public sealed partial class PerceptionWorld
    {
        [Tooltip("What the gizmos show: 1 occluders, 2 cones, 4 sight rays, 8 memory, 16 hearing, 32 move targets, 64 the walk graph, 128 the beliefs of guards searching by belief (heat maps and search points).")]
        public int gizmoFlags = 255;

        /// <summary>The gizmoFlags bit that draws the walk graph (DrawWalkGraph).</summary>
        public const int GizmoWalkGraph = 64;

        /// <summary>The gizmoFlags bit that draws the belief of every guard searching by belief (DrawBeliefs).</summary>
        public const int GizmoBeliefs = 128;

        /// <summary>Draws the library's debug picture (the vision-cone card's: yellow cones, green lines
        /// to seen targets, red rays stopping at the wall with a dot at the hit) with Gizmos.</summary>
        void OnDrawGizmos()
        {
            if (!drawGizmos || m_World == null) return;
            if ((gizmoFlags & GizmoWalkGraph) != 0) DrawWalkGraph();
            if ((gizmoFlags & GizmoBeliefs) != 0) DrawBeliefs();
            DrawDebug(gizmoFlags);
        }

        /// <summary>True when this world's gizmos draw every guard's belief (drawGizmos and the GizmoBeliefs bit).</summary>
        internal bool DrawsBeliefs { get { return drawGizmos && (gizmoFlags & GizmoBeliefs) != 0; } }

        float[] m_GizmoBelief;
        readonly List<BeliefInfo> m_GizmoDrawn = new List<BeliefInfo>();

        /// <summary>Gizmo colour of a node holding the fraction t (0..1] of the belief's peak: blue (little)
        /// through green and yellow to red (the peak).</summary>
        public static Color BeliefColor(float t)
        {
            t = Mathf.Clamp01(t);
            Color c = t < 0.5f
                ? Color.Lerp(new Color(0.1f, 0.3f, 1f), new Color(0.1f, 0.9f, 0.2f), t * 2f)
                : Color.Lerp(new Color(1f, 0.9f, 0.1f), new Color(1f, 0.1f, 0.05f), (t - 0.5f) * 2f);
            c.a = 0.35f + 0.6f * t;
            return c;
        }

        /// <summary>Draws the beliefs of every guard of this world that keeps one (search = Belief, while it
        /// chases or searches), a belief shared by a team once, each guard's search point with it; the
        /// gizmoFlags bit GizmoBeliefs does this every frame. Returns the number of nodes drawn.</summary>
        public int DrawBeliefs()
        {
            if (m_World == null || !m_World.HasWalkGraph) return 0;
            m_GizmoDrawn.Clear();
            int drawn = 0;
            for (int i = 0; i < m_Agents.Count; i++)
            {
                PerceptionAgent a = m_Agents[i];
                if (a == null || a.brain == null || a.brain.search != EnemyBrain.SearchMode.Belief || !a.IsLive) continue;
                BeliefInfo info;
                if (!m_World.TryGetBelief(a.Id, out info)) continue;
                bool again = false;
                for (int k = 0; k < m_GizmoDrawn.Count && !again; k++)
                    again = info.OwnerTeam != Constants.BELIEF_NOT_SHARED && m_GizmoDrawn[k].OwnerTeam == info.OwnerTeam && m_GizmoDrawn[k].Target == info.Target;
                drawn += DrawBelief(a.brain, !again);
                m_GizmoDrawn.Add(info);
            }
            return drawn;
        }

        /// <summary>Draws brain's belief with Gizmos: a sphere on each walk-graph node holding probability,
        /// coloured by its share of the belief's peak (BeliefColor: blue little, red the peak; nodes holding
        /// nothing are skipped), and its search point (a white wire sphere and a line from the guard). Returns
        /// the number of nodes drawn (0 when it keeps no belief).</summary>
        public int DrawBelief(EnemyBrain brain) { return DrawBelief(brain, true); }

        int DrawBelief(EnemyBrain brain, bool heatMap)
        {
            if (m_World == null || brain == null) return 0;
            PerceptionAgent agent = brain.GetComponent<PerceptionAgent>();
            if (agent == null || !agent.IsLive || !ReferenceEquals(agent.World, this)) return 0;
            BeliefInfo info;
            if (!m_World.TryGetBelief(agent.Id, out info)) return 0;
            int drawn = 0;
            if (heatMap)
            {
                int n = m_World.GetBelief(agent.Id, ref m_GizmoBelief);
                int nodes = m_World.GetWalkNodes(ref m_GizmoNodes);
                if (nodes < n) n = nodes;
                float peak = info.Peak;
                if (peak <= 0f) for (int i = 0; i < n; i++) peak = Mathf.Max(peak, m_GizmoBelief[i]);
                float radius = BeliefNodeRadius();
                for (int i = 0; i < n; i++)
                {
                    float p = m_GizmoBelief[i];
                    if (!(p > 0f)) continue;
                    Gizmos.color = BeliefColor(peak > 0f ? p / peak : 1f);
                    Gizmos.DrawSphere(UnityArgus.ToUnity(m_GizmoNodes[i].Position), radius);
                    drawn++;
                }
            }
            if (info.HasSearchPoint)
            {
                Vector3 point = UnityArgus.ToUnity(info.SearchPoint);
                Gizmos.color = Color.white;
                Gizmos.DrawWireSphere(point, 0.5f);
                Gizmos.DrawLine(brain.transform.position, point);
            }
            return drawn;
        }

        /// <summary>A heat-map sphere's radius: a third of walkCellSize for a grid, else 0.15 m.</summary>
        float BeliefNodeRadius()
        {
            return m_World.WalkGraph.Kind == WalkGraphKind.Grid && walkCellSize > 0f ? walkCellSize / 3f : 0.15f;
        }

        /// <summary>Draws the debug buffer now; returns the number of lines and points drawn.</summary>
        public int DrawDebug(int flags)
        {
            if (m_World == null) return 0;
            DebugDrawOptions options = DebugDrawOptions.Default();
            options.Flags = (uint)flags & Constants.DRAW_ALL; // the library's bits (64, the walk graph, is drawn here)
            DebugDrawView picture = m_World.DebugDraw(options);
            for (int i = 0; i < picture.LineCount; i++)
            {
                DebugLine line = picture.Line(i);
                Gizmos.color = UnityArgus.ToColor(line.Color);
                Gizmos.DrawLine(UnityArgus.ToUnity(line.A), UnityArgus.ToUnity(line.B));
            }
            for (int i = 0; i < picture.PointCount; i++)
            {
                DebugPoint point = picture.Point(i);
                Gizmos.color = UnityArgus.ToColor(point.Color);
                if (point.Style == PointStyle.Solid) Gizmos.DrawSphere(UnityArgus.ToUnity(point.Position), point.Radius);
                else Gizmos.DrawWireSphere(UnityArgus.ToUnity(point.Position), point.Radius);
            }
            return (int)(picture.LineCount + picture.PointCount);
        }
    }
}
