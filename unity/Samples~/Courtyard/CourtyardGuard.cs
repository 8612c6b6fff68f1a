using UnityEngine;

namespace Argus.Perception.Samples
{
    /// <summary>
    /// Moves a courtyard guard without a NavMesh (the sample builds its level in code): patrols its
    /// waypoints while Idle, otherwise walks to where EnemyBrain wants to go (MoveTarget), stops a
    /// few metres short of a spot it investigates or searches, and reports arrival. Speeds per
    /// state as in examples/courtyard. With a baked NavMesh, add a NavMeshAgent instead: EnemyBrain
    /// then drives it and reports arrival itself.
    /// </summary>
    [RequireComponent(typeof(EnemyBrain))]
    public sealed class CourtyardGuard : MonoBehaviour
    {
        public Vector3[] patrol = new Vector3[0];
        public float lookDistance = 3.6f;

        EnemyBrain m_Brain;
        int m_Waypoint = 1;
        bool m_Reported;

        void Awake() { m_Brain = GetComponent<EnemyBrain>(); }

        static float Speed(AIState s)
        {
            switch (s)
            {
                case AIState.Investigating: return 2f;
                case AIState.Chasing: return 3.4f;
                case AIState.Searching: return 1.8f;
                default: return 1.4f;
            }
        }

        void Update()
        {
            AIState state = m_Brain.state;
            if (state != AIState.Investigating) m_Reported = false;
            bool patrolling = state == AIState.Idle;
            if (patrolling && patrol.Length == 0) return;
            if (!patrolling && !m_Brain.HasMoveTarget) return;
            Vector3 goal = patrolling ? patrol[m_Waypoint % patrol.Length] : m_Brain.MoveTarget;
            Vector3 to = goal - transform.position;
            to.y = 0f;
            float stop = state == AIState.Investigating || state == AIState.Searching ? lookDistance : 0.3f;
            float dist = to.magnitude;
            bool there = dist <= stop;
            if (!there)
            {
                Vector3 dir = to / dist;
                Vector3 step = dir * Mathf.Min(Speed(state) * Time.deltaTime, dist - stop);
                Vector3 next = Slide(transform.position, step);
                there = Vector3.Dot(next - transform.position, dir) < 0.2f * step.magnitude; // a wall: as close as it gets
                transform.position = next;
                transform.rotation = Quaternion.LookRotation(dir);
            }
            if (!there) return;
            if (patrolling) m_Waypoint = (m_Waypoint + 1) % patrol.Length;
            else if (state == AIState.Investigating && !m_Reported)
            {
                m_Brain.ReportArrived();
                m_Reported = true;
            }
        }

        static Vector3 Slide(Vector3 from, Vector3 step)
        {
            const float body = 0.4f;
            if (!CourtyardDemo.Blocked(from + step, body)) return from + step;
            var x = new Vector3(step.x, 0f, 0f);
            if (!CourtyardDemo.Blocked(from + x, body)) return from + x;
            var z = new Vector3(0f, 0f, step.z);
            if (!CourtyardDemo.Blocked(from + z, body)) return from + z;
            return from;
        }
    }
}
