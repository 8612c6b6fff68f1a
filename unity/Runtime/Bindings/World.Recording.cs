using System;

namespace Argus
{
    /// <summary>What a recording keeps besides the inputs and every step's events (see
    /// <see cref="World.StartRecording"/>).</summary>
    public sealed class RecordOptions
    {
        /// <summary>The agents whose memory and sight decisions ("why") every frame records; null or empty
        /// (the default): every agent, those created while recording included.</summary>
        public AgentId[] Focus;

        /// <summary>Record the "why" of every sight decision of the agents in focus (default true). False:
        /// smaller recordings; the replay checks the same.</summary>
        public bool Explain = true;
    }

    public sealed unsafe partial class World
    {
        /// <summary>Starts recording this world (docs/recording.md): its state now, then every input and
        /// every step's outputs, until <see cref="StopRecording"/>. Throws ArgusException (the world
        /// unchanged, the recording under way, if any, untouched): InvalidArgument when already recording,
        /// InvalidId for a focus id that is not a live agent of this world, StepInProgress while a
        /// two-phase step waits for its rays.</summary>
        public void StartRecording(RecordOptions options = null)
        {
            RecordDef def = RecordDef.Default();
            AgentId[] focus = null;
            if (options != null)
            {
                def.Explain = options.Explain;
                focus = options.Focus;
            }
            WorldHandle h = H;
            fixed (AgentId* f = focus)
            {
                def.Focus = f;
                def.FocusCount = focus == null ? 0u : (uint)focus.Length;
                Check(NativeMethods.argus_world_start_recording(h, &def));
            }
        }

        /// <summary>True between <see cref="StartRecording"/> and <see cref="StopRecording"/>.</summary>
        public bool IsRecording { get { return NativeMethods.argus_world_is_recording(H) != 0; } }

        /// <summary>Ends the recording and returns its bytes (write them to a file; replay them with
        /// <see cref="Replay.Verify"/> or <see cref="FromRecording"/>). Throws ArgusException
        /// InvalidArgument when not recording, StepInProgress while a two-phase step waits for its rays
        /// (the recording goes on).</summary>
        public byte[] StopRecording()
        {
            WorldHandle h = H;
            Check(NativeMethods.argus_world_stop_recording(h));
            uint size;
            Result r = NativeMethods.argus_world_get_recording(h, null, 0, &size);
            if (r != Result.BufferTooSmall) Check(r);
            byte[] bytes = new byte[size];
            fixed (byte* p = bytes) Check(NativeMethods.argus_world_get_recording(h, p, size, &size));
            return bytes;
        }

        /// <summary>A new world as the recorded world was after its first <paramref name="steps"/> steps
        /// (0: when recording started; uint.MaxValue, the default: after the last one), replayed and
        /// checked step by step. Its events are that step's; it steps on as an ordinary world with the
        /// built-in ray backend; UserData reads 0 (not recorded); the ids are the recording's, with this
        /// world's <see cref="Tag"/>. Throws ArgusException: BadRecording (truncated, damaged,
        /// unsupported), ReplayMismatch (a step on the way replayed differently; its Index is the step),
        /// InvalidArgument (steps beyond the recording's).</summary>
        public static World FromRecording(byte[] recording, uint steps = uint.MaxValue)
        {
            if (recording == null) throw new ArgumentNullException("recording");
            Library.EnsureLoaded();
            IntPtr world;
            Result r;
            fixed (byte* p = recording) r = NativeMethods.argus_world_create_from_recording(p, (uint)recording.Length, steps, &world);
            if (r != Result.Ok) Fail(r, null);
            return new World(new WorldHandle(world));
        }
    }

    /// <summary>Replays recordings (<see cref="World.StartRecording"/>).</summary>
    public static unsafe class Replay
    {
        /// <summary>Replays the whole recording, checking that every step gives the recorded outputs byte
        /// for byte, and returns its step counts. Throws ArgumentNullException, or ArgusException:
        /// BadRecording (truncated, damaged, unsupported) or ReplayMismatch, whose
        /// <see cref="ArgusException.Index"/> is the first step that differs and whose message says
        /// what differed.</summary>
        public static ReplayReport Verify(byte[] recording)
        {
            if (recording == null) throw new ArgumentNullException("recording");
            Library.EnsureLoaded();
            ReplayReport report;
            Result r;
            fixed (byte* p = recording) r = NativeMethods.argus_replay_verify(p, (uint)recording.Length, &report);
            if (r == Result.ReplayMismatch)
            {
                string detail = Library.Utf8(NativeMethods.argus_last_error());
                throw new ArgusException(r, "ARGUS_RESULT_REPLAY_MISMATCH: " + detail, (int)report.MismatchStep);
            }
            if (r != Result.Ok) World.Fail(r, null);
            return report;
        }
    }
}
