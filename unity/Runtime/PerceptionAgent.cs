using UnityEngine;

namespace Argus.Perception
{
    /// <summary>
    /// The native agent behind one guard. Added automatically by FieldOfViewSensor, HearingSensor,
    /// PerceptionSystem, PerceptionMemory and EnemyBrain: their public fields together make the
    /// agent's def, which is sent again whenever a field changes (compared at every step, or only
    /// after ApplySettings() and inspector edits with PerceptionWorld.settingsSync = OnChange). Events of each step arrive here and
    /// are handed to those components.
    /// </summary>
    [DisallowMultipleComponent]
    [AddComponentMenu("Argus/Perception Agent")]
    public sealed class PerceptionAgent : MonoBehaviour, IWorldMember
    {
        [Tooltip("The world to join; empty = the first enabled PerceptionWorld.")]
        public PerceptionWorld world;

        [Tooltip("Team 0..63. By default a team is friendly to itself and hostile to every other team.")]
        [Range(0, 63)]
        public int team = 0;

        [Tooltip("Also perceive targets of neutral teams (World.SetAttitude).")]
        public bool perceiveNeutral;

        [Tooltip("Also perceive targets of friendly teams (your own team included).")]
        public bool perceiveFriendly;

        // Sibling components, registered by themselves (no GetComponent per frame).
        internal FieldOfViewSensor sight;
        internal HearingSensor hearing;
        internal PerceptionSystem system;
        internal PerceptionMemory memory;
        internal EnemyBrain brain;

        PerceptionWorld m_World;
        AgentId m_Id;
        AgentDef m_Pushed;
        AgentDef m_Scratch;
        AgentDef m_Refused;
        bool m_HasRefused;
        MemoryRecord[] m_Memory = new MemoryRecord[8];
        int m_MemoryCount;
        int m_MemoryFrame = -1;
        bool m_BrainChangedThisStep;
        static bool s_HaveDefaults;
        static AgentDef s_Defaults;

        /// <summary>The native agent (null id while not in a world).</summary>
        public AgentId Id { get { return m_Id; } }

        /// <summary>The world this agent is in (null while waiting for one).</summary>
        public PerceptionWorld World { get { return m_World; } }

        PerceptionWorld IWorldMember.RequestedWorld { get { return world; } }

        // Siblings register themselves in their Awake, which runs after this component's OnEnable
        // when a GameObject is activated: find them now, so the agent is created with their settings.
        /// <summary>This component's transform, read once (the per-frame pose push reads it for every guard).</summary>
        internal Transform CachedTransform { get; private set; }

        void Awake()
        {
            CachedTransform = transform;
            sight = GetComponent<FieldOfViewSensor>();
            hearing = GetComponent<HearingSensor>();
            system = GetComponent<PerceptionSystem>();
            memory = GetComponent<PerceptionMemory>();
            brain = GetComponent<EnemyBrain>();
        }

        void OnEnable() { PerceptionWorld.Join(this); }

        // After every Awake/OnEnable of the scene: a world enabled in the same frame has joined us by now.
        void Start() { if (m_World == null) WarnNoWorld(); }

        bool m_WarnedNoWorld;

        /// <summary>Once per agent: it is not in an enabled PerceptionWorld, so it perceives nothing.</summary>
        internal void WarnNoWorld()
        {
            if (m_WarnedNoWorld || m_World != null) return;
            m_WarnedNoWorld = true;
            UnityEngine.Debug.LogWarning(PerceptionWorld.NoWorldMessage(gameObject.name, "guard (PerceptionAgent)", world), this);
        }

        void OnDisable() { PerceptionWorld.Leave(this, m_World); }

        /// <summary>The library's default agent (the lesson's numbers), read once from native code.</summary>
        internal static AgentDef LibraryDefaults
        {
            get
            {
                if (!s_HaveDefaults)
                {
                    s_Defaults = AgentDef.Default();
                    s_HaveDefaults = true;
                }
                return s_Defaults;
            }
        }

        /// <summary>Every sibling's public fields over the library's defaults, with the current pose.</summary>
        internal AgentDef BuildDef()
        {
            AgentDef def;
            BuildSettings(out def);
            def.Position = UnityArgus.ToArgus(transform.position);
            def.Forward = UnityArgus.ToArgus(transform.forward);
            return def;
        }

        /// <summary>Every sibling's public fields over the library's defaults (pose left at the default).</summary>
        void BuildSettings(out AgentDef def)
        {
            def = LibraryDefaults;
            def.Team = (uint)team;
            uint neutral = perceiveNeutral ? Constants.DETECT_NEUTRAL : 0u;
            uint friendly = perceiveFriendly ? Constants.DETECT_FRIENDLY : 0u;
            def.DetectMask = Constants.DETECT_HOSTILE | neutral | friendly;
            def.Sight.Enabled = false;
            def.Hearing.Enabled = false;
            def.Brain.Enabled = false;
            if (sight != null) sight.Fill(ref def);
            if (hearing != null) hearing.Fill(ref def);
            if (memory != null) memory.Fill(ref def);
            if (brain != null) brain.Fill(ref def);
        }

        // What the agent's own fields and its siblings were when the settings were last sent.
        bool m_SentSet, m_SentNeutral, m_SentFriendly;
        int m_SentTeam;
        object m_SentSight, m_SentHearing, m_SentMemory, m_SentBrain;

        /// <summary>True when any field that makes the def changed since the last call (every sibling
        /// remembers its own fields; a sibling added or removed counts as a change). No def is built:
        /// this is all a guard whose settings did not change costs per frame.</summary>
        bool m_SiblingToggled;

        /// <summary>A sensor or the brain was enabled or disabled (its OnEnable/OnDisable).</summary>
        internal void SiblingToggled()
        {
            m_SiblingToggled = true;
            SettingsDirty = true;
        }

        /// <summary>Flagged for PerceptionWorld.SettingsSync.OnChange: the fields are compared (and the
        /// def sent if they changed) at the next step or query.</summary>
        internal bool SettingsDirty;

        /// <summary>Sends this guard's settings fields (this component's and its sensors', memory's and
        /// brain's) at the next step, or at once if a query (CanSeeTarget...) comes first. Needed only
        /// when the world's settingsSync is OnChange, after a script set fields at run time; with
        /// EveryFrame (the default) every step compares them anyway.</summary>
        public void ApplySettings() { SettingsDirty = true; }

        // The editor calls this after an inspector edit (and on load): flag the settings.
        void OnValidate() { SettingsDirty = true; }

        bool SettingsChanged()
        {
            bool changed = m_SiblingToggled || !m_SentSet || m_SentTeam != team || m_SentNeutral != perceiveNeutral || m_SentFriendly != perceiveFriendly
                || !ReferenceEquals(m_SentSight, sight) || !ReferenceEquals(m_SentHearing, hearing)
                || !ReferenceEquals(m_SentMemory, memory) || !ReferenceEquals(m_SentBrain, brain);
            if (changed)
            {
                m_SiblingToggled = false;
                m_SentSet = true;
                m_SentTeam = team;
                m_SentNeutral = perceiveNeutral;
                m_SentFriendly = perceiveFriendly;
                m_SentSight = sight;
                m_SentHearing = hearing;
                m_SentMemory = memory;
                m_SentBrain = brain;
            }
            // Every sibling is asked (no short-circuit): each one records its own fields.
            if (!ReferenceEquals(sight, null) && sight.SettingsChanged()) changed = true;
            if (!ReferenceEquals(hearing, null) && hearing.SettingsChanged()) changed = true;
            if (!ReferenceEquals(memory, null) && memory.SettingsChanged()) changed = true;
            if (!ReferenceEquals(brain, null) && brain.SettingsChanged()) changed = true;
            return changed;
        }

        void IWorldMember.Attach(PerceptionWorld w)
        {
            m_World = w;
            SettingsChanged(); // remember what this def is made of
            AgentDef def = BuildDef();
            m_Id = w.Native.CreateAgent(def);
            m_Named = null;
            PerceptionWorld.PushName(this);
            m_WarnedNoWorld = false;
            m_Pushed = def;
            m_MemoryFrame = -1;
            SettingsDirty = true; // OnChange: fields set right after AddComponent / SetActive, this frame, are sent at the step
        }

        void IWorldMember.Detach()
        {
            if (!ReferenceEquals(sight, null)) sight.LoseAll(); // the world goes away: nothing is seen
            m_World = null;
            m_Id = new AgentId();
            if (brain != null) brain.ResetState();
        }

        void IWorldMember.DestroyNative()
        {
            if (!ReferenceEquals(sight, null)) sight.LoseAll(); // before its memory goes
            if (m_World != null && m_World.Native != null && !m_Id.IsNull) m_World.Native.DestroyAgent(m_Id);
            m_World = null;
            m_Id = new AgentId();
            if (brain != null) brain.ResetState();
        }

        // The GameObject name the native agent was last labelled with (PerceptionWorld.Names.cs).
        string m_Named;

        void IWorldMember.PushName()
        {
            if (m_Id.IsNull || m_World == null || m_World.Native == null) return;
            string n = gameObject.name;
            if (n == m_Named) return;
            m_Named = n; // once, even if refused (logged once, not every step)
            m_World.Native.SetLabel(m_Id, UnityArgus.Label(n));
        }

        /// <summary>True while the native agent exists.</summary>
        internal bool IsLive { get { return !m_Id.IsNull && m_World != null && m_World.Native != null; } }

        /// <summary>Sends changed fields of this GameObject's sensors, memory and brain. Values the
        /// library refuses (NaN, a negative radius) are logged once and the old settings stay.</summary>
        internal void PushSettings()
        {
            if (m_Id.IsNull) return;
            SettingsDirty = false;
            if (!SettingsChanged()) return; // the frame's fast path: fields compared, no def built
            BuildSettings(out m_Scratch);
            if (Defs.SameSettings(ref m_Scratch, ref m_Pushed)) return;
            if (m_HasRefused && Defs.SameSettings(ref m_Scratch, ref m_Refused)) return;
            AgentDef def = BuildDef(); // changed: send it with the current pose
            try
            {
                m_World.Native.SetAgentDef(m_Id, def);
                m_Pushed = def;
                m_HasRefused = false;
            }
            catch (ArgusException e)
            {
                m_Refused = def;
                m_HasRefused = true;
                UnityEngine.Debug.LogException(e, this);
            }
        }

        /// <summary>Settings and pose now (for queries made before this frame's bulk push).</summary>
        internal void PushNow()
        {
            if (m_Id.IsNull) return;
            if (SettingsDirty || m_World.SyncsEveryFrame) PushSettings();
            m_World.Native.SetAgentPose(m_Id, UnityArgus.ToArgus(transform.position), UnityArgus.ToArgus(transform.forward));
        }

        /// <summary>The agent's memory records, read once per step into a reused buffer.</summary>
        internal int ReadMemory(out MemoryRecord[] records)
        {
            records = m_Memory;
            if (m_Id.IsNull) return 0;
            int stamp = m_World.StepCount;
            if (m_MemoryFrame != stamp)
            {
                m_MemoryCount = m_World.Native.GetMemory(m_Id, ref m_Memory);
                m_MemoryFrame = stamp;
                records = m_Memory;
            }
            return m_MemoryCount;
        }

        internal void InvalidateMemory() { m_MemoryFrame = -1; }

        /// <summary>Where this agent's memory last perceived the target (false: no record).</summary>
        internal bool LastKnownPositionOf(TargetId target, out Vector3 position)
        {
            position = Vector3.zero;
            if (!IsLive || target.IsNull) return false;
            MemoryRecord[] records;
            int n = ReadMemory(out records);
            for (int i = 0; i < n; i++)
            {
                if (records[i].Target != target) continue;
                position = UnityArgus.ToUnity(records[i].LastKnownPosition);
                return true;
            }
            return false;
        }

        // ---- the step's events, from PerceptionWorld ------------------------------------------------------------

        internal void OnNativePercept(ref PerceptEvent p)
        {
            // visibleTargets and OnTargetSeen / OnTargetLost follow the seen / lost events (OnNativeSight):
            // a sight percept only feeds OnPercept, so with nobody listening there is nothing to do.
            bool sightPercept = p.Kind == PerceptKind.Sight;
            if (sightPercept && (ReferenceEquals(system, null) || !system.HasListeners)) return;
            Transform target = null;
            PerceptionTarget t = m_World.TargetFor(p.Target); // null or live (ids are cleared on leaving)
            if (!ReferenceEquals(t, null)) target = t.CachedTransform;
            Vector3 position = UnityArgus.ToUnity(p.Position);
            if (sightPercept) system.Raise(PerceptType.Sight, position, p.Time, target, p.Strength, 0f);
            else
            {
                if (hearing != null) hearing.RaiseHeard(position, target);
                if (system != null) system.Raise(PerceptType.Sound, position, p.Time, target, p.Strength, p.Distance);
            }
        }

        /// <summary>A native seen (or lost) event of this agent: the target joins (leaves) visibleTargets.</summary>
        internal void OnNativeSight(ref SightEvent e, bool seen)
        {
            if (ReferenceEquals(sight, null)) return;
            PerceptionTarget t = m_World.TargetFor(e.Target);
            if (ReferenceEquals(t, null)) return;
            Vector3 position = UnityArgus.ToUnity(e.Position);
            if (seen) sight.TargetSeen(t.CachedTransform, position);
            else sight.TargetLost(t.CachedTransform, position);
        }

        internal void OnNativeBrainEvent(ref BrainEvent e)
        {
            PerceptionTarget t = m_World.TargetFor(e.Target);
            m_BrainChangedThisStep = true;
            if (brain != null) brain.OnBrainEvent((AIState)e.From, (AIState)e.To, t != null ? t.transform : null);
        }

        internal void OnNativeForget(ref ForgetEvent f)
        {
            m_MemoryFrame = -1;
            PerceptionTarget t = m_World.TargetFor(f.Target);
            if (memory != null) memory.RaiseForgotten(t != null ? t.transform : null, UnityArgus.ToUnity(f.Position));
        }

        internal void OnNativeAwareness(ref AwarenessEvent e)
        {
            PerceptionTarget t = m_World.TargetFor(e.Target);
            if (sight != null) sight.RaiseAwareness(t != null ? t.transform : null, (AwarenessStage)e.From, (AwarenessStage)e.To, e.Level);
        }

        /// <summary>True when the brain must act on its outputs this step (walk a NavMeshAgent, report
        /// arrival) and they may have changed: it is busy or just changed (an Idle brain without a move
        /// target has none). The world then reads every agent's state in one bulk call and hands each
        /// such brain its own. Other brains read theirs only when a script asks (MoveTarget, Focus...).</summary>
        internal bool WantsBrainState
        {
            // ReferenceEquals: per agent per frame; a sibling clears this reference in its OnDestroy.
            get
            {
                return !ReferenceEquals(brain, null) && brain.NeedsEveryStep
                    && (m_BrainChangedThisStep || brain.state != AIState.Idle || brain.HadMoveTarget);
            }
        }

        /// <summary>In the world's list of agents visited after each step.</summary>
        internal bool InActiveList;

        /// <summary>Must the world visit this agent after the next step even without an event? While its
        /// brain walks a NavMeshAgent or awaits arrival (visibleTargets needs no visit: it changes only
        /// with the step's seen / lost events).</summary>
        internal bool NeedsPostStep
        {
            get { return !ReferenceEquals(brain, null) && brain.StaysActive; }
        }

        /// <summary>The end of a step for this agent. Returns WantsBrainState (as of before this call).</summary>
        internal bool AfterStep()
        {
            bool wantsBrain = WantsBrainState;
            m_BrainChangedThisStep = false;
            return wantsBrain;
        }
    }
}
