// What a Unity developer meets first: a component used without an enabled PerceptionWorld says so
// once (a warning naming the object and the fix), never a silent false; the lesson's exercise
// helpers on FieldOfViewSensor answer from the native sight test (names in a user's script: NamesTests).
using System.Collections.Generic;
using Argus.Perception;
using Argus.Perception.Tests;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class UsabilityTests
    {
        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        static int Warnings(string about)
        {
            int n = 0;
            foreach (var line in Debug.StandInLog)
                if (line.StartsWith("warning: ") && line.Contains(about) && line.Contains("PerceptionWorld")) n++;
            return n;
        }

        [Test]
        public void SensorWithoutWorld_WarnsOnce_AtStartAndWhenQueried()
        {
            var guard = new GameObject("Lonely Guard");
            var sight = guard.AddComponent<FieldOfViewSensor>();
            var player = new GameObject("Player");
            player.AddComponent<PerceptionTarget>();
            StandIn.Player.Frame(0.02f);
            StandIn.Player.Frame(0.02f);
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
            Assert.AreEqual(1, Warnings("Lonely Guard"), string.Join("\n", Debug.StandInLog.ToArray()));
        }

        [Test]
        public void WorldEnabledLater_NoWarning()
        {
            var guard = new GameObject("Guard");
            guard.AddComponent<FieldOfViewSensor>();
            var world = new GameObject("World");
            world.AddComponent<PerceptionWorld>();   // same frame, enabled after the guard: Start is later
            StandIn.Player.Frame(0.02f);
            Assert.AreEqual(0, Warnings("Guard"), string.Join("\n", Debug.StandInLog.ToArray()));
        }

        [Test]
        public void SoundWithoutWorld_WarnsOnce()
        {
            AudioPerception.EmitSound(Vector3.zero, 5f, null);
            AudioPerception.EmitSound(Vector3.zero, 5f, null);
            Assert.AreEqual(1, Warnings("EmitSound"), string.Join("\n", Debug.StandInLog.ToArray()));
        }

        [Test]
        public void InfluenceMapWithoutWorld_SaysWhatToDo()
        {
            var e = Assert.Throws<System.InvalidOperationException>(() => new InfluenceMap(4, 4, 1f, Vector3.zero));
            StringAssert.Contains("PerceptionWorld", e.Message);
        }

        [Test]
        public void ExerciseHelpers_AnswerFromTheNativeSightTest()
        {
            var scene = new LessonScene();
            var guard = scene.Guard(Vector3.zero, Vector3.forward);
            var sight = guard.GetComponent<FieldOfViewSensor>();
            var ahead = scene.Player(new Vector3(0f, 0f, 5f));
            var far = scene.Player(new Vector3(0f, 0f, 50f));
            var side = scene.Player(new Vector3(5f, 0f, 0.5f));
            var hidden = scene.Player(new Vector3(-3f, 0f, 6f));
            scene.Wall(new Vector3(-1.5f, 0f, 3f), new Vector3(2f, 3f, 0.2f));

            Assert.IsTrue(sight.WithinRange(ahead.transform));
            Assert.IsFalse(sight.WithinRange(far.transform));
            Assert.IsTrue(sight.WithinRange(side.transform));
            Assert.IsTrue(sight.WithinAngle(ahead.transform));
            Assert.IsFalse(sight.WithinAngle(side.transform));
            Assert.IsTrue(sight.WithinAngle(far.transform), "the cone test alone, as in the lesson");
            Assert.IsTrue(sight.HasLineOfSight(ahead.transform));
            Assert.IsFalse(sight.HasLineOfSight(hidden.transform));
            Assert.IsFalse(sight.HasLineOfSight(side.transform), "the native test rays only targets in range and in the cone");

            // The lesson's exercise: am I behind the target (outside its front half)?
            ahead.transform.rotation = Quaternion.LookRotation(Vector3.forward); // facing away from the guard
            Assert.IsTrue(sight.IsBehindTarget(ahead.transform));
            ahead.transform.rotation = Quaternion.LookRotation(Vector3.back);    // facing the guard
            Assert.IsFalse(sight.IsBehindTarget(ahead.transform));
            scene.Destroy();
        }

        [Test]
        public void ReenabledWorld_TakesBackTheComponentsThatNameIt()
        {
            var scene = new LessonScene(); // every component's `world` field names the scene's world
            var guard = scene.Guard(Vector3.zero, Vector3.forward);
            var sight = guard.GetComponent<FieldOfViewSensor>();
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            scene.World.Step(0.1f);
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
            scene.World.enabled = false;
            Assert.IsFalse(sight.CanSeeTarget(player.transform), "no world, no sight");
            scene.World.enabled = true;
            // They rejoined the new native world, not the one destroyed on disable.
            Assert.AreEqual(scene.World.Native.Tag, player.GetComponent<PerceptionTarget>().Id.World);
            Assert.AreEqual(scene.World.Native.Tag, guard.GetComponent<PerceptionAgent>().Id.World);
            AudioPerception.EmitSound(player.transform.position, 5f, player);
            scene.World.Step(0.1f);
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
            Assert.AreEqual(1, sight.visibleTargets.Count);
            scene.Destroy();
        }
    }
}
