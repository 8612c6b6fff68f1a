using System;
using System.Runtime.InteropServices;
using AOT;

namespace Argus
{
    /// <summary>The engine's batch ray caster (e.g. Physics.Raycast or RaycastCommand in Unity).</summary>
    public interface IRayCaster
    {
        /// <summary>Fill hits[i] for rays[i], i &lt; rays.Length: cast from Origin along Direction for at most
        /// MaxDistance against LayerMask; Hit = true and Distance when something blocks. Both views are valid
        /// only during the call (reading them later throws InvalidOperationException). An exception is caught
        /// and reported to the library as a failed batch: the world call that asked ends with the world
        /// unchanged (a failed Step did not happen) and throws <see cref="RayCallbackException"/> with the
        /// exception inside.</summary>
        void CastRays(RayArray rays, RayHits hits);
    }

    /// <summary>The writable answers of one ray batch, valid only during <see cref="IRayCaster.CastRays"/>.</summary>
    public unsafe struct RayHits
    {
        readonly RayHit* _hits;
        readonly uint _count;
        readonly ViewEpoch _epoch;
        readonly int _stamp;

        internal RayHits(RayHit* hits, uint count, ViewEpoch epoch)
        {
            _hits = hits;
            _count = count;
            _epoch = epoch;
            _stamp = epoch.Value;
        }

        /// <summary>False once the call that handed it out returned.</summary>
        public bool IsValid { get { return _epoch != null && _epoch.Value == _stamp; } }

        /// <summary>Number of answers (the number of rays).</summary>
        public int Length
        {
            get
            {
                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
                return (int)_count;
            }
        }

        /// <summary>Answer i (bounds-checked; throws InvalidOperationException after the call).</summary>
        public RayHit this[int i]
        {
            get
            {
                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
                if ((uint)i >= _count) throw new IndexOutOfRangeException();
                return _hits[i];
            }
            set
            {
                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
                if ((uint)i >= _count) throw new IndexOutOfRangeException();
                _hits[i] = value;
            }
        }

        /// <summary>The raw answers, for copying from engine buffers (valid during the call only).</summary>
        public RayHit* Pointer
        {
            get
            {
                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();
                return _hits;
            }
        }
    }

    public sealed unsafe partial class World
    {
        // The callback state lives in its own object, reached from native code through a weak GCHandle,
        // so that a forgotten world can still be collected (a strong handle to it would pin it forever).
        sealed class RayState
        {
            internal IRayCaster Caster;
            internal Exception Error;
            internal readonly ViewEpoch Calls = new ViewEpoch("callback rays");
        }

        // The delegate native code calls: one static instance, never collected.
        static readonly RayBatchFn RayTrampolineDelegate = RayTrampoline;

        RayState _rayState;
        GCHandle _rayHandle;

        [MonoPInvokeCallback(typeof(RayBatchFn))]
        static Result RayTrampoline(EngineRay* rays, uint count, RayHit* hits, IntPtr userData)
        {
            // Nothing may escape into native code: every failure is a failure code (the library then ends
            // the call with CallbackFailed, changing nothing) plus a recorded error.
            RayState state = null;
            try
            {
                state = GCHandle.FromIntPtr(userData).Target as RayState;
                if (state != null && state.Caster != null)
                {
                    var raw = new NativeRayArray();
                    raw.Items = rays;
                    raw.Count = count;
                    try
                    {
                        state.Caster.CastRays(new RayArray(raw, state.Calls), new RayHits(hits, count, state.Calls));
                    }
                    finally
                    {
                        state.Calls.Bump(); // both views die with the call
                    }
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
                Check(NativeMethods.argus_world_set_ray_callback(H, null, IntPtr.Zero));
                ReleaseRayState();
                return;
            }
            if (_rayState == null)
            {
                _rayState = new RayState();
                _rayHandle = GCHandle.Alloc(_rayState, GCHandleType.Weak);
            }
            _rayState.Caster = caster;
            Check(NativeMethods.argus_world_set_ray_callback(H, RayTrampolineDelegate, GCHandle.ToIntPtr(_rayHandle)));
        }

        void ReleaseRayState()
        {
            if (_rayHandle.IsAllocated) _rayHandle.Free();
            _rayState = null;
        }

        // ---- two-phase step (RaycastCommand) ---------------------------------------------------------------------

        /// <summary>First half of a step: every ray it needs, valid until FinishStep/CancelStep (reading it
        /// later throws). Cast them (e.g. RaycastCommand.ScheduleBatch) and hand the answers to
        /// <see cref="FinishStep(RayHit[], int)"/>. The last step's events expire.</summary>
        public RayArray BeginStep(float dt)
        {
            NativeRayArray rays;
            Result r = NativeMethods.argus_world_step_begin(H, dt, &rays);
            if (r == Result.Ok)
            {
                StepEnded();
                _stepRays.Bump();
            }
            Check(r);
            return new RayArray(rays, _stepRays);
        }

        /// <summary>Second half: the answers in ray order (count = the rays' Length).</summary>
        public void FinishStep(RayHit[] hits, int count)
        {
            if (hits == null && count > 0) throw new ArgumentNullException("hits");
            if (count < 0 || hits != null && count > hits.Length) throw new ArgumentOutOfRangeException("count");
            Result r;
            fixed (RayHit* p = hits) r = NativeMethods.argus_world_step_finish(H, p, (uint)count);
            if (r == Result.Ok) FinishedStep();
            else FailHits(r, hits, count);
            Check(r);
        }

        /// <summary>Second half from a native buffer (e.g. a NativeArray's pointer).</summary>
        public void FinishStep(RayHit* hits, int count)
        {
            Result r = NativeMethods.argus_world_step_finish(H, hits, (uint)count);
            if (r == Result.Ok) FinishedStep();
            else FailHits(r, hits, count);
            Check(r);
        }

        /// <summary>A refused answer batch: throws naming the first answer at fault (a hit with a distance
        /// that is not finite and non-negative), if one is; otherwise the caller's Check reports r.</summary>
        void FailHits(Result r, RayHit[] hits, int count)
        {
            if (hits != null)
                fixed (RayHit* p = hits) FailHits(r, p, Math.Min(count, hits.Length));
        }

        void FailHits(Result r, RayHit* hits, int count)
        {
            if (hits == null || r != Result.InvalidArgument || _rayState != null && _rayState.Error != null) return;
            for (int i = 0; i < count; i++)
            {
                float d = hits[i].Distance;
                if (hits[i].Hit && (float.IsNaN(d) || float.IsInfinity(d) || d < 0))
                {
                    string at = "hits[" + i + "] has distance " + d + " (a hit needs a finite distance >= 0)";
                    string detail = Library.Utf8(NativeMethods.argus_last_error());
                    throw new ArgusException(r, Library.Utf8(NativeMethods.argus_result_name((uint)r)) + ": " + at +
                        (detail.Length > 0 ? " (" + detail + ")" : ""), i);
                }
            }
        }

        void FinishedStep()
        {
            StepEnded();
            _stepRays.Bump();
        }

        /// <summary>Abandons a begun step; the world is as before BeginStep.</summary>
        public void CancelStep()
        {
            Result r = NativeMethods.argus_world_step_cancel(H);
            if (r == Result.Ok) FinishedStep();
            Check(r);
        }
    }
}
