using Unity.Collections;
using Unity.Jobs;
using UnityEngine;

namespace Argus.Perception
{
    public sealed partial class PerceptionWorld
    {
        // Buffers of the two-phase step, kept between frames (grown, never shrunk): no per-frame garbage.
        NativeArray<RaycastCommand> m_Commands;
        NativeArray<RaycastHit> m_Results;
        RayHit[] m_Hits = new RayHit[0];
        int[] m_Pending = new int[0];      // continuation k casts ray m_Pending[k] ...
        float[] m_Offset = new float[0];   // ... from this far along it
        PhysicsRayCaster m_ImmediateCaster;

        /// <summary>How many colliders one ray may pass through (the agent's and target's own, triggers)
        /// before the next one counts as a wall.</summary>
        const int MaxSkips = 8;

        /// <summary>How far past a left-out collider's surface a ray resumes (inside it, so PhysX does
        /// not report it again: a ray that starts inside a collider does not hit it).</summary>
        const float SkipEpsilon = 1e-3f;

        QueryTriggerInteraction TriggerRule
        {
            get { return raysHitTriggers ? QueryTriggerInteraction.Collide : QueryTriggerInteraction.Ignore; }
        }

        /// <summary>True when a ray passes through this collider: a trigger (unless raysHitTriggers), or
        /// a collider of the looking agent or of the looked-at target (on its GameObject or below it), so
        /// a player's CapsuleCollider or CharacterController does not hide its own chest point.</summary>
        internal bool PassesThrough(Collider c, ref EngineRay r)
        {
            if (c.isTrigger && !raysHitTriggers) return true;
            Transform t = c.transform;
            PerceptionAgent a = AgentFor(r.Agent);
            if (a != null && t.IsChildOf(a.transform)) return true;
            PerceptionTarget tg = TargetFor(r.Target);
            return tg != null && t.IsChildOf(tg.transform);
        }

        /// <summary>Rays answered by Unity physics: the world hands out every ray of the step, one
        /// RaycastCommand batch casts them, and the hits finish the step. A ray is blocked by the first
        /// collider on its layer mask (the agent's obstacleMask) before its end that it does not pass
        /// through (see PassesThrough); rays that met such a collider go on in a further batch.</summary>
        void StepWithPhysics(float dt)
        {
            RayArray rays = m_World.BeginStep(dt);
            int n = rays.Length;
            try
            {
                // Physics.autoSyncTransforms is off by default (and deprecated in 6000.4): colliders moved
                // through their Transform since the last physics step are where physics last saw them until
                // SyncTransforms. The world steps after game code moved things, so sync first.
                if (n > 0) Physics.SyncTransforms();
                if (n > 0) CastBatch(rays, n);
                m_World.FinishStep(m_Hits, n);
            }
            catch
            {
                m_World.CancelStep();
                throw;
            }
        }

        void CastBatch(RayArray rays, int n)
        {
            if (!m_Commands.IsCreated || m_Commands.Length < n)
            {
                int capacity = m_Commands.IsCreated ? m_Commands.Length : 64;
                while (capacity < n) capacity *= 2;
                ReleasePhysicsBuffers();
                m_Commands = new NativeArray<RaycastCommand>(capacity, Allocator.Persistent);
                m_Results = new NativeArray<RaycastHit>(capacity, Allocator.Persistent);
            }
            if (m_Hits.Length < n)
            {
                m_Hits = new RayHit[n];
                m_Pending = new int[n];
                m_Offset = new float[n];
            }
            for (int i = 0; i < n; i++)
            {
                m_Pending[i] = i;
                m_Offset[i] = 0f;
                m_Hits[i] = new RayHit();
            }
            int pending = n;
            for (int round = 0; pending > 0; round++)
            {
                for (int k = 0; k < pending; k++)
                {
                    EngineRay r = rays[m_Pending[k]];
                    float offset = m_Offset[k];
                    Vector3 dir = UnityArgus.ToUnity(r.Direction);
                    Vector3 from = UnityArgus.ToUnity(r.Origin) + dir * offset;
                    m_Commands[k] = Command(from, dir, r.MaxDistance - offset, unchecked((int)r.LayerMask));
                }
                Schedule(pending);
                int next = 0;
                for (int k = 0; k < pending; k++)
                {
                    RaycastHit h = m_Results[k];
                    Collider c = h.collider;
                    if (c == null) continue;
                    int i = m_Pending[k];
                    EngineRay r = rays[i];
                    float along = m_Offset[k] + h.distance;
                    if (round < MaxSkips && PassesThrough(c, ref r))
                    {
                        if (along + SkipEpsilon >= r.MaxDistance) continue;
                        m_Pending[next] = i;
                        m_Offset[next] = along + SkipEpsilon;
                        next++;
                        continue;
                    }
                    m_Hits[i].Hit = true;
                    m_Hits[i].Distance = along;
                }
                pending = next;
            }
        }

        RaycastCommand Command(Vector3 from, Vector3 dir, float distance, int mask)
        {
#if UNITY_2022_2_OR_NEWER
            return new RaycastCommand(from, dir, new QueryParameters(mask, false, TriggerRule, false), distance);
#else
            return new RaycastCommand(from, dir, distance, mask, 1);
#endif
        }

        void Schedule(int count)
        {
#if UNITY_2022_2_OR_NEWER
            JobHandle job = RaycastCommand.ScheduleBatch(m_Commands.GetSubArray(0, count), m_Results.GetSubArray(0, count), 32, 1, default(JobHandle));
            job.Complete();
#else
            // Before 2022.2 a RaycastCommand has no trigger setting and follows Physics.queriesHitTriggers:
            // set it to the world's rule for the batch (completed here, on the main thread), then restore.
            bool global = Physics.queriesHitTriggers;
            if (global != raysHitTriggers) Physics.queriesHitTriggers = raysHitTriggers;
            try
            {
                JobHandle job = RaycastCommand.ScheduleBatch(m_Commands.GetSubArray(0, count), m_Results.GetSubArray(0, count), 32, default(JobHandle));
                job.Complete();
            }
            finally
            {
                if (global != raysHitTriggers) Physics.queriesHitTriggers = global;
            }
#endif
        }

        void ReleasePhysicsBuffers()
        {
            if (m_Commands.IsCreated) m_Commands.Dispose();
            if (m_Results.IsCreated) m_Results.Dispose();
        }

        /// <summary>Answers the rays of immediate queries (CanSeeTarget, FindVisibleTargets, cover, the
        /// debug picture) with Physics.Raycast on the main thread, in an engine-ray world, by the same
        /// rules as the step's batch (the world's trigger rule, own colliders passed through).</summary>
        sealed class PhysicsRayCaster : IRayCaster
        {
            readonly PerceptionWorld m_Owner;

            public PhysicsRayCaster(PerceptionWorld owner) { m_Owner = owner; }

            public void CastRays(RayArray rays, RayHits hits)
            {
                QueryTriggerInteraction triggers = m_Owner.TriggerRule;
                if (rays.Length > 0) Physics.SyncTransforms(); // current colliders, as in the step (StepWithPhysics)
                for (int i = 0; i < rays.Length; i++)
                {
                    EngineRay r = rays[i];
                    Vector3 origin = UnityArgus.ToUnity(r.Origin);
                    Vector3 dir = UnityArgus.ToUnity(r.Direction);
                    int mask = unchecked((int)r.LayerMask);
                    var answer = new RayHit();
                    float offset = 0f;
                    for (int round = 0; offset < r.MaxDistance; round++)
                    {
                        RaycastHit h;
                        if (!Physics.Raycast(origin + dir * offset, dir, out h, r.MaxDistance - offset, mask, triggers)) break;
                        float along = offset + h.distance;
                        if (round < MaxSkips && m_Owner.PassesThrough(h.collider, ref r))
                        {
                            offset = along + SkipEpsilon;
                            continue;
                        }
                        answer.Hit = true;
                        answer.Distance = along;
                        break;
                    }
                    hits[i] = answer;
                }
            }
        }

        // ---- one ray between two points (FieldOfViewSensor.HasLineOfSight(Vector3, ...)) ------------------

        readonly Vec3[] m_RayEnd = new Vec3[1];
        readonly Threat[] m_RayStart = new Threat[1];
        TacticalResult[] m_RayResult = new TacticalResult[1];

        /// <summary>Is the segment from..to blocked by an obstacle on these layers? Asked of the native
        /// world as a one-candidate cover query (is `to` hidden from an eye at `from`), so it takes the
        /// world's line-of-sight source: occluders, Unity physics (the immediate caster) or a custom caster.</summary>
        internal bool RayBlocked(Vector3 from, Vector3 to, uint layers)
        {
            CoverQuery q = CoverQuery.Default();
            q.SelfPosition = UnityArgus.ToArgus(to);
            q.ObstacleMask = layers;
            q.ProbeOffset = new Vec3(0f, 0f, 0f);
            q.TopK = 1;
            m_RayStart[0].Position = UnityArgus.ToArgus(from);
            m_RayStart[0].Eye = UnityArgus.ToArgus(from);
            m_RayStart[0].Forward = new Vec3(0f, 0f, 1f);
            m_RayEnd[0] = UnityArgus.ToArgus(to);
            TacticalAnswer answer;
            return m_World.FindCover(q, m_RayEnd, m_RayStart, ref m_RayResult, out answer) > 0;
        }

        // ---- occluders from a scan of the scene's colliders ---------------------------------------------------

        void ScanOccluders()
        {
            int mask = occluderScanMask.value;
            if (mask == 0) return;
            // The unsorted search of each version, never an obsolete one: 6000.4 deprecates every
            // FindObjectsSortMode overload, 2023.1 FindObjectsOfType (ARGUS_FIND_OBJECTS_BY_TYPE: the
            // asmdef's versionDefines, 2021.3.18+ and 2022.2.5+, where FindObjectsByType exists).
#if UNITY_6000_4_OR_NEWER
            Collider[] colliders = FindObjectsByType<Collider>();
#elif ARGUS_FIND_OBJECTS_BY_TYPE
            Collider[] colliders = FindObjectsByType<Collider>(FindObjectsSortMode.None);
#else
            Collider[] colliders = FindObjectsOfType<Collider>();
#endif
            for (int i = 0; i < colliders.Length; i++)
            {
                Collider c = colliders[i];
                // A disabled collider is no wall for physics either (inactive GameObjects are not found).
                if (((1 << c.gameObject.layer) & mask) == 0 || c.isTrigger || !c.enabled) continue;
                if (c.GetComponent<PerceptionOccluder>() != null) continue;
                OccluderId id;
                if (!OccluderShapes.TryCreate(m_World, c, false, out id)) continue;
                m_ScannedOccluders.Add(id);
                m_World.SetLabel(id, UnityArgus.Label(c.gameObject.name)); // named once: a scanned wall is static
            }
        }
    }
}
