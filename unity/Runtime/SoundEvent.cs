using UnityEngine;

namespace Argus.Perception
{
    /// <summary>One noise, as the lesson's §5 models it: where, how loud, who made it.</summary>
    public struct SoundEvent
    {
        /// <summary>Where the sound was made.</summary>
        public Vector3 position;

        /// <summary>Radius in metres the sound can be heard at (times the listener's hearingSensitivity).</summary>
        public float loudness;

        /// <summary>Who made it (may be null). A PerceptionTarget on it becomes the sound's source.</summary>
        public GameObject source;
    }
}
