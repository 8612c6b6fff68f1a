using System;
using System.Runtime.InteropServices;
using AOT;

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
        // Where the recording started through this object goes (null: not recording).
        RecordTo? _recordingTo;

        /// <summary>Starts recording this world (docs/recording.md): its state now, then every input and
        /// every step's outputs, until <see cref="StopRecording"/>, held in memory (growing with every step;
        /// for long sessions see <see cref="StartRecordingToFile"/> and <see cref="StartFlightRecorder"/>).
        /// Throws ArgusException (the world unchanged, the recording under way, if any, untouched):
        /// InvalidArgument when already recording, InvalidId for a focus id that is not a live agent of
        /// this world, StepInProgress while a two-phase step waits for its rays.</summary>
        public void StartRecording(RecordOptions options = null)
        {
            RecordDef def = RecordDef.Default();
            Begin(ref def, options, RecordTo.Memory);
        }

        /// <summary>Starts recording this world straight to the file at <paramref name="path"/> (created, or
        /// truncated; a relative path is the native library's, from the process's current directory): the
        /// bytes are written as they are made, by a thread of the recording's own, so memory stays bounded
        /// however long it runs. The file holds the same bytes <see cref="StopRecording"/> returns for a
        /// recording in memory; it is whole (replays, opens in the inspector) once StopRecording ends it, and
        /// a file cut short (the process killed) is not. Throws ArgumentNullException, ArgumentException for
        /// a path holding a NUL character, or ArgusException, with the world unchanged and no file created:
        /// InvalidArgument for an empty path or one longer than <see cref="Constants.MAX_PATH_BYTES"/> bytes of
        /// UTF-8 and as <see cref="StartRecording"/>; WriteFailed when the file cannot be created (the message
        /// says why).</summary>
        public void StartRecordingToFile(string path, RecordOptions options = null)
        {
            byte[] utf8 = PathBytes(path, "path");
            RecordDef def = RecordDef.Default();
            fixed (byte* p = utf8)
            {
                def.Path = p;
                Begin(ref def, options, RecordTo.File);
            }
        }

        /// <summary>Starts the flight recorder: the world records as <see cref="StartRecording"/> does but keeps
        /// only about the last <paramref name="seconds"/> (of the steps' dt; default 30, at most 86400), in
        /// segments cut at key frames, so memory stays bounded. <see cref="SaveFlightRecording(string)"/> writes
        /// that window as a recording of its own whenever asked ("save the last 30 s" when a tester presses a
        /// key); <see cref="StopRecording"/> ends it, dropping the window. Throws ArgusException, the world
        /// unchanged: InvalidArgument for seconds not in (0, 86400] (NaN included) and as
        /// <see cref="StartRecording"/>.</summary>
        public void StartFlightRecorder(float seconds = 30f, RecordOptions options = null)
        {
            RecordDef def = RecordDef.Default();
            def.FlightSeconds = seconds;
            Begin(ref def, options, RecordTo.Flight);
        }

        void Begin(ref RecordDef def, RecordOptions options, RecordTo to)
        {
            AgentId[] focus = null;
            if (options != null)
            {
                def.Explain = options.Explain;
                focus = options.Focus;
            }
            def.To = to;
            WorldHandle h = H;
            fixed (AgentId* f = focus)
            {
                def.Focus = f;
                def.FocusCount = focus == null ? 0u : (uint)focus.Length;
                fixed (RecordDef* d = &def) Check(NativeMethods.argus_world_start_recording(h, d));
            }
            _recordingTo = to;
        }

        /// <summary>A path as NUL-terminated UTF-8 (null and embedded NULs refused here: the library would
        /// read a shorter path).</summary>
        static byte[] PathBytes(string path, string name)
        {
            if (path == null) throw new ArgumentNullException(name);
            if (path.IndexOf('\0') >= 0) throw new ArgumentException("a path cannot hold a NUL character", name);
            return System.Text.Encoding.UTF8.GetBytes(path + "\0");
        }

        /// <summary>True between a start (<see cref="StartRecording"/>, <see cref="StartRecordingToFile"/>,
        /// <see cref="StartFlightRecorder"/>) and <see cref="StopRecording"/>.</summary>
        public bool IsRecording { get { return NativeMethods.argus_world_is_recording(H) != 0; } }

        /// <summary>Where the recording under way goes (Memory, File or Flight), or null when not recording
        /// (or when it was started by a direct NativeMethods call).</summary>
        public RecordTo? RecordingTo { get { return IsRecording ? _recordingTo : null; } }

        /// <summary>Ends the recording. One in memory: returns its bytes (write them to a file; replay them
        /// with <see cref="Replay.Verify"/> or <see cref="FromRecording"/>). One to a file: writes its end,
        /// closes the file and returns an empty array (the bytes are in the file). A flight recorder: drops
        /// its window (save it first) and returns an empty array. Throws ArgusException: InvalidArgument when
        /// not recording, StepInProgress while a two-phase step waits for its rays (the recording goes on);
        /// WriteFailed when writing the file failed at any point (the recording is ended all the same, and
        /// the file is not a whole recording). A recording in memory larger than a .NET array holds (2 GB)
        /// throws InvalidOperationException: record long sessions to a file.</summary>
        public byte[] StopRecording()
        {
            WorldHandle h = H;
            Result r = NativeMethods.argus_world_stop_recording(h);
            RecordTo? to = _recordingTo;
            if (r == Result.Ok || r == Result.WriteFailed) _recordingTo = null; // WriteFailed ends it too
            Check(r);
            if (to.HasValue && to.Value != RecordTo.Memory) return new byte[0];
            ulong size;
            r = NativeMethods.argus_world_get_recording(h, null, 0, &size);
            if (r != Result.BufferTooSmall) Check(r);
            if (size > MaxArrayBytes)
                throw new InvalidOperationException("Argus: the recording is " + size + " bytes, more than a .NET array "
                    + "holds; record long sessions with StartRecordingToFile");
            byte[] bytes = new byte[(long)size];
            fixed (byte* p = bytes) Check(NativeMethods.argus_world_get_recording(h, p, size, &size));
            return bytes;
        }

        // The longest byte[] the runtime allocates (Array.MaxByteArrayLength of .NET Framework and Mono).
        const ulong MaxArrayBytes = 0x7FFFFFC7;

        /// <summary>Writes the flight recorder's window to the file at <paramref name="path"/> (created or
        /// truncated; relative to the process's current directory) as a recording of its own, which
        /// <see cref="Replay.Verify"/>, <see cref="FromRecording"/> and the inspector read alone: the last
        /// seconds given to <see cref="StartFlightRecorder"/>, from the key frame at or before them (all of it
        /// when less was recorded), its steps counted from 0 there. Returns the file's size in bytes. The
        /// recording goes on: save as often as wanted. Throws ArgumentNullException, ArgumentException (a NUL
        /// in the path) or ArgusException, changing nothing: InvalidArgument when the world is not running a
        /// flight recorder, or for an empty path; WriteFailed when the file cannot be created or written (a
        /// file partly written is removed).</summary>
        public long SaveFlightRecording(string path)
        {
            byte[] utf8 = PathBytes(path, "path");
            ulong size = 0;
            fixed (byte* p = utf8) Check(NativeMethods.argus_world_save_flight_recording(H, p, &size));
            return (long)size;
        }

        /// <summary><see cref="SaveFlightRecording(string)"/> to a stream (a MemoryStream, a network stream),
        /// written on this thread before the call returns; the stream is neither flushed nor closed. Returns
        /// the bytes written. Throws ArgumentNullException, or ArgusException: InvalidArgument when the world
        /// is not running a flight recorder (nothing written); WriteFailed when the stream threw (the
        /// exception is inner; what the stream got is not a whole recording).</summary>
        public long SaveFlightRecording(System.IO.Stream stream)
        {
            if (stream == null) throw new ArgumentNullException("stream");
            WorldHandle h = H;
            var state = new WriteState { Stream = stream };
            GCHandle handle = GCHandle.Alloc(state);
            Result r;
            ulong size = 0;
            try
            {
                r = NativeMethods.argus_world_write_flight_recording(h, WriteTrampolineDelegate, GCHandle.ToIntPtr(handle), &size);
            }
            finally
            {
                handle.Free();
            }
            if (r == Result.WriteFailed && state.Error != null)
            {
                string detail = Library.Utf8(NativeMethods.argus_last_error());
                throw new ArgusException(r, "ARGUS_RESULT_WRITE_FAILED: " + detail + ": " + state.Error.Message, -1, state.Error);
            }
            Check(r);
            return (long)size;
        }

        sealed class WriteState
        {
            internal System.IO.Stream Stream;
            internal byte[] Buffer;
            internal Exception Error;
        }

        // The delegate native code calls: one static instance, never collected.
        static readonly WriteFn WriteTrampolineDelegate = WriteTrampoline;

        [MonoPInvokeCallback(typeof(WriteFn))]
        static Result WriteTrampoline(IntPtr userData, byte* bytes, ulong size)
        {
            // Called on the saving thread, during SaveFlightRecording(Stream): nothing may escape into
            // native code, so an exception becomes WriteFailed (kept for the caller).
            WriteState state = null;
            try
            {
                state = (WriteState)GCHandle.FromIntPtr(userData).Target;
                ulong done = 0;
                while (done < size)
                {
                    int n = (int)Math.Min(size - done, 1UL << 20);
                    if (state.Buffer == null || state.Buffer.Length < n) state.Buffer = new byte[Math.Max(n, 64 * 1024)];
                    Marshal.Copy((IntPtr)(bytes + done), state.Buffer, 0, n);
                    state.Stream.Write(state.Buffer, 0, n);
                    done += (ulong)n;
                }
                return Result.Ok;
            }
            catch (Exception e)
            {
                if (state != null && state.Error == null) state.Error = e;
                return Result.WriteFailed;
            }
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
            fixed (byte* p = recording) r = NativeMethods.argus_world_create_from_recording(p, (ulong)recording.LongLength, steps, &world);
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
            fixed (byte* p = recording) r = NativeMethods.argus_replay_verify(p, (ulong)recording.LongLength, &report);
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
