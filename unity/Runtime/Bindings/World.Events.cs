using System;

namespace Argus
{
    public sealed unsafe partial class World
    {
        // The step's events, as views over the world's arrays: no copy, no allocation, valid until
        // the next step, Load or Dispose. Index them (bounds-checked) or CopyTo a reused array.

        /// <summary>What every agent saw or heard during the last step.</summary>
        public PerceptArray Percepts
        {
            get
            {
                PerceptArray a;
                Check(NativeMethods.argus_world_get_percepts(_handle, &a));
                return a;
            }
        }

        /// <summary>Brain state changes of the last step.</summary>
        public BrainEventArray BrainEvents
        {
            get
            {
                BrainEventArray a;
                Check(NativeMethods.argus_world_get_brain_events(_handle, &a));
                return a;
            }
        }

        /// <summary>Memories that decayed below the forget threshold during the last step.</summary>
        public ForgetEventArray ForgetEvents
        {
            get
            {
                ForgetEventArray a;
                Check(NativeMethods.argus_world_get_forget_events(_handle, &a));
                return a;
            }
        }

        /// <summary>Awareness stage changes of the last step.</summary>
        public AwarenessEventArray AwarenessEvents
        {
            get
            {
                AwarenessEventArray a;
                Check(NativeMethods.argus_world_get_awareness_events(_handle, &a));
                return a;
            }
        }

        // ---- debug draw ----------------------------------------------------------------------------------------

        /// <summary>Lines and points to draw (cones, sight rays, memories, ...); valid until the next
        /// debug draw, step or Dispose. Start from <see cref="DebugDrawOptions.Default"/>.</summary>
        public DebugDraw DebugDraw(DebugDrawOptions options)
        {
            DebugDraw d;
            Check(NativeMethods.argus_world_debug_draw(_handle, &options, &d));
            return d;
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
