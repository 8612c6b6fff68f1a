using System;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>Lifetime, errors, bad input, senses and snapshots through the object model.</summary>
    [TestFixture]
    public class WorldTests
    {
        // A guard at the origin facing +Z, eye at its feet, sensing every step (the lesson's setup).
        internal static AgentId Guard(World world, Vec3 position, Vec3 forward)
        {
            AgentDef def = AgentDef.Default();
            def.Position = position;
            def.Forward = forward;
            def.Sight.EyeOffset = Support.V(0, 0, 0);
            def.Sight.RateHz = 0;
            return world.CreateAgent(def);
        }

        internal static TargetId PointTarget(World world, Vec3 position)
        {
            TargetDef def = TargetDef.Default();
            def.Position = position;
            def.SetCheckPoints(Support.V(0, 0, 0));
            return world.CreateTarget(def);
        }

        [Test]
        public void DefsComeFromTheLibraryAndAZeroedDefIsRefused()
        {
            AgentDef def = AgentDef.Default();
            Assert.Greater(def.Sight.ViewRadius, 0f);
            Assert.AreEqual(Constants.DEF_COOKIE, (uint)typeof(AgentDef).GetField("InternalCookie", System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.NonPublic).GetValue(def), "filled by the library, hidden from users");
            using (var world = new World())
            {
                var e = Assert.Throws<ArgusException>(() => world.CreateAgent(new AgentDef()));
                Assert.AreEqual(Result.DefNotInitialized, e.Code);
                Assert.AreEqual(0u, world.Counts.Agents);
            }
        }

        [Test]
        public void TenThousandForgottenWorldsAreReleasedByTheFinaliser()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            uint before = Library.LiveWorldCount;
            // On a thread of its own: Mono scans stacks conservatively, and a dead thread's stack keeps nothing alive.
            var thread = new System.Threading.Thread(() =>
            {
                CreateAndForget(10000);
                ScrubStack(64); // the worker's own stale slots, before it exits
            });
            thread.Start();
            thread.Join();
            Assert.GreaterOrEqual(Library.LiveWorldCount, before, "worlds were alive before collection");
            CollectUntil(before);
            Assert.AreEqual(before, Library.LiveWorldCount, "every forgotten world was destroyed");
        }

        /// <summary>Collects until the live world count falls to `count` (or 200 rounds pass). Mono scans
        /// stacks conservatively, so a stale stack slot can keep one handle alive for a while: each round
        /// also overwrites this thread's stale slots and lets the finaliser thread move on.</summary>
        internal static void CollectUntil(uint count)
        {
            for (int i = 0; i < 200 && Library.LiveWorldCount > count; i++)
            {
                ScrubStack(64);
                GC.Collect();
                GC.WaitForPendingFinalizers();
                if (i > 10) System.Threading.Thread.Sleep(5);
            }
        }

        internal static unsafe int ScrubStack(int depth)
        {
            byte* junk = stackalloc byte[512];
            for (int i = 0; i < 512; i++) junk[i] = 0;
            return depth == 0 ? junk[7] : ScrubStack(depth - 1) + junk[3];
        }

        // In its own method so no stack slot keeps the last world alive.
        static void CreateAndForget(int n)
        {
            for (int i = 0; i < n; i++)
            {
                var w = new World();
                Guard(w, Support.V(i, 0, 0), Support.V(0, 0, 1));
            }
        }

        [Test]
        public void DisposeDestroysNowAndLaterCallsThrowObjectDisposed()
        {
            uint before = Library.LiveWorldCount;
            var world = new World();
            Assert.AreEqual(before + 1, Library.LiveWorldCount);
            world.Dispose();
            Assert.AreEqual(before, Library.LiveWorldCount);
            Assert.IsTrue(world.IsDisposed);
            Assert.Throws<ObjectDisposedException>(() => world.Step(0.1f));
            world.Dispose(); // twice is fine
        }

        [Test]
        public void StaleAndForgedIdsThrowInvalidId()
        {
            using (var world = new World())
            {
                AgentId agent = Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                TargetId target = PointTarget(world, Support.V(0, 0, 5));
                world.DestroyAgent(agent);
                Assert.IsFalse(world.IsValid(agent));
                var e = Assert.Throws<ArgusException>(() => world.SetAgentPose(agent, Support.V(1, 0, 0), Support.V(0, 0, 1)));
                Assert.AreEqual(Result.InvalidId, e.Code);
                StringAssert.Contains("ARGUS_RESULT_INVALID_ID", e.Message);
                Assert.AreEqual(e.Message.Substring("ARGUS_RESULT_INVALID_ID: ".Length), world.LastError);

                var forged = new AgentId { Index = 977, Generation = 3 };
                Assert.AreEqual(Result.InvalidId, Assert.Throws<ArgusException>(() => world.GetAgentState(forged)).Code);
                Assert.AreEqual(Result.InvalidId, Assert.Throws<ArgusException>(() => world.GetAgentState(new AgentId())).Code);
                var forgedTarget = new TargetId { Index = target.Index, Generation = (ushort)(target.Generation + 1), World = target.World };
                Assert.AreEqual(Result.InvalidId, Assert.Throws<ArgusException>(() => world.DestroyTarget(forgedTarget)).Code);
                Assert.IsTrue(world.IsValid(target), "the real target survived the forged destroy");
                Assert.AreEqual(Result.InvalidId,
                    Assert.Throws<ArgusException>(() => world.DestroyOccluder(new OccluderId { Index = 1, Generation = 1 })).Code);
            }
        }

        [Test]
        public void IdsNameTheirWorldAndUserDataComesBack()
        {
            using (var a = new World())
            using (var b = new World())
            {
                Assert.AreNotEqual(a.Tag, b.Tag);
                AgentDef def = AgentDef.Default();
                def.UserData = 0xFEEDFACE12345678UL;
                AgentId inA = a.CreateAgent(def);
                Assert.AreEqual(a.Tag, inA.World);
                Guard(b, Support.V(0, 0, 0), Support.V(0, 0, 1));
                Assert.AreEqual(Result.InvalidId, Assert.Throws<ArgusException>(() => b.GetAgentState(inA)).Code,
                    "another world's id is refused, even where the slot exists");
                Assert.AreEqual(0xFEEDFACE12345678UL, a.GetAgentState(inA).UserData);
                StringAssert.Contains("another world", b.LastError);
            }
        }

        [Test]
        public void AllAgentStatesComeInOneCall()
        {
            using (var world = new World())
            {
                var ids = new AgentId[5];
                for (int i = 0; i < ids.Length; i++)
                {
                    AgentDef def = AgentDef.Default();
                    def.Position = Support.V(i, 0, 0);
                    def.UserData = (ulong)(100 + i);
                    ids[i] = world.CreateAgent(def);
                }
                world.DestroyAgent(ids[2]);
                AgentStateEntry[] states = new AgentStateEntry[2];
                int n = world.GetAgentStates(ref states);
                Assert.AreEqual(4, n);
                Assert.GreaterOrEqual(states.Length, 4, "the buffer grew");
                var seen = new System.Collections.Generic.List<ulong>();
                for (int i = 0; i < n; i++)
                {
                    Assert.AreEqual(states[i].State.Position.X, world.GetAgentState(states[i].Agent).Position.X);
                    seen.Add(states[i].State.UserData);
                }
                CollectionAssert.AreEquivalent(new ulong[] { 100, 101, 103, 104 }, seen);
            }
        }

        [Test]
        public void APanicInsideTheLibraryIsAnExceptionAndPoisonsOnlyThatWorld()
        {
            using (var poisoned = new World())
            using (var healthy = new World())
            {
                Guard(poisoned, Support.V(0, 0, 0), Support.V(0, 0, 1));
                Assert.AreEqual(Result.Panic, TestHooks.argus_testing_trigger_panic(poisoned.Handle));
                Assert.AreEqual(Result.WorldPoisoned, Assert.Throws<ArgusException>(() => poisoned.Step(0.1f)).Code);
                Guard(healthy, Support.V(0, 0, 0), Support.V(0, 0, 1));
                healthy.Step(0.1f);
            }
        }

        [Test]
        public void NanInputIsRefusedAndTheWorldIsUnchanged()
        {
            using (var world = new World())
            {
                AgentId agent = Guard(world, Support.V(1, 0, 2), Support.V(0, 0, 1));
                TargetId target = PointTarget(world, Support.V(0, 0, 5));
                byte[] before = world.Save();
                AgentState stateBefore = world.GetAgentState(agent);

                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(
                    () => world.SetAgentPose(agent, Support.V(float.NaN, 0, 0), Support.V(0, 0, 1))).Code);
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(
                    () => world.SetTargetPose(target, Support.V(0, float.PositiveInfinity, 0), Support.V(0, 0, 1))).Code);
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(() => world.Step(float.NaN)).Code);
                var ids = new[] { agent, agent };
                var positions = new[] { Support.V(3, 0, 3), Support.V(float.NaN, 0, 0) };
                var forwards = new[] { Support.V(0, 0, 1), Support.V(0, 0, 1) };
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(
                    () => world.SetAgentPoses(ids, positions, forwards, 2)).Code);
                AgentDef bad = AgentDef.Default();
                bad.Sight.ViewRadius = float.NaN;
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(() => world.CreateAgent(bad)).Code);
                SoundDef sound = SoundDef.Default();
                sound.Loudness = float.NaN;
                Assert.AreEqual(Result.InvalidArgument, Assert.Throws<ArgusException>(() => world.EmitSound(sound)).Code);

                AgentState stateAfter = world.GetAgentState(agent);
                Assert.AreEqual(stateBefore.Position.X, stateAfter.Position.X);
                Assert.AreEqual(stateBefore.Position.Z, stateAfter.Position.Z);
                CollectionAssert.AreEqual(before, world.Save(), "the snapshot is byte-identical");
            }
        }

        [Test]
        public void AGuardSeesATargetInFrontAndNotBehindAWallOrItsBack()
        {
            using (var world = new World())
            {
                AgentId guard = Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                TargetId front = PointTarget(world, Support.V(0, 0, 5));
                TargetId back = PointTarget(world, Support.V(0, 0, -5));
                world.Step(0.1f);
                Assert.IsTrue(world.CanSee(guard, front).Seen);
                Assert.IsFalse(world.CanSee(guard, back).Seen);
                PerceptArray percepts = world.Percepts;
                Assert.AreEqual(1, percepts.Length);
                Assert.AreEqual(front, percepts[0].Target);
                Assert.AreEqual(guard, percepts[0].Agent);
                Assert.AreEqual(PerceptKind.Sight, percepts[0].Kind);
                Assert.Throws<IndexOutOfRangeException>(() => { var unused = percepts[1]; });
                TargetRef[] visible = null;
                Assert.AreEqual(1, world.GetVisibleTargets(guard, ref visible));
                Assert.AreEqual(front, visible[0].Target);

                // The facing convention (+Z forward, +Y up, positions unchanged): turned around, the guard
                // sees the one behind and no longer the one in front.
                world.SetAgentPose(guard, Support.V(0, 0, 0), Support.V(0, 0, -1));
                Assert.IsFalse(world.CanSee(guard, front).Seen);
                Assert.IsTrue(world.CanSee(guard, back).Seen);
                world.SetAgentPose(guard, Support.V(0, 0, 0), Support.V(0, 0, 1));

                world.CreateBox(Support.V(0, 1, 2.5f), Quat.Identity, Support.V(2, 1, 0.1f));
                Assert.IsFalse(world.CanSee(guard, front).Seen, "a wall blocks the view");
                Assert.AreEqual(PointStatus.Blocked, world.CanSee(guard, front).Status(0));
            }
        }

        [Test]
        public void MemoryBrainAndForgetEventsFlowThroughTheViews()
        {
            using (var world = new World())
            {
                AgentId guard = Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                TargetId intruder = PointTarget(world, Support.V(0, 0, 5));
                world.Step(0.1f);
                Assert.AreEqual(1, world.BrainEvents.Length);
                Assert.AreEqual(BrainState.Chasing, world.BrainEvents[0].To);
                Assert.AreEqual(BrainState.Chasing, world.GetAgentState(guard).BrainState);
                MemoryRecord[] memory = new MemoryRecord[1];
                Assert.AreEqual(1, world.GetMemory(guard, ref memory));
                Assert.AreEqual(intruder, memory[0].Target);
                Assert.AreEqual(1f, memory[0].Confidence, 1e-6f);

                world.SetTargetEnabled(intruder, false);
                int forgets = 0;
                for (int i = 0; i < 200 && forgets == 0; i++)
                {
                    world.Step(0.1f);
                    forgets += world.ForgetEvents.Length;
                }
                Assert.AreEqual(1, forgets, "the memory decays until forgotten");
                Assert.AreEqual(0, world.GetMemory(guard, ref memory));
            }
        }

        [Test]
        public void SoundsAreHeardAndAttitudesStored()
        {
            using (var world = new World())
            {
                AgentId guard = Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                SoundDef sound = SoundDef.Default();
                sound.Position = Support.V(0, 0, -3);
                sound.Loudness = 10;
                world.EmitSound(sound);
                world.Step(0.1f);
                Assert.AreEqual(1, world.Percepts.Length);
                Assert.AreEqual(PerceptKind.Sound, world.Percepts[0].Kind);
                Assert.AreEqual(BrainState.Investigating, world.GetAgentState(guard).BrainState);

                world.SetAttitude(1, 2, Attitude.Friendly);
                Assert.AreEqual(Attitude.Friendly, world.GetAttitude(1, 2));
            }
        }

        [Test]
        public void SnapshotsRoundTripThroughByteArrays()
        {
            using (var a = new World())
            using (var b = new World())
            {
                AgentId guard = Guard(a, Support.V(0, 0, 0), Support.V(0, 0, 1));
                TargetId t = PointTarget(a, Support.V(0, 0, 5));
                a.CreateBox(Support.V(4, 1, 4), Quat.FromRotationY(0.3f), Support.V(1, 1, 1));
                a.Step(0.1f);
                byte[] snapshot = a.Save();
                b.Load(snapshot);
                CollectionAssert.AreEqual(snapshot, b.Save());
                Assert.AreEqual(a.Time, b.Time);
                Assert.AreEqual(Result.InvalidId, Assert.Throws<ArgusException>(() => b.GetAgentState(guard)).Code,
                    "an id names its world");
                Assert.AreEqual(BrainState.Chasing, b.GetAgentState(guard.WithWorld(b.Tag)).BrainState, "ids carry over");
                a.SetTargetPose(t, Support.V(0, 0, -5), Support.V(0, 0, 1));
                b.SetTargetPose(t.WithWorld(b.Tag), Support.V(0, 0, -5), Support.V(0, 0, 1));
                for (int i = 0; i < 30; i++)
                {
                    a.Step(0.1f);
                    b.Step(0.1f);
                    Assert.AreEqual(a.BrainEvents.Length, b.BrainEvents.Length);
                }
                CollectionAssert.AreEqual(a.Save(), b.Save(), "both continue identically");

                byte[] reused = new byte[4];
                int n = a.Save(ref reused);
                Assert.AreEqual(snapshot.Length > 0, n > 0);
                byte[] corrupt = (byte[])snapshot.Clone();
                corrupt[corrupt.Length / 2] ^= 0x55;
                byte[] beforeLoad = b.Save();
                Assert.AreEqual(Result.BadSnapshot, Assert.Throws<ArgusException>(() => b.Load(corrupt)).Code);
                CollectionAssert.AreEqual(beforeLoad, b.Save(), "a bad snapshot leaves the world unchanged");
            }
        }

        [Test]
        public void DebugDrawInfluenceMapsAndCoverWork()
        {
            using (var world = new World())
            {
                Guard(world, Support.V(0, 0, 0), Support.V(0, 0, 1));
                PointTarget(world, Support.V(0, 0, 5));
                world.CreateBox(Support.V(5, 1, 5), Quat.Identity, Support.V(1, 1, 1));
                world.Step(0.1f);
                DebugDrawOptions options = DebugDrawOptions.Default();
                options.Flags = Constants.DRAW_ALL;
                DebugDrawView draw = world.DebugDraw(options);
                Assert.Greater(draw.LineCount, 0u);
                Assert.AreNotEqual(0u, draw.Line(0).Color);

                InfluenceMapDef mapDef = InfluenceMapDef.Default();
                mapDef.Width = 16;
                mapDef.Height = 16;
                mapDef.CellSize = 1;
                InfluenceMapId map = world.CreateInfluenceMap(mapDef);
                world.SetInfluenceLayerName(map, 0, "danger");
                uint layer;
                Assert.IsTrue(world.FindInfluenceLayer(map, "danger", out layer));
                Assert.IsFalse(world.FindInfluenceLayer(map, "nothing", out layer));
                world.AddInfluence(map, 0, Support.V(8.5f, 0, 8.5f), 10, 0);
                Assert.AreEqual(10f, world.GetInfluence(map, 0, Support.V(8.5f, 0, 8.5f)));
                world.SetInfluence(map, 0, Support.V(2.5f, 0, 2.5f), -3);
                Assert.AreEqual(-3f, world.GetInfluence(map, 0, Support.V(2.5f, 0, 2.5f)));
                world.BlurInfluence(map, 0, 1);
                Assert.Less(world.GetInfluence(map, 0, Support.V(8.5f, 0, 8.5f)), 10f);
                Assert.AreEqual(256, world.GetInfluenceLayer(map, 0).Length);
                CellValue best;
                Assert.IsTrue(world.BestInfluenceCell(map, 0, Support.V(8, 0, 8), 4, true, out best));

                CoverQuery cover = CoverQuery.Default();
                var threats = new[] { new Threat { Position = Support.V(5, 0, 0), Eye = Support.V(5, 1, 0), Forward = Support.V(0, 0, 1) } };
                var spots = new[] { Support.V(5, 0, 8), Support.V(0, 0, 3) };
                cover.Candidates.Kind = CandidateKind.Points;
                cover.SelfPosition = Support.V(0, 0, 0);
                TacticalResult[] results = null;
                TacticalAnswer answer;
                int n = world.FindCover(cover, spots, threats, ref results, out answer);
                Assert.AreEqual(1, n, "only the spot behind the box hides from the threat");
                Assert.AreEqual(5f, results[0].Position.X);
                Assert.AreEqual(1u, answer.Found);

                // Per-candidate danger adds to the (absent) map's value: score = danger · 10 + travel.
                n = world.FindCover(cover, spots, new[] { 2f, 0f }, threats, ref results, out answer);
                Assert.AreEqual(1, n);
                Assert.AreEqual(20f + (float)Math.Sqrt(89), results[0].Score, 1e-4f);
                Assert.Throws<ArgusException>(() => world.FindCover(cover, spots, new[] { 2f }, threats, ref results, out answer));
                Assert.Throws<ArgusException>(
                    () => world.FindCover(cover, spots, new[] { float.NaN, 0f }, threats, ref results, out answer));

                // Flank: two mirror spots behind the threat; the danger picks the safer one.
                FlankQuery flank = FlankQuery.Default();
                flank.Candidates.Kind = CandidateKind.Points;
                flank.TopK = 2;
                var behind = new[] { Support.V(3, 0, -4), Support.V(-3, 0, -4) };
                n = world.FindFlank(flank, behind, new[] { 0.5f, 0f }, ref results, out answer);
                Assert.AreEqual(2, n);
                Assert.AreEqual(1u, results[0].CandidateIndex);
                Assert.AreEqual(0.8f - 0.5f, results[1].Score, 1e-5f);
            }
        }
    }
}
