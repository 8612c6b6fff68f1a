using UnityEngine;

namespace Argus.Perception.Samples
{
    /// <summary>
    /// What Play shows without gizmos: a capsule body for a guard or the player (a child primitive, so
    /// the transform stays at the feet), and for a guard its view cone drawn every frame with a
    /// LineRenderer from the FieldOfViewSensor's eye, viewRadius and viewAngle: green while idle,
    /// yellow while busy, red while it sees someone.
    /// </summary>
    public sealed class CourtyardView : MonoBehaviour
    {
        public Color bodyColor = new Color(0.8f, 0.8f, 0.8f);
        [Range(4, 64)] public int arcSegments = 24;

        FieldOfViewSensor m_Sight;
        EnemyBrain m_Brain;
        LineRenderer m_Cone;

        void Awake()
        {
            var body = GameObject.CreatePrimitive(PrimitiveType.Capsule);
            body.name = "Body";
            body.transform.SetParent(transform, false);
            body.transform.localPosition = new Vector3(0f, 1f, 0f);
            body.transform.localScale = new Vector3(0.8f, 1f, 0.8f);
            Tint(body.GetComponent<Renderer>(), bodyColor);

            m_Sight = GetComponent<FieldOfViewSensor>();
            m_Brain = GetComponent<EnemyBrain>();
            if (m_Sight == null) return;
            var cone = new GameObject("View Cone");
            cone.transform.SetParent(transform, false);
            m_Cone = cone.AddComponent<LineRenderer>();
            m_Cone.useWorldSpace = true;
            m_Cone.loop = true;
            m_Cone.startWidth = m_Cone.endWidth = 0.06f;
            Shader unlit = Shader.Find("Sprites/Default"); // unlit and vertex-coloured in every pipeline
            if (unlit != null) m_Cone.sharedMaterial = new Material(unlit);
            m_Cone.positionCount = arcSegments + 2;
        }

        /// <summary>Colours a renderer's own material copy (the primitive's default material otherwise).</summary>
        public static void Tint(Renderer renderer, Color color)
        {
            if (renderer != null) renderer.material.color = color;
        }

        void LateUpdate()
        {
            if (m_Cone == null || m_Sight == null) return;
            Vector3 eye = transform.position + Vector3.up * m_Sight.eyeHeight;
            Vector3 forward = transform.forward;
            forward.y = 0f;
            if (forward.sqrMagnitude < 1e-6f) forward = Vector3.forward;
            forward = forward.normalized;
            float half = Mathf.Min(m_Sight.viewAngle, 359.9f) * 0.5f;
            if (m_Cone.positionCount != arcSegments + 2) m_Cone.positionCount = arcSegments + 2;
            m_Cone.SetPosition(0, eye);
            for (int i = 0; i <= arcSegments; i++)
            {
                float angle = -half + 2f * half * i / arcSegments;
                m_Cone.SetPosition(i + 1, eye + Quaternion.AngleAxis(angle, Vector3.up) * forward * m_Sight.viewRadius);
            }
            Color c = m_Sight.visibleTargets.Count > 0 ? Color.red
                : m_Brain != null && m_Brain.state != AIState.Idle ? Color.yellow : Color.green;
            m_Cone.startColor = m_Cone.endColor = c;
        }
    }
}
