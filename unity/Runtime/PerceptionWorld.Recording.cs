using System;
using System.IO;
using UnityEngine;

namespace Argus.Perception
{
    public sealed partial class PerceptionWorld
    {
        [Tooltip("Record this world from its first step (each time it is enabled). The file is written to recordingPath when the world is disabled or destroyed, or the application quits; open it in tools/inspector/argus-inspector.html or check it with Argus.Replay.Verify.")]
        public bool recordOnStart = false;

        [Tooltip("Where a recording still under way is written when the world is disabled or destroyed, or the application quits. A relative path is under Application.persistentDataPath.")]
        public string recordingPath = "argus-recording.argusrec";

        bool m_RecordAtFirstStep;

        /// <summary>True between StartRecording (or the first step with recordOnStart) and StopRecording.</summary>
        public bool IsRecording { get { return m_World != null && m_World.IsRecording; } }

        /// <summary>Starts recording this world (docs/recording.md): its state now, then every input and every
        /// step, with the memory and the sight decisions ("why") of every guard. InvalidOperationException
        /// when the world is disabled or already recording.</summary>
        public void StartRecording()
        {
            Record(null);
        }

        /// <summary>Starts recording with these guards in focus: only their memory and sight decisions are
        /// recorded (every guard's pose and events are). ArgumentException for a guard not in this world.</summary>
        public void StartRecording(params PerceptionAgent[] focus)
        {
            if (focus == null) throw new ArgumentNullException("focus");
            var ids = new AgentId[focus.Length];
            for (int i = 0; i < focus.Length; i++) ids[i] = FocusId(focus[i], focus[i]);
            Record(ids);
        }

        /// <summary>Starts recording with the guards of these sensors in focus (see the PerceptionAgent overload).</summary>
        public void StartRecording(params FieldOfViewSensor[] focus)
        {
            if (focus == null) throw new ArgumentNullException("focus");
            var ids = new AgentId[focus.Length];
            for (int i = 0; i < focus.Length; i++)
                ids[i] = FocusId(focus[i] == null ? null : focus[i].GetComponent<PerceptionAgent>(), focus[i]);
            Record(ids);
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

        void Record(AgentId[] focus)
        {
            if (m_World == null)
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' is disabled: enable it before StartRecording");
            if (m_World.IsRecording)
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' is already recording: call StopRecording(path) first");
            m_World.StartRecording(focus == null ? null : new RecordOptions { Focus = focus });
            m_RecordAtFirstStep = false;
        }

        /// <summary>Ends the recording and writes it to <paramref name="path"/> (a relative path is under
        /// Application.persistentDataPath; folders are created); returns the file's full path, also logged.
        /// InvalidOperationException when not recording.</summary>
        public string StopRecording(string path)
        {
            string full = RecordingFile(path);
            if (!IsRecording)
                throw new InvalidOperationException("Argus: PerceptionWorld '" + name + "' is not recording: call StartRecording() first");
            byte[] bytes = m_World.StopRecording();
            string folder = Path.GetDirectoryName(full);
            if (!string.IsNullOrEmpty(folder)) Directory.CreateDirectory(folder);
            File.WriteAllBytes(full, bytes);
            UnityEngine.Debug.Log("Argus: PerceptionWorld '" + name + "' wrote its recording (" + bytes.Length + " bytes) to " + full);
            return full;
        }

        /// <summary>The full path StopRecording writes for <paramref name="path"/>: as given when rooted, else
        /// under Application.persistentDataPath.</summary>
        public static string RecordingFile(string path)
        {
            if (string.IsNullOrEmpty(path)) throw new ArgumentException("Argus: a recording needs a file path", "path");
            return Path.GetFullPath(Path.IsPathRooted(path) ? path : Path.Combine(Application.persistentDataPath, path));
        }

        void OnApplicationQuit() { WriteUnfinishedRecording(); }

        /// <summary>A recording still under way (recordOnStart, or a script's StartRecording) goes to
        /// recordingPath before the native world is destroyed; a failure is logged, never thrown.</summary>
        void WriteUnfinishedRecording()
        {
            m_RecordAtFirstStep = false;
            if (!IsRecording) return;
            try
            {
                StopRecording(recordingPath);
            }
            catch (Exception e)
            {
                UnityEngine.Debug.LogException(e, this);
            }
        }

        /// <summary>recordOnStart: the recording begins with this world's first step.</summary>
        void StartRecordingAtFirstStep()
        {
            m_RecordAtFirstStep = false;
            if (!m_World.IsRecording) m_World.StartRecording();
        }
    }
}
