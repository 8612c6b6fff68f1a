using UnityEngine;

namespace Argus.Perception
{
    public sealed partial class PerceptionWorld
    {
        [Tooltip("What the gizmos show: 1 occluders, 2 cones, 4 sight rays, 8 memory, 16 hearing, 32 move targets, 64 the walk graph.")]
        public int gizmoFlags = 127;

        /// <summary>The gizmoFlags bit that draws the walk graph (DrawWalkGraph).</summary>
        public const int GizmoWalkGraph = 64;

        /// <summary>Draws the library's debug picture (the vision-cone card's: yellow cones, green lines
        /// to seen targets, red rays stopping at the wall with a dot at the hit) with Gizmos.</summary>
        void OnDrawGizmos()
        {
            if (!drawGizmos || m_World == null) return;
            if ((gizmoFlags & GizmoWalkGraph) != 0) DrawWalkGraph();
            DrawDebug(gizmoFlags);
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
