// Recording a scene of components: PerceptionWorld.StartRecording / StopRecording(path) write a file
// that Argus.Replay.Verify accepts; recordOnStart streams to recordingPath from the first step and makes
// it whole when the world is destroyed or the application quits; StartRecordingToFile streams from a
// script; the flight recorder (flightRecorder, flightRecorderSeconds) keeps the last seconds and
// SaveFlightRecording() or saveFlightRecordingKey (with the Input Manager) writes them; misuse is
// refused with a clear message.
using System;
using System.IO;
using Argus.Perception.Tests;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class RecordingTests
    {
        string m_Folder;

        [SetUp]
        public void SetUp()
        {
            StandIn.Player.Reset();
            m_Folder = Path.Combine(Path.GetTempPath(), "argus-recording-tests-" + Guid.NewGuid().ToString("N"));
        }

        [TearDown]
        public void TearDown()
        {
            StandIn.Player.Reset();
            if (Directory.Exists(m_Folder)) Directory.Delete(m_Folder, true);
        }

        // A guard, a player walking behind a wall and out, footsteps: a scene whose steps have events.
        sealed class Scene
        {
            public readonly LessonScene Lesson = new LessonScene();
            public readonly GameObject Guard, Other, Player;

            public Scene()
            {
                Guard = Lesson.Guard(Vector3.zero, Vector3.forward);
                Other = Lesson.Guard(new Vector3(6f, 0f, 0f), Vector3.left);
                Player = Lesson.Player(new Vector3(4f, 0f, 7f));
                Lesson.Wall(new Vector3(-2f, 0f, 4f), new Vector3(2f, 3f, 0.4f));
            }

            public PerceptionWorld World { get { return Lesson.World; } }

            public void Run(int steps)
            {
                for (int k = 0; k < steps; k++)
                {
                    Player.transform.position = new Vector3(4f - 0.4f * k, 0f, 7f);
                    if (k % 7 == 3) AudioPerception.EmitSound(Player.transform.position, 10f, Player);
                    World.Step(0.1f);
                }
            }
        }

        static int Logged(string about)
        {
            int n = 0;
            foreach (var line in Debug.StandInLog)
                if (line.StartsWith("log: ") && line.Contains(about)) n++;
            return n;
        }

        [Test]
        public void ARecordedSceneIsWrittenAndVerifies()
        {
            var scene = new Scene();
            Assert.IsFalse(scene.World.IsRecording);
            scene.World.StartRecording();
            Assert.IsTrue(scene.World.IsRecording);
            scene.Run(25);
            string path = scene.World.StopRecording(Path.Combine(m_Folder, "nested", "patrol.argusrec"));
            Assert.IsFalse(scene.World.IsRecording);
            Assert.AreEqual(Path.Combine(m_Folder, "nested", "patrol.argusrec"), path);
            Assert.IsTrue(File.Exists(path), path);
            Assert.AreEqual(1, Logged(path), "the log names the file: " + string.Join("\n", Debug.StandInLog.ToArray()));
            byte[] bytes = File.ReadAllBytes(path);
            ReplayReport report = Replay.Verify(bytes);
            Assert.AreEqual(25u, report.StepCount);
            Assert.AreEqual(25u, report.StepsReplayed);
            // The replayed world holds the guards, the player and the wall, as the scene did.
            using (Argus.World rebuilt = Argus.World.FromRecording(bytes))
            {
                WorldCounts counts = rebuilt.Counts;
                Assert.AreEqual(2u, counts.Agents);
                Assert.AreEqual(1u, counts.Targets);
                Assert.AreEqual(1u, counts.Occluders);
            }
        }

        [Test]
        public void ARelativePathIsUnderPersistentDataPath()
        {
            var scene = new Scene();
            scene.World.StartRecording();
            scene.Run(3);
            string relative = Path.Combine("argus-tests-" + Guid.NewGuid().ToString("N"), "run.argusrec");
            string path = scene.World.StopRecording(relative);
            try
            {
                Assert.AreEqual(Path.Combine(Application.persistentDataPath, relative), path);
                Assert.AreEqual(path, PerceptionWorld.RecordingFile(relative));
                Assert.AreEqual(3u, Replay.Verify(File.ReadAllBytes(path)).StepCount);
            }
            finally
            {
                Directory.Delete(Path.GetDirectoryName(path), true);
            }
        }

        [Test]
        public void GuardsInFocusComeFromComponents()
        {
            var scene = new Scene();
            var full = new Scene();
            scene.World.StartRecording(scene.Guard.GetComponent<FieldOfViewSensor>());
            full.World.StartRecording();
            scene.Run(20);
            full.Run(20);
            byte[] focused = File.ReadAllBytes(scene.World.StopRecording(Path.Combine(m_Folder, "focused.argusrec")));
            byte[] all = File.ReadAllBytes(full.World.StopRecording(Path.Combine(m_Folder, "all.argusrec")));
            Assert.Less(focused.Length, all.Length, "one guard's memory and why, not two");
            Assert.AreEqual(20u, Replay.Verify(focused).StepsReplayed);
            scene.World.StartRecording(scene.Guard.GetComponent<PerceptionAgent>(), scene.Other.GetComponent<PerceptionAgent>());
            Assert.IsTrue(scene.World.IsRecording);
            scene.World.StopRecording(Path.Combine(m_Folder, "both.argusrec"));
            // A guard of another world cannot be in focus.
            var e = Assert.Throws<ArgumentException>(() => scene.World.StartRecording(full.Guard.GetComponent<PerceptionAgent>()));
            StringAssert.Contains("'Guard' is not a guard of PerceptionWorld", e.Message);
            Assert.IsFalse(scene.World.IsRecording);
        }

        [Test]
        public void MisuseIsRefusedClearly()
        {
            var scene = new Scene();
            var e = Assert.Throws<InvalidOperationException>(() => scene.World.StopRecording(Path.Combine(m_Folder, "x.argusrec")));
            StringAssert.Contains("is not recording", e.Message);
            scene.World.StartRecording();
            scene.Run(2);
            e = Assert.Throws<InvalidOperationException>(() => scene.World.StartRecording());
            StringAssert.Contains("already recording", e.Message);
            StringAssert.Contains("StopRecording(path)", e.Message);
            Assert.IsTrue(scene.World.IsRecording, "the recording under way goes on");
            scene.Run(2);
            Assert.Throws<ArgumentException>(() => scene.World.StopRecording(""));
            Assert.IsTrue(scene.World.IsRecording, "a bad path stops nothing");
            Assert.AreEqual(4u, Replay.Verify(File.ReadAllBytes(scene.World.StopRecording(Path.Combine(m_Folder, "ok.argusrec")))).StepCount);
            scene.World.enabled = false;
            e = Assert.Throws<InvalidOperationException>(() => scene.World.StartRecording());
            StringAssert.Contains("is disabled", e.Message);
        }

        [Test]
        public void RecordOnStartRecordsFromTheFirstStepAndADestroyedWorldWritesItsFile()
        {
            var scene = new Scene();
            scene.World.recordOnStart = true;
            scene.World.recordingPath = Path.Combine(m_Folder, "nested", "auto.argusrec");
            scene.World.enabled = false; // recordOnStart is read when the world is enabled
            scene.World.enabled = true;
            StandIn.Player.Frame(0.02f);   // members rejoin the new native world
            Assert.IsFalse(scene.World.IsRecording, "not before the first step");
            Assert.IsFalse(File.Exists(scene.World.recordingPath), "no file before the first step");
            scene.Run(12);
            Assert.IsTrue(scene.World.IsRecording);
            // Streamed: the file exists from the first step (its folder made), and the world holds no recording.
            Assert.IsTrue(File.Exists(scene.World.recordingPath), "the file is created at the first step");
            Assert.AreEqual(scene.World.recordingPath, scene.World.StreamingTo);
            Assert.AreEqual(RecordTo.File, scene.World.Native.RecordingTo, "streamed to the file, not held in memory");
            Assert.IsFalse(scene.World.IsFlightRecording);
            UnityEngine.Object.Destroy(scene.World.gameObject);
            Assert.IsTrue(File.Exists(scene.World.recordingPath), "the destroyed world wrote its recording");
            Assert.AreEqual(1, Logged(scene.World.recordingPath), string.Join("\n", Debug.StandInLog.ToArray()));
            ReplayReport report = Replay.Verify(File.ReadAllBytes(scene.World.recordingPath));
            Assert.AreEqual(12u, report.StepCount);
        }

        [Test]
        public void AutoSteppedWorldRecordsAndQuittingWritesTheFile()
        {
            var scene = new Scene();
            scene.World.recordOnStart = true;
            scene.World.autoStep = true;
            scene.World.recordingPath = Path.Combine(m_Folder, "quit.argusrec");
            scene.World.enabled = false;
            scene.World.enabled = true;
            StandIn.Player.Run(1f, 0.1f);
            Assert.IsTrue(scene.World.IsRecording);
            string path = scene.World.recordingPath;
            StandIn.Player.Quit();
            Assert.IsTrue(File.Exists(path));
            Assert.AreEqual(1, Logged(path), "written once (OnApplicationQuit), not again by OnDisable");
            Assert.AreEqual(10u, Replay.Verify(File.ReadAllBytes(path)).StepCount);
        }

        [Test]
        public void StartRecordingToFileStreamsAndStopRecordingMakesTheFileWhole()
        {
            var scene = new Scene();
            string path = scene.World.StartRecordingToFile(Path.Combine(m_Folder, "script", "streamed.argusrec"),
                scene.Guard.GetComponent<PerceptionAgent>());
            Assert.AreEqual(Path.Combine(m_Folder, "script", "streamed.argusrec"), path);
            Assert.IsTrue(File.Exists(path), "created when recording starts");
            Assert.AreEqual(path, scene.World.StreamingTo);
            scene.Run(15);
            // Another file than the one it streams to is refused, and the recording goes on.
            var e = Assert.Throws<InvalidOperationException>(() => scene.World.StopRecording(Path.Combine(m_Folder, "other.argusrec")));
            StringAssert.Contains("records straight to " + path, e.Message);
            StringAssert.Contains("StopRecording()", e.Message);
            Assert.IsTrue(scene.World.IsRecording);
            Assert.IsFalse(File.Exists(Path.Combine(m_Folder, "other.argusrec")));
            scene.Run(5);
            Assert.AreEqual(path, scene.World.StopRecording());
            Assert.IsFalse(scene.World.IsRecording);
            Assert.IsNull(scene.World.StreamingTo);
            Assert.AreEqual(1, Logged(path), string.Join("\n", Debug.StandInLog.ToArray()));
            Assert.AreEqual(20u, Replay.Verify(File.ReadAllBytes(path)).StepCount);
            // StopRecording(path) naming the streamed file ends it there too.
            path = scene.World.StartRecordingToFile(Path.Combine(m_Folder, "again.argusrec"));
            scene.Run(3);
            Assert.AreEqual(path, scene.World.StopRecording(Path.Combine(m_Folder, "again.argusrec")));
            Assert.AreEqual(3u, Replay.Verify(File.ReadAllBytes(path)).StepCount);
        }

        [Test]
        public void TheFlightRecorderKeepsTheLastSecondsAndSavesThemOnDemand()
        {
            var scene = new Scene();
            Assert.IsFalse(scene.World.flightRecorder, "off by default");
            Assert.AreEqual(30f, scene.World.flightRecorderSeconds);
            Assert.AreEqual(KeyCode.F9, scene.World.saveFlightRecordingKey);
            Assert.AreEqual("argus-flight-{time}.argusrec", scene.World.flightRecordingPath);
            scene.World.flightRecorder = true;
            scene.World.flightRecorderSeconds = 3f;
            scene.World.recordingPath = Path.Combine(m_Folder, "never.argusrec");
            scene.World.flightRecordingPath = Path.Combine(m_Folder, "flight-{time}.argusrec");
            scene.World.enabled = false; // read when the world is enabled
            scene.World.enabled = true;
            StandIn.Player.Frame(0.02f);
            Assert.IsFalse(scene.World.IsRecording, "not before the first step");
            scene.Run(200); // 20 s of 0.1 s steps
            Assert.IsTrue(scene.World.IsFlightRecording);
            Assert.AreEqual(RecordTo.Flight, scene.World.Native.RecordingTo);
            Assert.IsNull(scene.World.StreamingTo);
            string first = scene.World.SaveFlightRecording(Path.Combine(m_Folder, "bug.argusrec"));
            Assert.AreEqual(Path.Combine(m_Folder, "bug.argusrec"), first);
            Assert.AreEqual(1, Logged(first), string.Join("\n", Debug.StandInLog.ToArray()));
            ReplayReport report = Replay.Verify(File.ReadAllBytes(first));
            Assert.GreaterOrEqual(report.StepCount, 30u, "at least the 3 s kept");
            Assert.Less(report.StepCount, 100u, "not the whole 20 s");
            Assert.IsTrue(scene.World.IsFlightRecording, "saving does not stop it");
            // The default path: {time} in flightRecordingPath, a new file for every save.
            scene.Run(5);
            string a = scene.World.SaveFlightRecording();
            string b = scene.World.SaveFlightRecording();
            Assert.AreNotEqual(a, b, "two saves keep two files");
            StringAssert.StartsWith(Path.Combine(m_Folder, "flight-"), a);
            StringAssert.DoesNotContain("{time}", a);
            Assert.IsTrue(File.Exists(a) && File.Exists(b));
            CollectionAssert.AreEqual(File.ReadAllBytes(a), File.ReadAllBytes(b), "the same window, saved twice");
            Assert.GreaterOrEqual(Replay.Verify(File.ReadAllBytes(b)).StepCount, 30u);
            // A disabled world drops the window: nothing is written unless asked.
            int files = Directory.GetFiles(m_Folder).Length;
            scene.World.enabled = false;
            Assert.IsFalse(scene.World.IsFlightRecording);
            Assert.AreEqual(files, Directory.GetFiles(m_Folder).Length, "disabling writes nothing");
            Assert.IsFalse(File.Exists(scene.World.recordingPath));
            // Enabled again, it starts again at the first step; StopRecording(path) saves the window and stops.
            scene.World.enabled = true;
            StandIn.Player.Frame(0.02f);
            scene.Run(4);
            Assert.IsTrue(scene.World.IsFlightRecording);
            string last = scene.World.StopRecording(Path.Combine(m_Folder, "last.argusrec"));
            Assert.IsFalse(scene.World.IsRecording);
            Assert.AreEqual(4u, Replay.Verify(File.ReadAllBytes(last)).StepCount);
        }

        [Test]
        public void TheKeySavesTheFlightRecordingWhereTheInputManagerIsOn()
        {
            Directory.CreateDirectory(m_Folder);
            var scene = new Scene();
            scene.World.flightRecorder = true;
            scene.World.autoStep = true;
            scene.World.flightRecordingPath = Path.Combine(m_Folder, "key-{time}.argusrec");
            scene.World.enabled = false;
            scene.World.enabled = true;
            StandIn.Player.Run(2f, 0.1f);
            Assert.IsTrue(scene.World.IsFlightRecording);
            StandIn.Keyboard.Press(KeyCode.F8); // another key does nothing
            StandIn.Player.Frame(0.1f);
            Assert.AreEqual(0, Directory.GetFiles(m_Folder).Length);
            StandIn.Keyboard.Press(KeyCode.F9);
            StandIn.Player.Frame(0.1f);
#if ENABLE_LEGACY_INPUT_MANAGER
            string[] saved = Directory.GetFiles(m_Folder);
            Assert.AreEqual(1, saved.Length, "F9 saved the window once");
            StringAssert.StartsWith(Path.Combine(m_Folder, "key-"), saved[0]);
            Assert.AreEqual(1, Logged(saved[0]), string.Join("\n", Debug.StandInLog.ToArray()));
            Assert.GreaterOrEqual(Replay.Verify(File.ReadAllBytes(saved[0])).StepCount, 20u);
            Assert.IsTrue(scene.World.IsFlightRecording, "the flight recorder goes on");
            StandIn.Player.Frame(0.1f); // held, not pressed again: no second file
            Assert.AreEqual(1, Directory.GetFiles(m_Folder).Length);
            scene.World.saveFlightRecordingKey = KeyCode.None;
            StandIn.Keyboard.Press(KeyCode.F9);
            StandIn.Player.Frame(0.1f);
            Assert.AreEqual(1, Directory.GetFiles(m_Folder).Length, "None: no key");
#else
            // The Input System package alone: UnityEngine.Input throws, so the package never reads it, and
            // says once, when the flight recorder starts, that the key needs a call from an input action.
            Assert.AreEqual(0, StandIn.Keyboard.Reads, "UnityEngine.Input is never read");
            Assert.AreEqual(0, Directory.GetFiles(m_Folder).Length);
            int warned = 0;
            foreach (var line in Debug.StandInLog)
                if (line.StartsWith("warning: ") && line.Contains("saveFlightRecordingKey") && line.Contains("SaveFlightRecording()")) warned++;
            Assert.AreEqual(1, warned, string.Join("\n", Debug.StandInLog.ToArray()));
            StringAssert.Contains("key-", scene.World.SaveFlightRecording(), "the call works");
#endif
            foreach (var line in Debug.StandInLog) StringAssert.DoesNotStartWith("exception: ", line);
        }

        [Test]
        public void WrongRecordingSettingsAreReportedAndChangeNothing()
        {
            // Seconds out of range: reported at the first step, which goes on without recording.
            var scene = new Scene();
            scene.World.flightRecorder = true;
            scene.World.flightRecorderSeconds = 0f;
            scene.World.enabled = false;
            scene.World.enabled = true;
            StandIn.Player.Frame(0.02f);
            scene.Run(3);
            Assert.IsFalse(scene.World.IsRecording);
            Assert.AreEqual(3, scene.World.StepCount, "the world steps on");
            int reported = 0;
            foreach (var line in Debug.StandInLog)
                if (line.StartsWith("exception: Argus.ArgusException: ARGUS_RESULT_INVALID_ARGUMENT") && line.Contains("seconds")) reported++;
            Assert.AreEqual(1, reported, string.Join("\n", Debug.StandInLog.ToArray()));
            // Saving without a flight recorder: not recording, then recording in memory.
            string nowhere = Path.Combine(m_Folder, "no.argusrec");
            var e = Assert.Throws<InvalidOperationException>(() => scene.World.SaveFlightRecording(nowhere));
            StringAssert.Contains("is not running its flight recorder", e.Message);
            StringAssert.Contains("flightRecorder", e.Message);
            scene.World.StartRecording();
            Assert.Throws<InvalidOperationException>(() => scene.World.SaveFlightRecording(nowhere));
            Assert.IsTrue(scene.World.IsRecording, "the recording in memory goes on");
            Assert.IsFalse(File.Exists(nowhere));
            e = Assert.Throws<InvalidOperationException>(() => scene.World.StartFlightRecorder());
            StringAssert.Contains("already recording", e.Message);
            scene.Run(2);
            Assert.AreEqual(2u, Replay.Verify(File.ReadAllBytes(scene.World.StopRecording(Path.Combine(m_Folder, "mem.argusrec")))).StepCount);
            // StartFlightRecorder with the seconds out of range: the native refusal, nothing started.
            scene.World.flightRecorderSeconds = -1f;
            var refused = Assert.Throws<ArgusException>(() => scene.World.StartFlightRecorder());
            Assert.AreEqual(Result.InvalidArgument, refused.Code);
            Assert.IsFalse(scene.World.IsRecording);
            Assert.IsFalse(scene.World.IsFlightRecording);
            Assert.Throws<ArgumentException>(() => scene.World.StartRecordingToFile(""));
            Assert.IsFalse(scene.World.IsRecording);
            CollectionAssert.AreEqual(new[] { Path.Combine(m_Folder, "mem.argusrec") }, Directory.GetFiles(m_Folder), "no other file");

            // recordOnStart and flightRecorder both ticked: recordOnStart streams, the flight recorder is ignored, said once.
            var both = new Scene();
            both.World.recordOnStart = true;
            both.World.flightRecorder = true;
            both.World.recordingPath = Path.Combine(m_Folder, "both.argusrec");
            both.World.enabled = false;
            both.World.enabled = true;
            StandIn.Player.Frame(0.02f);
            both.Run(4);
            Assert.AreEqual(RecordTo.File, both.World.Native.RecordingTo);
            Assert.IsFalse(both.World.IsFlightRecording);
            int warned = 0;
            foreach (var line in Debug.StandInLog)
                if (line.StartsWith("warning: ") && line.Contains("flightRecorder is ignored while recordOnStart")) warned++;
            Assert.AreEqual(1, warned);
            UnityEngine.Object.Destroy(both.World.gameObject);
            Assert.AreEqual(4u, Replay.Verify(File.ReadAllBytes(Path.Combine(m_Folder, "both.argusrec"))).StepCount);
        }
    }
}
