using UnityEngine;

namespace Argus.Perception
{
    /// <summary>
    /// Something guards can see and hear: the player, a corpse, a noisy bottle. It is matched against
    /// a sensor's targetMask by this GameObject's layer (Unity layer n is Argus layer bit n) and seen
    /// by its team's attitude (default team 1, hostile to the guards' default team 0).
    /// </summary>
    [DisallowMultipleComponent]
    [AddComponentMenu("Argus/Perception Target")]
    public sealed class PerceptionTarget : MonoBehaviour, IWorldMember
    {
        [Tooltip("The world to join; empty = the first enabled PerceptionWorld.")]
        public PerceptionWorld world;

        [Tooltip("Team 0..63. Guards (team 0 by default) perceive hostile teams; by default every other team is hostile.")]
        [Range(0, 63)]
        public int team = 1;

        [Tooltip("Points tested for line of sight, relative to the transform (at most 8). Empty = one point at chest height (1.3 m). Several points give a visible fraction: half hidden behind a low wall.")]
        public Vector3[] checkPoints = new Vector3[0];

        [Tooltip("Off: invisible and silent to guards, but kept (their memories of it stay). Disabling the component removes the target instead.")]
        public bool detectable = true;

        [Tooltip("Metres per second guards searching by belief (EnemyBrain.search = Belief) assume this target can move at once they lose it: how fast their belief of where it can be spreads over the walk graph (1.4 = a walk; 0 to 1000).")]
        [Min(0f)]
        public float topSpeed = 1.4f;

        PerceptionWorld m_World;
        TargetId m_Id;
        TargetDef m_Pushed;
        TargetDef m_Refused;
        bool m_HasRefused;

        /// <summary>The native target (null id while not in a world).</summary>
        public TargetId Id { get { return m_Id; } }

        /// <summary>The world this target is in (null while waiting for one).</summary>
        public PerceptionWorld World { get { return m_World; } }

        PerceptionWorld IWorldMember.RequestedWorld { get { return world; } }

        /// <summary>This component's transform, read once (poses and events read it every frame).</summary>
        internal Transform CachedTransform
        {
            get
            {
                if (ReferenceEquals(m_Transform, null)) m_Transform = transform;
                return m_Transform;
            }
        }

        Transform m_Transform;

        void OnEnable() { PerceptionWorld.Join(this); }

        // After every Awake/OnEnable of the scene: a world enabled in the same frame has joined us by now.
        void Start()
        {
            if (m_World == null)
                UnityEngine.Debug.LogWarning(PerceptionWorld.NoWorldMessage(gameObject.name, "target (PerceptionTarget)", world), this);
        }

        void OnDisable() { PerceptionWorld.Leave(this, m_World); }

        static bool s_HaveDefaults;
        static TargetDef s_Defaults;

        /// <summary>This component's settings as a def (the library's defaults, read once, underneath).</summary>
        unsafe TargetDef BuildDef()
        {
            if (!s_HaveDefaults)
            {
                s_Defaults = TargetDef.Default();
                s_HaveDefaults = true;
            }
            TargetDef def = s_Defaults;
            def.Team = (uint)team;
            def.Layers = UnityArgus.LayerBit(gameObject);
            def.Enabled = detectable;
            def.TopSpeed = topSpeed;
            int n = checkPoints == null ? 0 : Mathf.Min(checkPoints.Length, (int)Constants.MAX_CHECK_POINTS);
            if (n > 0) def.CheckPointCount = (uint)n;
            for (int i = 0; i < n; i++)
            {
                def.CheckPointOffsets[3 * i] = checkPoints[i].x;
                def.CheckPointOffsets[3 * i + 1] = checkPoints[i].y;
                def.CheckPointOffsets[3 * i + 2] = checkPoints[i].z;
            }
            def.Position = UnityArgus.ToArgus(transform.position);
            def.Forward = UnityArgus.ToArgus(transform.forward);
            return def;
        }

        /// <summary>Flagged for PerceptionWorld.SettingsSync.OnChange: the fields (and the GameObject's
        /// layer) are compared, and the def sent if they changed, at the next step or query.</summary>
        internal bool SettingsDirty;

        /// <summary>Sends team, detectable, topSpeed, checkPoints and the GameObject's layer at the next step, or at
        /// once if a query comes first. Needed only when the world's settingsSync is OnChange, after a
        /// script changed them at run time; with EveryFrame (the default) every step compares them anyway.</summary>
        public void ApplySettings() { SettingsDirty = true; }

        // The editor calls this after an inspector edit (and on load): flag the settings.
        void OnValidate() { SettingsDirty = true; }

        // What the def was made of when last sent (check points by value: an element may change in place).
        bool m_SentSet, m_SentDetectable;
        int m_SentTeam, m_SentLayer;
        float m_SentTopSpeed;
        Vector3[] m_SentPoints = new Vector3[0];

        bool SettingsChanged()
        {
            int layer = gameObject.layer;
            bool changed = !m_SentSet || m_SentTeam != team || m_SentLayer != layer || m_SentDetectable != detectable
                || m_SentTopSpeed != topSpeed;
            Vector3[] points = checkPoints;
            int n = points == null ? 0 : points.Length;
            if (!changed && n != m_SentPoints.Length) changed = true;
            for (int i = 0; i < n && !changed; i++)
                if (points[i].x != m_SentPoints[i].x || points[i].y != m_SentPoints[i].y || points[i].z != m_SentPoints[i].z) changed = true; // exact (Vector3 == is approximate)
            if (!changed) return false;
            m_SentSet = true;
            m_SentTeam = team;
            m_SentLayer = layer;
            m_SentDetectable = detectable;
            m_SentTopSpeed = topSpeed;
            if (m_SentPoints.Length != n) m_SentPoints = new Vector3[n];
            for (int i = 0; i < n; i++) m_SentPoints[i] = points[i];
            return true;
        }

        void IWorldMember.Attach(PerceptionWorld w)
        {
            m_World = w;
            SettingsChanged(); // remember what this def is made of
            TargetDef def = BuildDef();
            m_Id = w.Native.CreateTarget(def);
            m_Named = null;
            PerceptionWorld.PushName(this);
            m_Pushed = def;
            SettingsDirty = true; // OnChange: fields set right after AddComponent / SetActive, this frame, are sent at the step
        }

        void IWorldMember.Detach()
        {
            m_World = null;
            m_Id = new TargetId();
        }

        void IWorldMember.DestroyNative()
        {
            if (m_World != null && m_World.Native != null && !m_Id.IsNull) m_World.Native.DestroyTarget(m_Id);
            m_World = null;
            m_Id = new TargetId();
        }

        // The GameObject name the native target was last labelled with (PerceptionWorld.Names.cs).
        string m_Named;

        void IWorldMember.PushName()
        {
            if (m_Id.IsNull || m_World == null || m_World.Native == null) return;
            string n = gameObject.name;
            if (n == m_Named) return;
            m_Named = n; // once, even if refused (logged once, not every step)
            m_World.Native.SetLabel(m_Id, UnityArgus.Label(n));
        }

        /// <summary>Sends changed fields (team, layer, detectable, topSpeed, check points) to the native target.
        /// A value the library refuses (a NaN or negative topSpeed) is logged once and the old settings stay.</summary>
        internal void PushSettings()
        {
            if (m_Id.IsNull) return;
            SettingsDirty = false;
            if (!SettingsChanged()) return; // the frame's fast path: fields compared, no def built
            TargetDef def = BuildDef();
            if (Defs.SameSettings(ref def, ref m_Pushed)) return;
            if (m_HasRefused && Defs.SameSettings(ref def, ref m_Refused)) return;
            try
            {
                m_World.Native.SetTargetDef(m_Id, def);
                m_Pushed = def;
                m_HasRefused = false;
            }
            catch (ArgusException e)
            {
                m_Refused = def;
                m_HasRefused = true;
                UnityEngine.Debug.LogException(e, this);
            }
        }

        /// <summary>Settings and transform now (for queries made before this frame's bulk push).</summary>
        internal void PushNow()
        {
            if (m_Id.IsNull) return;
            if (SettingsDirty || m_World.SyncsEveryFrame) PushSettings();
            m_World.Native.SetTargetPose(m_Id, UnityArgus.ToArgus(transform.position), UnityArgus.ToArgus(transform.forward));
        }
    }
}
