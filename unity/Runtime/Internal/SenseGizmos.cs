using UnityEngine;

namespace Argus.Perception
{
    /// <summary>Edit-mode pictures of a guard's senses for OnDrawGizmosSelected (no world needed): the
    /// view cone, the near sense and the hearing radii, flat at the eye. Display only: the rules that
    /// decide what is seen or heard stay in the native library.</summary>
    internal static class SenseGizmos
    {
        const int SegmentsPerCircle = 48;

        /// <summary>An arc of <paramref name="angle"/> degrees (full width) of a circle of
        /// <paramref name="radius"/> around <paramref name="forward"/> in the horizontal plane, with its
        /// two edges back to the centre when it is not a full circle.</summary>
        public static void Arc(Vector3 center, Vector3 forward, float radius, float angle, Color color)
        {
            if (radius <= 0f || angle <= 0f) return;
            Gizmos.color = color;
            forward.y = 0f;
            if (forward.sqrMagnitude < 1e-8f) forward = Vector3.forward;
            forward = forward.normalized;
            angle = Mathf.Min(angle, 360f);
            int segments = Mathf.Max(2, Mathf.CeilToInt(SegmentsPerCircle * angle / 360f));
            Vector3 previous = center + Quaternion.AngleAxis(-angle * 0.5f, Vector3.up) * forward * radius;
            if (angle < 360f) Gizmos.DrawLine(center, previous);
            for (int i = 1; i <= segments; i++)
            {
                float a = -angle * 0.5f + angle * i / segments;
                Vector3 next = center + Quaternion.AngleAxis(a, Vector3.up) * forward * radius;
                Gizmos.DrawLine(previous, next);
                previous = next;
            }
            if (angle < 360f) Gizmos.DrawLine(previous, center);
        }
    }
}
