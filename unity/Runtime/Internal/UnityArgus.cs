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

        /// <summary>A GameObject's name as a native label: cut at a NUL, and to at most
        /// Constants.MAX_LABEL_BYTES (255) bytes of UTF-8 at a character boundary (a name can be longer
        /// than a label, never refused for it).</summary>
        public static string Label(string name)
        {
            if (string.IsNullOrEmpty(name)) return "";
            int nul = name.IndexOf('\0');
            if (nul >= 0) name = name.Substring(0, nul);
            const int Max = (int)Constants.MAX_LABEL_BYTES;
            if (name.Length * 3 <= Max) return name; // at most 3 bytes per UTF-16 unit
            int bytes = 0, i = 0;
            while (i < name.Length)
            {
                char c = name[i];
                bool pair = char.IsHighSurrogate(c) && i + 1 < name.Length && char.IsLowSurrogate(name[i + 1]);
                // UTF-8 sizes as Encoding.UTF8 writes them (a lone surrogate becomes U+FFFD: 3 bytes).
                int size = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
                if (bytes + size > Max) break;
                bytes += size;
                i += pair ? 2 : 1;
            }
            return i == name.Length ? name : name.Substring(0, i);
        }

        /// <summary>Packed 0xRRGGBBAA (the debug-draw buffer's colours) to a Unity colour.</summary>
        public static Color ToColor(uint rgba)
        {
            return new Color32((byte)(rgba >> 24), (byte)(rgba >> 16), (byte)(rgba >> 8), (byte)rgba);
        }
    }
}
