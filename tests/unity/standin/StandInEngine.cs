// STAND-IN, NOT UNITY. Test-only replacements for the engine services the Argus package touches:
// colliders and a small ray caster (boxes, spheres, capsules, meshes, enough to stand in for PhysX in
// tests; as in Unity with Physics.autoSyncTransforms off, its default, queries see each collider at the
// pose of the last physics step or Physics.SyncTransforms, not at its live Transform),
// RaycastCommand batches (run synchronously), NativeArray, JobHandle, Gizmos (recorded, not drawn),
// Texture2D (pixels kept in memory), NavMeshAgent (walks straight at `speed`), NavMesh.CalculateTriangulation
// (returns what a test baked). Names and signatures
// follow Unity's public API; bodies are this file's own.
using System;
using System.Collections.Generic;

namespace UnityEngine
{
    public enum QueryTriggerInteraction { UseGlobal = 0, Ignore = 1, Collide = 2 }
    public enum TextureFormat { RGBA32 = 4, RFloat = 18 }
    public enum FilterMode { Point = 0, Bilinear = 1, Trilinear = 2 }
    public enum TextureWrapMode { Repeat = 0, Clamp = 1 }

    public class Collider : Component
    {
        // As in Unity: enabling a collider puts its shape back into the physics scene at its current pose.
        public bool enabled
        {
            get { return m_Enabled; }
            set { if (value && !m_Enabled) StandInSync(); m_Enabled = value; }
        }
        bool m_Enabled = true;
        public bool isTrigger;

        // The pose physics knows (PhysX's copy): set when the collider enters the scene, at each physics
        // step and at Physics.SyncTransforms; the ray tests below read it, never the live Transform.
        internal Vector3 m_SyncedPosition;
        internal Quaternion m_SyncedRotation = Quaternion.identity;
        internal Vector3 m_SyncedScale = Vector3.one;

        internal void StandInSync()
        {
            Transform t = transform;
            m_SyncedPosition = t.position;
            m_SyncedRotation = t.rotation;
            m_SyncedScale = t.lossyScale;
        }

        // A local point in world space at the synced pose (TransformPoint as physics sees it).
        internal Vector3 SyncedPoint(Vector3 local) { return m_SyncedPosition + m_SyncedRotation * Vector3.Scale(local, m_SyncedScale); }

        // Stand-in ray test in world space; distance along the unit direction, or false.
        internal virtual bool StandInRaycast(Vector3 origin, Vector3 dir, float max, out float distance)
        {
            distance = 0f;
            return false;
        }

        // Ray against a sphere; a ray starting inside does not hit it (PhysX's rule).
        internal static bool RaySphere(Vector3 c, float r, Vector3 origin, Vector3 dir, float max, out float distance)
        {
            Vector3 m = origin - c;
            float b = Vector3.Dot(m, dir), cc = Vector3.Dot(m, m) - r * r;
            distance = 0f;
            if (cc <= 0f) return false;
            if (b > 0f) return false;
            float disc = b * b - cc;
            if (disc < 0f) return false;
            distance = -b - (float)Math.Sqrt(disc);
            return distance <= max;
        }

        // Ray against a capsule (segment p0-p1, radius r) in world space; starting inside: no hit.
        internal static bool RayCapsule(Vector3 p0, Vector3 p1, float r, Vector3 origin, Vector3 dir, float max, out float distance)
        {
            distance = 0f;
            Vector3 d = p1 - p0, m = origin - p0;
            float dd = Vector3.Dot(d, d);
            float s0 = dd > 0f ? Math.Max(0f, Math.Min(1f, Vector3.Dot(m, d) / dd)) : 0f;
            if ((origin - (p0 + d * s0)).sqrMagnitude <= r * r) return false;
            float best = float.MaxValue, t;
            if (RaySphere(p0, r, origin, dir, max, out t)) best = Math.Min(best, t);
            if (RaySphere(p1, r, origin, dir, max, out t)) best = Math.Min(best, t);
            float md = Vector3.Dot(m, d), nd = Vector3.Dot(dir, d), mn = Vector3.Dot(m, dir);
            float a = dd - nd * nd, k = Vector3.Dot(m, m) - r * r, c = dd * k - md * md;
            if (Math.Abs(a) > 1e-9f)
            {
                float b = dd * mn - nd * md, disc = b * b - a * c;
                if (disc >= 0f)
                {
                    t = (-b - (float)Math.Sqrt(disc)) / a;
                    float along = md + t * nd;
                    if (t >= 0f && t <= max && along >= 0f && along <= dd) best = Math.Min(best, t);
                }
            }
            if (best > max) return false;
            distance = best;
            return true;
        }

        // Slab test against an oriented box given in world space.
        internal static bool RayBox(Vector3 worldCenter, Quaternion rotation, Vector3 half, Vector3 origin, Vector3 dir, float max, out float distance)
        {
            var inv = Quaternion.Inverse(rotation);
            Vector3 o = inv * (origin - worldCenter);
            Vector3 d = inv * dir;
            float tmin = 0f, tmax = max;
            distance = 0f;
            // As in PhysX: a ray that starts inside a collider does not hit it.
            if (Math.Abs(o.x) <= half.x && Math.Abs(o.y) <= half.y && Math.Abs(o.z) <= half.z) return false;
            for (int axis = 0; axis < 3; axis++)
            {
                float oa = axis == 0 ? o.x : axis == 1 ? o.y : o.z;
                float da = axis == 0 ? d.x : axis == 1 ? d.y : d.z;
                float ha = axis == 0 ? half.x : axis == 1 ? half.y : half.z;
                if (Math.Abs(da) < 1e-9f)
                {
                    if (oa < -ha || oa > ha) return false;
                    continue;
                }
                float t1 = (-ha - oa) / da, t2 = (ha - oa) / da;
                if (t1 > t2) { float s = t1; t1 = t2; t2 = s; }
                tmin = Math.Max(tmin, t1);
                tmax = Math.Min(tmax, t2);
                if (tmin > tmax) return false;
            }
            distance = tmin;
            return true;
        }
    }

    public class BoxCollider : Collider
    {
        public Vector3 center = Vector3.zero;
        public Vector3 size = Vector3.one;
        internal override bool StandInRaycast(Vector3 origin, Vector3 dir, float max, out float distance)
        {
            Vector3 half = Vector3.Scale(size, m_SyncedScale) * 0.5f;
            half = new Vector3(Math.Abs(half.x), Math.Abs(half.y), Math.Abs(half.z));
            return RayBox(SyncedPoint(center), m_SyncedRotation, half, origin, dir, max, out distance);
        }
    }

    public class SphereCollider : Collider
    {
        public Vector3 center = Vector3.zero;
        public float radius = 0.5f;
        internal override bool StandInRaycast(Vector3 origin, Vector3 dir, float max, out float distance)
        {
            Vector3 c = SyncedPoint(center);
            Vector3 s = m_SyncedScale;
            float r = radius * Math.Max(Math.Abs(s.x), Math.Max(Math.Abs(s.y), Math.Abs(s.z)));
            return RaySphere(c, r, origin, dir, max, out distance);
        }
    }

    public class CapsuleCollider : Collider
    {
        public Vector3 center = Vector3.zero;
        public float radius = 0.5f;
        public float height = 2f;
        public int direction = 1;
        internal override bool StandInRaycast(Vector3 origin, Vector3 dir, float max, out float distance)
        {
            Vector3 s = m_SyncedScale;
            Vector3 axis = direction == 0 ? Vector3.right : direction == 2 ? Vector3.forward : Vector3.up;
            float axisScale = Math.Abs(direction == 0 ? s.x : direction == 2 ? s.z : s.y);
            float radial = direction == 0 ? Math.Max(Math.Abs(s.y), Math.Abs(s.z))
                : direction == 2 ? Math.Max(Math.Abs(s.x), Math.Abs(s.y)) : Math.Max(Math.Abs(s.x), Math.Abs(s.z));
            float r = radius * radial;
            float half = Math.Max(0f, height * axisScale * 0.5f - r);
            Vector3 c = SyncedPoint(center);
            Vector3 a = m_SyncedRotation * axis * half;
            return RayCapsule(c - a, c + a, r, origin, dir, max, out distance);
        }
    }

    // Unity's CharacterController is a Collider: an upright capsule (center, radius, height).
    public class CharacterController : Collider
    {
        public Vector3 center { get; set; }
        public float radius { get; set; } = 0.5f;
        public float height { get; set; } = 2f;
        internal override bool StandInRaycast(Vector3 origin, Vector3 dir, float max, out float distance)
        {
            Vector3 s = m_SyncedScale;
            float r = radius * Math.Max(Math.Abs(s.x), Math.Abs(s.z));
            float half = Math.Max(0f, height * Math.Abs(s.y) * 0.5f - r);
            Vector3 c = SyncedPoint(center);
            Vector3 a = m_SyncedRotation * Vector3.up * half;
            return RayCapsule(c - a, c + a, r, origin, dir, max, out distance);
        }
    }

    // As in Unity: a mesh whose Read/Write is off (isReadable false; UploadMeshData(true) makes it so)
    // refuses CPU reads: vertices and triangles log an error and return empty arrays. Physics still has
    // its collision data (Unity bakes it for MeshColliders), so rays keep hitting its MeshCollider.
    public class Mesh : Object
    {
        Vector3[] m_Vertices = new Vector3[0];
        int[] m_Triangles = new int[0];
        bool m_Readable = true;

        public bool isReadable { get { return m_Readable; } }

        public void UploadMeshData(bool markNoLongerReadable) { if (markNoLongerReadable) m_Readable = false; }

        public Vector3[] vertices
        {
            get { return Readable("vertices") ? (Vector3[])m_Vertices.Clone() : new Vector3[0]; }
            set { if (Readable("vertices")) m_Vertices = (Vector3[])value.Clone(); }
        }

        public int[] triangles
        {
            get { return Readable("triangles") ? (int[])m_Triangles.Clone() : new int[0]; }
            set { if (Readable("triangles")) m_Triangles = (int[])value.Clone(); }
        }

        bool Readable(string what)
        {
            if (m_Readable) return true;
            Debug.LogError("Not allowed to access " + what + " on mesh '" + name + "' (isReadable is false; Read/Write must be enabled in import settings)");
            return false;
        }

        // Physics' copy, readable or not.
        internal Vector3[] StandInVertices { get { return m_Vertices; } }
        internal int[] StandInTriangles { get { return m_Triangles; } }
    }

    public class MeshCollider : Collider
    {
        public Mesh sharedMesh;
        public bool convex;

        // Triangles at the synced pose; a ray hits a face from its front (Unity's clockwise winding) only,
        // as PhysX does unless queriesHitBackfaces. (Convex hulls are not modelled: a convex MeshCollider
        // is its triangles here.)
        internal override bool StandInRaycast(Vector3 origin, Vector3 dir, float max, out float distance)
        {
            distance = 0f;
            if (sharedMesh == null) return false;
            Vector3[] v = sharedMesh.StandInVertices;
            int[] tris = sharedMesh.StandInTriangles;
            float best = float.MaxValue;
            for (int i = 0; i + 2 < tris.Length; i += 3)
            {
                Vector3 a = SyncedPoint(v[tris[i]]), b = SyncedPoint(v[tris[i + 1]]), c = SyncedPoint(v[tris[i + 2]]);
                float t;
                if (RayTriangle(a, b, c, origin, dir, Physics.queriesHitBackfaces, out t) && t <= max && t < best) best = t;
            }
            if (best == float.MaxValue) return false;
            distance = best;
            return true;
        }

        // Moller-Trumbore; the front face is the one whose normal Cross(b - a, c - a) faces the ray.
        static bool RayTriangle(Vector3 a, Vector3 b, Vector3 c, Vector3 origin, Vector3 dir, bool backfaces, out float t)
        {
            t = 0f;
            Vector3 e1 = b - a, e2 = c - a;
            if (!backfaces && Vector3.Dot(Vector3.Cross(e1, e2), dir) >= 0f) return false;
            Vector3 p = Vector3.Cross(dir, e2);
            float det = Vector3.Dot(e1, p);
            if (Math.Abs(det) < 1e-12f) return false;
            float inv = 1f / det;
            Vector3 s = origin - a;
            float u = Vector3.Dot(s, p) * inv;
            if (u < 0f || u > 1f) return false;
            Vector3 q = Vector3.Cross(s, e1);
            float w = Vector3.Dot(dir, q) * inv;
            if (w < 0f || u + w > 1f) return false;
            t = Vector3.Dot(e2, q) * inv;
            return t >= 0f;
        }
    }

    public struct RaycastHit
    {
        internal Collider m_Collider;
        internal float m_Distance;
        internal Vector3 m_Point;
        public Collider collider { get { return m_Collider; } }
        public float distance { get { return m_Distance; } set { m_Distance = value; } }
        public Vector3 point { get { return m_Point; } set { m_Point = value; } }
    }

    public static class Physics
    {
        public const int DefaultRaycastLayers = -5;
        public static int StandInRaycastCount;

        /// <summary>As in Unity: whether queries hit triggers when they say UseGlobal (default true).</summary>
        public static bool queriesHitTriggers { get; set; } = true;

        /// <summary>As in Unity: whether rays hit a mesh's back faces (default false).</summary>
        public static bool queriesHitBackfaces { get; set; }

        /// <summary>As in Unity (default false since 2018.3; deprecated in 6000.4): when true, every query
        /// first applies Transform changes to the colliders, as SyncTransforms does.</summary>
#if UNITY_6000_4_OR_NEWER
        [Obsolete("Physics.autoSyncTransforms has been deprecated please use Physics.SyncTransforms instead to manually sync physics transforms when required.", false)]
#endif
        public static bool autoSyncTransforms { get { return s_AutoSync; } set { s_AutoSync = value; } }
        static bool s_AutoSync;

        /// <summary>Not Unity: how many times SyncTransforms was called (tests count the package's calls).</summary>
        public static int StandInSyncCalls;

        /// <summary>As in Unity: applies every Transform change to the physics scene now.</summary>
        public static void SyncTransforms()
        {
            StandInSyncCalls++;
            StandInSyncAll();
        }

        // The physics step of a frame (StandIn.Player.Frame): colliders take their Transforms' poses.
        internal static void StandInSimulate() { StandInSyncAll(); }

        static void StandInSyncAll()
        {
            foreach (var go in StandIn.Player.GameObjects)
                foreach (var c in go.Components)
                {
                    var col = c as Collider;
                    if (col != null) col.StandInSync();
                }
        }

        internal static void StandInResetSync() { s_AutoSync = false; }

        internal static void StandInSyncTree(Transform root)
        {
            foreach (var go in StandIn.Player.GameObjects)
            {
                if (go.transform != root && !go.transform.IsChildOf(root)) continue;
                foreach (var c in go.Components)
                {
                    var col = c as Collider;
                    if (col != null) col.StandInSync();
                }
            }
        }

        public static bool Raycast(Vector3 origin, Vector3 direction, out RaycastHit hitInfo, float maxDistance, int layerMask, QueryTriggerInteraction queryTriggerInteraction)
        {
            StandInRaycastCount++;
            if (s_AutoSync) StandInSyncAll();
            hitInfo = new RaycastHit();
            bool triggers = queryTriggerInteraction == QueryTriggerInteraction.Collide
                || (queryTriggerInteraction == QueryTriggerInteraction.UseGlobal && queriesHitTriggers);
            Vector3 dir = direction.normalized;
            float best = float.MaxValue;
            foreach (var go in StandIn.Player.GameObjects)
            {
                if (!go.activeInHierarchy || ((1 << go.layer) & layerMask) == 0) continue;
                foreach (var c in go.Components)
                {
                    var col = c as Collider;
                    float d;
                    if (col == null || !col.enabled || (col.isTrigger && !triggers)) continue;
                    if (col.StandInRaycast(origin, dir, maxDistance, out d) && d < best)
                    {
                        best = d;
                        hitInfo.m_Collider = col;
                        hitInfo.m_Distance = d;
                        hitInfo.m_Point = origin + dir * d;
                    }
                }
            }
            return hitInfo.m_Collider != null;
        }

        public static bool Raycast(Vector3 origin, Vector3 direction, out RaycastHit hitInfo, float maxDistance, int layerMask)
        {
            return Raycast(origin, direction, out hitInfo, maxDistance, layerMask, QueryTriggerInteraction.UseGlobal);
        }

        public static bool Raycast(Vector3 origin, Vector3 direction, float maxDistance, int layerMask)
        {
            RaycastHit hit;
            return Raycast(origin, direction, out hit, maxDistance, layerMask, QueryTriggerInteraction.UseGlobal);
        }
    }

#if UNITY_2022_2_OR_NEWER
    public struct QueryParameters
    {
        public int layerMask;
        public bool hitMultipleFaces;
        public QueryTriggerInteraction hitTriggers;
        public bool hitBackfaces;
        public QueryParameters(int layerMask = -5, bool hitMultipleFaces = false, QueryTriggerInteraction hitTriggers = QueryTriggerInteraction.UseGlobal, bool hitBackfaces = false)
        {
            this.layerMask = layerMask;
            this.hitMultipleFaces = hitMultipleFaces;
            this.hitTriggers = hitTriggers;
            this.hitBackfaces = hitBackfaces;
        }
    }
#endif

    public struct RaycastCommand
    {
        public Vector3 from;
        public Vector3 direction;
        public float distance;
#if UNITY_2022_2_OR_NEWER
        public QueryParameters queryParameters;
        public RaycastCommand(Vector3 from, Vector3 direction, QueryParameters queryParameters, float distance = float.MaxValue)
        {
            this.from = from;
            this.direction = direction;
            this.queryParameters = queryParameters;
            this.distance = distance;
        }

        public static Unity.Jobs.JobHandle ScheduleBatch(Unity.Collections.NativeArray<RaycastCommand> commands, Unity.Collections.NativeArray<RaycastHit> results, int minCommandsPerJob, int maxHits, Unity.Jobs.JobHandle dependsOn = default(Unity.Jobs.JobHandle))
        {
            StandInBatches++;
            for (int i = 0; i < commands.Length; i++)
            {
                RaycastHit hit;
                var c = commands[i];
                Physics.Raycast(c.from, c.direction, out hit, c.distance, c.queryParameters.layerMask, c.queryParameters.hitTriggers);
                results[i * maxHits] = hit;
            }
            return new Unity.Jobs.JobHandle();
        }
#else
        public int layerMask;
        public int maxHits;
        public RaycastCommand(Vector3 from, Vector3 direction, float distance = float.MaxValue, int layerMask = -5, int maxHits = 1)
        {
            this.from = from;
            this.direction = direction;
            this.distance = distance;
            this.layerMask = layerMask;
            this.maxHits = maxHits;
        }

        public static Unity.Jobs.JobHandle ScheduleBatch(Unity.Collections.NativeArray<RaycastCommand> commands, Unity.Collections.NativeArray<RaycastHit> results, int minCommandsPerJob, Unity.Jobs.JobHandle dependsOn = default(Unity.Jobs.JobHandle))
        {
            StandInBatches++;
            for (int i = 0; i < commands.Length; i++)
            {
                RaycastHit hit;
                var c = commands[i];
                // Before 2022.2 a RaycastCommand has no trigger setting: Physics.queriesHitTriggers decides.
                Physics.Raycast(c.from, c.direction, out hit, c.distance, c.layerMask, QueryTriggerInteraction.UseGlobal);
                results[i] = hit;
            }
            return new Unity.Jobs.JobHandle();
        }
#endif
        public static int StandInBatches;
    }

    public static class Gizmos
    {
        public static Color color { get; set; }
        public static int StandInLines, StandInSpheres;
        public static readonly System.Collections.Generic.List<Color> StandInLineColors = new System.Collections.Generic.List<Color>();
        public static readonly System.Collections.Generic.List<Vector3> StandInLineEnds = new System.Collections.Generic.List<Vector3>();
        public static void DrawLine(Vector3 from, Vector3 to) { StandInLines++; StandInLineColors.Add(color); StandInLineEnds.Add(to); }
        public static readonly System.Collections.Generic.List<Color> StandInSphereColors = new System.Collections.Generic.List<Color>();
        public static readonly System.Collections.Generic.List<Vector3> StandInSphereCenters = new System.Collections.Generic.List<Vector3>();
        public static readonly System.Collections.Generic.List<bool> StandInSphereWire = new System.Collections.Generic.List<bool>();
        public static void DrawSphere(Vector3 center, float radius) { StandInSpheres++; StandInSphereColors.Add(color); StandInSphereCenters.Add(center); StandInSphereWire.Add(false); }
        public static void DrawWireSphere(Vector3 center, float radius) { StandInSpheres++; StandInSphereColors.Add(color); StandInSphereCenters.Add(center); StandInSphereWire.Add(true); }
        public static void StandInClear()
        {
            StandInLines = StandInSpheres = 0;
            StandInLineColors.Clear();
            StandInLineEnds.Clear();
            StandInSphereColors.Clear();
            StandInSphereCenters.Clear();
            StandInSphereWire.Clear();
        }
    }

    public class Texture2D : Object
    {
        readonly int m_Width, m_Height;
        public Texture2D(int width, int height, TextureFormat textureFormat, bool mipChain)
        {
            m_Width = width;
            m_Height = height;
            format = textureFormat;
            StandInFloats = new float[width * height];
        }
        public int width { get { return m_Width; } }
        public int height { get { return m_Height; } }
        public TextureFormat format { get; private set; }
        public FilterMode filterMode { get; set; }
        public TextureWrapMode wrapMode { get; set; }
        public float[] StandInFloats;
        public int StandInApplyCount;

        public void SetPixelData<T>(T[] data, int mipLevel, int sourceDataStartIndex = 0) where T : struct
        {
            var floats = data as float[];
            if (floats == null) throw new NotSupportedException("stand-in: SetPixelData takes float[] only");
            if (floats.Length - sourceDataStartIndex < m_Width * m_Height) throw new ArgumentException("stand-in: data too small");
            Array.Copy(floats, sourceDataStartIndex, StandInFloats, 0, m_Width * m_Height);
        }
        public void Apply() { StandInApplyCount++; }
        public Color GetPixel(int x, int y) { return new Color(StandInFloats[y * m_Width + x], 0f, 0f, 1f); }
    }
}

namespace UnityEngine.AI
{
    // Unity's NavMeshTriangulation (UnityEngine.AI): the baked navmesh as triangles.
    public struct NavMeshTriangulation
    {
        public Vector3[] vertices;
        public int[] indices;
        public int[] areas;

        [Obsolete("Use areas instead.")]
        public int[] layers { get { return areas; } }
    }

    // Unity's NavMesh (static). Stand-in: CalculateTriangulation returns copies of StandInVertices /
    // StandInIndices / StandInAreas (what a test "bakes"); empty arrays when nothing is baked, as Unity does.
    public static class NavMesh
    {
        public const int AllAreas = ~0;
        public static Vector3[] StandInVertices;
        public static int[] StandInIndices;
        public static int[] StandInAreas;
        public static int StandInTriangulations;

        public static NavMeshTriangulation CalculateTriangulation()
        {
            StandInTriangulations++;
            var t = new NavMeshTriangulation();
            t.vertices = StandInVertices != null ? (Vector3[])StandInVertices.Clone() : new Vector3[0];
            t.indices = StandInIndices != null ? (int[])StandInIndices.Clone() : new int[0];
            t.areas = StandInAreas != null ? (int[])StandInAreas.Clone() : new int[t.indices.Length / 3];
            return t;
        }

        public static void StandInClear()
        {
            StandInVertices = null;
            StandInIndices = null;
            StandInAreas = null;
        }
    }

    // Stand-in: walks straight to the destination at `speed` (no navmesh), ticked by the player loop.
    public class NavMeshAgent : Behaviour
    {
        public float speed = 3.5f;
        public float stoppingDistance;
        public bool isStopped;
        public bool pathPending { get { return false; } }
        public bool hasPath { get; private set; }
        public Vector3 destination { get; set; }
        public int StandInSetDestinationCount;
        public float remainingDistance
        {
            get
            {
                Vector3 d = destination - transform.position;
                d.y = 0f;
                return hasPath ? d.magnitude : 0f;
            }
        }
        public bool SetDestination(Vector3 target)
        {
            StandInSetDestinationCount++;
            destination = target;
            hasPath = true;
            return true;
        }
        public void ResetPath() { hasPath = false; }

        static NavMeshAgent()
        {
            StandIn.Player.RegisterTicker<NavMeshAgent>(b => ((NavMeshAgent)b).Tick(Time.deltaTime));
        }

        void Tick(float dt)
        {
            if (!hasPath || isStopped) return;
            Vector3 goal = destination;
            goal.y = transform.position.y;
            Vector3 to = goal - transform.position;
            if (to.sqrMagnitude > 1e-6f) transform.forward = to;
            transform.position = Vector3.MoveTowards(transform.position, goal, speed * dt);
        }
    }
}

namespace Unity.Collections
{
    public enum Allocator { Invalid = 0, None = 1, Temp = 2, TempJob = 3, Persistent = 4 }
    public enum NativeArrayOptions { UninitializedMemory = 0, ClearMemory = 1 }

    // Stand-in: a managed array (or a window of one) behind Unity's NativeArray surface.
    public struct NativeArray<T> : IDisposable where T : struct
    {
        T[] m_Items;
        int m_Start, m_Length;
        bool m_IsView;
        public NativeArray(int length, Allocator allocator, NativeArrayOptions options = NativeArrayOptions.ClearMemory)
        {
            m_Items = new T[length];
            m_Start = 0;
            m_Length = length;
            m_IsView = false;
            StandInLive++;
        }
        public static int StandInLive;
        public int Length { get { return m_Length; } }
        public bool IsCreated { get { return m_Items != null; } }
        public T this[int index]
        {
            get { if ((uint)index >= (uint)m_Length) throw new IndexOutOfRangeException(); return m_Items[m_Start + index]; }
            set { if ((uint)index >= (uint)m_Length) throw new IndexOutOfRangeException(); m_Items[m_Start + index] = value; }
        }
        public NativeArray<T> GetSubArray(int start, int length)
        {
            if (start < 0 || length < 0 || start + length > m_Length) throw new ArgumentOutOfRangeException();
            NativeArray<T> view = this;
            view.m_Start = m_Start + start;
            view.m_Length = length;
            view.m_IsView = true;
            return view;
        }
        public void Dispose()
        {
            if (m_Items == null) throw new InvalidOperationException("stand-in: NativeArray disposed twice");
            if (m_IsView) throw new InvalidOperationException("stand-in: a sub-array cannot be disposed");
            m_Items = null;
            StandInLive--;
        }
    }
}

namespace Unity.Jobs
{
    public struct JobHandle
    {
        public void Complete() { }
        public bool IsCompleted { get { return true; } }
    }
}
