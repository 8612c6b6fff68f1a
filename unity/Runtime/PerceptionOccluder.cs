using UnityEngine;

namespace Argus.Perception
{
    /// <summary>
    /// A wall, crate or pillar that blocks sight (and muffles sound when the world's sound occlusion
    /// is on): the Box, Sphere, Capsule or Mesh collider on this GameObject becomes an Argus occluder
    /// on this GameObject's layer. Put it on a layer in your sensors' obstacleMask.
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

        PerceptionWorld m_World;
        OccluderId m_Id;
        int m_Layer;

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
            OccluderId id;
            if (c != null && OccluderShapes.TryCreate(w.Native, c, movable, out id)) m_Id = id;
            else UnityEngine.Debug.LogWarning("PerceptionOccluder needs a Box, Sphere, Capsule or Mesh collider", this);
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

        /// <summary>Sends the transform (movable only) and the GameObject's layer now; the world does
        /// this at every step, so call it only before a query in the same frame as a move.</summary>
        public void SyncTransform() { PushPose(); }

        /// <summary>Follows the transform (movable only) and the GameObject's layer.</summary>
        internal void PushPose()
        {
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
