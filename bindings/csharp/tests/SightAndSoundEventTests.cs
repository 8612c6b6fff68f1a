using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>ABI 3's seen/lost events and sound identity through the object model: foreach, expiry, user data.</summary>
    [TestFixture]
    public class SightAndSoundEventTests
    {
        [Test]
        public void SeenAndLostEventsComeOnceWithUserDataAndExpire()
        {
            using (var world = new World())
            {
                AgentDef def = AgentDef.Default();
                def.Forward = Support.V(0, 0, 1);
                def.UserData = 11;
                AgentId guard = world.CreateAgent(def);
                TargetDef t = TargetDef.Default();
                t.Position = Support.V(0, 0, 5);
                t.UserData = 22;
                TargetId player = world.CreateTarget(t);
                var seen = new List<SightEvent>();
                SightEventArray firstSeen = default(SightEventArray);
                for (int i = 0; i < 30 && seen.Count == 0; i++)
                {
                    world.Step(1 / 30f);
                    firstSeen = world.SeenEvents;
                    foreach (SightEvent e in firstSeen) seen.Add(e);
                    Assert.AreEqual(0, world.LostEvents.Length, "nothing lost while in view");
                }
                Assert.AreEqual(1, seen.Count, "one seen event");
                Assert.AreEqual(guard, seen[0].Agent);
                Assert.AreEqual(player, seen[0].Target);
                Assert.AreEqual(11UL, seen[0].AgentUserData);
                Assert.AreEqual(22UL, seen[0].TargetUserData);
                for (int i = 0; i < 10; i++)
                {
                    world.Step(1 / 30f);
                    Assert.AreEqual(0, world.SeenEvents.Length, "seen once, not every tick");
                }
                Assert.Throws<InvalidOperationException>(() => { var x = firstSeen[0]; }, "an expired seen array throws");

                world.SetTargetPose(player, Support.V(0, 0, -5), Support.V(0, 0, 1)); // behind the guard
                var lost = new List<SightEvent>();
                SightEventArray lostArray = default(SightEventArray);
                for (int i = 0; i < 30 && lost.Count == 0; i++)
                {
                    world.Step(1 / 30f);
                    lostArray = world.LostEvents;
                    foreach (SightEvent e in lostArray) lost.Add(e);
                }
                Assert.AreEqual(1, lost.Count, "one lost event");
                Assert.AreEqual(player, lost[0].Target);
                Assert.AreEqual(22UL, lost[0].TargetUserData);
                world.Dispose();
                Assert.Throws<ObjectDisposedException>(() => { foreach (SightEvent e in lostArray) { } });
            }
        }

        [Test]
        public void TwoSoundsAtOneSpotKeepTheirIndexLoudnessAndSource()
        {
            using (var world = new World())
            {
                AgentDef def = AgentDef.Default();
                def.Forward = Support.V(0, 0, -1); // facing away: hearing only
                world.CreateAgent(def);
                TargetDef a = TargetDef.Default();
                a.Position = Support.V(0, 0, 4);
                a.UserData = 101;
                TargetDef b = a;
                b.UserData = 202;
                TargetId sourceA = world.CreateTarget(a);
                TargetId sourceB = world.CreateTarget(b);
                SoundDef quiet = SoundDef.Default();
                quiet.Position = Support.V(0, 0, 4);
                quiet.Loudness = 8;
                quiet.Source = sourceA;
                SoundDef loud = quiet;
                loud.Loudness = 12;
                loud.Source = sourceB;
                world.EmitSound(quiet);
                world.EmitSound(loud);
                world.Step(1 / 30f);
                var sounds = new List<PerceptEvent>();
                foreach (PerceptEvent p in world.Percepts)
                    if (p.IsSound) sounds.Add(p);
                    else Assert.AreEqual(-1, p.Sound, "a sight percept has no sound");
                Assert.AreEqual(2, sounds.Count, "both sounds heard");
                sounds.Sort((x, y) => x.Sound.CompareTo(y.Sound));
                Assert.AreEqual(0, sounds[0].Sound);
                Assert.AreEqual(8f, sounds[0].Loudness);
                Assert.AreEqual(sourceA, sounds[0].Target);
                Assert.AreEqual(101UL, sounds[0].SourceUserData);
                Assert.AreEqual(1, sounds[1].Sound);
                Assert.AreEqual(12f, sounds[1].Loudness);
                Assert.AreEqual(sourceB, sounds[1].Target);
                Assert.AreEqual(202UL, sounds[1].SourceUserData);
            }
        }
    }
}
