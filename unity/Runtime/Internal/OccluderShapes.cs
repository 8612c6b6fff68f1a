using UnityEngine;

namespace Argus.Perception
{
    /// <summary>Turns a Unity collider into an Argus occluder def (world-space pose, scaled sizes).
    /// Forwarding only: the shapes and their ray tests live in the native library.</summary>
    internal static class OccluderShapes
    {
        /// <summary>Creates the occluder of a Box, Sphere, Capsule or Mesh collider; false for others.</summary>
        public static bool TryCreate(World world, Collider collider, bool movable, out OccluderId id)
        {
            return TryCreate(world, collider, movable, false, 0f, out id);
        }

        /// <summary>As above, with the occluder's own sound transmission when hasTransmission.</summary>
        public static bool TryCreate(World world, Collider collider, bool movable, bool hasTransmission, float transmission,
            out OccluderId id)
        {
            id = new OccluderId();
            OccluderDef def = OccluderDef.Default();
            def.Layers = UnityArgus.LayerBit(collider.gameObject);
            def.Movable = movable;
            def.HasSoundTransmission = hasTransmission;
            def.SoundTransmission = hasTransmission ? transmission : 0f;
            Transform t = collider.transform;
            Vector3 scale = t.lossyScale;
            Quaternion rotation = t.rotation;
            def.Rotation = UnityArgus.ToArgus(rotation);

            var box = collider as BoxCollider;
            if (box != null)
            {
                def.Shape = ShapeKind.Box;
                def.Position = UnityArgus.ToArgus(t.TransformPoint(box.center));
                def.HalfExtents = UnityArgus.ToArgus(Abs(Vector3.Scale(box.size, scale)) * 0.5f);
                id = world.CreateOccluder(def);
                return true;
            }
            var sphere = collider as SphereCollider;
            if (sphere != null)
            {
                def.Shape = ShapeKind.Sphere;
                def.Position = UnityArgus.ToArgus(t.TransformPoint(sphere.center));
                def.Radius = sphere.radius * MaxAbs(scale);
                id = world.CreateOccluder(def);
                return true;
            }
            var capsule = collider as CapsuleCollider;
            if (capsule != null)
            {
                // Argus capsules run along local Y; Unity's `direction` picks X, Y or Z.
                def.Shape = ShapeKind.Capsule;
                def.Position = UnityArgus.ToArgus(t.TransformPoint(capsule.center));
                float axisScale = capsule.direction == 0 ? scale.x : capsule.direction == 2 ? scale.z : scale.y;
                float radialScale = capsule.direction == 0 ? Mathf.Max(Mathf.Abs(scale.y), Mathf.Abs(scale.z))
                    : capsule.direction == 2 ? Mathf.Max(Mathf.Abs(scale.x), Mathf.Abs(scale.y))
                    : Mathf.Max(Mathf.Abs(scale.x), Mathf.Abs(scale.z));
                def.Radius = capsule.radius * radialScale;
                def.HalfHeight = Mathf.Max(0f, capsule.height * Mathf.Abs(axisScale) * 0.5f - def.Radius);
                Quaternion toAxis = capsule.direction == 0 ? Quaternion.AngleAxis(-90f, Vector3.forward)
                    : capsule.direction == 2 ? Quaternion.AngleAxis(90f, Vector3.right) : Quaternion.identity;
                def.Rotation = UnityArgus.ToArgus(rotation * toAxis);
                id = world.CreateOccluder(def);
                return true;
            }
            var mesh = collider as MeshCollider;
            if (mesh != null && mesh.sharedMesh != null)
            {
                if (WarnIfUnreadable(mesh)) return false;
                // Scale is baked into the vertices; position and rotation stay the occluder's pose.
                Vector3[] v = mesh.sharedMesh.vertices;
                int[] tris = mesh.sharedMesh.triangles;
                var vertices = new Vec3[v.Length];
                for (int i = 0; i < v.Length; i++) vertices[i] = UnityArgus.ToArgus(Vector3.Scale(v[i], scale));
                var indices = new uint[tris.Length];
                for (int i = 0; i < tris.Length; i++) indices[i] = (uint)tris[i];
                def.Shape = ShapeKind.Mesh;
                def.Position = UnityArgus.ToArgus(t.position);
                id = world.CreateOccluder(def, vertices, indices);
                return true;
            }
            return false;
        }

        /// <summary>True, after a warning naming the object and the mesh, when a MeshCollider's mesh has
        /// Read/Write off: Unity refuses the CPU read (an error and empty arrays in a player), so the wall
        /// would silently be no wall. Physics still has the mesh: lineOfSight = UnityPhysics sees it.</summary>
        public static bool WarnIfUnreadable(MeshCollider mesh)
        {
            if (mesh == null || mesh.sharedMesh == null || mesh.sharedMesh.isReadable) return false;
            UnityEngine.Debug.LogWarning("Argus: the MeshCollider on '" + mesh.gameObject.name + "' uses mesh '" + mesh.sharedMesh.name
                + "', whose Read/Write is not enabled, so Argus cannot read its triangles and it blocks no sight or sound: "
                + "tick Read/Write in the model's import settings, give the wall a Box collider, or set the PerceptionWorld's "
                + "lineOfSight to UnityPhysics.", mesh);
            return true;
        }

        /// <summary>World pose of the occluder of a collider (what SetOccluderPose takes).</summary>
        public static void Pose(Collider collider, out Vec3 position, out Quat rotation)
        {
            Transform t = collider.transform;
            Vector3 center = Vector3.zero;
            Quaternion extra = Quaternion.identity;
            var box = collider as BoxCollider;
            if (box != null) center = box.center;
            var sphere = collider as SphereCollider;
            if (sphere != null) center = sphere.center;
            var capsule = collider as CapsuleCollider;
            if (capsule != null)
            {
                center = capsule.center;
                extra = capsule.direction == 0 ? Quaternion.AngleAxis(-90f, Vector3.forward)
                    : capsule.direction == 2 ? Quaternion.AngleAxis(90f, Vector3.right) : Quaternion.identity;
            }
            position = UnityArgus.ToArgus(t.TransformPoint(center));
            rotation = UnityArgus.ToArgus(t.rotation * extra);
        }

        static Vector3 Abs(Vector3 v) { return new Vector3(Mathf.Abs(v.x), Mathf.Abs(v.y), Mathf.Abs(v.z)); }

        static float MaxAbs(Vector3 v) { return Mathf.Max(Mathf.Abs(v.x), Mathf.Max(Mathf.Abs(v.y), Mathf.Abs(v.z))); }
    }
}
