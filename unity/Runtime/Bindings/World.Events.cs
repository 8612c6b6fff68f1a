using System;

namespace Argus
{
    public sealed unsafe partial class World
    {
        // The step's events, as checked views over the world's arrays: no copy, no allocation, valid
        // until the next Step, BeginStep, FinishStep or Load (then reading one throws
        // InvalidOperationException) or Dispose (ObjectDisposedException). foreach them, index them
        // (bounds-checked) or CopyTo a reused array.

        /// <summary>What every agent saw or heard during the last step.</summary>
        public PerceptArray Percepts
        {
            get
            {
                NativePerceptArray a;
                Check(NativeMethods.argus_world_get_percepts(H, &a));
                return new PerceptArray(a, _events);
            }
        }

        /// <summary>Brain state changes of the last step.</summary>
        public BrainEventArray BrainEvents
        {
            get
            {
                NativeBrainEventArray a;
                Check(NativeMethods.argus_world_get_brain_events(H, &a));
                return new BrainEventArray(a, _events);
            }
        }

        /// <summary>Memories that decayed below the forget threshold during the last step.</summary>
        public ForgetEventArray ForgetEvents
        {
            get
            {
                NativeForgetEventArray a;
                Check(NativeMethods.argus_world_get_forget_events(H, &a));
                return new ForgetEventArray(a, _events);
            }
        }

        /// <summary>Awareness stage changes of the last step.</summary>
        public AwarenessEventArray AwarenessEvents
        {
            get
            {
                NativeAwarenessEventArray a;
                Check(NativeMethods.argus_world_get_awareness_events(H, &a));
                return new AwarenessEventArray(a, _events);
            }
        }

        /// <summary>Targets that came into an agent's sight at its sight tick during the last step (not
        /// seen at its previous tick): the "target seen" signal, with both sides' UserData.</summary>
        public SightEventArray SeenEvents
        {
            get
            {
                NativeSightEventArray a;
                Check(NativeMethods.argus_world_get_seen_events(H, &a));
                return new SightEventArray(a, _events);
            }
        }

        /// <summary>Targets that left an agent's sight at its sight tick during the last step (seen at its
        /// previous tick, not at this one): the "target lost" signal; Position is where it was last perceived.</summary>
        public SightEventArray LostEvents
        {
            get
            {
                NativeSightEventArray a;
                Check(NativeMethods.argus_world_get_lost_events(H, &a));
                return new SightEventArray(a, _events);
            }
        }

        // ---- debug draw ----------------------------------------------------------------------------------------

        /// <summary>Lines and points to draw (cones, sight rays, memories, ...); valid until the next
        /// debug draw, step or Load; reading it later throws (ObjectDisposedException after Dispose). Start from <see cref="DebugDrawOptions.Default"/>.</summary>
        public DebugDrawView DebugDraw(DebugDrawOptions options)
        {
            DebugDraw d;
            WorldHandle h = H;
            _draw.Bump();
            Check(NativeMethods.argus_world_debug_draw(h, &options, &d));
            return new DebugDrawView(d, _draw);
        }
    }

    public unsafe partial struct DebugDraw
    {
        /// <summary>Line i (bounds-checked copy).</summary>
        public DebugLine Line(int i)
        {
            if ((uint)i >= LineCount) throw new IndexOutOfRangeException();
            return Lines[i];
        }

        /// <summary>Point i (bounds-checked copy).</summary>
        public DebugPoint Point(int i)
        {
            if ((uint)i >= PointCount) throw new IndexOutOfRangeException();
            return Points[i];
        }
    }
}
