using UnityEngine;

namespace Argus.Perception
{
    /// <summary>The lesson's footstep emitter (§5): call OnFootstep from an Animation Event on the
    /// footstep frame. Running is loud (15 m), walking quiet (6 m).</summary>
    [AddComponentMenu("Argus/Footsteps")]
    public sealed class Footsteps : MonoBehaviour
    {
        /// <summary>Running footsteps use runLoudness, walking ones walkLoudness.</summary>
        public bool isRunning;

        [Tooltip("Radius in metres a running footstep is heard at.")]
        [Min(0f)]
        public float runLoudness = 15f;

        [Tooltip("Radius in metres a walking footstep is heard at.")]
        [Min(0f)]
        public float walkLoudness = 6f;

        /// <summary>One footstep at this transform's position.</summary>
        public void OnFootstep()
        {
            float loudness = isRunning ? runLoudness : walkLoudness;
            AudioPerception.EmitSound(transform.position, loudness, gameObject);
        }
    }
}
