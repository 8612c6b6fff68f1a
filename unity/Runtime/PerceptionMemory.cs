using System;
using UnityEngine;
using UnityEngine.Events;

namespace Argus.Perception
{
    /// <summary>
    /// The lesson's memory (§7): the last known position of a target and a confidence that snaps to
    /// 1 on every percept, falls by <see cref="decayPerSecond"/> while unperceived, and becomes exactly
    /// 0 (forgotten) below <see cref="forgetThreshold"/>. Kept natively, one record per target; this
    /// component shows the record of <see cref="target"/>, or of the most confident one.
    /// </summary>
    [RequireComponent(typeof(PerceptionAgent))]
    [AddComponentMenu("Argus/Perception Memory")]
    public sealed class PerceptionMemory : MonoBehaviour
    {
        [Tooltip("The PerceptionSystem this memory belongs to (kept for the lesson's layout; the memory is this GameObject's agent's).")]
        public PerceptionSystem perception;

        [Tooltip("Confidence lost per second while unperceived.")]
        [Min(0f)]
        public float decayPerSecond = 0.2f;

        [Tooltip("Below this confidence the memory is forgotten (confidence becomes exactly 0).")]
        [Min(0f)]
        public float forgetThreshold = 0.05f;

        [Tooltip("Beyond the lesson: whose record LastKnownPosition and Confidence show. Empty = the most confident record.")]
        public Transform target;

        /// <summary>A record was forgotten this step: which target, and its last known position.</summary>
        public event Action<Transform, Vector3> OnForgotten;

        [Tooltip("Raised when a record is forgotten (target, last known position), after OnForgotten: wire it in the Inspector.")]
        public UnityEvent<Transform, Vector3> onForgotten = new UnityEvent<Transform, Vector3>();

        PerceptionAgent m_Agent;
        Vector3 m_LastKnown;

        void Awake()
        {
            m_Agent = GetComponent<PerceptionAgent>();
            m_Agent.memory = this;
            m_Agent.ApplySettings(); // added at run time: its fields join the def (settingsSync OnChange too)
            if (perception == null) perception = GetComponent<PerceptionSystem>();
        }

        void OnDestroy()
        {
            if (m_Agent != null && m_Agent.memory == this)
            {
                m_Agent.memory = null;
                m_Agent.ApplySettings(); // back to the library's memory defaults
            }
        }

        /// <summary>Sends decayPerSecond and forgetThreshold at the next step. Needed only when the world's
        /// settingsSync is OnChange, after a script set them at run time; with EveryFrame (the default)
        /// every step compares them anyway.</summary>
        public void ApplySettings() { if (!ReferenceEquals(m_Agent, null)) m_Agent.ApplySettings(); }

        // The editor calls this after an inspector edit (and on load, possibly before Awake): flag the settings.
        void OnValidate() { if (!ReferenceEquals(m_Agent, null)) m_Agent.ApplySettings(); }

        bool m_SentSet;
        float m_SentDecay, m_SentForget;

        /// <summary>True (and remembered) when a field Fill forwards differs from the last call.</summary>
        internal bool SettingsChanged()
        {
            if (m_SentSet && m_SentDecay == decayPerSecond && m_SentForget == forgetThreshold) return false;
            m_SentSet = true;
            m_SentDecay = decayPerSecond;
            m_SentForget = forgetThreshold;
            return true;
        }

        internal void Fill(ref AgentDef def)
        {
            def.Memory.DecayPerSecond = decayPerSecond;
            def.Memory.ForgetThreshold = forgetThreshold;
        }

        /// <summary>Where the target was last perceived. As in the lesson, forgetting (Confidence 0) leaves
        /// it at the last value; it is no longer trustworthy then. Vector3.zero before any percept.</summary>
        public Vector3 LastKnownPosition
        {
            get
            {
                MemoryRecord r;
                if (Find(out r)) m_LastKnown = UnityArgus.ToUnity(r.LastKnownPosition);
                return m_LastKnown;
            }
        }

        /// <summary>1 = certain, 0 = forgotten (or never perceived).</summary>
        public float Confidence
        {
            get
            {
                MemoryRecord r;
                return Find(out r) ? r.Confidence : 0f;
            }
        }

        /// <summary>Beyond the lesson: plant a memory by hand (a radio call from another guard).</summary>
        public void Remember(Transform about, Vector3 position, float confidence)
        {
            PerceptionTarget t = about != null ? about.GetComponent<PerceptionTarget>() : null;
            if (t == null || m_Agent == null || !m_Agent.IsLive || t.World != m_Agent.World) return;
            m_Agent.World.Native.Remember(m_Agent.Id, t.Id, UnityArgus.ToArgus(position), confidence);
            m_Agent.InvalidateMemory();
        }

        /// <summary>Beyond the lesson: the whole native record of one target (seen flag, visibility,
        /// awareness); false when there is none (never perceived, or forgotten).</summary>
        public bool TryGetRecord(Transform about, out MemoryRecord record)
        {
            record = new MemoryRecord();
            PerceptionTarget t = about != null ? about.GetComponent<PerceptionTarget>() : null;
            return t != null && Find(t, out record);
        }

        bool Find(out MemoryRecord record)
        {
            record = new MemoryRecord();
            PerceptionTarget wanted = target != null ? target.GetComponent<PerceptionTarget>() : null;
            if (target != null && wanted == null) return false;
            return Find(wanted, out record);
        }

        bool Find(PerceptionTarget wanted, out MemoryRecord record)
        {
            record = new MemoryRecord();
            if (m_Agent == null || !m_Agent.IsLive) return false;
            MemoryRecord[] records;
            int n = m_Agent.ReadMemory(out records);
            int best = -1;
            for (int i = 0; i < n; i++)
            {
                if (wanted != null)
                {
                    if (records[i].Target == wanted.Id) { best = i; break; }
                }
                else if (best < 0 || records[i].Confidence > records[best].Confidence) best = i;
            }
            if (best < 0) return false;
            record = records[best];
            return true;
        }

        internal void RaiseForgotten(Transform forgotten, Vector3 position)
        {
            // The native record is gone: keep its last position (the shown target's, or the last forgotten).
            if (target == null || forgotten == target) m_LastKnown = position;
            Action<Transform, Vector3> handler = OnForgotten;
            if (handler != null) handler(forgotten, position);
            if (onForgotten != null) onForgotten.Invoke(forgotten, position);
        }
    }
}
