using UnityEngine;

namespace Argus.Perception
{
    /// <summary>Conversions between Unity's value types and the bindings' mirrors. Both sides are
    /// metres with +Y up, and Unity's forward (+Z) is the core's default facing, so values pass
    /// through unchanged; Unity layers are bit numbers, Argus layers are bits.</summary>
    internal static class UnityArgus
    {
        public static Vec3 ToArgus(Vector3 v) { return new Vec3(v.x, v.y, v.z); }

        public static Vector3 ToUnity(Vec3 v) { return new Vector3(v.X, v.Y, v.Z); }

        public static Quat ToArgus(Quaternion q) { return new Quat(q.x, q.y, q.z, q.w); }

        /// <summary>A LayerMask is already a 32-bit set of layers: bit n is Unity layer n.</summary>
        public static uint Mask(LayerMask mask) { return unchecked((uint)mask.value); }

        /// <summary>The one Argus layer bit of a GameObject's Unity layer.</summary>
        public static uint LayerBit(GameObject go) { return 1u << go.layer; }

        /// <summary>Packed 0xRRGGBBAA (the debug-draw buffer's colours) to a Unity colour.</summary>
        public static Color ToColor(uint rgba)
        {
            return new Color32((byte)(rgba >> 24), (byte)(rgba >> 16), (byte)(rgba >> 8), (byte)rgba);
        }
    }
}
