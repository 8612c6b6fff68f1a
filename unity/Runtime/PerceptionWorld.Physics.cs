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

        /// <summary>Rays answered by Unity physics: the world hands out every ray of the step, one
        /// RaycastCommand batch casts them, and the hits finish the step. A ray is blocked when it hits
        /// any collider on the ray's layer mask (the agent's obstacleMask) before its end.</summary>
        void StepWithPhysics(float dt)
        {
            RayArray rays = m_World.BeginStep(dt);
            int n = rays.Length;
            try
            {
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
            if (m_Hits.Length < n) m_Hits = new RayHit[n];
            for (int i = 0; i < n; i++)
            {
                Ray r = rays[i];
                Vector3 from = UnityArgus.ToUnity(r.Origin);
                Vector3 dir = UnityArgus.ToUnity(r.Direction);
                int mask = unchecked((int)r.LayerMask);
#if UNITY_2022_2_OR_NEWER
                m_Commands[i] = new RaycastCommand(from, dir, new QueryParameters(mask, false, QueryTriggerInteraction.Ignore, false), r.MaxDistance);
#else
                m_Commands[i] = new RaycastCommand(from, dir, r.MaxDistance, mask, 1);
#endif
            }
#if UNITY_2022_2_OR_NEWER
            JobHandle job = RaycastCommand.ScheduleBatch(m_Commands.GetSubArray(0, n), m_Results.GetSubArray(0, n), 32, 1, default(JobHandle));
#else
            JobHandle job = RaycastCommand.ScheduleBatch(m_Commands.GetSubArray(0, n), m_Results.GetSubArray(0, n), 32, default(JobHandle));
#endif
            job.Complete();
            for (int i = 0; i < n; i++)
            {
                RaycastHit h = m_Results[i];
                bool hit = h.collider != null;
                m_Hits[i].Hit = hit;
                m_Hits[i].Distance = hit ? h.distance : 0f;
            }
        }

        void ReleasePhysicsBuffers()
        {
            if (m_Commands.IsCreated) m_Commands.Dispose();
            if (m_Results.IsCreated) m_Results.Dispose();
        }

        /// <summary>Answers the rays of immediate queries (CanSeeTarget, FindVisibleTargets, cover, the
        /// debug picture) with Physics.Raycast on the main thread, in an engine-ray world.</summary>
        sealed class PhysicsRayCaster : IRayCaster
        {
            public static readonly PhysicsRayCaster Instance = new PhysicsRayCaster();

            public void CastRays(RayArray rays, RayHits hits)
            {
                for (int i = 0; i < rays.Length; i++)
                {
                    Ray r = rays[i];
                    RaycastHit h;
                    bool hit = Physics.Raycast(UnityArgus.ToUnity(r.Origin), UnityArgus.ToUnity(r.Direction), out h,
                        r.MaxDistance, unchecked((int)r.LayerMask));
                    var answer = new RayHit();
                    answer.Hit = hit;
                    answer.Distance = hit ? h.distance : 0f;
                    hits[i] = answer;
                }
            }
        }

        // ---- occluders from a scan of the scene's colliders ---------------------------------------------------

        void ScanOccluders()
        {
            int mask = occluderScanMask.value;
            if (mask == 0) return;
            Collider[] colliders = FindObjectsOfType<Collider>();
            for (int i = 0; i < colliders.Length; i++)
            {
                Collider c = colliders[i];
                if (((1 << c.gameObject.layer) & mask) == 0 || c.isTrigger) continue;
                if (c.GetComponent<PerceptionOccluder>() != null) continue;
                OccluderId id;
                if (OccluderShapes.TryCreate(m_World, c, false, out id)) m_ScannedOccluders.Add(id);
            }
        }
    }
}
