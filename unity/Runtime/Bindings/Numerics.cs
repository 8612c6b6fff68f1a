#if !UNITY_5_3_OR_NEWER && !ARGUS_NO_SYSTEM_NUMERICS
// Conversions to and from System.Numerics (System.Numerics.dll; on Mono the mono-devel / libmono-system-
// numerics4.0-cil assembly, in .NET Core and .NET 5+ part of the base library). Left out of Unity builds
// (Unity has its own Vector3 and the package converts to it) and when ARGUS_NO_SYSTEM_NUMERICS is defined.
using System.Numerics;

namespace Argus
{
    public partial struct Vec3
    {
        /// <summary>The same vector as a System.Numerics.Vector3.</summary>
        public static implicit operator Vector3(Vec3 v) { return new Vector3(v.X, v.Y, v.Z); }
        /// <summary>A System.Numerics.Vector3 as a Vec3.</summary>
        public static implicit operator Vec3(Vector3 v) { return new Vec3(v.X, v.Y, v.Z); }
        /// <summary>The same vector as a System.Numerics.Vector3.</summary>
        public Vector3 ToVector3() { return new Vector3(X, Y, Z); }
    }

    public partial struct Quat
    {
        /// <summary>The same rotation as a System.Numerics.Quaternion.</summary>
        public static implicit operator Quaternion(Quat q) { return new Quaternion(q.X, q.Y, q.Z, q.W); }
        /// <summary>A System.Numerics.Quaternion as a Quat.</summary>
        public static implicit operator Quat(Quaternion q) { return new Quat(q.X, q.Y, q.Z, q.W); }
    }
}
#endif
