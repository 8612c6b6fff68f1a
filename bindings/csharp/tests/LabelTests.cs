using System;
using System.Text;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>Labels through the object model (#46): World.SetLabel / GetLabel for agents, targets and
    /// occluders, marshalled as UTF-8; removal; refusals that change nothing; and the labels of a world rebuilt
    /// from a recording.</summary>
    [TestFixture]
    public class LabelTests
    {
        // Names no ANSI code page holds together: Latin with accents, Japanese, an emoji (a surrogate pair).
        const string Guard = "Garde Élodie №1";
        const string Player = "プレイヤー";
        const string Wall = "north wall 🧱";

        sealed class Things
        {
            public AgentId Agent;
            public TargetId Target;
            public OccluderId Occluder;
        }

        static Things Make(World world)
        {
            var t = new Things();
            t.Agent = world.CreateAgent(AgentDef.Default());
            TargetDef target = TargetDef.Default();
            target.Position = Support.V(0, 0, 5);
            t.Target = world.CreateTarget(target);
            t.Occluder = world.CreateBox(Support.V(3, 1, 3), Quat.Identity, Support.V(1, 1, 0.2f));
            return t;
        }

        // The bytes the library holds for an agent's label, read with the raw P/Invoke call.
        static unsafe byte[] NativeBytes(World world, AgentId agent)
        {
            var buffer = new byte[Constants.MAX_LABEL_BYTES + 1];
            uint n;
            fixed (byte* p = buffer)
                Assert.AreEqual(Result.Ok, NativeMethods.argus_agent_get_label(world.Handle, agent, p, (uint)buffer.Length, &n));
            var bytes = new byte[n];
            Array.Copy(buffer, bytes, (int)n);
            return bytes;
        }

        [Test]
        public void NonAsciiNamesRoundTripOnAgentsTargetsAndOccluders()
        {
            using (var world = new World())
            {
                Things t = Make(world);
                Assert.AreEqual("", world.GetLabel(t.Agent), "a thing has no label until given one");
                Assert.AreEqual("", world.GetLabel(t.Target));
                Assert.AreEqual("", world.GetLabel(t.Occluder));
                world.SetLabel(t.Agent, Guard);
                world.SetLabel(t.Target, Player);
                world.SetLabel(t.Occluder, Wall);
                Assert.AreEqual(Guard, world.GetLabel(t.Agent));
                Assert.AreEqual(Player, world.GetLabel(t.Target));
                Assert.AreEqual(Wall, world.GetLabel(t.Occluder));
                // The library holds UTF-8 (what recordings write and the inspector reads), not a code page.
                CollectionAssert.AreEqual(Encoding.UTF8.GetBytes(Guard), NativeBytes(world, t.Agent));
                // A label set again replaces the old one.
                world.SetLabel(t.Agent, "G1");
                Assert.AreEqual("G1", world.GetLabel(t.Agent));
            }
        }

        [Test]
        public void TheLimitIsBytesOfUtf8NotCharacters()
        {
            using (var world = new World())
            {
                Things t = Make(world);
                string longest = new string('€', 85); // 3 bytes each: 255 bytes, the most a label holds
                Assert.AreEqual(255, Encoding.UTF8.GetByteCount(longest));
                world.SetLabel(t.Target, longest);
                Assert.AreEqual(longest, world.GetLabel(t.Target), "255 bytes of UTF-8 are accepted and read back whole");
                world.SetLabel(t.Agent, "G1");
                string accents = new string('é', 128); // 128 characters, but 256 bytes of UTF-8
                var e = Assert.Throws<ArgusException>(() => world.SetLabel(t.Agent, accents));
                Assert.AreEqual(Result.InvalidArgument, e.Code);
                StringAssert.Contains("256 bytes of UTF-8", e.Message, "the message gives the label's size in bytes");
                StringAssert.Contains("255", e.Message, "and the limit");
                Assert.AreEqual("G1", world.GetLabel(t.Agent), "a refused label changes nothing");
            }
        }

        [Test]
        public void AnEmptyOrNullLabelRemovesIt()
        {
            using (var world = new World())
            {
                Things t = Make(world);
                world.SetLabel(t.Agent, Guard);
                world.SetLabel(t.Target, Player);
                world.SetLabel(t.Occluder, Wall);
                world.SetLabel(t.Agent, "");
                world.SetLabel(t.Target, null);
                world.SetLabel(t.Occluder, "");
                Assert.AreEqual("", world.GetLabel(t.Agent));
                Assert.AreEqual("", world.GetLabel(t.Target));
                Assert.AreEqual("", world.GetLabel(t.Occluder));
                world.SetLabel(t.Agent, null); // removing a label that is not there is no error
                Assert.AreEqual("", world.GetLabel(t.Agent));
            }
        }

        [Test]
        public void RefusalsChangeNothing()
        {
            using (var world = new World())
            using (var other = new World())
            {
                Things t = Make(world);
                world.SetLabel(t.Agent, Guard);
                world.SetLabel(t.Occluder, Wall);
                var nul = Assert.Throws<ArgumentException>(() => world.SetLabel(t.Agent, "G\0hidden"));
                Assert.AreEqual("label", nul.ParamName);
                Assert.AreEqual(Guard, world.GetLabel(t.Agent), "a label with a NUL changes nothing");

                var e = Assert.Throws<ArgusException>(() => world.SetLabel(new AgentId(), "nobody"));
                Assert.AreEqual(Result.InvalidId, e.Code, "the null id");
                e = Assert.Throws<ArgusException>(() => world.GetLabel(new TargetId()));
                Assert.AreEqual(Result.InvalidId, e.Code);

                Things elsewhere = Make(other);
                e = Assert.Throws<ArgusException>(() => world.SetLabel(elsewhere.Agent, "stranger"));
                Assert.AreEqual(Result.InvalidId, e.Code, "another world's id");
                Assert.AreEqual("", other.GetLabel(elsewhere.Agent), "the other world's agent is not named");
                Assert.AreEqual(Guard, world.GetLabel(t.Agent));

                // A destroyed thing takes its label with it; its id is refused; the next thing in its slot has none.
                world.DestroyOccluder(t.Occluder);
                e = Assert.Throws<ArgusException>(() => world.GetLabel(t.Occluder));
                Assert.AreEqual(Result.InvalidId, e.Code, "a destroyed occluder's id");
                e = Assert.Throws<ArgusException>(() => world.SetLabel(t.Occluder, "ghost"));
                Assert.AreEqual(Result.InvalidId, e.Code);
                OccluderId again = world.CreateBox(Support.V(3, 1, 3), Quat.Identity, Support.V(1, 1, 0.2f));
                Assert.AreEqual("", world.GetLabel(again), "a new occluder starts unnamed");
            }
            var disposed = new World();
            AgentId gone = disposed.CreateAgent(AgentDef.Default());
            disposed.Dispose();
            Assert.Throws<ObjectDisposedException>(() => disposed.SetLabel(gone, "x"));
            Assert.Throws<ObjectDisposedException>(() => disposed.GetLabel(gone));
        }

        [Test]
        public void ARecordingKeepsTheLabelsAndItsRebuiltWorldHasThem()
        {
            byte[] bytes;
            Things t;
            AgentId late;
            using (var world = new World())
            {
                t = Make(world);
                world.SetLabel(t.Agent, Guard);       // before the recording: in its START's NAMES
                world.SetLabel(t.Occluder, Wall);
                world.StartRecording();
                for (int k = 0; k < 3; k++) world.Step(0.1f);
                world.SetLabel(t.Target, Player);     // while recording: a NAMES of its own
                world.SetLabel(t.Agent, "G1");        // renamed
                world.SetLabel(t.Occluder, null);     // removed
                late = world.CreateAgent(AgentDef.Default());
                world.SetLabel(late, "Späher");
                for (int k = 0; k < 3; k++) world.Step(0.1f);
                bytes = world.StopRecording();
            }
            Assert.AreEqual(6u, Replay.Verify(bytes).StepsReplayed, "the recording with its names verifies");
            // The rebuilt world is a world of its own: the recorded ids are its ids under its tag.
            using (World rebuilt = World.FromRecording(bytes))
            {
                ushort tag = rebuilt.Tag;
                Assert.AreEqual("G1", rebuilt.GetLabel(t.Agent.WithWorld(tag)), "the rename");
                Assert.AreEqual(Player, rebuilt.GetLabel(t.Target.WithWorld(tag)), "a label set while recording");
                Assert.AreEqual("", rebuilt.GetLabel(t.Occluder.WithWorld(tag)), "the removal");
                Assert.AreEqual("Späher", rebuilt.GetLabel(late.WithWorld(tag)), "an agent created while recording");
            }
            using (World early = World.FromRecording(bytes, 3))
            {
                ushort tag = early.Tag;
                Assert.AreEqual(Guard, early.GetLabel(t.Agent.WithWorld(tag)), "after 3 steps: the name before the rename");
                Assert.AreEqual("", early.GetLabel(t.Target.WithWorld(tag)), "not named yet");
                Assert.AreEqual(Wall, early.GetLabel(t.Occluder.WithWorld(tag)), "not removed yet");
            }
        }
    }
}
