using UnityEngine;

namespace Argus.Perception
{
    /// <summary>Which sense produced a percept (§6).</summary>
    public enum PerceptType
    {
        /// <summary>Seen.</summary>
        Sight,
        /// <summary>Heard.</summary>
        Sound,
    }

    /// <summary>One piece of sensed information, the same shape for every sense (§6).</summary>
    public struct Percept
    {
        /// <summary>The sense.</summary>
        public PerceptType type;

        /// <summary>The seen target's position, or where the heard sound seems to come from: its own
        /// position (straight-line hearing), or with walk hearing the last point of its walk the guard can
        /// see (the doorway it came through).</summary>
        public Vector3 position;

        /// <summary>When, in seconds of the PerceptionWorld's clock (0 when the world was enabled).</summary>
        public float timestamp;

        /// <summary>Beyond the lesson: the seen target, or the sound's source (null if anonymous).</summary>
        public Transform target;

        /// <summary>Beyond the lesson: sight, the visible fraction of the target's check points;
        /// sound, 1 − distance / hearing radius.</summary>
        public float strength;

        /// <summary>Beyond the lesson: sound, the metres it travelled to the guard (the straight line, or
        /// the walk around walls with walk hearing); sight, 0.</summary>
        public float distance;
    }
}
