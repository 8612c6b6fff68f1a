using UnityEngine;

namespace Argus.Perception
{
    /// <summary>
    /// A wall, crate or pillar that blocks sight (and muffles sound when the world's sound occlusion
    /// is on): the Box, Sphere, Capsule or Mesh collider on this GameObject becomes an Argus occluder
    /// on this GameObject's layer. Put it on a layer in your sensors' obstacleMask. With
    /// overrideSoundTransmission, sound passing straight through it keeps soundTransmission of its
    /// reach (a door 0.5, a thin wall 0.3, 0 blocks), with straight-line and walk hearing alike.
    /// A disabled collider is no wall, as for physics: the occluder follows collider.enabled at every step.
    /// </summary>
    [DisallowMultipleComponent]
    [AddComponentMenu("Argus/Perception Occluder")]
    public sealed class PerceptionOccluder : MonoBehaviour, IWorldMember
    {
        [Tooltip("The world to join; empty = the first enabled PerceptionWorld.")]
        public PerceptionWorld world;

        [Tooltip("The collider whose shape is used; empty = the first collider on this GameObject.")]
        public Collider shape;

        [Tooltip("Follow this transform every frame (a door, a moving crate). Static walls leave it off.")]
        public bool movable;

        [Tooltip("Give this occluder its own sound transmission. Off: straight-line hearing muffles by the world's soundOcclusion, and walk hearing goes around it (it blocks).")]
        public bool overrideSoundTransmission;

        [Tooltip("With overrideSoundTransmission: the fraction of a sound's reach kept by sound passing straight through it (a door 0.5, a thin wall 0.3, 0 blocks).")]
        [Range(0f, 1f)]
        public float soundTransmission = 0.5f;

        PerceptionWorld m_World;
        OccluderId m_Id;
        int m_Layer;
        bool m_SentOverride;
        float m_SentTransmission;
        Collider m_Collider;        // the shape used, and whether it was enabled when last sent
        bool m_SentColliderEnabled;

        /// <summary>The native occluder (null id while not in a world or without a supported collider).</summary>
        public OccluderId Id { get { return m_Id; } }

        PerceptionWorld IWorldMember.RequestedWorld { get { return world; } }

        void OnEnable() { PerceptionWorld.Join(this); }

        void OnDisable() { PerceptionWorld.Leave(this, m_World); }

        void IWorldMember.Attach(PerceptionWorld w)
        {
            m_World = w;
            Collider c = shape != null ? shape : GetComponent<Collider>();
            m_Layer = gameObject.layer;
            m_SentOverride = overrideSoundTransmission;
            m_SentTransmission = soundTransmission;
            m_Collider = c;
            m_SentColliderEnabled = c != null && c.enabled;
            if (c != null && !c.enabled) return; // no wall while disabled (PushPose creates it when enabled)
            OccluderId id;
            if (c != null && OccluderShapes.TryCreate(w.Native, c, movable, overrideSoundTransmission, soundTransmission, out id))
            {
                m_Id = id;
                m_Named = null;
                PerceptionWorld.PushName(this);
            }
            else if (!Unreadable(c)) // an unreadable mesh has warned already (OccluderShapes), naming itself
                UnityEngine.Debug.LogWarning("PerceptionOccluder needs a Box, Sphere, Capsule or Mesh collider", this);
        }

        static bool Unreadable(Collider c)
        {
            var mesh = c as MeshCollider;
            return mesh != null && mesh.sharedMesh != null && !mesh.sharedMesh.isReadable;
        }

        void IWorldMember.Detach()
        {
            m_World = null;
            m_Id = new OccluderId();
        }

        void IWorldMember.DestroyNative()
        {
            if (m_World != null && m_World.Native != null && !m_Id.IsNull) m_World.Native.DestroyOccluder(m_Id);
            m_World = null;
            m_Id = new OccluderId();
        }

        // The GameObject name the native occluder was last labelled with (PerceptionWorld.Names.cs).
        string m_Named;

        void IWorldMember.PushName()
        {
            if (m_Id.IsNull || m_World == null || m_World.Native == null) return;
            string n = gameObject.name;
            if (n == m_Named) return;
            m_Named = n; // once, even if refused (logged once, not every step)
            m_World.Native.SetLabel(m_Id, UnityArgus.Label(n));
        }

        /// <summary>Sends the transform (movable only), the GameObject's layer and the sound transmission now; the world does
        /// this at every step, so call it only before a query in the same frame as a move.</summary>
        public void SyncTransform() { PushPose(); }

        /// <summary>Follows the transform (movable only), the GameObject's layer, the collider being enabled
        /// and the sound transmission (a changed transmission or a collider enabled again re-creates the
        /// native occluder: Id changes; a disabled collider removes it).</summary>
        internal void PushPose()
        {
            if (m_World == null) return;
            bool colliderToggled = m_Collider != null && m_Collider.enabled != m_SentColliderEnabled;
            if (colliderToggled || m_SentOverride != overrideSoundTransmission || m_SentTransmission != soundTransmission)
            {
                PerceptionWorld w = m_World;
                if (!m_Id.IsNull) w.Native.DestroyOccluder(m_Id);
                m_Id = new OccluderId();
                try { ((IWorldMember)this).Attach(w); }
                catch (ArgusException e) { UnityEngine.Debug.LogException(e, this); } // a refused value: out of the world
                return; // created at the current pose and layer
            }
            if (m_Id.IsNull) return;
            if (gameObject.layer != m_Layer)
            {
                m_Layer = gameObject.layer;
                m_World.Native.SetOccluderLayers(m_Id, UnityArgus.LayerBit(gameObject));
            }
            if (!movable) return;
            Collider c = shape != null ? shape : GetComponent<Collider>();
            Vec3 position;
            Quat rotation;
            OccluderShapes.Pose(c, out position, out rotation);
            m_World.Native.SetOccluderPose(m_Id, position, rotation);
        }
    }
}
