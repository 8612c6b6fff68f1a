using System;
using System.Collections.Generic;
using UnityEngine;

namespace Argus.Perception
{
    /// <summary>
    /// Owns one native Argus world. Created in OnEnable, released in OnDisable/OnDestroy and before a
    /// domain reload. Once per frame, at the end of LateUpdate (execution order
    /// <see cref="ExecutionOrder"/>, after every script's Update and LateUpdate at a lower order, so
    /// after game code, animation and cameras moved things) it pushes every agent and target transform
    /// in one bulk call each, steps the world, and hands the step's events to the components
    /// (FieldOfViewSensor, HearingSensor, PerceptionSystem, PerceptionMemory, EnemyBrain): scripts read
    /// them from the next frame's Update on. Components find the first enabled world unless their
    /// <c>world</c> field names one.
    /// </summary>
    [DefaultExecutionOrder(ExecutionOrder)]
    [DisallowMultipleComponent]
    [AddComponentMenu("Argus/Perception World")]
    public sealed partial class PerceptionWorld : MonoBehaviour
    {
        /// <summary>Who answers line-of-sight rays.</summary>
        public enum LineOfSightSource
        {
            /// <summary>The world's own occluders (PerceptionOccluder, or the collider scan).</summary>
            ArgusOccluders,
            /// <summary>Unity physics: every ray of a step goes through RaycastCommand.ScheduleBatch.</summary>
            UnityPhysics,
            /// <summary>Your own IRayCaster (customRayCaster) answers every ray: another physics engine, a voxel grid.</summary>
            Custom,
        }

        /// <summary>When the components' public settings fields are sent to the native world.</summary>
        public enum SettingsSync
        {
            /// <summary>Every step compares every guard's and target's settings fields with what was last
            /// sent: a field set from anywhere, at any time, reaches the native world at the next step.</summary>
            EveryFrame,
            /// <summary>Faster: a component's fields are compared only after it was flagged: an inspector
            /// edit (OnValidate), the component enabled or disabled, its ApplySettings(), or the world's
            /// MarkSettingsChanged(). A script that sets a field at run time must call ApplySettings().</summary>
            OnChange,
        }

        /// <summary>The world's script execution order: late, so its LateUpdate step comes after the
        /// LateUpdate of scripts at the default order 0 (and anything below 10000). A script that moves
        /// guards or targets in LateUpdate with a later order is seen one frame late.</summary>
        public const int ExecutionOrder = 10000;

        [Tooltip("Read when the world is enabled. ArgusOccluders: walls are PerceptionOccluder components (fast, no physics). UnityPhysics: rays are cast by RaycastCommand batches against your colliders. Custom: customRayCaster answers.")]
        public LineOfSightSource lineOfSight = LineOfSightSource.ArgusOccluders;

        [Tooltip("Step once per frame at the end of LateUpdate (execution order 10000) with Time.deltaTime. Off: call Step(dt) yourself (fixed-rate perception, tests).")]
        public bool autoStep = true;

        [Tooltip("UnityPhysics line of sight: trigger colliders block sight. Off (default): triggers are ignored by the step's batch and by CanSeeTarget, cover and the debug picture alike, whatever Physics.queriesHitTriggers says.")]
        public bool raysHitTriggers = false;

        [Tooltip("Worker threads of the native step (0 or 1 = the main thread only). Results are identical for every count.")]
        [Range(0, 64)]
        public int workerThreads = 0;

        [Tooltip("Each sound-muffling occluder between a sound and a listener multiplies the sound's radius by this (1 = off).")]
        [Range(0, 1)]
        public float soundOcclusion = 1f;

        [Tooltip("Colliders on these layers become occluders when the world is enabled (Box, Sphere, Capsule, Mesh), without a PerceptionOccluder component.")]
        public LayerMask occluderScanMask = 0;

        [Tooltip("EveryFrame (default): every step compares each guard's and target's settings fields with what was last sent, so a field set by any script reaches the native world at the next step. OnChange: faster, fields are compared only after an inspector edit, the component being enabled or disabled, or a call to its ApplySettings() (or this world's MarkSettingsChanged()): a script that sets a field at run time must call ApplySettings().")]
        public SettingsSync settingsSync = SettingsSync.EveryFrame;

        [Tooltip("Draw the debug picture (cones, green seen lines, red blocked rays with hit dots) as gizmos.")]
        public bool drawGizmos = true;

        /// <summary>With lineOfSight = Custom: answers every ray (set it before the component is enabled).</summary>
        public IRayCaster customRayCaster;

        /// <summary>Raised after every step, once the components have received its events.</summary>
        public event Action<PerceptionWorld> Stepped;

        static readonly List<PerceptionWorld> s_Enabled = new List<PerceptionWorld>();
        static readonly List<IWorldMember> s_Waiting = new List<IWorldMember>();

        World m_World;
        bool m_Releasing;
        readonly List<PerceptionAgent> m_Agents = new List<PerceptionAgent>();
        readonly List<PerceptionTarget> m_Targets = new List<PerceptionTarget>();
        readonly List<PerceptionOccluder> m_Occluders = new List<PerceptionOccluder>();
        readonly List<OccluderId> m_ScannedOccluders = new List<OccluderId>();
        PerceptionAgent[] m_AgentBySlot = new PerceptionAgent[16];
        PerceptionTarget[] m_TargetBySlot = new PerceptionTarget[16];
        AgentId[] m_AgentIds = new AgentId[16];
        TargetId[] m_TargetIds = new TargetId[16];
        Vec3[] m_Positions = new Vec3[16];
        Vec3[] m_Forwards = new Vec3[16];
        AgentStateEntry[] m_States = new AgentStateEntry[16];
        int m_StatesCount;
        readonly List<PerceptionAgent> m_BrainAgents = new List<PerceptionAgent>();
        readonly List<PerceptionAgent> m_Active = new List<PerceptionAgent>();
        int m_StatesStep = -1;             // the StepCount m_States was read at
        int[] m_StateBySlot = new int[16]; // agent slot -> index in m_States

        /// <summary>The first enabled world: where components without a <c>world</c> field go.</summary>
        public static PerceptionWorld Default { get { return s_Enabled.Count > 0 ? s_Enabled[0] : null; } }

        /// <summary>Every enabled world (AudioPerception.EmitSound reaches all of them).</summary>
        public static IList<PerceptionWorld> Enabled { get { return s_Enabled; } }

        /// <summary>The native world (the bindings' object model); null while disabled.</summary>
        public World Native { get { return m_World; } }

        /// <summary>Steps taken since the world was created (changes once per Step).</summary>
        public int StepCount { get; private set; }

        /// <summary>True between OnEnable and OnDisable.</summary>
        public bool IsCreated { get { return m_World != null; } }

        void OnEnable()
        {
            if (m_World != null) return;
            WorldDef def = WorldDef.Default();
            def.WorkerThreads = (uint)Mathf.Max(0, workerThreads);
            def.SoundOcclusion = soundOcclusion;
            def.HearingPath = (HearingPath)(uint)hearingPath;
            if (lineOfSight != LineOfSightSource.ArgusOccluders) def.RayBackend = RayBackend.Engine;
            if (lineOfSight == LineOfSightSource.Custom && customRayCaster == null)
                throw new InvalidOperationException("lineOfSight is Custom but customRayCaster is not set");
            m_World = new World(def);
            m_RecordAtFirstStep = recordOnStart || flightRecorder;
            if (lineOfSight == LineOfSightSource.UnityPhysics)
            {
                if (m_ImmediateCaster == null) m_ImmediateCaster = new PhysicsRayCaster(this);
                m_World.SetRayCaster(m_ImmediateCaster);
            }
            if (lineOfSight == LineOfSightSource.Custom) m_World.SetRayCaster(customRayCaster);
            s_Enabled.Add(this);
            AudioPerception.WorldEnabled();
#if UNITY_EDITOR
            UnityEditor.AssemblyReloadEvents.beforeAssemblyReload += Release;
#endif
            ScanOccluders();
            SetUpWalkGraph();
            for (int i = s_Waiting.Count - 1; i >= 0; i--)
            {
                IWorldMember m = s_Waiting[i];
                if (m.RequestedWorld == null || m.RequestedWorld == this)
                {
                    s_Waiting.RemoveAt(i);
                    Add(m);
                }
            }
        }

        void OnDisable() { Release(); }

        void OnDestroy() { Release(); }

        /// <summary>Destroys the native world; its members wait for the next enabled world.</summary>
        void Release()
        {
#if UNITY_EDITOR
            UnityEditor.AssemblyReloadEvents.beforeAssemblyReload -= Release;
#endif
            if (m_World == null) return;
            WriteUnfinishedRecording();
            m_Releasing = true; // members that name this world wait for it (Join), not for its dying native world
            s_Enabled.Remove(this);
            ReleasePhysicsBuffers();
            for (int i = 0; i < m_Active.Count; i++) m_Active[i].InActiveList = false;
            m_Active.Clear();
            DetachAll(m_Agents);
            DetachAll(m_Targets);
            DetachAll(m_Occluders);
            m_ScannedOccluders.Clear();
            m_NamesAtNextStep.Clear();
            m_StatesStep = -1;
            Array.Clear(m_AgentBySlot, 0, m_AgentBySlot.Length);
            Array.Clear(m_TargetBySlot, 0, m_TargetBySlot.Length);
            m_World.Dispose();
            m_World = null;
            m_Releasing = false;
        }

        void DetachAll<T>(List<T> members) where T : IWorldMember
        {
            for (int i = members.Count - 1; i >= 0; i--)
            {
                T m = members[i];
                m.Detach();
                Join(m);
            }
            members.Clear();
        }

        // Domain reload disabled (Enter Play Mode Options): statics survive, so start clean.
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        static void ResetStatics()
        {
            s_Enabled.Clear();
            s_Waiting.Clear();
            AudioPerception.ResetSubscribers();
        }

        /// <summary>The one warning of a component left without a world (no world is made on demand: its
        /// settings, the line-of-sight source above all, are the scene's choice).</summary>
        internal static string NoWorldMessage(string objectName, string what, PerceptionWorld requested)
        {
            string fix = requested != null
                ? "enable the PerceptionWorld its 'world' field names ('" + requested.name + "')"
                : "add a PerceptionWorld to the scene (GameObject > Argus > Perception World)";
            return "Argus: '" + objectName + "' is a " + what + " but no enabled PerceptionWorld holds it, so it "
                + "perceives and is perceived by nothing (CanSeeTarget answers false): " + fix + ".";
        }

        // ---- membership -----------------------------------------------------------------------------------

        /// <summary>Called by a member in OnEnable: attach now, or wait for a world to be enabled.</summary>
        internal static void Join(IWorldMember member)
        {
            PerceptionWorld w = member.RequestedWorld != null ? member.RequestedWorld : Default;
            if (w != null && w.m_World != null && !w.m_Releasing) w.Add(member);
            else if (!s_Waiting.Contains(member)) s_Waiting.Add(member);
        }

        /// <summary>Called by a member in OnDisable: its native thing is destroyed.</summary>
        internal static void Leave(IWorldMember member, PerceptionWorld current)
        {
            s_Waiting.Remove(member);
            if (current == null || current.m_World == null) return;
            var agent = member as PerceptionAgent;
            if (agent != null)
            {
                current.m_Agents.Remove(agent);
                if (agent.InActiveList) current.m_Active.Remove(agent);
                agent.InActiveList = false;
            }
            var target = member as PerceptionTarget;
            if (target != null)
            {
                current.m_Targets.Remove(target);
                // Its native target goes now, which leaves no lost event: guards that see it lose it
                // at once (OnTargetLost, where their memory last perceived it).
                Transform gone = target.CachedTransform;
                for (int i = 0; i < current.m_Agents.Count; i++)
                {
                    PerceptionAgent a = current.m_Agents[i];
                    FieldOfViewSensor sight = a.sight;
                    if (ReferenceEquals(sight, null) || sight.visibleTargets.Count == 0 || !sight.visibleTargets.Contains(gone)) continue;
                    Vector3 where;
                    if (!a.LastKnownPositionOf(target.Id, out where)) where = gone.position;
                    try { sight.TargetLost(gone, where); }
                    catch (Exception e) { UnityEngine.Debug.LogException(e, sight); }
                }
            }
            var occluder = member as PerceptionOccluder;
            if (occluder != null) current.m_Occluders.Remove(occluder);
            current.m_NamesAtNextStep.Remove(member);
            member.DestroyNative();
        }

        void Add(IWorldMember member)
        {
            try
            {
                member.Attach(this);
            }
            catch (ArgusException e)
            {
                // A def the library refuses (a NaN field): the component stays out of the world.
                UnityEngine.Debug.LogException(e, member as UnityEngine.Object);
                return;
            }
            m_NamesAtNextStep.Add(member); // a script may rename it right after creating it
            var agent = member as PerceptionAgent;
            if (agent != null)
            {
                m_Agents.Add(agent);
                MarkActive(agent);
                Grow(ref m_AgentBySlot, (int)agent.Id.Index);
                m_AgentBySlot[agent.Id.Index] = agent;
            }
            var target = member as PerceptionTarget;
            if (target != null)
            {
                m_Targets.Add(target);
                Grow(ref m_TargetBySlot, (int)target.Id.Index);
                m_TargetBySlot[target.Id.Index] = target;
            }
            var occluder = member as PerceptionOccluder;
            if (occluder != null) m_Occluders.Add(occluder);
        }

        static void Grow<T>(ref T[] array, int index)
        {
            if (index < array.Length) return;
            int n = array.Length;
            while (n <= index) n *= 2;
            Array.Resize(ref array, n);
        }

        /// <summary>The component of a live agent id of this world, or null.</summary>
        public PerceptionAgent AgentFor(AgentId id)
        {
            if (id.Index >= m_AgentBySlot.Length) return null;
            PerceptionAgent a = m_AgentBySlot[id.Index];
            // ReferenceEquals: a component leaving the world (OnDisable, destroyed) has its id cleared.
            return !ReferenceEquals(a, null) && a.Id == id ? a : null;
        }

        /// <summary>The agent has something to do after the next steps (see Dispatch).</summary>
        void MarkActive(PerceptionAgent a)
        {
            if (a.InActiveList) return;
            a.InActiveList = true;
            m_Active.Add(a);
        }

        /// <summary>Every agent's state of the latest step, in one bulk call (once per step at most).</summary>
        void ReadAgentStates()
        {
            if (m_StatesStep == StepCount) return;
            m_StatesCount = m_World.GetAgentStates(ref m_States);
            m_StatesStep = StepCount;
            for (int i = 0; i < m_StatesCount; i++)
            {
                int slot = (int)m_States[i].Agent.Index;
                if (slot >= m_StateBySlot.Length) Grow(ref m_StateBySlot, slot);
                m_StateBySlot[slot] = i;
            }
        }

        int StateIndex(AgentId id)
        {
            if (id.Index >= m_StateBySlot.Length) return -1;
            int i = m_StateBySlot[id.Index];
            return i < m_StatesCount && m_States[i].Agent == id ? i : -1;
        }

        /// <summary>One agent's state as of the latest step (from the step's bulk read).</summary>
        internal bool TryGetAgentState(AgentId id, out AgentState state)
        {
            state = new AgentState();
            if (m_World == null) return false;
            ReadAgentStates();
            int i = StateIndex(id);
            if (i < 0) return false;
            state = m_States[i].State;
            return true;
        }

        /// <summary>Something changed agents' states between steps (ReportArrived): read them again.</summary>
        internal void InvalidateAgentStates() { m_StatesStep = -1; }

        /// <summary>The component of a live target id of this world, or null.</summary>
        public PerceptionTarget TargetFor(TargetId id)
        {
            if (id.Index >= m_TargetBySlot.Length) return null;
            PerceptionTarget t = m_TargetBySlot[id.Index];
            return !ReferenceEquals(t, null) && t.Id == id ? t : null;
        }

        /// <summary>With settingsSync = OnChange: every guard's and target's settings fields are compared
        /// at the next step (or query) and sent if they changed, as EveryFrame does at every step. For a
        /// script that changed fields of many components; one component: its ApplySettings().</summary>
        public void MarkSettingsChanged()
        {
            for (int i = 0; i < m_Agents.Count; i++) m_Agents[i].ApplySettings();
            for (int i = 0; i < m_Targets.Count; i++) m_Targets[i].ApplySettings();
        }

        /// <summary>Settings are compared at every step (EveryFrame), not only when flagged.</summary>
        internal bool SyncsEveryFrame { get { return settingsSync == SettingsSync.EveryFrame; } }

        // ---- the frame ------------------------------------------------------------------------------------

        void LateUpdate()
        {
            PollFlightRecordingKey();
            if (autoStep && m_World != null) Step(Time.deltaTime);
        }

        /// <summary>One perception step: settings and poses in, step, events out to the components.</summary>
        public void Step(float dt)
        {
            if (m_World == null) throw new InvalidOperationException("PerceptionWorld is disabled");
            if (m_RecordAtFirstStep) StartRecordingAtFirstStep();
            PushSettingsAndPoses();
            PushNames();
            if (lineOfSight == LineOfSightSource.UnityPhysics) StepWithPhysics(dt);
            else m_World.Step(dt); // built-in occluders, or the custom caster through the ray callback
            StepCount++;
            Dispatch(dt);
            Action<PerceptionWorld> stepped = Stepped;
            if (stepped != null) stepped(this);
        }

        void PushSettingsAndPoses()
        {
            bool everyFrame = settingsSync == SettingsSync.EveryFrame;
            int n = m_Agents.Count;
            EnsurePoseCapacity(n);
            if (m_AgentIds.Length < n) m_AgentIds = new AgentId[m_Positions.Length];
            for (int i = 0; i < n; i++)
            {
                PerceptionAgent a = m_Agents[i];
                if (everyFrame || a.SettingsDirty) a.PushSettings();
                Transform t = a.CachedTransform;
                m_AgentIds[i] = a.Id;
                m_Positions[i] = UnityArgus.ToArgus(t.position);
                m_Forwards[i] = UnityArgus.ToArgus(t.forward);
            }
            if (n > 0) m_World.SetAgentPoses(m_AgentIds, m_Positions, m_Forwards, n);
            PushTargetsNow();
            for (int i = 0; i < m_Occluders.Count; i++) m_Occluders[i].PushPose();
        }

        /// <summary>Every target's settings and transform, in one bulk call (also before FindVisibleTargets).</summary>
        internal void PushTargetsNow()
        {
            bool everyFrame = settingsSync == SettingsSync.EveryFrame;
            int n = m_Targets.Count;
            EnsurePoseCapacity(n);
            if (m_TargetIds.Length < n) m_TargetIds = new TargetId[m_Positions.Length];
            for (int i = 0; i < n; i++)
            {
                PerceptionTarget tg = m_Targets[i];
                if (everyFrame || tg.SettingsDirty) tg.PushSettings();
                Transform t = tg.CachedTransform;
                m_TargetIds[i] = tg.Id;
                m_Positions[i] = UnityArgus.ToArgus(t.position);
                m_Forwards[i] = UnityArgus.ToArgus(t.forward);
            }
            if (n > 0) m_World.SetTargetPoses(m_TargetIds, m_Positions, m_Forwards, n);
        }

        void EnsurePoseCapacity(int n)
        {
            if (m_Positions.Length >= n) return;
            int size = m_Positions.Length;
            while (size < n) size *= 2;
            m_Positions = new Vec3[size];
            m_Forwards = new Vec3[size];
        }

        void Dispatch(float dt)
        {
            PerceptArray percepts = m_World.Percepts;
            for (int i = 0; i < percepts.Length; i++)
            {
                PerceptEvent p = percepts[i];
                PerceptionAgent a = AgentFor(p.Agent);
                if (ReferenceEquals(a, null)) continue; // AgentFor: null or live
                try { a.OnNativePercept(ref p); }
                catch (Exception e) { UnityEngine.Debug.LogException(e, a); }
            }
            BrainEventArray brains = m_World.BrainEvents;
            for (int i = 0; i < brains.Length; i++)
            {
                BrainEvent e = brains[i];
                PerceptionAgent a = AgentFor(e.Agent);
                if (ReferenceEquals(a, null)) continue; // AgentFor: null or live
                MarkActive(a);
                try { a.OnNativeBrainEvent(ref e); }
                catch (Exception ex) { UnityEngine.Debug.LogException(ex, a); }
            }
            ForgetEventArray forgets = m_World.ForgetEvents;
            for (int i = 0; i < forgets.Length; i++)
            {
                ForgetEvent f = forgets[i];
                PerceptionAgent a = AgentFor(f.Agent);
                if (ReferenceEquals(a, null)) continue; // AgentFor: null or live
                try { a.OnNativeForget(ref f); }
                catch (Exception ex) { UnityEngine.Debug.LogException(ex, a); }
            }
            // Sight changes at the step's sight ticks: visibleTargets, OnTargetLost, OnTargetSeen.
            SightEventArray lost = m_World.LostEvents;
            for (int i = 0; i < lost.Length; i++)
            {
                SightEvent e = lost[i];
                PerceptionAgent a = AgentFor(e.Agent);
                if (ReferenceEquals(a, null)) continue; // AgentFor: null or live
                try { a.OnNativeSight(ref e, false); }
                catch (Exception ex) { UnityEngine.Debug.LogException(ex, a); }
            }
            SightEventArray seen = m_World.SeenEvents;
            for (int i = 0; i < seen.Length; i++)
            {
                SightEvent e = seen[i];
                PerceptionAgent a = AgentFor(e.Agent);
                if (ReferenceEquals(a, null)) continue; // AgentFor: null or live
                try { a.OnNativeSight(ref e, true); }
                catch (Exception ex) { UnityEngine.Debug.LogException(ex, a); }
            }
            AwarenessEventArray awareness = m_World.AwarenessEvents;
            for (int i = 0; i < awareness.Length; i++)
            {
                AwarenessEvent w = awareness[i];
                PerceptionAgent a = AgentFor(w.Agent);
                if (ReferenceEquals(a, null)) continue; // AgentFor: null or live
                try { a.OnNativeAwareness(ref w); }
                catch (Exception ex) { UnityEngine.Debug.LogException(ex, a); }
            }
            // One pass over the agents that have something to do after a step (an event this step, a
            // brain that walks a NavMeshAgent or awaits arrival; idle guards are not visited): the
            // brains that act collected; then one bulk state read for all of them.
            m_BrainAgents.Clear();
            for (int i = m_Active.Count - 1; i >= 0; i--)
            {
                PerceptionAgent a = m_Active[i];
                try { if (a.AfterStep()) m_BrainAgents.Add(a); }
                catch (Exception ex) { UnityEngine.Debug.LogException(ex, a); }
                if (a.NeedsPostStep) continue;
                a.InActiveList = false;
                m_Active[i] = m_Active[m_Active.Count - 1];
                m_Active.RemoveAt(m_Active.Count - 1);
            }
            if (m_BrainAgents.Count == 0) return;
            ReadAgentStates();
            for (int i = 0; i < m_BrainAgents.Count; i++)
            {
                PerceptionAgent a = m_BrainAgents[i];
                int k = StateIndex(a.Id);
                if (k < 0) continue;
                try { a.brain.ApplyState(ref m_States[k].State); }
                catch (Exception ex) { UnityEngine.Debug.LogException(ex, a); }
            }
        }
    }

    /// <summary>A component that owns one native thing of a world (agent, target, occluder).</summary>
    internal interface IWorldMember
    {
        /// <summary>The world named by the component's <c>world</c> field, or null for the default.</summary>
        PerceptionWorld RequestedWorld { get; }

        /// <summary>Create the native thing in this world.</summary>
        void Attach(PerceptionWorld world);

        /// <summary>The world is going away: forget the native id (the world destroys everything).</summary>
        void Detach();

        /// <summary>The component is going away: destroy the native thing, then forget it.</summary>
        void DestroyNative();

        /// <summary>Labels the native thing with the GameObject's name if that changed since it was last
        /// labelled (see PerceptionWorld.RefreshNames); nothing while it has no native thing.</summary>
        void PushName();
    }
}
