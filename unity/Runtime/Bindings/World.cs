using System;

namespace Argus
{
    /// <summary>
    /// One perception world (agents, targets, occluders, sounds, influence maps). Dispose it when done;
    /// a forgotten world is destroyed by its SafeHandle's finaliser. Use from one thread at a time.
    /// Every failing native call throws <see cref="ArgusException"/> (from one place, <see cref="Fail"/>)
    /// and leaves the world unchanged. Arrays the world returns (events, rays, debug draw, influence
    /// layers) are views over native memory, valid until the next step or Dispose: copy what you keep.
    /// Reading one later throws InvalidOperationException (ObjectDisposedException after Dispose) instead
    /// of returning the next step's data or freed memory. Every call after Dispose throws
    /// ObjectDisposedException naming Argus.World, except IsValid (false) and Dispose (nothing).
    /// </summary>
    public sealed unsafe partial class World : IDisposable
    {
        readonly WorldHandle _handle;

        // The lives of the views this world hands out, one epoch per kind (see ViewEpoch).
        readonly ViewEpoch _events = new ViewEpoch("events");
        readonly ViewEpoch _stepRays = new ViewEpoch("step rays");
        readonly ViewEpoch _tacticalRays = new ViewEpoch("tactical rays");
        readonly ViewEpoch _draw = new ViewEpoch("debug draw");
        readonly ViewEpoch _influence = new ViewEpoch("influence layers");

        /// <summary>A world with the library's default settings.</summary>
        public World() : this(WorldDef.Default())
        {
        }

        /// <summary>A world from a def; start from <see cref="WorldDef.Default"/>.</summary>
        public World(WorldDef def)
        {
            Library.EnsureLoaded();
            IntPtr world;
            Result r = NativeMethods.argus_world_create(&def, &world);
            if (r != Result.Ok) Fail(r, null);
            _handle = new WorldHandle(world);
        }

        World(WorldHandle handle)
        {
            _handle = handle;
        }

        /// <summary>The native handle (for code that calls <see cref="NativeMethods"/> directly).</summary>
        public WorldHandle Handle { get { return _handle; } }

        /// <summary>True after Dispose.</summary>
        public bool IsDisposed { get { return _handle.IsClosed; } }

        /// <summary>Destroys the native world now. Views it returned throw ObjectDisposedException; a second
        /// Dispose does nothing.</summary>
        public void Dispose()
        {
            _handle.Dispose();
            ReleaseRayState();
            _events.Dispose();
            _stepRays.Dispose();
            _tacticalRays.Dispose();
            _draw.Dispose();
            _influence.Dispose();
        }

        /// <summary>The handle for a native call; ObjectDisposedException naming Argus.World after Dispose.</summary>
        WorldHandle H
        {
            get
            {
                if (_handle.IsClosed) ThrowDisposed();
                return _handle;
            }
        }

        /// <summary>A step ran (or the world was replaced): the events and the debug draw it had expire.
        /// Only a call that succeeded ends them: a failed call changes nothing, views included.</summary>
        void StepEnded()
        {
            _events.Bump();
            _draw.Bump();
        }

        static void ThrowDisposed()
        {
            throw new ObjectDisposedException("Argus.World");
        }

        // ---- errors: the one place a result code becomes an exception ----------------------------------------

        /// <summary>Throws if r is not Ok, or if the ray callback threw during the call.</summary>
        internal void Check(Result r)
        {
            if (r != Result.Ok || _rayState != null && _rayState.Error != null) Fail(r, this);
        }

        /// <summary>Throws for r: the library's message, then <paramref name="more"/> (what only the caller
        /// knows, e.g. the size of a label refused) if any.</summary>
        internal static void Fail(Result r, World world, string more = null)
        {
            if (world != null && world._rayState != null && world._rayState.Error != null)
            {
                Exception inner = world._rayState.Error;
                world._rayState.Error = null;
                throw new RayCallbackException(inner);
            }
            if (world != null && world._handle.IsClosed) throw new ObjectDisposedException("Argus.World");
            // The calling thread's last error: set by every failing call, with or without a world.
            string detail = Library.Utf8(NativeMethods.argus_last_error());
            string name = Library.Utf8(NativeMethods.argus_result_name((uint)r));
            throw new ArgusException(r, (detail.Length > 0 ? name + ": " + detail : name) + more);
        }

        /// <summary>The world's last error message (empty if none).</summary>
        public string LastError { get { return Library.Utf8(NativeMethods.argus_world_last_error(H)); } }

        // ---- whole world -----------------------------------------------------------------------------------

        /// <summary>Advances the world by dt seconds (senses, memory, brains); then read the events.</summary>
        public void Step(float dt)
        {
            Result r = NativeMethods.argus_world_step(H, dt);
            if (r == Result.Ok) StepEnded();
            Check(r);
        }

        /// <summary>Seconds simulated so far.</summary>
        public double Time
        {
            get
            {
                double t;
                Check(NativeMethods.argus_world_get_time(H, &t));
                return t;
            }
        }

        /// <summary>How many agents, targets, occluders and influence maps are alive.</summary>
        public WorldCounts Counts
        {
            get
            {
                WorldCounts c;
                Check(NativeMethods.argus_world_get_counts(H, &c));
                return c;
            }
        }

        /// <summary>The tag this world stamps into the ids it issues (their World field), 1..65535.</summary>
        public ushort Tag { get { return NativeMethods.argus_world_tag(H); } }

        /// <summary>Reserves room so creating this many agents and targets allocates nothing natively.</summary>
        public void Reserve(int agents, int targets)
        {
            Check(NativeMethods.argus_world_reserve(H, (uint)agents, (uint)targets));
        }

        /// <summary>How observer's team regards other's team.</summary>
        public void SetAttitude(uint observerTeam, uint otherTeam, Attitude attitude)
        {
            Check(NativeMethods.argus_world_set_attitude(H, observerTeam, otherTeam, attitude));
        }

        /// <summary>The attitude SetAttitude stored (or the default: hostile to other teams).</summary>
        public Attitude GetAttitude(uint observerTeam, uint otherTeam)
        {
            Attitude a;
            Check(NativeMethods.argus_world_get_attitude(H, observerTeam, otherTeam, &a));
            return a;
        }

        /// <summary>A sound heard during the next step; start from <see cref="SoundDef.Default"/>.</summary>
        public void EmitSound(SoundDef def)
        {
            Check(NativeMethods.argus_world_emit_sound(H, &def));
        }

        // ---- snapshots ---------------------------------------------------------------------------------------

        /// <summary>The world serialised (versioned, checksummed). Allocates the array.</summary>
        public byte[] Save()
        {
            byte[] buffer = null;
            int n = Save(ref buffer);
            if (buffer.Length != n) Array.Resize(ref buffer, n);
            return buffer;
        }

        /// <summary>Saves into buffer, growing it when too small; returns the snapshot's size.</summary>
        public int Save(ref byte[] buffer)
        {
            uint size;
            Result r;
            if (buffer != null && buffer.Length > 0)
            {
                fixed (byte* p = buffer) r = NativeMethods.argus_world_save(H, p, (uint)buffer.Length, &size);
                if (r == Result.Ok) return (int)size;
                if (r != Result.BufferTooSmall) Check(r);
            }
            else
            {
                r = NativeMethods.argus_world_save(H, null, 0, &size);
                if (r != Result.BufferTooSmall && r != Result.Ok) Check(r);
            }
            buffer = new byte[size];
            fixed (byte* p = buffer) Check(NativeMethods.argus_world_save(H, p, (uint)buffer.Length, &size));
            return (int)size;
        }

        /// <summary>Replaces this world's content with a snapshot (count bytes of bytes; all when -1).
        /// A bad snapshot throws BadSnapshot and leaves the world unchanged.</summary>
        public void Load(byte[] bytes, int count = -1)
        {
            if (bytes == null) throw new ArgumentNullException("bytes");
            if (count < 0) count = bytes.Length;
            if (count > bytes.Length) throw new ArgumentOutOfRangeException("count");
            WorldHandle h = H;
            Result r;
            fixed (byte* p = bytes) r = NativeMethods.argus_world_load(h, p, (uint)count);
            if (r == Result.Ok)
            {
                StepEnded();
                _stepRays.Bump();
                _tacticalRays.Bump();
                _influence.Bump();
            }
            Check(r);
        }
    }
}
