using System;
using System.Collections.Generic;
using UnityEngine;
using UnityEngine.AI;

namespace Argus.Perception
{
    public sealed partial class PerceptionWorld
    {
        /// <summary>Which way sound travels to guards whose HearingSensor.obstruction is FollowWorld.</summary>
        public enum HearingRoute
        {
            /// <summary>The lesson: the straight line, through walls (muffled by soundOcclusion or an
            /// occluder's own sound transmission).</summary>
            StraightLine = 1,
            /// <summary>Around walls along the walk graph (the straight line while there is none).</summary>
            WalkAroundWalls = 2,
        }

        /// <summary>Where the world's walk graph comes from when the world is enabled.</summary>
        public enum WalkGraphSource
        {
            /// <summary>No walk graph (walk hearing is then the straight line); a script may still call
            /// BuildWalkGrid, ImportNavMesh or SetWalkGraph.</summary>
            None,
            /// <summary>A grid Argus builds over the occluders inside walkGridBounds (BuildWalkGrid).</summary>
            Grid,
            /// <summary>Unity's baked navigation mesh (ImportNavMesh).</summary>
            NavMesh,
        }

        [Header("Hearing and the walk graph")]
        [Tooltip("Read when the world is enabled. StraightLine: the lesson, sound goes through walls. WalkAroundWalls: along the walk graph, around walls and through doorways (a guard's HearingSensor.obstruction may choose otherwise).")]
        public HearingRoute hearingPath = HearingRoute.StraightLine;

        [Tooltip("Read when the world is enabled. Grid: built by Argus over the occluders in walkGridBounds. NavMesh: imported from the baked navigation mesh. None: no graph (scripts may set one).")]
        public WalkGraphSource walkGraph = WalkGraphSource.None;

        [Tooltip("Grid: the area covered (X and Z) and the floor's height (its bottom, min Y).")]
        public Bounds walkGridBounds = new Bounds(Vector3.zero, new Vector3(32f, 0f, 32f));

        [Tooltip("Grid: side of a cell in metres.")]
        [Min(0.05f)]
        public float walkCellSize = 0.5f;

        [Tooltip("Grid: bottom of the band a person occupies, above the floor (an occluder lower than this is stepped over).")]
        [Min(0f)]
        public float walkBandMin = 0.3f;

        [Tooltip("Grid: top of the band a person occupies, above the floor.")]
        [Min(0f)]
        public float walkBandMax = 1.8f;

        [Tooltip("Grid: layers of the occluders that block walking.")]
        public LayerMask walkBlockingMask = ~0;

        [Tooltip("How far a sound or a listener may be from the nearest walkable node and still be on the graph; 0 = automatic (grid: the larger of 1 m and 1.5 cells; NavMesh: the largest distance from a triangle's centre to its corners, plus 0.5 m).")]
        [Min(0f)]
        public float walkSnapDistance = 0f;

        WalkNode[] m_GizmoNodes;
        WalkEdge[] m_GizmoEdges;

        /// <summary>Sets the walk graph chosen by walkGraph (at enable).</summary>
        void SetUpWalkGraph()
        {
            try
            {
                if (walkGraph == WalkGraphSource.Grid) BuildWalkGrid();
                else if (walkGraph == WalkGraphSource.NavMesh) ImportNavMesh();
            }
            catch (ArgusException e)
            {
                UnityEngine.Debug.LogException(e, this); // a refused grid: the world stays without a graph
            }
        }

        World NativeOrThrow()
        {
            if (m_World == null) throw new InvalidOperationException("PerceptionWorld is disabled");
            return m_World;
        }

        /// <summary>Builds a grid walk graph from walkGridBounds (X and Z; floor = its min Y), walkCellSize,
        /// the band walkBandMin..walkBandMax and walkBlockingMask over this world's occluders, replacing any
        /// graph. Occluders added, moved or removed later update the cells they cover. Throws ArgusException
        /// for a refused grid (cell under 0.05 m, empty band, too many cells) with the graph unchanged.</summary>
        public void BuildWalkGrid()
        {
            World w = NativeOrThrow();
            WalkGridDef def = WalkGridDef.Default();
            Vector3 min = walkGridBounds.min;
            Vector3 size = walkGridBounds.size;
            def.Origin = UnityArgus.ToArgus(min);
            def.CellSize = walkCellSize;
            // Cells covering the bounds (a size that is a whole number of cells gives that number).
            def.Width = (uint)Mathf.Max(1, Mathf.CeilToInt(size.x / walkCellSize - 1e-4f));
            def.Depth = (uint)Mathf.Max(1, Mathf.CeilToInt(size.z / walkCellSize - 1e-4f));
            def.BandMin = walkBandMin;
            def.BandMax = walkBandMax;
            def.Layers = UnityArgus.Mask(walkBlockingMask);
            def.SnapDistance = walkSnapDistance;
            w.SetWalkGrid(def);
        }

        /// <summary>Makes the engine's own graph the walk graph: nodes where people stand, edges
        /// (walked both ways, each at least the straight distance), snap distance ≥ 0.05 m. Throws
        /// ArgusException for a NaN node, an edge to a missing node or a too short edge, graph unchanged.</summary>
        public void SetWalkGraph(Vector3[] nodes, WalkEdge[] edges, float snapDistance)
        {
            if (nodes == null) throw new ArgumentNullException("nodes");
            World w = NativeOrThrow();
            var points = new Vec3[nodes.Length];
            for (int i = 0; i < nodes.Length; i++) points[i] = UnityArgus.ToArgus(nodes[i]);
            w.SetWalkGraph(points, edges, snapDistance);
        }

        /// <summary>Imports Unity's baked navigation mesh (NavMesh.CalculateTriangulation) as the walk graph;
        /// returns the node count (0 when nothing is baked: the graph is then cleared). Vertices closer
        /// than 1 cm are welded; the nodes are the welded vertices and each triangle's centre; the edges
        /// are the triangles' sides, each centre to its three corners, and the centres of two triangles
        /// that share a side, each as long as the straight line. The centres keep walks inside wide
        /// triangles from hugging their sides, and put every point of the mesh within reach of a node
        /// (snap distance: walkSnapDistance, or 0 = automatic, the largest centre-to-corner distance plus 0.5 m).
        /// Off-mesh links and area costs are not imported; tiles joined only at T-junctions stay apart.</summary>
        public int ImportNavMesh()
        {
            World w = NativeOrThrow();
            NavMeshTriangulation tri = NavMesh.CalculateTriangulation();
            Vec3[] nodes;
            WalkEdge[] edges;
            float snap;
            NavMeshGraph.Build(tri.vertices, tri.indices, 0.01f, out nodes, out edges, out snap);
            if (nodes.Length == 0)
            {
                w.ClearWalkGraph();
                return 0;
            }
            w.SetWalkGraph(nodes, edges, walkSnapDistance > 0f ? walkSnapDistance : snap);
            return nodes.Length;
        }

        /// <summary>Removes the walk graph (walk hearing then hears along the straight line).</summary>
        public void ClearWalkGraph() { NativeOrThrow().ClearWalkGraph(); }

        /// <summary>The shortest walk along the walk graph from one point to another, of at most limit
        /// metres: true with its metres, false when there is none (too long, blocked, off the graph or no
        /// graph). path (optional) receives the positions of the nodes walked through, in order.</summary>
        public bool FindWalk(Vector3 from, Vector3 to, float limit, out float distance, List<Vector3> path = null)
        {
            World w = NativeOrThrow();
            distance = -1f;
            if (path != null) path.Clear();
            if (!w.HasWalkGraph) return false;
            WalkResult r = path == null
                ? w.FindWalk(UnityArgus.ToArgus(from), UnityArgus.ToArgus(to), limit)
                : w.FindWalk(UnityArgus.ToArgus(from), UnityArgus.ToArgus(to), limit, ref m_WalkPath);
            if (!r.Found) return false;
            distance = r.Distance;
            if (path != null)
            {
                int n = w.GetWalkNodes(ref m_GizmoNodes);
                for (int i = 0; i < r.NodeCount; i++)
                    if (m_WalkPath[i] < n) path.Add(UnityArgus.ToUnity(m_GizmoNodes[m_WalkPath[i]].Position));
            }
            return true;
        }

        uint[] m_WalkPath = new uint[16];

        /// <summary>Draws the walk graph with Gizmos: its edges between open nodes (grey-blue), and the
        /// blocked cells of a grid as small red spheres. Returns the number of lines drawn.</summary>
        public int DrawWalkGraph()
        {
            if (m_World == null || !m_World.HasWalkGraph) return 0;
            int nodes = m_World.GetWalkNodes(ref m_GizmoNodes);
            int edges = m_World.GetWalkEdges(ref m_GizmoEdges);
            int lines = 0;
            Gizmos.color = new Color(0.45f, 0.65f, 0.9f, 0.6f);
            for (int i = 0; i < edges; i++)
            {
                WalkEdge e = m_GizmoEdges[i];
                if (e.A >= nodes || e.B >= nodes) continue;
                WalkNode a = m_GizmoNodes[e.A], b = m_GizmoNodes[e.B];
                if (!a.IsOpen || !b.IsOpen) continue;
                Gizmos.DrawLine(UnityArgus.ToUnity(a.Position), UnityArgus.ToUnity(b.Position));
                lines++;
            }
            Gizmos.color = new Color(0.9f, 0.2f, 0.2f, 0.6f);
            for (int i = 0; i < nodes; i++)
                if (!m_GizmoNodes[i].IsOpen) Gizmos.DrawSphere(UnityArgus.ToUnity(m_GizmoNodes[i].Position), 0.05f);
            return lines;
        }
    }

    /// <summary>A navigation mesh's triangles → walk graph nodes and edges (see PerceptionWorld.ImportNavMesh).</summary>
    internal static class NavMeshGraph
    {
        public static void Build(Vector3[] vertices, int[] indices, float weld, out Vec3[] nodes, out WalkEdge[] edges, out float snap)
        {
            snap = 0f;
            if (vertices == null || indices == null || vertices.Length == 0 || indices.Length < 3)
            {
                nodes = new Vec3[0];
                edges = new WalkEdge[0];
                return;
            }
            // Weld: vertices in the same weld-sized cell (or a neighbouring one, within weld) become one.
            var welded = new List<Vector3>();
            var remap = new int[vertices.Length];
            var cells = new Dictionary<long, List<int>>();
            for (int i = 0; i < vertices.Length; i++)
            {
                Vector3 v = vertices[i];
                int cx = Mathf.FloorToInt(v.x / weld), cy = Mathf.FloorToInt(v.y / weld), cz = Mathf.FloorToInt(v.z / weld);
                int found = -1;
                for (int dx = -1; dx <= 1 && found < 0; dx++)
                for (int dy = -1; dy <= 1 && found < 0; dy++)
                for (int dz = -1; dz <= 1 && found < 0; dz++)
                {
                    List<int> list;
                    if (!cells.TryGetValue(Key(cx + dx, cy + dy, cz + dz), out list)) continue;
                    for (int k = 0; k < list.Count; k++)
                        if ((welded[list[k]] - v).sqrMagnitude <= weld * weld) { found = list[k]; break; }
                }
                if (found < 0)
                {
                    found = welded.Count;
                    welded.Add(v);
                    long key = Key(cx, cy, cz);
                    List<int> list;
                    if (!cells.TryGetValue(key, out list)) cells[key] = list = new List<int>();
                    list.Add(found);
                }
                remap[i] = found;
            }
            int vertexNodes = welded.Count;
            var points = new List<Vector3>(welded);
            var edgeSet = new HashSet<long>();
            var edgeList = new List<WalkEdge>();
            var sideOwner = new Dictionary<long, int>(); // a side (welded vertex pair) -> the centre node of its first triangle
            for (int t = 0; t + 2 < indices.Length; t += 3)
            {
                int a = remap[indices[t]], b = remap[indices[t + 1]], c = remap[indices[t + 2]];
                if (a == b || b == c || a == c) continue; // degenerate after welding
                Vector3 centre = (welded[a] + welded[b] + welded[c]) / 3f;
                int ci = points.Count;
                points.Add(centre);
                snap = Mathf.Max(snap, Mathf.Max((welded[a] - centre).magnitude,
                    Mathf.Max((welded[b] - centre).magnitude, (welded[c] - centre).magnitude)));
                AddEdge(points, edgeSet, edgeList, a, b);
                AddEdge(points, edgeSet, edgeList, b, c);
                AddEdge(points, edgeSet, edgeList, c, a);
                AddEdge(points, edgeSet, edgeList, ci, a);
                AddEdge(points, edgeSet, edgeList, ci, b);
                AddEdge(points, edgeSet, edgeList, ci, c);
                Side(points, edgeSet, edgeList, sideOwner, a, b, ci);
                Side(points, edgeSet, edgeList, sideOwner, b, c, ci);
                Side(points, edgeSet, edgeList, sideOwner, c, a, ci);
            }
            if (points.Count == vertexNodes)
            {
                nodes = new Vec3[0]; // only degenerate triangles
                edges = new WalkEdge[0];
                return;
            }
            nodes = new Vec3[points.Count];
            for (int i = 0; i < points.Count; i++) nodes[i] = UnityArgus.ToArgus(points[i]);
            edges = edgeList.ToArray();
            snap = Mathf.Max(0.05f, snap + 0.5f);
        }

        static long Key(int x, int y, int z)
        {
            return ((long)(x & 0x1FFFFF) << 42) + ((long)(y & 0x1FFFFF) << 21) + (z & 0x1FFFFF); // 21 bits each
        }

        static long Pair(int a, int b)
        {
            return a < b ? ((long)a << 32) + b : ((long)b << 32) + a; // indices are never negative
        }

        static void AddEdge(List<Vector3> points, HashSet<long> set, List<WalkEdge> list, int a, int b)
        {
            if (!set.Add(Pair(a, b))) return;
            list.Add(new WalkEdge((uint)a, (uint)b, (points[a] - points[b]).magnitude));
        }

        static void Side(List<Vector3> points, HashSet<long> set, List<WalkEdge> list, Dictionary<long, int> owner, int a, int b, int centre)
        {
            long key = Pair(a, b);
            int other;
            if (owner.TryGetValue(key, out other)) AddEdge(points, set, list, other, centre);
            else owner[key] = centre;
        }
    }
}
