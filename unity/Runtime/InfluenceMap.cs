using System;
using UnityEngine;

namespace Argus.Perception
{
    /// <summary>
    /// The lesson's influence map (§9–§10): a grid over the ground (X, Z) where sources add a value
    /// with linear falloff, a box blur smooths it, and a lookup reads one cell. The grid lives in a
    /// PerceptionWorld (tactical queries read it there); Dispose it, or it goes with its world.
    /// </summary>
    public sealed class InfluenceMap : IDisposable
    {
        readonly PerceptionWorld m_Owner;
        readonly World m_World;
        readonly InfluenceMapId m_Id;
        readonly int m_Width, m_Height;
        readonly float m_CellSize;
        readonly Vector3 m_Origin;
        float[] m_Pixels;

        /// <summary>A width × height grid of square cells, cell (0, 0)'s corner at origin, in the first
        /// enabled PerceptionWorld.</summary>
        public InfluenceMap(int width, int height, float cellSize, Vector3 origin)
            : this(width, height, cellSize, origin, PerceptionWorld.Default)
        {
        }

        /// <summary>The same, in a given world.</summary>
        public InfluenceMap(int width, int height, float cellSize, Vector3 origin, PerceptionWorld world)
        {
            if (world == null || world.Native == null)
                throw new InvalidOperationException("An InfluenceMap needs an enabled PerceptionWorld: add one to the scene (GameObject > Argus > Perception World), or pass the world to the constructor, and create the map after the world's OnEnable (in Start, say)");
            InfluenceMapDef def = InfluenceMapDef.Default();
            def.Width = (uint)width;
            def.Height = (uint)height;
            def.CellSize = cellSize;
            def.Origin = UnityArgus.ToArgus(origin);
            def.Plane = MapPlane.Xz;
            m_Owner = world;
            m_World = world.Native;
            m_Id = m_World.CreateInfluenceMap(def);
            m_Width = width;
            m_Height = height;
            m_CellSize = cellSize;
            m_Origin = origin;
        }

        /// <summary>The native map (what cover and flank queries read).</summary>
        public InfluenceMapId Id { get { return m_Id; } }

        /// <summary>The world the map lives in.</summary>
        public PerceptionWorld World { get { return m_Owner; } }

        /// <summary>Columns (along +X).</summary>
        public int Width { get { return m_Width; } }

        /// <summary>Rows (along +Z).</summary>
        public int Height { get { return m_Height; } }

        /// <summary>True while the map and its world exist.</summary>
        public bool IsValid { get { return !m_World.IsDisposed && m_World.IsValid(m_Id); } }

        /// <summary>The cell containing a world position (may lie outside the grid).</summary>
        public Vector2Int WorldToCell(Vector3 worldPos)
        {
            int cx = Mathf.FloorToInt((worldPos.x - m_Origin.x) / m_CellSize);
            int cz = Mathf.FloorToInt((worldPos.z - m_Origin.z) / m_CellSize);
            return new Vector2Int(cx, cz);
        }

        /// <summary>Every cell back to 0.</summary>
        public void Clear() { m_World.ClearInfluence(m_Id, 0); }

        /// <summary>Adds value at worldPos's cell, falling off linearly to 0 at radiusCells.</summary>
        public void AddInfluence(Vector3 worldPos, float value, int radiusCells)
        {
            m_World.AddInfluence(m_Id, 0, UnityArgus.ToArgus(worldPos), value, radiusCells);
        }

        /// <summary>One box-blur pass: every cell becomes the mean of itself and its 4 neighbours
        /// (fewer at the edges).</summary>
        public void Blur() { m_World.BlurInfluence(m_Id, 0, 1); }

        /// <summary>The value of worldPos's cell; 0 outside the grid.</summary>
        public float GetValue(Vector3 worldPos) { return m_World.GetInfluence(m_Id, 0, UnityArgus.ToArgus(worldPos)); }

        /// <summary>The grid as a single-channel float texture (RFloat, one texel per cell, row z at
        /// texel row z), for a debug overlay or a shader. Reuses <paramref name="texture"/> when it has
        /// the right size, and applies it.</summary>
        public Texture2D ToTexture(Texture2D texture = null)
        {
            if (texture == null || texture.width != m_Width || texture.height != m_Height)
            {
                texture = new Texture2D(m_Width, m_Height, TextureFormat.RFloat, false);
                texture.filterMode = FilterMode.Point;
                texture.wrapMode = TextureWrapMode.Clamp;
            }
            FloatArray values = m_World.GetInfluenceLayer(m_Id, 0);
            int n = m_Width * m_Height;
            if (m_Pixels == null || m_Pixels.Length != n) m_Pixels = new float[n];
            if (values.Length != n) throw new InvalidOperationException("influence layer does not match the grid");
            values.CopyTo(m_Pixels);
            texture.SetPixelData(m_Pixels, 0);
            texture.Apply();
            return texture;
        }

        /// <summary>Destroys the native map (nothing if its world is already gone).</summary>
        public void Dispose()
        {
            if (!m_World.IsDisposed && m_World.IsValid(m_Id)) m_World.DestroyInfluenceMap(m_Id);
        }
    }
}
