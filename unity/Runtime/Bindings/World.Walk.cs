using System;

namespace Argus
{
    /// <summary>
    /// The answer of <see cref="World.FindWalk(Vec3, Vec3, float)"/>: a walk was found or not (not an
    /// exception: "no walk within the limit" is an ordinary answer), its metres and how many nodes it
    /// passes through.
    /// </summary>
    public struct WalkResult
    {
        /// <summary>True when a walk of at most the limit exists (both points on the graph).</summary>
        public bool Found;

        /// <summary>Its metres (from the start to its nearest node, along the edges, on to the end);
        /// -1 when none was found.</summary>
        public float Distance;

        /// <summary>The number of nodes it walks through (0 when none was found).</summary>
        public int NodeCount;

        /// <summary>"walk 20.24 m through 38 nodes", or "no walk".</summary>
        public override string ToString()
        {
            return Found
                ? "walk " + Distance.ToString("0.###", System.Globalization.CultureInfo.InvariantCulture) + " m through " + NodeCount + " nodes"
                : "no walk";
        }
    }

    public partial struct WalkNode
    {
        /// <summary>A person can stand there (a grid cell no occluder blocks; every node an engine gave).</summary>
        public bool IsOpen { get { return Open != 0; } }
    }

    public partial struct WalkEdge
    {
        /// <summary>An edge between nodes a and b, length metres long (at least their straight distance).</summary>
        public WalkEdge(uint a, uint b, float length)
        {
            A = a;
            B = b;
            Length = length;
        }
    }

    public sealed unsafe partial class World
    {
        // ---- the walk graph: where people can stand and walk (walk hearing follows it) -----------------

        /// <summary>Builds a grid walk graph over this world's occluders and makes it the world's (replacing
        /// any graph it had); start from <see cref="WalkGridDef.Default"/>. Occluders added, moved or removed
        /// later update the cells they cover. A bad def (cell size under 0.05 m, NaN, an empty band, too many
        /// cells) throws with the world unchanged; a grid that cannot be allocated throws OutOfMemory.</summary>
        public void SetWalkGrid(WalkGridDef def)
        {
            Check(NativeMethods.argus_world_set_walk_grid(H, &def));
        }

        /// <summary>Makes the engine's graph the world's walk graph (a navigation mesh, a waypoint network):
        /// nodes where people can stand, edges between them (walked both ways, each at least as long as the
        /// straight line between its nodes), and how far a point may be from its nearest node and still be
        /// on the graph (at least 0.05 m). The arrays are copied. A NaN node, an edge to a missing node, a
        /// negative or too short length throws with the world unchanged. edges may be null (no edges).</summary>
        public void SetWalkGraph(Vec3[] nodes, WalkEdge[] edges, float snapDistance)
        {
            if (nodes == null) throw new ArgumentNullException("nodes");
            SetWalkGraph(nodes, nodes.Length, edges, edges == null ? 0 : edges.Length, snapDistance);
        }

        /// <summary>As <see cref="SetWalkGraph(Vec3[], WalkEdge[], float)"/> with the first nodeCount nodes
        /// and edgeCount edges of the arrays (reused buffers: no allocation).</summary>
        public void SetWalkGraph(Vec3[] nodes, int nodeCount, WalkEdge[] edges, int edgeCount, float snapDistance)
        {
            if (nodes == null) throw new ArgumentNullException("nodes");
            if (nodeCount < 0 || nodeCount > nodes.Length)
                throw new ArgumentOutOfRangeException("nodeCount", "nodeCount exceeds the nodes array");
            if (edgeCount < 0 || edgeCount > (edges == null ? 0 : edges.Length))
                throw new ArgumentOutOfRangeException("edgeCount", "edgeCount exceeds the edges array");
            Result r;
            fixed (Vec3* n = nodes)
            fixed (WalkEdge* e = edges)
                r = NativeMethods.argus_world_set_walk_graph(H, n, (uint)nodeCount, e, (uint)edgeCount, snapDistance);
            Check(r);
        }

        /// <summary>Removes the world's walk graph (walk hearing then hears along the straight line).</summary>
        public void ClearWalkGraph()
        {
            Check(NativeMethods.argus_world_clear_walk_graph(H));
        }

        /// <summary>What the walk graph is: its kind (None when the world has none), node and edge counts and
        /// snap distance.</summary>
        public WalkGraphInfo WalkGraph
        {
            get
            {
                WalkGraphInfo info;
                Check(NativeMethods.argus_world_get_walk_graph_info(H, &info));
                return info;
            }
        }

        /// <summary>True while the world has a walk graph.</summary>
        public bool HasWalkGraph { get { return WalkGraph.Kind != WalkGraphKind.None; } }

        /// <summary>Copies the walk graph's nodes (position, open) in node order into buffer (grown when too
        /// small; reuse it to avoid allocating); returns the node count, 0 when the world has no graph.</summary>
        public int GetWalkNodes(ref WalkNode[] buffer)
        {
            if (!HasWalkGraph) return 0;
            if (buffer == null) buffer = new WalkNode[Math.Max(1, (int)WalkGraph.NodeCount)];
            while (true)
            {
                uint n;
                Result r;
                fixed (WalkNode* p = buffer)
                    r = NativeMethods.argus_world_get_walk_nodes(H, p, (uint)buffer.Length, &n);
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    return (int)n;
                }
                buffer = new WalkNode[n];
            }
        }

        /// <summary>Copies the walk graph's edges, each once (A &lt; B, by A), into buffer (grown when too
        /// small); returns the edge count, 0 when the world has no graph.</summary>
        public int GetWalkEdges(ref WalkEdge[] buffer)
        {
            if (!HasWalkGraph) return 0;
            if (buffer == null) buffer = new WalkEdge[Math.Max(1, (int)WalkGraph.EdgeCount)];
            while (true)
            {
                uint n;
                Result r;
                fixed (WalkEdge* p = buffer)
                    r = NativeMethods.argus_world_get_walk_edges(H, p, (uint)buffer.Length, &n);
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    return (int)n;
                }
                buffer = new WalkEdge[n];
            }
        }

        /// <summary>The shortest walk from one point to another along the walk graph, of at most limit metres.
        /// No walk (too long, blocked, a point off the graph) is <c>Found == false</c>, not an exception.
        /// Throws ArgusException (InvalidArgument) when the world has no walk graph, or for a NaN point or a
        /// negative limit.</summary>
        public WalkResult FindWalk(Vec3 from, Vec3 to, float limit)
        {
            float distance;
            uint count;
            Check(NativeMethods.argus_world_find_walk(H, from, to, limit, &distance, null, 0, &count));
            return MakeWalk(distance, count);
        }

        /// <summary>As <see cref="FindWalk(Vec3, Vec3, float)"/>, and copies the node indices of the walk, in
        /// walking order, into path (grown when too small; reuse it to avoid allocating). Read
        /// <see cref="GetWalkNodes"/> for their positions.</summary>
        public WalkResult FindWalk(Vec3 from, Vec3 to, float limit, ref uint[] path)
        {
            if (path == null) path = new uint[16];
            while (true)
            {
                float distance;
                uint count;
                Result r;
                fixed (uint* p = path)
                    r = NativeMethods.argus_world_find_walk(H, from, to, limit, &distance, p, (uint)path.Length, &count);
                if (r != Result.BufferTooSmall)
                {
                    Check(r);
                    return MakeWalk(distance, count);
                }
                path = new uint[count];
            }
        }

        static WalkResult MakeWalk(float distance, uint count)
        {
            WalkResult w;
            w.Found = distance >= 0f;
            w.Distance = distance;
            w.NodeCount = w.Found ? (int)count : 0;
            return w;
        }
    }
}
