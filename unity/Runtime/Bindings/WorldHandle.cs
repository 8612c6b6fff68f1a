using System;
using System.Runtime.InteropServices;

namespace Argus
{
    public static partial class NativeMethods
    {
        /// <summary>argus_world_destroy by raw pointer, for the handle's release (a closing SafeHandle cannot be marshalled).</summary>
        [DllImport(Library, EntryPoint = "argus_world_destroy", CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void DestroyWorldPointer(IntPtr world);
    }

    /// <summary>Owns one native ArgusWorld; the runtime's critical finaliser destroys a world nobody disposed.</summary>
    public sealed class WorldHandle : SafeHandle
    {
        /// <summary>An empty handle (what the runtime needs to construct one).</summary>
        public WorldHandle() : base(IntPtr.Zero, true)
        {
        }

        internal WorldHandle(IntPtr world) : base(IntPtr.Zero, true)
        {
            SetHandle(world);
        }

        /// <summary>True once released or when it never held a world.</summary>
        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        /// <summary>Destroys the world (argus_world_destroy accepts any live world, from any thread).</summary>
        protected override bool ReleaseHandle()
        {
            NativeMethods.DestroyWorldPointer(handle);
            return true;
        }
    }
}
