namespace Argus.Perception
{
    /// <summary>Change detection for defs: components rebuild their settings every frame (a field may
    /// be changed from any script) and send them only when they differ. Poses travel separately, in
    /// one bulk call per frame, so the comparison skips them.</summary>
    internal static unsafe class Defs
    {
        // Both defs start with Position and Forward (two Vec3: 24 bytes); every later field is 4-byte
        // aligned, and the padding after the per-sense u8 flags comes from the same library default
        // in both defs being compared, so comparing ints up to the cookie is exact.
        const int PoseBytes = 24;

        public static bool SameSettings(ref AgentDef a, ref AgentDef b)
        {
            fixed (AgentDef* pa = &a)
            fixed (AgentDef* pb = &b)
            {
                int end = (int)((byte*)&pa->InternalCookie - (byte*)pa) + 4;
                return SameInts((byte*)pa + PoseBytes, (byte*)pb + PoseBytes, (end - PoseBytes) / 4);
            }
        }

        public static bool SameSettings(ref TargetDef a, ref TargetDef b)
        {
            fixed (TargetDef* pa = &a)
            fixed (TargetDef* pb = &b)
            {
                // Up to the cookie as ints, then the one-byte Enabled and TopSpeed (the padding between
                // and after them not compared: native code may leave it uninitialised).
                int cookieEnd = (int)((byte*)&pa->InternalCookie - (byte*)pa) + 4;
                return pa->Enabled == pb->Enabled
                    && *(int*)&pa->TopSpeed == *(int*)&pb->TopSpeed
                    && SameInts((byte*)pa + PoseBytes, (byte*)pb + PoseBytes, (cookieEnd - PoseBytes) / 4);
            }
        }

        static bool SameInts(byte* a, byte* b, int count)
        {
            int* x = (int*)a;
            int* y = (int*)b;
            for (int i = 0; i < count; i++)
                if (x[i] != y[i]) return false;
            return true;
        }
    }
}
