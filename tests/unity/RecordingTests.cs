// Recording a scene of components: PerceptionWorld.StartRecording / StopRecording(path) write a file
// that Argus.Replay.Verify accepts; recordOnStart records from the first step and writes recordingPath
// when the world is destroyed or the application quits; misuse is refused with a clear message.
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
            scene.World.recordingPath = Path.Combine(m_Folder, "auto.argusrec");
            scene.World.enabled = false; // recordOnStart is read when the world is enabled
            scene.World.enabled = true;
            StandIn.Player.Frame(0.02f);   // members rejoin the new native world
            Assert.IsFalse(scene.World.IsRecording, "not before the first step");
            scene.Run(12);
            Assert.IsTrue(scene.World.IsRecording);
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
    }
}
