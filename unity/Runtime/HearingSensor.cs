using System;
using UnityEngine;
using UnityEngine.Events;

namespace Argus.Perception
{
    /// <summary>
    /// The lesson's listener (§5): hears a sound when its distance is at most the sound's loudness
    /// times <see cref="hearingSensitivity"/>, and reports where the sound came from. The test runs
    /// natively at the world's step; OnHeardSound is raised then. <see cref="obstruction"/> picks the
    /// lesson's straight line or the walk around walls (distance = metres walked; position = the doorway).
    /// </summary>
    [RequireComponent(typeof(PerceptionAgent))]
    [AddComponentMenu("Argus/Hearing Sensor")]
    public sealed class HearingSensor : MonoBehaviour
    {
        /// <summary>Which way sound travels to this guard.</summary>
        public enum Obstruction
        {
            /// <summary>The PerceptionWorld's hearingPath (default).</summary>
            FollowWorld = 0,
            /// <summary>The lesson: the straight line, through walls (muffled by the world's soundOcclusion
            /// or an occluder's own transmission).</summary>
            StraightLine = 1,
            /// <summary>Around walls along the world's walk graph (the straight line while it has none):
            /// heard when the walk is within reach, or straight through an occluder that transmits sound;
            /// heard from the last point of the walk this guard can see (the doorway).</summary>
            WalkAroundWalls = 2,
        }

        [Tooltip("Multiplier on every sound's radius; 1 = normal hearing.")]
        [Min(0f)]
        public float hearingSensitivity = 1f;

        [Header("Beyond the lesson")]
        [Tooltip("Layers of the sounds this guard listens to (the emitter's GameObject layer).")]
        public LayerMask soundMask = ~0;

        [Tooltip("Layers of occluders that muffle sound (by the world's sound occlusion or their own sound transmission) and that hide a walk-heard sound's path from view.")]
        public LayerMask muffleMask = ~0;

        [Tooltip("Which way sound travels to this guard. FollowWorld: the PerceptionWorld's hearingPath. StraightLine: the lesson, through walls. WalkAroundWalls: along the world's walk graph, around walls and through doorways; the sound seems to come from the doorway.")]
        public Obstruction obstruction = Obstruction.FollowWorld;

        /// <summary>Reports WHERE a heard sound came from.</summary>
        public event Action<Vector3> OnHeardSound;

        /// <summary>Where, and who made it (null for an anonymous sound), for scripts that need the source.</summary>
        public event Action<Vector3, Transform> OnHeardSoundFrom;

        [Tooltip("Raised with where a heard sound came from, after OnHeardSound: wire it in the Inspector.")]
        public UnityEvent<Vector3> onHeardSound = new UnityEvent<Vector3>();

        PerceptionAgent m_Agent;

        void Awake()
        {
            m_Agent = GetComponent<PerceptionAgent>();
            m_Agent.hearing = this;
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
            if (m_Agent != null && m_Agent.hearing == this) m_Agent.hearing = null;
        }

        /// <summary>Loudness of the running and walking footsteps the Scene-view gizmo shows (Footsteps' defaults).</summary>
        const float GizmoRunLoudness = 15f, GizmoWalkLoudness = 6f;

        // Selected in the Scene view, in edit mode too: how far a running (15) and a walking (6) footstep
        // is heard, loudness x hearingSensitivity, as cyan circles (straight-line hearing).
        void OnDrawGizmosSelected()
        {
            Vector3 at = transform.position;
            SenseGizmos.Arc(at, transform.forward, GizmoRunLoudness * hearingSensitivity, 360f, new Color(0f, 1f, 1f, 0.6f));
            SenseGizmos.Arc(at, transform.forward, GizmoWalkLoudness * hearingSensitivity, 360f, new Color(0f, 1f, 1f, 1f));
        }

        bool m_SentSet;
        float m_SentSensitivity;
        int m_SentSoundMask, m_SentMuffleMask;
        Obstruction m_SentObstruction;

        /// <summary>True (and remembered) when a field Fill forwards differs from the last call.</summary>
        internal bool SettingsChanged()
        {
            if (m_SentSet && m_SentSensitivity == hearingSensitivity
                && m_SentSoundMask == soundMask.value && m_SentMuffleMask == muffleMask.value
                && m_SentObstruction == obstruction) return false;
            m_SentSet = true;
            m_SentSensitivity = hearingSensitivity;
            m_SentSoundMask = soundMask.value;
            m_SentMuffleMask = muffleMask.value;
            m_SentObstruction = obstruction;
            return true;
        }

        internal void Fill(ref AgentDef def)
        {
            def.Hearing.Enabled = enabled;
            def.Hearing.Sensitivity = hearingSensitivity;
            def.Hearing.SoundMask = UnityArgus.Mask(soundMask);
            def.Hearing.ObstacleMask = UnityArgus.Mask(muffleMask);
            def.Hearing.Path = (HearingPath)(uint)obstruction;
        }

        internal void RaiseHeard(Vector3 position, Transform source)
        {
            Action<Vector3> heard = OnHeardSound;
            if (heard != null) heard(position);
            if (onHeardSound != null) onHeardSound.Invoke(position);
            Action<Vector3, Transform> from = OnHeardSoundFrom;
            if (from != null) from(position, source);
        }
    }
}
