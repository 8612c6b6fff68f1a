using System;
using UnityEngine;
using UnityEngine.Events;

namespace Argus.Perception
{
    /// <summary>
    /// The lesson's aggregator (§6): every sense reports through one Percept event, so memory and
    /// decisions never touch a raycast or a LayerMask. Sight percepts come from <see cref="sight"/>,
    /// sound percepts from <see cref="hearing"/>; leave one empty to mute that sense here. With
    /// <see cref="player"/> set, only that target's sight percepts are raised, as in the lesson.
    /// </summary>
    [RequireComponent(typeof(PerceptionAgent))]
    [AddComponentMenu("Argus/Perception System")]
    public sealed class PerceptionSystem : MonoBehaviour
    {
        [Tooltip("Vision sensor whose sightings become percepts (this GameObject's, found in Awake if empty).")]
        public FieldOfViewSensor sight;

        [Tooltip("Hearing sensor whose sounds become percepts (this GameObject's, found in Awake if empty).")]
        public HearingSensor hearing;

        [Tooltip("Optional: only this target's sightings become percepts. Empty = every target seen.")]
        public Transform player;

        /// <summary>One percept per sighting and per sound heard, after each world step.</summary>
        public event Action<Percept> OnPercept;

        [Tooltip("One percept per sighting and per sound heard, after OnPercept: wire it in the Inspector.")]
        public UnityEvent<Percept> onPercept = new UnityEvent<Percept>();

        PerceptionAgent m_Agent;

        void Awake()
        {
            m_Agent = GetComponent<PerceptionAgent>();
            m_Agent.system = this;
            if (sight == null) sight = GetComponent<FieldOfViewSensor>();
            if (hearing == null) hearing = GetComponent<HearingSensor>();
        }

        void OnDestroy()
        {
            if (m_Agent != null && m_Agent.system == this) m_Agent.system = null;
        }

        /// <summary>Someone may listen to OnPercept or onPercept (otherwise a percept needs no work). A
        /// UnityEvent cannot say whether a script added a listener, so its presence counts.</summary>
        internal bool HasListeners { get { return OnPercept != null || onPercept != null; } }

        internal void Raise(PerceptType type, Vector3 position, float time, Transform target, float strength, float distance)
        {
            Action<Percept> handler = OnPercept;
            if (handler == null && onPercept == null) return; // nobody listens: nothing to check
            if (!isActiveAndEnabled) return;
            if (type == PerceptType.Sight && (sight == null || (player != null && target != player))) return;
            if (type == PerceptType.Sound && hearing == null) return;
            Percept p;
            p.type = type;
            p.position = position;
            p.timestamp = time;
            p.target = target;
            p.strength = strength;
            p.distance = distance;
            if (handler != null) handler(p);
            if (onPercept != null) onPercept.Invoke(p);
        }
    }
}
