// STAND-IN, NOT UNITY. Test-only rendering surface used by the Courtyard sample: primitives
// (GameObject.CreatePrimitive with a MeshRenderer and the primitive's collider, as Unity makes
// them), Renderer, MeshRenderer, LineRenderer (positions kept in memory), Material, Shader.Find.
// Nothing is drawn. Names and signatures follow Unity's public API (UnityCsReference); bodies are
// this file's own.
using System;

namespace UnityEngine
{
    public enum PrimitiveType { Sphere = 0, Capsule = 1, Cylinder = 2, Cube = 3, Plane = 4, Quad = 5 }

    public class Shader : Object
    {
        // Stand-in: every shader name resolves (Unity returns null for one not in the build).
        public static Shader Find(string name) { return new Shader { name = name }; }
    }

    public class Material : Object
    {
        public Material(Shader shader) { this.shader = shader; color = Color.white; }
        public Material(Material source) { shader = source.shader; color = source.color; }
        public Shader shader { get; set; }
        public Color color { get; set; }
    }

    public class Renderer : Component
    {
        Material m_Shared;
        bool m_Instanced;
        public bool enabled { get; set; } = true;
        public Material sharedMaterial { get { return m_Shared; } set { m_Shared = value; m_Instanced = false; } }
        // As in Unity: reading material instantiates a copy owned by this renderer (once).
        public Material material
        {
            get
            {
                if (!m_Instanced)
                {
                    m_Shared = m_Shared != null ? new Material(m_Shared) : new Material(Shader.Find("Standard"));
                    m_Instanced = true;
                }
                return m_Shared;
            }
            set { m_Shared = value; m_Instanced = true; }
        }
    }

    public class MeshRenderer : Renderer { }

    public class MeshFilter : Component
    {
        public Mesh sharedMesh { get; set; }
    }

    public class LineRenderer : Renderer
    {
        Vector3[] m_Positions = new Vector3[2];
        int m_Count = 2;
        public bool loop { get; set; }
        public bool useWorldSpace { get; set; } = true;
        public float startWidth { get; set; } = 1f;
        public float endWidth { get; set; } = 1f;
        public float widthMultiplier { get; set; } = 1f;
        public Color startColor { get; set; } = Color.white;
        public Color endColor { get; set; } = Color.white;
        public int positionCount
        {
            get { return m_Count; }
            set
            {
                if (value < 0) throw new ArgumentOutOfRangeException("value");
                if (value > m_Positions.Length) Array.Resize(ref m_Positions, value);
                m_Count = value;
            }
        }
        public void SetPosition(int index, Vector3 position)
        {
            if ((uint)index >= (uint)m_Count) throw new ArgumentOutOfRangeException("index"); // Unity logs an error
            m_Positions[index] = position;
        }
        public Vector3 GetPosition(int index) { return m_Positions[index]; }
    }
}
