using System;
using UnityEngine;
using UnityEngine.AI;

namespace Argus.Perception
{
    /// <summary>
    /// The lesson's state machine (§8), run natively: a sighting means Chasing; a sound heard while
    /// Idle means Investigating; losing sight of the chased target means Searching its last known
    /// position for <see cref="searchDuration"/> seconds; a search that runs out, or a memory whose
    /// confidence reaches 0, means Idle. <see cref="state"/> follows the native brain after every
    /// step. With a NavMeshAgent on this GameObject the brain walks it to the position it wants.
    /// </summary>
    [RequireComponent(typeof(PerceptionAgent))]
    [AddComponentMenu("Argus/Enemy Brain")]
    public sealed class EnemyBrain : MonoBehaviour
    {
        [Tooltip("Kept for the lesson's layout (this GameObject's PerceptionSystem if empty).")]
        public PerceptionSystem perception;

        [Tooltip("Kept for the lesson's layout (this GameObject's PerceptionMemory if empty).")]
        public PerceptionMemory memory;

        [Tooltip("Kept for the lesson's layout: the native brain chases whichever hostile target it perceives. Set PerceptionSystem.player to filter percepts.")]
        public Transform player;

        [Tooltip("Seconds of searching the last known position before giving up.")]
        public float searchDuration = 4f;

        /// <summary>The brain's state, updated after every step (read it; the native brain writes it).</summary>
        public AIState state = AIState.Idle;

        [Header("Beyond the lesson")]
        [Tooltip("Seconds investigating a sound before searching, if arrival is never reported.")]
        public float investigateTimeout = 10f;

        [Tooltip("Within this distance of the investigated spot the guard has arrived (reported to the brain). 0 = never report automatically: call ReportArrived yourself.")]
        public float arrivalDistance = 1f;

        [Tooltip("Walk the NavMeshAgent on this GameObject (if any) to where the brain wants to go.")]
        public bool driveNavMeshAgent = true;

        /// <summary>Raised on every state change: (from, to).</summary>
        public event Action<AIState, AIState> OnStateChanged;

        PerceptionAgent m_Agent;
        NavMeshAgent m_Nav;
        Vector3 m_Destination;
        bool m_HasDestination;
        bool m_ArrivalReported;

        /// <summary>Where the brain wants to go (valid when HasMoveTarget).</summary>
        public Vector3 MoveTarget { get; private set; }

        /// <summary>True when the brain wants to go somewhere (not Idle).</summary>
        public bool HasMoveTarget { get; private set; }

        /// <summary>The target chased or searched for (null when none, e.g. an anonymous sound).</summary>
        public Transform Focus { get; private set; }

        /// <summary>Seconds left searching (Searching) or investigating (Investigating).</summary>
        public float StateTimer { get; private set; }

        void Awake()
        {
            m_Agent = GetComponent<PerceptionAgent>();
            m_Agent.brain = this;
            m_Nav = GetComponent<NavMeshAgent>();
            if (perception == null) perception = GetComponent<PerceptionSystem>();
            if (memory == null) memory = GetComponent<PerceptionMemory>();
        }

        void OnDestroy()
        {
            if (m_Agent != null && m_Agent.brain == this) m_Agent.brain = null;
        }

        bool m_SentSet, m_SentEnabled;
        float m_SentSearch, m_SentInvestigate;

        /// <summary>True (and remembered) when a field Fill forwards differs from the last call.</summary>
        internal bool SettingsChanged()
        {
            bool on = enabled;
            if (m_SentSet && m_SentEnabled == on && m_SentSearch == searchDuration && m_SentInvestigate == investigateTimeout) return false;
            m_SentSet = true;
            m_SentEnabled = on;
            m_SentSearch = searchDuration;
            m_SentInvestigate = investigateTimeout;
            return true;
        }

        internal void Fill(ref AgentDef def)
        {
            def.Brain.Enabled = enabled;
            def.Brain.SearchDuration = searchDuration;
            def.Brain.InvestigateTimeout = investigateTimeout;
        }

        /// <summary>Tell the brain the guard reached the spot it was investigating (done for you when
        /// it comes within arrivalDistance, or its NavMeshAgent stops there).</summary>
        public void ReportArrived()
        {
            if (m_Agent == null || !m_Agent.IsLive) return;
            m_Agent.World.Native.ReportArrived(m_Agent.Id);
            m_ArrivalReported = true;
        }

        internal void OnBrainEvent(AIState from, AIState to, Transform focus)
        {
            AIState before = from;
            state = to;
            Focus = focus;
            if (state == AIState.Investigating) m_ArrivalReported = false;
            Action<AIState, AIState> handler = OnStateChanged;
            if (handler != null) handler(before, state);
        }

        internal void ResetState()
        {
            state = AIState.Idle;
            Focus = null;
            HasMoveTarget = false;
            m_HasDestination = false;
        }

        /// <summary>The brain's outputs of this step, from the world's one bulk GetAgentStates call.</summary>
        internal void ApplyState(ref AgentState s)
        {
            if (m_Agent == null || !m_Agent.IsLive) return;
            state = (AIState)s.BrainState;
            StateTimer = s.BrainTimer;
            PerceptionTarget focus = m_Agent.World.TargetFor(s.Focus);
            Focus = focus != null ? focus.transform : null;
            HasMoveTarget = s.HasMoveTarget;
            MoveTarget = UnityArgus.ToUnity(s.MoveTarget);
            if (!HasMoveTarget)
            {
                if (m_HasDestination && m_Nav != null && driveNavMeshAgent && m_Nav.isActiveAndEnabled) m_Nav.ResetPath();
                m_HasDestination = false;
                return;
            }
            if (driveNavMeshAgent && m_Nav != null && m_Nav.isActiveAndEnabled
                && (!m_HasDestination || (m_Destination - MoveTarget).sqrMagnitude > 0.01f))
            {
                m_Nav.SetDestination(MoveTarget);
                m_Destination = MoveTarget;
                m_HasDestination = true;
            }
            if (state == AIState.Investigating && !m_ArrivalReported && Arrived()) ReportArrived();
        }

        bool Arrived()
        {
            if (arrivalDistance <= 0f) return false;
            if (driveNavMeshAgent && m_Nav != null && m_Nav.isActiveAndEnabled && m_HasDestination)
                return !m_Nav.pathPending && m_Nav.remainingDistance <= Mathf.Max(m_Nav.stoppingDistance, arrivalDistance);
            Vector3 d = MoveTarget - transform.position;
            d.y = 0f;
            return d.sqrMagnitude <= arrivalDistance * arrivalDistance;
        }
    }
}
