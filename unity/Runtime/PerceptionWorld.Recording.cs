using System;
using System.Globalization;
using System.IO;
using UnityEngine;

namespace Argus.Perception
{
    public sealed partial class PerceptionWorld
    {
        [Tooltip("Record this world from its first step (each time it is enabled), streamed to recordingPath as it is made, so memory stays bounded however long the session. The file is whole (it replays and opens in tools/inspector/argus-inspector.html) once the world is disabled or destroyed or the application quits; check it with Argus.Replay.Verify.")]
        public bool recordOnStart = false;

        [Tooltip("The file recordOnStart streams to, created (or replaced) at the world's first step; a relative path is under Application.persistentDataPath. Also where StopRecording() writes a recording a script started in memory.")]
        public string recordingPath = "argus-recording.argusrec";

        [Tooltip("Keep the last flightRecorderSeconds of this world from its first step (each time it is enabled), in bounded memory, and save them on demand: press saveFlightRecordingKey, or call SaveFlightRecording(). Nothing is written unless asked. Ignored while recordOnStart records (a warning says so).")]
        public bool flightRecorder = false;

        [Tooltip("Seconds of play the flight recorder keeps (of the steps' dt), in (0, 86400]. A saved file starts at the key frame at or before them, so it may hold a little more.")]
        [Min(0.1f)]
        public float flightRecorderSeconds = 30f;

        [Tooltip("While the flight recorder runs, this key saves its window to flightRecordingPath (None: only SaveFlightRecording() from a script). Read with the Input Manager (Player Settings > Active Input Handling: Input Manager (Old) or Both); with the Input System package alone, call SaveFlightRecording() from one of your input actions.")]
        public KeyCode saveFlightRecordingKey = KeyCode.F9;

        [Tooltip("Where the key and SaveFlightRecording() write the flight recorder's window. {time} becomes the local date and time (yyyyMMdd-HHmmss), so every save keeps its own file; a relative path is under Application.persistentDataPath.")]
        public string flightRecordingPath = "argus-flight-{time}.argusrec";

        bool m_RecordAtFirstStep;
        bool m_FlightRunning;       // the recording under way is this world's flight recorder
        string m_StreamFile;        // the full path of the file the recording under way streams to, if any

        /// <summary>True between StartRecording (or the first step with recordOnStart or flightRecorder) and
        /// StopRecording, the world's disabling or destruction, or the application's quitting.</summary>
        public bool IsRecording { get { return m_World != null && m_World.IsRecording; } }

        /// <summary>True while the flight recorder runs (flightRecorder from the first step, or StartFlightRecorder()):
        /// SaveFlightRecording() and saveFlightRecordingKey write its window.</summary>
        public bool IsFlightRecording { get { return m_FlightRunning && IsRecording; } }

        /// <summary>The full path of the file the recording under way streams to (recordOnStart or
        /// StartRecordingToFile), or null.</summary>
        public string StreamingTo { get { return IsRecording ? m_StreamFile : null; } }

        /// <summary>Starts recording this world in memory (docs/recording.md): its state now, then every input and
        /// every step, with the memory and the sight decisions ("why") of every guard, until StopRecording(path)
        /// writes it. For long sessions see StartRecordingToFile. InvalidOperationException when the world is
        /// disabled or already recording.</summary>
        public void StartRecording()
        {
            Record(null, null);
        }

        /// <summary>Starts recording with these guards in focus: only their memory and sight decisions are
        /// recorded (every guard's pose and events are). ArgumentException for a guard not in this world.</summary>
        public void StartRecording(params PerceptionAgent[] focus)
        {
            Record(FocusIds(focus), null);
        }

        /// <summary>Starts recording with the guards of these sensors in focus (see the PerceptionAgent overload).</summary>
        public void StartRecording(params FieldOfViewSensor[] focus)
        {
            if (focus == null) throw new ArgumentNullException("focus");
            var ids = new AgentId[focus.Length];
            for (int i = 0; i < focus.Length; i++)
                ids[i] = FocusId(focus[i] == null ? null : focus[i].GetComponent<PerceptionAgent>(), focus[i]);
            Record(ids, null);
        }

        /// <summary>Starts recording this world straight to the file at <paramref name="path"/> (a relative path is
        /// under Application.persistentDataPath; folders are created; an existing file is replaced), written as
        /// the recording is made so memory stays bounded; StopRecording() makes the file whole. Returns the file's
        /// full path. InvalidOperationException when the world is disabled or already recording; ArgumentException
        /// for an empty path; Argus.ArgusException (WriteFailed) when the file cannot be created, with the world
        /// not recording.</summary>
        public string StartRecordingToFile(string path)
        {
            return Record(null, path);
        }

        /// <summary>StartRecordingToFile with these guards in focus (see StartRecording(params PerceptionAgent[])).</summary>
        public string StartRecordingToFile(string path, params PerceptionAgent[] focus)
        {
            return Record(FocusIds(focus), path);
        }

        /// <summary>Starts the flight recorder now, keeping the last flightRecorderSeconds of every guard (what
        /// ticking flightRecorder does at the world's first step). InvalidOperationException when the world is
        /// disabled or already recording; Argus.ArgusException (InvalidArgument) for flightRecorderSeconds out of
        /// (0, 86400], with the world not recording.</summary>
        public void StartFlightRecorder()
        {
            CheckCanRecord();
            RefreshNames(); // the recording begins with the GameObjects' names of now
            m_World.StartFlightRecorder(flightRecorderSeconds);
            m_RecordAtFirstStep = false;
            m_FlightRunning = true;
            m_StreamFile = null;
#if !ENABLE_LEGACY_INPUT_MANAGER
            if (saveFlightRecordingKey != KeyCode.None)
                UnityEngine.Debug.LogWarning("Argus: PerceptionWorld '" + name + "': saveFlightRecordingKey (" + saveFlightRecordingKey
                    + ") is read through the Input Manager, which Active Input Handling turns off in this project: call "
                    + "SaveFlightRecording() from an input action instead (or set the key to None to silence this)", this);
#endif
        }

        AgentId[] FocusIds(PerceptionAgent[] focus)
        {
            if (focus == null) throw new ArgumentNullException("focus");
            var ids = new AgentId[focus.Length];
            for (int i = 0; i < focus.Length; i++) ids[i] = FocusId(focus[i], focus[i]);
            return ids;
        }

        AgentId FocusId(PerceptionAgent agent, UnityEngine.Object named)
        {
            if (agent == null || agent.World != this)
            {
                string who = named == null ? "null" : "'" + named.name + "'";
                throw new ArgumentException("Argus: " + who + " is not a guard of PerceptionWorld '" + name
                    + "' (enabled, in this world) and cannot be in focus of its recording", "focus");
            }
            return agent.Id;
        }

        void CheckCanRecord()
        {
            if (m_World == null)
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' is disabled: enable it before recording");
            if (m_World.IsRecording)
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' is already recording: call StopRecording(path) first");
        }

        /// <summary>Starts a recording in memory (path null) or streamed to a file; returns the file's full path.</summary>
        string Record(AgentId[] focus, string path)
        {
            CheckCanRecord();
            RefreshNames(); // the recording begins with the GameObjects' names of now
            var options = focus == null ? null : new RecordOptions { Focus = focus };
            string full = null;
            if (path == null)
            {
                m_World.StartRecording(options);
            }
            else
            {
                full = RecordingFile(path);
                string folder = Path.GetDirectoryName(full);
                if (!string.IsNullOrEmpty(folder)) Directory.CreateDirectory(folder);
                m_World.StartRecordingToFile(full, options);
            }
            m_RecordAtFirstStep = false;
            m_FlightRunning = false;
            m_StreamFile = full;
            return full;
        }

        /// <summary>Ends the recording and writes it to <paramref name="path"/> (a relative path is under
        /// Application.persistentDataPath; folders are created); returns the file's full path, also logged.
        /// A recording in memory is written there; the flight recorder's window is saved there, then the flight
        /// recorder stops. A recording streamed to a file ends in its own file: <paramref name="path"/> must name
        /// that file (or call StopRecording()). InvalidOperationException, changing nothing, when not recording
        /// or for another file than the streamed one's.</summary>
        public string StopRecording(string path)
        {
            string full = RecordingFile(path);
            if (!IsRecording)
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' is not recording: call StartRecording() first");
            if (m_StreamFile != null && !SamePath(full, m_StreamFile))
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' records straight to " + m_StreamFile
                    + ", not to " + full + ": call StopRecording() to end it there (it goes on)");
            return Finish(full);
        }

        /// <summary>Ends the recording under way: one streamed to a file (recordOnStart, StartRecordingToFile) is
        /// made whole in its file; one in memory is written to recordingPath; the flight recorder's window is
        /// dropped (SaveFlightRecording first to keep it). Returns the file's full path (null for the flight
        /// recorder), also logged. InvalidOperationException when not recording.</summary>
        public string StopRecording()
        {
            if (!IsRecording)
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' is not recording: call StartRecording() first");
            if (m_FlightRunning)
            {
                EndRecording();
                return null;
            }
            return Finish(m_StreamFile ?? RecordingFile(recordingPath));
        }

        string Finish(string full)
        {
            if (m_FlightRunning)
            {
                string saved = SaveFlightRecording(full);
                EndRecording();
                return saved;
            }
            if (m_StreamFile != null)
            {
                EndRecording();
                long size = new FileInfo(full).Length;
                UnityEngine.Debug.Log("Argus: PerceptionWorld '" + name + "' wrote its recording (" + size + " bytes) to " + full);
                return full;
            }
            string folder = Path.GetDirectoryName(full);
            if (!string.IsNullOrEmpty(folder)) Directory.CreateDirectory(folder);
            byte[] bytes = EndRecording();
            File.WriteAllBytes(full, bytes);
            UnityEngine.Debug.Log("Argus: PerceptionWorld '" + name + "' wrote its recording (" + bytes.Length + " bytes) to " + full);
            return full;
        }

        /// <summary>Stops the native recording (its state here forgotten even when the file failed).</summary>
        byte[] EndRecording()
        {
            m_FlightRunning = false;
            m_StreamFile = null;
            return m_World.StopRecording();
        }

        /// <summary>Saves the flight recorder's window (about the last flightRecorderSeconds) as a recording of its
        /// own, which replays and opens in the inspector alone, to <paramref name="path"/> (null: flightRecordingPath;
        /// {time} in either becomes the local date and time, and a number is added when that file exists; a relative
        /// path is under Application.persistentDataPath; folders are created). The flight recorder goes on: save as
        /// often as wanted. Returns the file's full path, also logged. InvalidOperationException, writing nothing,
        /// when the flight recorder is not running; Argus.ArgusException (WriteFailed) when the file cannot be
        /// written.</summary>
        public string SaveFlightRecording(string path = null)
        {
            if (!IsFlightRecording)
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' is not running its flight recorder: "
                    + "tick flightRecorder (it starts at the world's first step) or call StartFlightRecorder()");
            string full = FlightRecordingFile(path ?? flightRecordingPath);
            string folder = Path.GetDirectoryName(full);
            if (!string.IsNullOrEmpty(folder)) Directory.CreateDirectory(folder);
            long size = m_World.SaveFlightRecording(full);
            UnityEngine.Debug.Log("Argus: PerceptionWorld '" + name + "' saved its flight recording (" + size + " bytes, about the last "
                + flightRecorderSeconds.ToString(CultureInfo.InvariantCulture) + " s) to " + full);
            return full;
        }

        /// <summary>The full path SaveFlightRecording writes for <paramref name="path"/>: {time} replaced by the local
        /// date and time (with -2, -3, ... when that file exists), then as <see cref="RecordingFile"/>.</summary>
        public static string FlightRecordingFile(string path)
        {
            if (string.IsNullOrEmpty(path) || path.IndexOf("{time}", StringComparison.Ordinal) < 0) return RecordingFile(path);
            string stamp = DateTime.Now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
            string full = RecordingFile(path.Replace("{time}", stamp));
            for (int n = 2; File.Exists(full); n++) full = RecordingFile(path.Replace("{time}", stamp + "-" + n));
            return full;
        }

        /// <summary>The full path StopRecording writes for <paramref name="path"/>: as given when rooted, else
        /// under Application.persistentDataPath.</summary>
        public static string RecordingFile(string path)
        {
            if (string.IsNullOrEmpty(path)) throw new ArgumentException("Argus: a recording needs a file path", "path");
            return Path.GetFullPath(Path.IsPathRooted(path) ? path : Path.Combine(Application.persistentDataPath, path));
        }

        static bool SamePath(string a, string b)
        {
            return string.Equals(a, b, Path.DirectorySeparatorChar == '\\' ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal);
        }

        void OnApplicationQuit() { WriteUnfinishedRecording(); }

        /// <summary>Before the native world is destroyed: a recording streamed to a file is made whole there, one a
        /// script started in memory goes to recordingPath, the flight recorder's window is dropped (nothing is
        /// written unless asked). A failure is logged, never thrown.</summary>
        void WriteUnfinishedRecording()
        {
            m_RecordAtFirstStep = false;
            if (IsRecording)
            {
                try
                {
                    StopRecording();
                }
                catch (Exception e)
                {
                    UnityEngine.Debug.LogException(e, this);
                }
            }
            m_FlightRunning = false;
            m_StreamFile = null;
        }

        /// <summary>recordOnStart or flightRecorder: the recording begins with this world's first step, once every
        /// member has joined. A failure (a file that cannot be created, seconds out of range) is logged and the
        /// world steps on without recording.</summary>
        void StartRecordingAtFirstStep()
        {
            m_RecordAtFirstStep = false;
            if (m_World.IsRecording) return;
            try
            {
                if (recordOnStart)
                {
                    if (flightRecorder)
                        UnityEngine.Debug.LogWarning("Argus: PerceptionWorld '" + name + "': flightRecorder is ignored while recordOnStart "
                            + "records everything to recordingPath; untick one of them", this);
                    StartRecordingToFile(recordingPath);
                }
                else if (flightRecorder)
                {
                    StartFlightRecorder();
                }
            }
            catch (Exception e)
            {
                UnityEngine.Debug.LogException(e, this);
            }
        }

        /// <summary>LateUpdate: saveFlightRecordingKey saves the flight recorder's window (a failure is logged).</summary>
        void PollFlightRecordingKey()
        {
#if ENABLE_LEGACY_INPUT_MANAGER
            if (!m_FlightRunning || saveFlightRecordingKey == KeyCode.None || !Input.GetKeyDown(saveFlightRecordingKey)) return;
            try
            {
                SaveFlightRecording();
            }
            catch (Exception e)
            {
                UnityEngine.Debug.LogException(e, this);
            }
#endif
        }
    }
}
