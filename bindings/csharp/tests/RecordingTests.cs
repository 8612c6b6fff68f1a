using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>Recording and replay through the object model: World.StartRecording / StopRecording,
    /// StartRecordingToFile, the flight recorder (StartFlightRecorder, SaveFlightRecording), Replay.Verify
    /// and World.FromRecording, in built-in and engine-ray worlds, and their errors.</summary>
    [TestFixture]
    public class RecordingTests
    {
        const int Steps = 30;

        // A guard watching a wall, a player walking past it, a footstep now and then.
        sealed class Scene
        {
            public AgentId Guard;
            public TargetId Player;
            public readonly BoxEngine Engine = new BoxEngine();

            public Scene(AgentId guard, TargetId player)
            {
                Guard = guard;
                Player = player;
            }

            public Scene(World world, bool engineRays)
            {
                AgentDef guard = AgentDef.Default();
                guard.Sight.RateHz = 10;
                guard.Awareness.Enabled = true;
                Guard = world.CreateAgent(guard);
                AgentDef other = AgentDef.Default();
                other.Position = Support.V(6, 0, 0);
                other.Forward = Support.V(-1, 0, 0);
                world.CreateAgent(other);
                TargetDef player = TargetDef.Default();
                player.Position = Support.V(4, 0, 7);
                Player = world.CreateTarget(player);
                Vec3 center = Support.V(-2, 1, 4), half = Support.V(1, 1, 0.2f);
                world.CreateBox(center, Quat.Identity, half);
                Engine.Centers.Add(center);
                Engine.Halves.Add(half);
                if (engineRays) world.SetRayCaster(Engine);
            }

            public void Step(World world, int k)
            {
                world.SetTargetPose(Player, Support.V(4 - 0.3f * k, 0, 7), Support.V(-1, 0, 0));
                if (k % 9 == 4)
                {
                    SoundDef noise = SoundDef.Default();
                    noise.Position = Support.V(0, 0, -3);
                    noise.Loudness = 12;
                    noise.Source = Player;
                    world.EmitSound(noise);
                }
                world.Step(0.1f);
            }
        }

        static World NewWorld(bool engineRays)
        {
            WorldDef def = WorldDef.Default();
            if (engineRays) def.RayBackend = RayBackend.Engine;
            return new World(def);
        }

        // Percepts and brain changes of the latest step, without the world tag of the ids.
        static string Events(World world)
        {
            var text = new System.Text.StringBuilder();
            foreach (PerceptEvent p in world.Percepts)
                text.AppendFormat("p{0} {1} {2} {3:R} {4:R} {5:R}|", p.Kind, p.Agent.Index, p.Target.Index, p.Position.X, p.Time, p.Strength);
            foreach (BrainEvent b in world.BrainEvents)
                text.AppendFormat("b{0} {1} {2}|", b.Agent.Index, b.From, b.To);
            return text.ToString();
        }

        sealed class Run
        {
            public byte[] Bytes;
            public readonly List<byte[]> Saves = new List<byte[]>();
            public readonly List<string> Events = new List<string>();
        }

        static Run Record(bool engineRays, bool narrow = false)
        {
            var run = new Run();
            using (World world = NewWorld(engineRays))
            {
                var scene = new Scene(world, engineRays);
                scene.Step(world, 0);
                // Narrow: the guard alone in focus, no "why".
                world.StartRecording(narrow ? new RecordOptions { Focus = new[] { scene.Guard }, Explain = false } : null);
                Assert.IsTrue(world.IsRecording);
                run.Saves.Add(world.Save());
                run.Events.Add(Events(world));
                for (int k = 1; k <= Steps; k++)
                {
                    scene.Step(world, k);
                    run.Saves.Add(world.Save());
                    run.Events.Add(Events(world));
                }
                run.Bytes = world.StopRecording();
                Assert.IsFalse(world.IsRecording);
                if (engineRays) Assert.Greater(scene.Engine.RaysSeen, 0, "the engine answered the rays");
            }
            return run;
        }

        [Test]
        public void ARecordingVerifiesAndRebuildsTheWorldAtAnyStep([Values(false, true)] bool engineRays)
        {
            Run run = Record(engineRays);
            Assert.AreEqual("ARGUSREC", System.Text.Encoding.ASCII.GetString(run.Bytes, 0, 8));
            ReplayReport report = Replay.Verify(run.Bytes);
            Assert.AreEqual((uint)Steps, report.StepCount);
            Assert.AreEqual((uint)Steps, report.StepsReplayed);
            Assert.AreEqual(Constants.NO_STEP, report.MismatchStep);
            int seen = 0;
            foreach (string e in run.Events) seen += e.Split('|').Length - 1;
            Assert.Greater(seen, 10, "the scene perceives something");
            uint live = Library.LiveWorldCount;
            foreach (uint k in new uint[] { 0, 1, 12, Steps, uint.MaxValue })
            {
                int at = (int)Math.Min(k, (uint)Steps);
                using (World rebuilt = World.FromRecording(run.Bytes, k))
                {
                    Assert.IsFalse(rebuilt.IsRecording);
                    CollectionAssert.AreEqual(run.Saves[at], rebuilt.Save(), "rebuilt at step " + k);
                    if (at > 0) Assert.AreEqual(run.Events[at], Events(rebuilt), "step " + k + "'s events");
                    Assert.AreEqual(live + 1, Library.LiveWorldCount);
                }
            }
            Assert.AreEqual(live, Library.LiveWorldCount);
        }

        [Test]
        public void ARebuiltWorldStepsOnLikeTheOriginal()
        {
            using (World original = NewWorld(false))
            {
                var scene = new Scene(original, false);
                original.StartRecording();
                for (int k = 0; k < 10; k++) scene.Step(original, k);
                byte[] bytes = original.StopRecording();
                using (World rebuilt = World.FromRecording(bytes))
                {
                    // The recording's ids, in the rebuilt world's tag.
                    var twin = new Scene(
                        new AgentId { Index = scene.Guard.Index, World = rebuilt.Tag, Generation = scene.Guard.Generation },
                        new TargetId { Index = scene.Player.Index, World = rebuilt.Tag, Generation = scene.Player.Generation });
                    for (int k = 10; k < 25; k++)
                    {
                        scene.Step(original, k);
                        twin.Step(rebuilt, k);
                        Assert.AreEqual(Events(original), Events(rebuilt), "step " + k);
                    }
                    CollectionAssert.AreEqual(original.Save(), rebuilt.Save());
                }
            }
        }

        [Test]
        public void FocusAndExplainMakeSmallerRecordingsThatStillVerify()
        {
            Run full = Record(false);
            Run narrow = Record(false, true);
            Assert.Less(narrow.Bytes.Length, full.Bytes.Length);
            Assert.AreEqual((uint)Steps, Replay.Verify(narrow.Bytes).StepsReplayed);
        }

        [Test]
        public void MisuseThrowsWithItsCodeAndChangesNothing()
        {
            using (World world = NewWorld(false))
            using (World other = NewWorld(false))
            {
                var scene = new Scene(world, false);
                var theirs = new Scene(other, false);
                byte[] before = world.Save();
                var e = Assert.Throws<ArgusException>(() => world.StopRecording());
                Assert.AreEqual(Result.InvalidArgument, e.Code);
                StringAssert.Contains("not recording", e.Message);
                e = Assert.Throws<ArgusException>(() => world.StartRecording(new RecordOptions { Focus = new[] { theirs.Guard } }));
                Assert.AreEqual(Result.InvalidId, e.Code);
                Assert.IsFalse(world.IsRecording);
                CollectionAssert.AreEqual(before, world.Save());

                world.StartRecording(new RecordOptions { Focus = new[] { scene.Guard } });
                e = Assert.Throws<ArgusException>(() => world.StartRecording());
                Assert.AreEqual(Result.InvalidArgument, e.Code);
                StringAssert.Contains("already recording", e.Message);
                Assert.IsTrue(world.IsRecording, "the recording under way goes on");
                for (int k = 0; k < 5; k++) scene.Step(world, k);
                byte[] bytes = world.StopRecording();
                Assert.AreEqual(5u, Replay.Verify(bytes).StepCount);

                Assert.AreEqual("recording", Assert.Throws<ArgumentNullException>(() => Replay.Verify(null)).ParamName);
                Assert.AreEqual("recording", Assert.Throws<ArgumentNullException>(() => World.FromRecording(null)).ParamName);
                uint live = Library.LiveWorldCount;
                byte[] cut = new byte[bytes.Length - 1];
                Array.Copy(bytes, cut, cut.Length);
                e = Assert.Throws<ArgusException>(() => Replay.Verify(cut));
                Assert.AreEqual(Result.BadRecording, e.Code);
                StringAssert.Contains("ARGUS_RESULT_BAD_RECORDING", e.Message);
                Assert.AreEqual(Result.BadRecording, Assert.Throws<ArgusException>(() => World.FromRecording(cut)).Code);
                Assert.AreEqual(Result.BadRecording, Assert.Throws<ArgusException>(() => Replay.Verify(new byte[0])).Code);
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(() => World.FromRecording(bytes, 6)).Code);
                Assert.AreEqual(live, Library.LiveWorldCount, "refusals create no world");
            }
            World gone = NewWorld(false);
            gone.Dispose();
            Assert.AreEqual("Argus.World", Assert.Throws<ObjectDisposedException>(() => gone.StartRecording()).ObjectName);
            Assert.AreEqual("Argus.World", Assert.Throws<ObjectDisposedException>(() => { bool b = gone.IsRecording; }).ObjectName);
        }

        [Test]
        public void AStepThatReplaysDifferentlyIsNamedByTheExceptionIndex()
        {
            Run run = Record(false);
            // The 8th frame's world time, changed, and the checksum resealed: the replay itself must notice.
            byte[] damaged = (byte[])run.Bytes.Clone();
            int frames = 0, at = 16;
            while (at + 8 <= damaged.Length)
            {
                int length = BitConverter.ToInt32(damaged, at + 4);
                if (damaged[at] == 5 && frames++ == 7)
                {
                    damaged[at + 8] ^= 0x40;
                    break;
                }
                at += 8 + length;
            }
            ulong sum = 0xcbf29ce484222325;
            for (int i = 0; i < damaged.Length - 24; i++) sum = (sum ^ damaged[i]) * 0x100000001b3;
            Array.Copy(BitConverter.GetBytes(sum), 0, damaged, damaged.Length - 8, 8);
            var e = Assert.Throws<ArgusException>(() => Replay.Verify(damaged));
            Assert.AreEqual(Result.ReplayMismatch, e.Code);
            Assert.AreEqual(7, e.Index);
            StringAssert.Contains("step 7", e.Message);
            using (World before = World.FromRecording(damaged, 7)) CollectionAssert.AreEqual(run.Saves[7], before.Save());
            e = Assert.Throws<ArgusException>(() => World.FromRecording(damaged, 8));
            Assert.AreEqual(Result.ReplayMismatch, e.Code);
        }

        // ---- streamed to a file, and the flight recorder (#46) ---------------------------------------------

        string _folder;

        [SetUp]
        public void MakeFolder()
        {
            _folder = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "argus-cs-recording-" + Guid.NewGuid().ToString("N"));
            System.IO.Directory.CreateDirectory(_folder);
        }

        [TearDown]
        public void RemoveFolder()
        {
            if (System.IO.Directory.Exists(_folder)) System.IO.Directory.Delete(_folder, true);
        }

        string FilePath(string name) { return System.IO.Path.Combine(_folder, name); }

        [Test]
        public void AFileRecordingHoldsTheBytesOfTheSameRecordingInMemory([Values(false, true)] bool engineRays)
        {
            // Two worlds built and stepped alike: one records in memory, the other to a file as it goes.
            string path = FilePath("streamed.argusrec");
            byte[] inMemory, returned;
            using (World a = NewWorld(engineRays))
            using (World b = NewWorld(engineRays))
            {
                var sa = new Scene(a, engineRays);
                var sb = new Scene(b, engineRays);
                sa.Step(a, 0);
                sb.Step(b, 0);
                a.StartRecording();
                b.StartRecordingToFile(path);
                Assert.AreEqual(RecordTo.Memory, a.RecordingTo);
                Assert.AreEqual(RecordTo.File, b.RecordingTo);
                Assert.IsTrue(b.IsRecording);
                Assert.IsTrue(System.IO.File.Exists(path), "the file is created when recording starts");
                for (int k = 1; k <= Steps; k++)
                {
                    sa.Step(a, k);
                    sb.Step(b, k);
                    Assert.AreEqual(Events(a), Events(b), "step " + k);
                }
                inMemory = a.StopRecording();
                returned = b.StopRecording();
                Assert.IsFalse(b.IsRecording);
                Assert.IsNull(b.RecordingTo);
                if (engineRays) Assert.Greater(sb.Engine.RaysSeen, 0, "the engine answered the rays");
            }
            Assert.AreEqual(0, returned.Length, "a file recording's bytes are in the file, not returned");
            byte[] file = System.IO.File.ReadAllBytes(path);
            Assert.Greater(file.Length, 1000);
            CollectionAssert.AreEqual(inMemory, file, "the file holds the bytes the recording in memory holds");
            ReplayReport report = Replay.Verify(file);
            Assert.AreEqual((uint)Steps, report.StepCount);
            Assert.AreEqual((uint)Steps, report.StepsReplayed);
            using (World rebuilt = World.FromRecording(file, 12)) Assert.AreEqual(2u, rebuilt.Counts.Agents);
        }

        [Test]
        public void AFlightRecordingSavedToAFileVerifiesAloneAndTheRecordingGoesOn()
        {
            string first = FilePath("flight-1.argusrec"), second = FilePath("flight-2.argusrec");
            const int Total = 200;   // 20 s of 0.1 s steps
            const uint Window = 30;  // 3 s
            using (World world = NewWorld(false))
            {
                var scene = new Scene(world, false);
                world.StartFlightRecorder(3f);
                Assert.AreEqual(RecordTo.Flight, world.RecordingTo);
                for (int k = 0; k < Total; k++) scene.Step(world, k);
                long size = world.SaveFlightRecording(first);
                Assert.AreEqual(new System.IO.FileInfo(first).Length, size, "the size returned is the file's");
                Assert.IsTrue(world.IsRecording, "saving does not stop the flight recorder");
                var stream = new System.IO.MemoryStream();
                Assert.AreEqual(size, world.SaveFlightRecording(stream), "the same window to a stream");
                CollectionAssert.AreEqual(System.IO.File.ReadAllBytes(first), stream.ToArray());
                for (int k = Total; k < Total + 15; k++) scene.Step(world, k);
                world.SaveFlightRecording(second);
                Assert.AreEqual(0, world.StopRecording().Length, "stopping a flight recorder drops its window");
                Assert.IsFalse(world.IsRecording);
            }
            byte[] saved = System.IO.File.ReadAllBytes(first);
            Assert.AreEqual("ARGUSREC", System.Text.Encoding.ASCII.GetString(saved, 0, 8));
            ReplayReport report = Replay.Verify(saved);
            Assert.AreEqual(report.StepCount, report.StepsReplayed);
            // At least the 3 s asked for, from the key frame at or before them (key frames come every few
            // seconds at 10 steps a second), never the whole 20 s.
            Assert.GreaterOrEqual(report.StepCount, Window, "at least the window");
            Assert.Less(report.StepCount, (uint)Total / 2, "the old steps were dropped");
            using (World rebuilt = World.FromRecording(saved)) Assert.AreEqual(2u, rebuilt.Counts.Agents);
            ReplayReport later = Replay.Verify(System.IO.File.ReadAllBytes(second));
            Assert.GreaterOrEqual(later.StepCount, Window);
            Assert.Less(later.StepCount, (uint)Total / 2);
        }

        [Test]
        public void AFlightRecordingShorterThanItsWindowHoldsEveryStep()
        {
            string path = FilePath("short.argusrec");
            using (World world = NewWorld(true))
            {
                var scene = new Scene(world, true);
                world.StartFlightRecorder(options: new RecordOptions { Focus = new[] { scene.Guard } });
                for (int k = 0; k < 10; k++) scene.Step(world, k);
                world.SaveFlightRecording(path);
                world.StopRecording();
            }
            Assert.AreEqual(10u, Replay.Verify(System.IO.File.ReadAllBytes(path)).StepCount, "30 s by default: all 10 steps");
        }

        sealed class FailingStream : System.IO.MemoryStream
        {
            public override void Write(byte[] buffer, int offset, int count)
            {
                if (Length + count > 100) throw new System.IO.IOException("disk full (test)");
                base.Write(buffer, offset, count);
            }
        }

        [Test]
        public void WrongFileAndFlightSettingsThrowTheirCodeAndChangeNothing()
        {
            using (World world = NewWorld(false))
            {
                var scene = new Scene(world, false);
                scene.Step(world, 0);
                byte[] before = world.Save();
                // Starting: a window out of (0, 86400], an empty, NULL or NUL-holding path, a folder that does not exist.
                foreach (float seconds in new[] { 0f, -1f, float.NaN, float.PositiveInfinity, 86401f })
                {
                    var e = Assert.Throws<ArgusException>(() => world.StartFlightRecorder(seconds), "seconds " + seconds);
                    Assert.AreEqual(Result.InvalidArgument, e.Code);
                    StringAssert.Contains("seconds", e.Message);
                }
                var empty = Assert.Throws<ArgusException>(() => world.StartRecordingToFile(""));
                Assert.AreEqual(Result.InvalidArgument, empty.Code);
                StringAssert.Contains("path is empty", empty.Message);
                Assert.AreEqual("path", Assert.Throws<ArgumentNullException>(() => world.StartRecordingToFile(null)).ParamName);
                Assert.AreEqual("path", Assert.Throws<ArgumentException>(() => world.StartRecordingToFile(_folder + "/a\0b.argusrec")).ParamName);
                string nowhere = FilePath(System.IO.Path.Combine("no-such-folder", "x.argusrec"));
                var cannot = Assert.Throws<ArgusException>(() => world.StartRecordingToFile(nowhere));
                Assert.AreEqual(Result.WriteFailed, cannot.Code);
                StringAssert.Contains("ARGUS_RESULT_WRITE_FAILED", cannot.Message);
                StringAssert.Contains("x.argusrec", cannot.Message);
                Assert.IsFalse(world.IsRecording);
                Assert.IsNull(world.RecordingTo);
                CollectionAssert.IsEmpty(System.IO.Directory.GetFileSystemEntries(_folder), "no file was created");
                CollectionAssert.AreEqual(before, world.Save(), "the world is unchanged");

                // Saving when no flight recorder runs: not recording, then recording in memory.
                var notFlying = Assert.Throws<ArgusException>(() => world.SaveFlightRecording(FilePath("none.argusrec")));
                Assert.AreEqual(Result.InvalidArgument, notFlying.Code);
                StringAssert.Contains("not recording to a flight recorder", notFlying.Message);
                world.StartRecording();
                notFlying = Assert.Throws<ArgusException>(() => world.SaveFlightRecording(FilePath("none.argusrec")));
                Assert.AreEqual(Result.InvalidArgument, notFlying.Code);
                StringAssert.Contains("not recording to a flight recorder", notFlying.Message);
                Assert.AreEqual(Result.InvalidArgument,
                    Assert.Throws<ArgusException>(() => world.SaveFlightRecording(new System.IO.MemoryStream())).Code);
                Assert.IsFalse(System.IO.File.Exists(FilePath("none.argusrec")));
                Assert.AreEqual(RecordTo.Memory, world.RecordingTo, "the recording in memory goes on");
                for (int k = 1; k <= 3; k++) scene.Step(world, k);
                Assert.AreEqual(3u, Replay.Verify(world.StopRecording()).StepCount);

                // A flight recorder refuses a second start, an empty path, a folder that does not exist and a
                // stream that throws, and goes on.
                world.StartFlightRecorder(5f);
                for (int k = 4; k <= 8; k++) scene.Step(world, k);
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(() => world.StartRecordingToFile(FilePath("b.argusrec"))).Code);
                Assert.IsFalse(System.IO.File.Exists(FilePath("b.argusrec")), "a refused start creates no file");
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(() => world.SaveFlightRecording("")).Code);
                var unwritable = Assert.Throws<ArgusException>(() => world.SaveFlightRecording(nowhere));
                Assert.AreEqual(Result.WriteFailed, unwritable.Code);
                var thrown = Assert.Throws<ArgusException>(() => world.SaveFlightRecording(new FailingStream()));
                Assert.AreEqual(Result.WriteFailed, thrown.Code);
                Assert.IsInstanceOf<System.IO.IOException>(thrown.InnerException);
                StringAssert.Contains("disk full (test)", thrown.Message);
                Assert.AreEqual(RecordTo.Flight, world.RecordingTo, "the flight recorder goes on");
                for (int k = 9; k <= 10; k++) scene.Step(world, k);
                string saved = FilePath("after-refusals.argusrec");
                world.SaveFlightRecording(saved);
                Assert.AreEqual(7u, Replay.Verify(System.IO.File.ReadAllBytes(saved)).StepCount, "every step since it started");
                world.StopRecording();
                var stopped = Assert.Throws<ArgusException>(() => world.SaveFlightRecording(saved));
                Assert.AreEqual(Result.InvalidArgument, stopped.Code);
                Assert.AreEqual(7u, Replay.Verify(System.IO.File.ReadAllBytes(saved)).StepCount, "a refused save leaves the file alone");
            }
        }
    }
}
