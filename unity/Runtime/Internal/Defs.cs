namespace Argus.Perception
{
    /// <summary>Change detection for defs: components rebuild their def every frame and send it only
    /// when a setting differs (poses travel separately, in one bulk call per frame).</summary>
    internal static unsafe class Defs
    {
        public static bool SameSettings(ref AgentDef a, ref AgentDef b)
        {
            AgentDef x = a, y = b;
            x.Position = y.Position;
            x.Forward = y.Forward;
            return Same((byte*)&x, (byte*)&y, (int)((byte*)&x.AwarenessEnabled - (byte*)&x) + 1);
        }

        public static bool SameSettings(ref TargetDef a, ref TargetDef b)
        {
            TargetDef x = a, y = b;
            x.Position = y.Position;
            x.Forward = y.Forward;
            return Same((byte*)&x, (byte*)&y, (int)((byte*)&x.Enabled - (byte*)&x) + 1);
        }

        // Blittable structs compared up to their last field: trailing padding (which native code may
        // leave uninitialised) is not compared. Their fields are 4-byte aligned, so no inner holes.
        static bool Same(byte* a, byte* b, int n)
        {
            for (int i = 0; i < n; i++)
                if (a[i] != b[i]) return false;
            return true;
        }
    }
}
