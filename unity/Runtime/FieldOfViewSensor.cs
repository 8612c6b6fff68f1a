using System;
using System.Collections.Generic;
using UnityEngine;
using UnityEngine.Events;

namespace Argus.Perception
{
    /// <summary>
    /// The lesson's vision sensor (§2–§4): range, then the cone (a dot product against the cosine of
    /// half the view angle), then line of sight, answered by the native library. Targets are
    /// PerceptionTarget components on layers in <see cref="targetMask"/>; walls are occluders on
    /// layers in <see cref="obstacleMask"/>.
    /// </summary>
    [RequireComponent(typeof(PerceptionAgent))]
    [AddComponentMenu("Argus/Field Of View Sensor")]
    public sealed class FieldOfViewSensor : MonoBehaviour
    {
        [Tooltip("Sight range in metres.")]
        [Min(0f)]
        public float viewRadius = 10f;

        [Tooltip("FULL cone width in degrees, not the half-angle (360 = all around).")]
        [Range(0, 360)]
        public float viewAngle = 90f;

        [Tooltip("Layers of what counts as a target (the PerceptionTarget's GameObject layer).")]
        public LayerMask targetMask = ~0;

        [Tooltip("Layers of what blocks sight (occluders' layers, or colliders' with Unity physics rays).")]
        public LayerMask obstacleMask = ~0;

        [Tooltip("Eye height above this transform's position, in metres.")]
        public float eyeHeight = 1.6f;

        [Header("Beyond the lesson")]
        [Tooltip("Once seen, a target stays in range until this radius (0 = off): no flicker at the edge.")]
        [Min(0f)]
        public float loseSightRadius = 0f;

        // The near sense, on by default (issue 47): a crouched player's chest point within about 1.1 m
        // of a guard is below the lesson's 90° cone, so a guard trailing a crouched player lost and found
        // them over and over. A 360° peripheral cone of 1.5 m sees whoever stands next to the guard
        // (walls still block it). 0 turns it off, as in the lesson.
        [Tooltip("A second, wider and shorter cone (0 = off). Default: the near sense, 1.5 m all around, so a guard notices someone right next to him (even crouched below the main cone).")]
        [Min(0f)]
        public float peripheralRadius = DefaultNearRadius;

        [Tooltip("Full width of the peripheral cone in degrees (360 = all around, the near sense's default).")]
        [Range(0, 360)]
        public float peripheralAngle = DefaultNearAngle;

        /// <summary>The default near sense: <see cref="peripheralRadius"/> 1.5 m, <see cref="peripheralAngle"/> 360°.</summary>
        public const float DefaultNearRadius = 1.5f, DefaultNearAngle = 360f;

        [Tooltip("Sight ticks per second, staggered across guards (0 = every step).")]
        [Min(0f)]
        public float sightRateHz = 10f;

        [Tooltip("Awareness meters: a glimpse makes a guard suspicious before he chases.")]
        public bool useAwareness = false;

        [Tooltip("Awareness gained per second at best visibility.")]
        [Min(0f)]
        public float awarenessRisePerSecond = 2f;

        [Tooltip("Awareness lost per second unseen.")]
        [Min(0f)]
        public float awarenessFallPerSecond = 0.25f;

        [Tooltip("Awareness gain multiplier for a target at the view radius (1 up close).")]
        [Min(0f)]
        public float awarenessFarFactor = 0.25f;

        [Tooltip("Awareness gain multiplier for a target at the cone's edge (1 dead ahead).")]
        [Min(0f)]
        public float awarenessEdgeFactor = 0.5f;

        [Tooltip("Meter levels of the Suspicious, Alert and Aware stages.")]
        public float awarenessSuspicious = 0.3f, awarenessAlert = 0.7f, awarenessAware = 1f;

        /// <summary>Targets seen at this guard's latest sight tick: a target joins at its
        /// <see cref="OnTargetSeen"/> and leaves at its <see cref="OnTargetLost"/> (the step's native
        /// seen / lost events; nothing is re-derived from memory). While the sensor is disabled it has no
        /// sight ticks, so the list keeps what its last tick saw (as the native memory does). Runtime
        /// state: not serialized into scenes or prefabs, not shown in the Inspector.</summary>
        [NonSerialized]
        public List<Transform> visibleTargets = new List<Transform>(8);

        /// <summary>A target came into sight at this guard's sight tick, at this position: once, until
        /// <see cref="OnTargetLost"/> (it stays in <see cref="visibleTargets"/> meanwhile). Every tick's
        /// sighting is a percept: <see cref="PerceptionSystem.OnPercept"/>.</summary>
        public event Action<Transform, Vector3> OnTargetSeen;

        /// <summary>A target seen at this guard's previous sight tick left its sight, with where it was
        /// last perceived: once per <see cref="OnTargetSeen"/>. Raised at the first sight tick that does
        /// not see it (out of range or cone, behind a wall, <c>detectable</c> off, off the targetMask), or
        /// at once when the target leaves the world (its PerceptionTarget disabled or destroyed) or this
        /// guard does (its PerceptionAgent disabled or destroyed, the world disabled).</summary>
        public event Action<Transform, Vector3> OnTargetLost;

        /// <summary>An awareness meter changed stage (useAwareness only): target, from, to, level.</summary>
        public event Action<Transform, AwarenessStage, AwarenessStage, float> OnAwarenessChanged;

        // The same three events as UnityEvents, raised after the C# events, for wiring in the Inspector.
        [Header("Events (Inspector)")]
        [Tooltip("A target came into sight (target, position), after OnTargetSeen.")]
        public UnityEvent<Transform, Vector3> onTargetSeen = new UnityEvent<Transform, Vector3>();

        [Tooltip("A target left sight (target, last perceived position), after OnTargetLost.")]
        public UnityEvent<Transform, Vector3> onTargetLost = new UnityEvent<Transform, Vector3>();

        [Tooltip("An awareness meter changed stage (target, from, to, level), after OnAwarenessChanged.")]
        public UnityEvent<Transform, AwarenessStage, AwarenessStage, float> onAwarenessChanged =
            new UnityEvent<Transform, AwarenessStage, AwarenessStage, float>();

        PerceptionAgent m_Agent;
        TargetRef[] m_Visible = new TargetRef[8];

        void Awake()
        {
            m_Agent = GetComponent<PerceptionAgent>();
            m_Agent.sight = this;
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
            if (m_Agent != null && m_Agent.sight == this) m_Agent.sight = null;
        }

        // Selected in the Scene view, in edit mode too: the view cone (yellow) and the near sense (orange)
        // at the eye, so a designer sees what the fields mean without entering Play mode.
        void OnDrawGizmosSelected()
        {
            Vector3 eye = transform.position + new Vector3(0f, eyeHeight, 0f);
            SenseGizmos.Arc(eye, transform.forward, viewRadius, viewAngle, new Color(1f, 0.92f, 0.016f, 1f));
            SenseGizmos.Arc(eye, transform.forward, peripheralRadius, peripheralAngle, new Color(1f, 0.5f, 0f, 1f));
        }

        // What Fill sent last, compared every frame instead of rebuilding and comparing the whole def.
        struct Sent
        {
            public bool set, useAwareness;
            public int targetMask, obstacleMask;
            public float viewRadius, viewAngle, eyeHeight, loseSightRadius, peripheralRadius, peripheralAngle, sightRateHz;
            public float rise, fall, far, edge, suspicious, alert, aware;
        }
        Sent m_Sent;

        /// <summary>True (and remembered) when a field Fill forwards differs from the last call.</summary>
        internal bool SettingsChanged()
        {
            if (m_Sent.set && m_Sent.viewRadius == viewRadius && m_Sent.viewAngle == viewAngle
                && m_Sent.targetMask == targetMask.value && m_Sent.obstacleMask == obstacleMask.value
                && m_Sent.eyeHeight == eyeHeight && m_Sent.loseSightRadius == loseSightRadius
                && m_Sent.peripheralRadius == peripheralRadius && m_Sent.peripheralAngle == peripheralAngle
                && m_Sent.sightRateHz == sightRateHz && m_Sent.useAwareness == useAwareness
                && m_Sent.rise == awarenessRisePerSecond && m_Sent.fall == awarenessFallPerSecond
                && m_Sent.far == awarenessFarFactor && m_Sent.edge == awarenessEdgeFactor
                && m_Sent.suspicious == awarenessSuspicious && m_Sent.alert == awarenessAlert && m_Sent.aware == awarenessAware)
                return false;
            m_Sent.set = true;
            m_Sent.viewRadius = viewRadius;
            m_Sent.viewAngle = viewAngle;
            m_Sent.targetMask = targetMask.value;
            m_Sent.obstacleMask = obstacleMask.value;
            m_Sent.eyeHeight = eyeHeight;
            m_Sent.loseSightRadius = loseSightRadius;
            m_Sent.peripheralRadius = peripheralRadius;
            m_Sent.peripheralAngle = peripheralAngle;
            m_Sent.sightRateHz = sightRateHz;
            m_Sent.useAwareness = useAwareness;
            m_Sent.rise = awarenessRisePerSecond;
            m_Sent.fall = awarenessFallPerSecond;
            m_Sent.far = awarenessFarFactor;
            m_Sent.edge = awarenessEdgeFactor;
            m_Sent.suspicious = awarenessSuspicious;
            m_Sent.alert = awarenessAlert;
            m_Sent.aware = awarenessAware;
            return true;
        }

        internal void Fill(ref AgentDef def)
        {
            def.Sight.Enabled = enabled;
            def.Sight.ViewRadius = viewRadius;
            def.Sight.ViewAngle = viewAngle;
            def.Sight.TargetMask = UnityArgus.Mask(targetMask);
            def.Sight.ObstacleMask = UnityArgus.Mask(obstacleMask);
            def.Sight.EyeOffset = new Vec3(0f, eyeHeight, 0f);
            def.Sight.LoseSightRadius = loseSightRadius;
            def.Sight.PeripheralRadius = peripheralRadius;
            def.Sight.PeripheralAngle = peripheralAngle;
            def.Sight.RateHz = sightRateHz;
            def.Awareness.Enabled = useAwareness;
            def.Awareness.RisePerSecond = awarenessRisePerSecond;
            def.Awareness.FallPerSecond = awarenessFallPerSecond;
            def.Awareness.FarFactor = awarenessFarFactor;
            def.Awareness.EdgeFactor = awarenessEdgeFactor;
            def.Awareness.SuspiciousThreshold = awarenessSuspicious;
            def.Awareness.AlertThreshold = awarenessAlert;
            def.Awareness.AwareThreshold = awarenessAware;
        }

        /// <summary>Range, cone, then line of sight, now, with the current transforms. The target
        /// needs a PerceptionTarget in the same world; anything else is never seen.</summary>
        public bool CanSeeTarget(Transform target)
        {
            SightResult r;
            return CheckSight(target, out r) && r.Seen;
        }

        /// <summary>Beyond the lesson: the whole answer of CanSeeTarget (visible fraction, each check
        /// point's status and wall hit). False when the target is not a PerceptionTarget of this world.</summary>
        public bool CheckSight(Transform target, out SightResult result)
        {
            result = new SightResult();
            if (m_Agent != null && !m_Agent.IsLive) m_Agent.WarnNoWorld();
            if (target == null || m_Agent == null || !m_Agent.IsLive) return false;
            PerceptionTarget t = target.GetComponent<PerceptionTarget>();
            if (t == null || t.Id.IsNull || t.World != m_Agent.World) return false;
            m_Agent.PushNow();
            t.PushNow();
            result = m_Agent.World.Native.CanSee(m_Agent.Id, t.Id);
            return true;
        }

        // ---- the lesson's exercise helpers, one check each --------------------------------------------------

        /// <summary>The lesson's first check: is the target (any of its check points) within viewRadius of
        /// the eye? Answered by the native sight test (CheckSight), with the current transforms.</summary>
        public bool WithinRange(Transform target)
        {
            SightResult r;
            if (!CheckSight(target, out r)) return false;
            for (int i = 0; i < (int)r.PointCount; i++)
            {
                PointStatus s = r.Status(i);
                if (s != PointStatus.OutOfRange && s != PointStatus.Filtered) return true;
            }
            return false;
        }

        /// <summary>The lesson's second check alone: is the target's position inside the view cone
        /// (dot of the forward and the unit direction to the target against the cosine of half
        /// viewAngle)? The cone alone, whatever the distance (the native test only evaluates the cone for
        /// targets in range): the lesson's formula, <see cref="WithinAngle(Vector3, Vector3, Vector3)"/>.</summary>
        public bool WithinAngle(Transform target)
        {
            if (target == null) return false;
            if ((target.position - transform.position).sqrMagnitude < 1e-12f) return true;
            return WithinAngle(transform.forward, transform.position, target.position);
        }

        /// <summary>The lesson's third check: is nothing on obstacleMask between the eye and the target
        /// (a check point visible)? Answered by the native sight test with this world's line of sight
        /// (occluders, Unity physics or your caster). Rays are cast only to targets in range and in the
        /// cone, as in the lesson's CanSeeTarget, so this is false for a target outside either.</summary>
        public bool HasLineOfSight(Transform target)
        {
            SightResult r;
            if (!CheckSight(target, out r)) return false;
            for (int i = 0; i < (int)r.PointCount; i++)
                if (r.Status(i) == PointStatus.Visible) return true;
            return false;
        }

        /// <summary>The lesson's exercise: is this guard behind the target (outside the target's front
        /// half: the target's forward points away from this guard)?</summary>
        public bool IsBehindTarget(Transform target)
        {
            if (target == null) return false;
            if ((transform.position - target.position).sqrMagnitude < 1e-12f) return false;
            return IsBehindTarget(target.forward, target.position, transform.position);
        }

        // ---- the same helpers as the lesson writes them, on positions and directions ------------------------
        // Range, cone and facing are the lesson's formulas on the caller's vectors (the library has no
        // call for a bare range, cone or facing test); line of sight is a native ray of this world.

        /// <summary>Lesson §2: is targetPosition within viewRadius of myPosition (squared distances)?</summary>
        public bool WithinRange(Vector3 myPosition, Vector3 targetPosition)
        {
            return (targetPosition - myPosition).sqrMagnitude <= viewRadius * viewRadius;
        }

        /// <summary>Lesson §3: is targetPosition inside the cone of viewAngle around forward, from myPosition?</summary>
        public bool WithinAngle(Vector3 forward, Vector3 myPosition, Vector3 targetPosition)
        {
            return WithinAngle(forward, myPosition, targetPosition, viewAngle);
        }

        /// <summary>Lesson §13's exercise form: the cone of viewAngleDegrees (full width) around forward.</summary>
        public bool WithinAngle(Vector3 forward, Vector3 myPosition, Vector3 targetPosition, float viewAngleDegrees)
        {
            Vector3 dirToTarget = (targetPosition - myPosition).normalized;
            float cosHalfAngle = Mathf.Cos(viewAngleDegrees * 0.5f * Mathf.Deg2Rad);
            return Vector3.Dot(forward, dirToTarget) >= cosHalfAngle;
        }

        /// <summary>Lesson §4: is the segment from eyePosition along dirToTarget for distToTarget clear of
        /// obstacles on obstacleMask? One ray of this guard's world, by its line-of-sight source (occluders,
        /// Unity physics or your caster); false, with the no-world warning, outside a world.</summary>
        public bool HasLineOfSight(Vector3 eyePosition, Vector3 dirToTarget, float distToTarget)
        {
            if (m_Agent != null && !m_Agent.IsLive) m_Agent.WarnNoWorld();
            if (m_Agent == null || !m_Agent.IsLive) return false;
            Vector3 end = eyePosition + dirToTarget.normalized * Mathf.Max(0f, distToTarget);
            return !m_Agent.World.RayBlocked(eyePosition, end, UnityArgus.Mask(obstacleMask));
        }

        /// <summary>Lesson §13's exercise: is myPosition behind a target at targetPosition facing targetForward?</summary>
        public bool IsBehindTarget(Vector3 targetForward, Vector3 targetPosition, Vector3 myPosition)
        {
            Vector3 dirFromTarget = (myPosition - targetPosition).normalized;
            return Vector3.Dot(targetForward, dirFromTarget) < 0f;
        }

        /// <summary>Every target this guard can see now (a new list, as in the lesson).</summary>
        public List<Transform> FindVisibleTargets()
        {
            var result = new List<Transform>();
            FindVisibleTargets(result);
            return result;
        }

        /// <summary>Every target this guard can see now, into <paramref name="results"/> (cleared first).</summary>
        public void FindVisibleTargets(List<Transform> results)
        {
            results.Clear();
            if (m_Agent != null && !m_Agent.IsLive) m_Agent.WarnNoWorld();
            if (m_Agent == null || !m_Agent.IsLive) return;
            m_Agent.PushNow();
            PerceptionWorld w = m_Agent.World;
            w.PushTargetsNow();
            int n = w.Native.GetVisibleTargets(m_Agent.Id, ref m_Visible);
            for (int i = 0; i < n; i++)
            {
                PerceptionTarget t = w.TargetFor(m_Visible[i].Target);
                if (t != null) results.Add(t.transform);
            }
        }

        /// <summary>A native seen event of this guard: into visibleTargets, then OnTargetSeen.</summary>
        internal void TargetSeen(Transform target, Vector3 position)
        {
            if (visibleTargets.Contains(target)) return;
            visibleTargets.Add(target);
            Action<Transform, Vector3> handler = OnTargetSeen;
            if (handler != null) handler(target, position);
            if (onTargetSeen != null) onTargetSeen.Invoke(target, position);
        }

        /// <summary>A native lost event of this guard (or the target or guard left the world): out of
        /// visibleTargets, then OnTargetLost (only for a target that was in the list).</summary>
        internal void TargetLost(Transform target, Vector3 position)
        {
            if (!visibleTargets.Remove(target)) return;
            Action<Transform, Vector3> handler = OnTargetLost;
            if (handler != null) handler(target, position);
            if (onTargetLost != null) onTargetLost.Invoke(target, position);
        }

        internal void RaiseAwareness(Transform target, AwarenessStage from, AwarenessStage to, float level)
        {
            Action<Transform, AwarenessStage, AwarenessStage, float> handler = OnAwarenessChanged;
            if (handler != null) handler(target, from, to, level);
            if (onAwarenessChanged != null) onAwarenessChanged.Invoke(target, from, to, level);
        }

        /// <summary>This guard leaves the world (or the world goes away): every visible target is lost,
        /// where its memory record last perceived it.</summary>
        internal void LoseAll()
        {
            for (int i = visibleTargets.Count - 1; i >= 0; i--)
            {
                if (i >= visibleTargets.Count) continue; // a handler removed more than one
                Transform t = visibleTargets[i];
                Vector3 where = t != null ? t.position : Vector3.zero;
                if (m_Agent != null && t != null)
                {
                    PerceptionTarget pt = t.GetComponent<PerceptionTarget>();
                    Vector3 remembered;
                    if (pt != null && m_Agent.LastKnownPositionOf(pt.Id, out remembered)) where = remembered;
                }
                try { TargetLost(t, where); }
                catch (Exception e) { UnityEngine.Debug.LogException(e, this); }
            }
            visibleTargets.Clear();
        }
    }
}
