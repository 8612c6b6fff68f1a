using System;
using UnityEngine;
using UnityEngine.AI;
using UnityEngine.Events;

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
        /// <summary>How a lost target is searched for (the values of the library's SearchKind).</summary>
        public enum SearchMode
        {
            /// <summary>The lesson's: walk to the last known position and search there for searchDuration.</summary>
            LastKnownPosition = 0,
            /// <summary>By a belief of where the target can be now, over the PerceptionWorld's walk graph:
            /// from one search point to the next, clearing what the guard sees; gives up when no place holds
            /// more than giveUpProbability, or after searchDuration. Without a walk graph, the lesson's.</summary>
            Belief = 1,
        }

        [Tooltip("Kept for the lesson's layout (this GameObject's PerceptionSystem if empty).")]
        public PerceptionSystem perception;

        [Tooltip("Kept for the lesson's layout (this GameObject's PerceptionMemory if empty).")]
        public PerceptionMemory memory;

        [Tooltip("Kept for the lesson's layout: the native brain chases whichever hostile target it perceives. Set PerceptionSystem.player to filter percepts.")]
        public Transform player;

        [Tooltip("Seconds of searching the last known position before giving up.")]
        [Min(0f)]
        public float searchDuration = 4f;

        /// <summary>The brain's state, updated after every step (read it; the native brain writes it).</summary>
        public AIState state = AIState.Idle;

        [Header("Beyond the lesson")]
        [Tooltip("Seconds investigating a sound before searching, if arrival is never reported.")]
        [Min(0f)]
        public float investigateTimeout = 10f;

        [Tooltip("Within this distance of the investigated spot the guard has arrived (reported to the brain). 0 = never report automatically: call ReportArrived yourself.")]
        [Min(0f)]
        public float arrivalDistance = 1f;

        [Tooltip("Walk the NavMeshAgent on this GameObject (if any) to where the brain wants to go.")]
        public bool driveNavMeshAgent = true;

        [Header("Belief search")]
        [Tooltip("How a lost target is searched for. LastKnownPosition: the lesson's. Belief: where the target can be now, spread over the PerceptionWorld's walk graph at the target's topSpeed; the guard walks from one search point to the next (needs a walk graph: without one, the lesson's search).")]
        public SearchMode search = SearchMode.LastKnownPosition;

        [Tooltip("Belief search gives up when no walk-graph node holds more than this probability (or when searchDuration runs out).")]
        [Range(0f, 1f)]
        public float giveUpProbability = 0.002f;

        [Tooltip("Belief search: guards of one team (PerceptionAgent.team) with this on share one belief per target, each clearing what it sees, and pick different search points. Off: this guard keeps its own.")]
        public bool shareBelief = true;

        /// <summary>Raised on every state change: (from, to).</summary>
        public event Action<AIState, AIState> OnStateChanged;

        [Tooltip("Raised on every state change (from, to), after OnStateChanged: wire it in the Inspector.")]
        public UnityEvent<AIState, AIState> onStateChanged = new UnityEvent<AIState, AIState>();

        PerceptionAgent m_Agent;
        NavMeshAgent m_Nav;
        Vector3 m_Destination;
        bool m_HasDestination;
        bool m_ArrivalReported;

        // The brain's outputs as of m_OutputStep (a world StepCount): read from the world's one bulk
        // GetAgentStates of that step, when something asks for them (or every step when this brain
        // drives a NavMeshAgent or waits to arrive somewhere).
        Vector3 m_MoveTarget;
        bool m_HasMoveTarget;
        Transform m_Focus;
        float m_StateTimer;
        int m_OutputStep = -1;
        PerceptionWorld m_OutputWorld;

        /// <summary>Where the brain wants to go (valid when HasMoveTarget), as of the latest step.</summary>
        public Vector3 MoveTarget { get { Refresh(); return m_MoveTarget; } }

        /// <summary>True when the brain wants to go somewhere (not Idle), as of the latest step.</summary>
        public bool HasMoveTarget { get { Refresh(); return m_HasMoveTarget; } }

        /// <summary>The target chased or searched for (null when none, e.g. an anonymous sound).</summary>
        public Transform Focus { get { Refresh(); return m_Focus; } }

        /// <summary>Seconds left searching (Searching) or investigating (Investigating), as of the latest step.</summary>
        public float StateTimer { get { Refresh(); return m_StateTimer; } }

        /// <summary>The outputs last read, without reading (the world's per-step scan uses it).</summary>
        internal bool HadMoveTarget { get { return m_HasMoveTarget; } }

        /// <summary>Must the outputs be read every step (not only when asked)? When this brain walks a
        /// NavMeshAgent, had a destination to clear, or must report arriving at an investigated spot.</summary>
        internal bool NeedsEveryStep
        {
            get
            {
                return m_HasDestination
                    || (driveNavMeshAgent && !ReferenceEquals(m_Nav, null) && m_Nav != null && m_Nav.isActiveAndEnabled)
                    || (state == AIState.Investigating && !m_ArrivalReported && arrivalDistance > 0f);
            }
        }

        /// <summary>Visited after every step even without events: it has a NavMeshAgent to walk, a
        /// destination to clear, or waits to arrive at an investigated spot.</summary>
        internal bool StaysActive
        {
            get
            {
                return m_HasDestination || !ReferenceEquals(m_Nav, null)
                    || (state == AIState.Investigating && !m_ArrivalReported && arrivalDistance > 0f);
            }
        }

        void Refresh()
        {
            if (m_Agent == null || !m_Agent.IsLive) return;
            PerceptionWorld w = m_Agent.World;
            if (m_OutputStep == w.StepCount && ReferenceEquals(m_OutputWorld, w)) return;
            AgentState s;
            if (w.TryGetAgentState(m_Agent.Id, out s)) Take(ref s);
        }

        void Take(ref AgentState s)
        {
            PerceptionWorld w = m_Agent.World;
            m_OutputStep = w.StepCount;
            m_OutputWorld = w;
            m_StateTimer = s.BrainTimer;
            PerceptionTarget focus = w.TargetFor(s.Focus);
            m_Focus = focus != null ? focus.transform : null;
            m_HasMoveTarget = s.HasMoveTarget;
            m_MoveTarget = UnityArgus.ToUnity(s.MoveTarget);
        }

        void Awake()
        {
            m_Agent = GetComponent<PerceptionAgent>();
            m_Agent.brain = this;
            m_Nav = GetComponent<NavMeshAgent>();
            if (perception == null) perception = GetComponent<PerceptionSystem>();
            if (memory == null) memory = GetComponent<PerceptionMemory>();
        }

        // Enabling or disabling changes the def (the sense's Enabled flag): tell the agent, rather
        // than reading `enabled` every frame.
        void OnEnable() { if (!ReferenceEquals(m_Agent, null)) m_Agent.SiblingToggled(); }

        void OnDisable() { if (!ReferenceEquals(m_Agent, null)) m_Agent.SiblingToggled(); }

        /// <summary>Sends this component's fields (with the rest of the guard's) at the next step, or at
        /// once if a query comes first. Needed only when the world's settingsSync is OnChange, after a
        /// script set fields at run time; with EveryFrame (the default) every step compares them anyway.</summary>
        public void ApplySettings() { if (!ReferenceEquals(m_Agent, null)) m_Agent.ApplySettings(); }

        // The editor calls this after an inspector edit (and on load, possibly before Awake): flag the settings.
        void OnValidate() { if (!ReferenceEquals(m_Agent, null)) m_Agent.ApplySettings(); }

        void OnDestroy()
        {
            if (m_Agent != null && m_Agent.brain == this) m_Agent.brain = null;
        }

        bool m_SentSet, m_SentShare;
        float m_SentSearch, m_SentInvestigate, m_SentGiveUp;
        SearchMode m_SentMode;

        /// <summary>True (and remembered) when a field Fill forwards differs from the last call.</summary>
        internal bool SettingsChanged()
        {
            if (m_SentSet && m_SentSearch == searchDuration && m_SentInvestigate == investigateTimeout
                && m_SentMode == search && m_SentGiveUp == giveUpProbability && m_SentShare == shareBelief) return false;
            m_SentSet = true;
            m_SentSearch = searchDuration;
            m_SentInvestigate = investigateTimeout;
            m_SentMode = search;
            m_SentGiveUp = giveUpProbability;
            m_SentShare = shareBelief;
            return true;
        }

        internal void Fill(ref AgentDef def)
        {
            def.Brain.Enabled = enabled;
            def.Brain.SearchDuration = searchDuration;
            def.Brain.InvestigateTimeout = investigateTimeout;
            def.Brain.Search = (SearchKind)search;
            def.Brain.GiveUpProbability = giveUpProbability;
            def.Brain.ShareBelief = shareBelief;
        }

        // ---- belief search: what the guard believes, read from the native world ---------------------------

        /// <summary>What this guard believes now about where its focus is (true and info filled while it
        /// keeps a belief: search is Belief, the world has a walk graph, and it chases or searches for a
        /// target). info.Peak is the highest node probability, info.OwnerCount the guards sharing it.
        /// As of the latest step; false while the guard is not in a world.</summary>
        public bool TryGetBelief(out BeliefInfo info)
        {
            info = new BeliefInfo();
            if (m_Agent == null || !m_Agent.IsLive) return false;
            return m_Agent.World.Native.TryGetBelief(m_Agent.Id, out info);
        }

        /// <summary>Copies the probability of every walk-graph node (in PerceptionWorld.Native.GetWalkNodes
        /// order; they sum to 1) into probabilities, grown when too small (reuse it: no allocation once
        /// big enough); returns the node count, 0 when the guard keeps no belief.</summary>
        public int GetBelief(ref float[] probabilities)
        {
            if (m_Agent == null || !m_Agent.IsLive) return 0;
            return m_Agent.World.Native.GetBelief(m_Agent.Id, ref probabilities);
        }

        /// <summary>The probability this guard's belief gives the walk-graph node nearest position (0 off the
        /// graph, or when it keeps no belief).</summary>
        public float GetBeliefAt(Vector3 position)
        {
            if (m_Agent == null || !m_Agent.IsLive) return 0f;
            return m_Agent.World.Native.GetBeliefAt(m_Agent.Id, UnityArgus.ToArgus(position));
        }

        /// <summary>The best places to search (a 4 m tile's most probable node and the probability the tile
        /// holds), most probable first: up to buffer.Length written; returns how many (0 when it keeps no belief).</summary>
        public int GetSearchPoints(SearchPoint[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            if (m_Agent == null || !m_Agent.IsLive) return 0;
            return m_Agent.World.Native.GetSearchPoints(m_Agent.Id, buffer);
        }

        /// <summary>True when this guard searches by belief and has a search point to walk to (then it is
        /// MoveTarget), as of the latest step.</summary>
        public bool HasSearchPoint
        {
            get
            {
                BeliefInfo info;
                return TryGetBelief(out info) && info.HasSearchPoint;
            }
        }

        /// <summary>The search point this guard walks to (valid when HasSearchPoint; Vector3.zero otherwise).</summary>
        public Vector3 SearchPoint
        {
            get
            {
                BeliefInfo info;
                return TryGetBelief(out info) && info.HasSearchPoint ? UnityArgus.ToUnity(info.SearchPoint) : Vector3.zero;
            }
        }

        /// <summary>Selected in the Scene view (Play mode): this guard's belief as a heat map over the walk
        /// graph, and its search point (PerceptionWorld.DrawBelief), unless the world draws every guard's
        /// already (its gizmoFlags bit GizmoBeliefs).</summary>
        void OnDrawGizmosSelected()
        {
            if (search != SearchMode.Belief || m_Agent == null || !m_Agent.IsLive) return;
            PerceptionWorld w = m_Agent.World;
            if (w.DrawsBeliefs) return;
            w.DrawBelief(this);
        }

        /// <summary>Tell the brain the guard reached the spot it was investigating (done for you when
        /// it comes within arrivalDistance, or its NavMeshAgent stops there).</summary>
        public void ReportArrived()
        {
            if (m_Agent == null || !m_Agent.IsLive) return;
            m_Agent.World.Native.ReportArrived(m_Agent.Id);
            m_ArrivalReported = true;
            m_Agent.World.InvalidateAgentStates();
        }

        internal void OnBrainEvent(AIState from, AIState to, Transform focus)
        {
            AIState before = from;
            state = to;
            m_Focus = focus;
            if (state == AIState.Investigating) m_ArrivalReported = false;
            Action<AIState, AIState> handler = OnStateChanged;
            if (handler != null) handler(before, state);
            if (onStateChanged != null) onStateChanged.Invoke(before, state);
        }

        internal void ResetState()
        {
            state = AIState.Idle;
            m_Focus = null;
            m_HasMoveTarget = false;
            m_StateTimer = 0f;
            m_OutputStep = -1;
            m_HasDestination = false;
        }

        /// <summary>The brain's outputs of this step, from the world's one bulk GetAgentStates call: walk
        /// the NavMeshAgent, report arrival.</summary>
        internal void ApplyState(ref AgentState s)
        {
            if (m_Agent == null || !m_Agent.IsLive) return;
            state = (AIState)s.BrainState;
            Take(ref s);
            if (!m_HasMoveTarget)
            {
                if (m_HasDestination && m_Nav != null && driveNavMeshAgent && m_Nav.isActiveAndEnabled) m_Nav.ResetPath();
                m_HasDestination = false;
                return;
            }
            if (driveNavMeshAgent && m_Nav != null && m_Nav.isActiveAndEnabled
                && (!m_HasDestination || (m_Destination - m_MoveTarget).sqrMagnitude > 0.01f))
            {
                m_Nav.SetDestination(m_MoveTarget);
                m_Destination = m_MoveTarget;
                m_HasDestination = true;
            }
            if (state == AIState.Investigating && !m_ArrivalReported && Arrived()) ReportArrived();
        }

        bool Arrived()
        {
            if (arrivalDistance <= 0f) return false;
            if (driveNavMeshAgent && m_Nav != null && m_Nav.isActiveAndEnabled && m_HasDestination)
                return !m_Nav.pathPending && m_Nav.remainingDistance <= Mathf.Max(m_Nav.stoppingDistance, arrivalDistance);
            Vector3 d = m_MoveTarget - transform.position;
            d.y = 0f;
            return d.sqrMagnitude <= arrivalDistance * arrivalDistance;
        }
    }
}
