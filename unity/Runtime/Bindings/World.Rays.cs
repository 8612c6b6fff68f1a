using System;
using System.Runtime.InteropServices;
using AOT;

namespace Argus
{
    /// <summary>The engine's batch ray caster (e.g. Physics.Raycast or RaycastCommand in Unity).</summary>
    public interface IRayCaster
    {
        /// <summary>Fill hits[i] for rays[i], i &lt; rays.Length: cast from Origin along Direction for at most
        /// MaxDistance against LayerMask; Hit = 1 and Distance when something blocks. Both views are valid
        /// only during the call. An exception is caught and reported to the library as a failed batch: the
        /// world call that asked ends with the world unchanged (a failed Step did not happen) and throws
        /// <see cref="RayCallbackException"/> with the exception inside.</summary>
        void CastRays(RayArray rays, RayHits hits);
    }

    /// <summary>The writable answers of one ray batch, valid only during <see cref="IRayCaster.CastRays"/>.</summary>
    public unsafe struct RayHits
    {
        readonly RayHit* _hits;
        readonly uint _count;

        internal RayHits(RayHit* hits, uint count)
        {
            _hits = hits;
            _count = count;
        }

        /// <summary>Number of answers (the number of rays).</summary>
        public int Length { get { return (int)_count; } }

        /// <summary>Answer i (bounds-checked).</summary>
        public RayHit this[int i]
        {
            get
            {
                if ((uint)i >= _count) throw new IndexOutOfRangeException();
                return _hits[i];
            }
            set
            {
                if ((uint)i >= _count) throw new IndexOutOfRangeException();
                _hits[i] = value;
            }
        }

        /// <summary>The raw answers, for copying from engine buffers.</summary>
        public RayHit* Pointer { get { return _hits; } }
    }

    public sealed unsafe partial class World
    {
        // The callback state lives in its own object, reached from native code through a weak GCHandle,
        // so that a forgotten world can still be collected (a strong handle to it would pin it forever).
        sealed class RayState
        {
            internal IRayCaster Caster;
            internal Exception Error;
        }

        // The delegate native code calls: one static instance, never collected.
        static readonly RayBatchFn RayTrampolineDelegate = RayTrampoline;

        RayState _rayState;
        GCHandle _rayHandle;

        [MonoPInvokeCallback(typeof(RayBatchFn))]
        static Result RayTrampoline(Ray* rays, uint count, RayHit* hits, IntPtr userData)
        {
            // Nothing may escape into native code: every failure is a failure code (the library then ends
            // the call with CallbackFailed, changing nothing) plus a recorded error.
            RayState state = null;
            try
            {
                state = GCHandle.FromIntPtr(userData).Target as RayState;
                if (state != null && state.Caster != null)
                {
                    var view = new RayArray();
                    view.Items = rays;
                    view.Count = count;
                    state.Caster.CastRays(view, new RayHits(hits, count));
                    return Result.Ok;
                }
            }
            catch (Exception e)
            {
                if (state != null && state.Error == null) state.Error = e;
            }
            return Result.InvalidArgument;
        }

        /// <summary>Lets the engine answer every line-of-sight ray (null restores the built-in backend,
        /// or none for an engine-ray world).</summary>
        public void SetRayCaster(IRayCaster caster)
        {
            if (caster == null)
            {
                Check(NativeMethods.argus_world_set_ray_callback(_handle, null, IntPtr.Zero));
                ReleaseRayState();
                return;
            }
            if (_rayState == null)
            {
                _rayState = new RayState();
                _rayHandle = GCHandle.Alloc(_rayState, GCHandleType.Weak);
            }
            _rayState.Caster = caster;
            Check(NativeMethods.argus_world_set_ray_callback(_handle, RayTrampolineDelegate, GCHandle.ToIntPtr(_rayHandle)));
        }

        void ReleaseRayState()
        {
            if (_rayHandle.IsAllocated) _rayHandle.Free();
            _rayState = null;
        }

        // ---- two-phase step (RaycastCommand) ---------------------------------------------------------------------

        /// <summary>First half of a step: every ray it needs, valid until FinishStep/CancelStep. Cast them
        /// (e.g. RaycastCommand.ScheduleBatch) and hand the answers to <see cref="FinishStep(RayHit[], int)"/>.</summary>
        public RayArray BeginStep(float dt)
        {
            RayArray rays;
            Check(NativeMethods.argus_world_step_begin(_handle, dt, &rays));
            return rays;
        }

        /// <summary>Second half: the answers in ray order (count = the rays' Length).</summary>
        public void FinishStep(RayHit[] hits, int count)
        {
            if (count < 0 || hits == null && count > 0 || hits != null && count > hits.Length)
                throw new ArgumentOutOfRangeException("count");
            fixed (RayHit* p = hits) Check(NativeMethods.argus_world_step_finish(_handle, p, (uint)count));
        }

        /// <summary>Second half from a native buffer (e.g. a NativeArray's pointer).</summary>
        public void FinishStep(RayHit* hits, int count)
        {
            Check(NativeMethods.argus_world_step_finish(_handle, hits, (uint)count));
        }

        /// <summary>Abandons a begun step; the world is as before BeginStep.</summary>
        public void CancelStep() { Check(NativeMethods.argus_world_step_cancel(_handle)); }
    }
}
