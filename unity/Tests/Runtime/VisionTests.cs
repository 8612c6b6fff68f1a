using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.Tests
{
    /// <summary>Lesson §2–§4: range, cone, line of sight, through FieldOfViewSensor. Every field test
    /// changes one public field and expects a different answer, so a field that is not forwarded fails.</summary>
    public class VisionTests
    {
        LessonScene scene;
        GameObject guard;
        FieldOfViewSensor sight;

        [SetUp]
        public void SetUp()
        {
            scene = new LessonScene();
            guard = scene.Guard(Vector3.zero, Vector3.forward);
            sight = guard.GetComponent<FieldOfViewSensor>();
        }

        [TearDown]
        public void TearDown() { scene.Destroy(); }

        [Test]
        public void LessonDefaults_AreTheLibraryDefaults()
        {
            var fresh = new GameObject("fresh").AddComponent<FieldOfViewSensor>();
            AgentDef d = AgentDef.Default();
            Assert.AreEqual(d.Sight.ViewRadius, fresh.viewRadius);
            Assert.AreEqual(d.Sight.ViewAngle, fresh.viewAngle);
            Assert.AreEqual(d.Sight.EyeOffset.Y, fresh.eyeHeight);
            Assert.AreEqual(d.Sight.RateHz, fresh.sightRateHz);
            // Beyond the library's defaults: the near sense (a 360° peripheral cone of 1.5 m; the library's is off).
            Assert.AreEqual(0f, d.Sight.PeripheralRadius);
            Assert.AreEqual(1.5f, fresh.peripheralRadius);
            Assert.AreEqual(360f, fresh.peripheralAngle);
            Assert.AreEqual(d.Sight.LoseSightRadius, fresh.loseSightRadius);
            Assert.AreEqual(d.Awareness.RisePerSecond, fresh.awarenessRisePerSecond);
            Assert.AreEqual(d.Awareness.FallPerSecond, fresh.awarenessFallPerSecond);
            Assert.AreEqual(10f, fresh.viewRadius);
            Assert.AreEqual(90f, fresh.viewAngle);
            Object.DestroyImmediate(fresh.gameObject);
        }

        [Test]
        public void Trace_InRangeAndAhead_IsSeen()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Trace_BeyondViewRadius_IsNotSeen()
        {
            var player = scene.Player(new Vector3(0f, 0f, 12f));
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Trace_OutsideTheCone_IsNotSeen()
        {
            var side = scene.Player(new Vector3(5f, 0f, 1f));    // 79° off forward, cone half-angle 45°
            var behind = scene.Player(new Vector3(0f, 0f, -5f));
            Assert.IsFalse(sight.CanSeeTarget(side.transform));
            Assert.IsFalse(sight.CanSeeTarget(behind.transform));
        }

        [Test]
        public void Trace_InsideTheConeNearItsEdge_IsSeen()
        {
            var player = scene.Player(new Vector3(6f, 0f, 6.5f)); // 42.7° off forward
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Trace_BehindAWall_IsNotSeen()
        {
            var player = scene.Player(new Vector3(0f, 0f, 8f));
            scene.Wall(new Vector3(0f, 0f, 4f), new Vector3(4f, 3f, 0.5f));
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Facing_TurnedAround_DoesNotSee()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
            guard.transform.rotation = Quaternion.LookRotation(Vector3.back);
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Field_viewRadius_IsForwarded()
        {
            var player = scene.Player(new Vector3(0f, 0f, 12f));
            sight.viewRadius = 15f;
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Field_viewAngle_IsForwarded()
        {
            var player = scene.Player(new Vector3(5f, 0f, 1f));
            sight.viewAngle = 180f;
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Field_targetMask_IsForwarded()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            sight.targetMask = 1 << LessonScene.ObstacleLayer;
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Field_obstacleMask_IsForwarded()
        {
            var player = scene.Player(new Vector3(0f, 0f, 8f));
            scene.Wall(new Vector3(0f, 0f, 4f), new Vector3(4f, 3f, 0.5f));
            sight.obstacleMask = 0;
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Field_eyeHeight_IsForwarded()
        {
            // A 1 m wall 2 m ahead; the check point is at the player's feet. An eye at 0.5 m looks
            // into the wall, an eye at 3 m looks down over it.
            var player = scene.Player(new Vector3(0f, 0f, 8f));
            scene.Wall(new Vector3(0f, 0.5f, 2f), new Vector3(4f, 1f, 0.5f));
            sight.eyeHeight = 0.5f;
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
            sight.eyeHeight = 3f;
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Field_peripheralCone_IsForwarded()
        {
            var player = scene.Player(new Vector3(3f, 0f, -0.5f)); // 99° off forward, 3 m away
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
            sight.peripheralRadius = 5f;
            sight.peripheralAngle = 220f;
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Field_loseSightRadius_IsForwarded()
        {
            var player = scene.Player(new Vector3(0f, 0f, 9f));
            scene.Step(0.1f);
            CollectionAssert.Contains(sight.visibleTargets, player.transform);
            player.transform.position = new Vector3(0f, 0f, 11f);
            scene.Step(0.1f);
            CollectionAssert.DoesNotContain(sight.visibleTargets, player.transform);

            player.transform.position = new Vector3(0f, 0f, 9f);
            sight.loseSightRadius = 12f;
            scene.Step(0.1f);
            player.transform.position = new Vector3(0f, 0f, 11f);
            scene.Step(0.1f);
            CollectionAssert.Contains(sight.visibleTargets, player.transform);
        }

        [Test]
        public void Field_sightRateHz_IsForwarded()
        {
            scene.Player(new Vector3(0f, 0f, 5f));
            int sightings = 0; // every sight tick's sighting is a percept
            guard.GetComponent<PerceptionSystem>().OnPercept += p => { if (p.type == PerceptType.Sight) sightings++; };
            scene.Step(0.1f, 20);
            Assert.AreEqual(20, sightings, "sightRateHz 0 ticks every step");
            sightings = 0;
            sight.sightRateHz = 2f;
            scene.Step(0.1f, 20);
            Assert.That(sightings, Is.InRange(4, 5), "2 Hz over two seconds (staggered phase)");
        }

        // ---- OnTargetSeen / OnTargetLost: the step's native seen / lost events ----------------------------

        sealed class SightLog
        {
            public readonly System.Collections.Generic.List<string> Events = new System.Collections.Generic.List<string>();

            public SightLog(FieldOfViewSensor sensor, string who)
            {
                sensor.OnTargetSeen += (t, p) => Events.Add(who + " seen " + t.name + " " + p.z.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture));
                sensor.OnTargetLost += (t, p) => Events.Add(who + " lost " + t.name + " " + p.z.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture));
            }

            public string Take()
            {
                string s = string.Join(", ", Events.ToArray());
                Events.Clear();
                return s;
            }
        }

        [Test]
        public void OnTargetSeen_OnceWhenATargetComesIntoView_AtASightTick()
        {
            var player = scene.Player(new Vector3(0f, 0f, 20f)); // out of range
            player.name = "Player";
            var log = new SightLog(sight, "guard");
            sight.sightRateHz = 2f; // a tick every 0.5 s
            scene.Step(0.1f, 10);
            Assert.AreEqual("", log.Take());
            player.transform.position = new Vector3(0f, 0f, 5f);
            int steps = 0;
            while (log.Events.Count == 0 && steps < 10) { scene.Step(0.1f); steps++; }
            Assert.AreEqual("guard seen Player 5.0", log.Take(), "seen once, at the next sight tick");
            CollectionAssert.AreEqual(new[] { player.transform }, sight.visibleTargets);
            scene.Step(0.1f, 30); // stays in view: six more ticks, no event
            Assert.AreEqual("", log.Take());
            CollectionAssert.AreEqual(new[] { player.transform }, sight.visibleTargets);
        }

        [Test]
        public void OnTargetLost_OnceWhenATargetLeavesView_WithWhereItWasLastSeen()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            player.name = "Player";
            var log = new SightLog(sight, "guard");
            scene.Step(0.1f);
            Assert.AreEqual("guard seen Player 5.0", log.Take());
            player.transform.position = new Vector3(0f, 0f, -5f); // behind the guard
            scene.Step(0.1f);
            Assert.AreEqual("guard lost Player 5.0", log.Take());
            CollectionAssert.IsEmpty(sight.visibleTargets);
            scene.Step(0.1f, 5);
            Assert.AreEqual("", log.Take(), "lost once");
            player.transform.position = new Vector3(0f, 0f, 6f);
            scene.Step(0.1f);
            Assert.AreEqual("guard seen Player 6.0", log.Take(), "seen again");
            player.GetComponent<PerceptionTarget>().detectable = false;
            scene.Step(0.1f);
            Assert.AreEqual("guard lost Player 6.0", log.Take(), "not detectable: lost at the next tick");
        }

        [Test]
        public void OnTargetLost_AtOnceWhenTheTargetIsDisabledOrDestroyed([Values(true, false)] bool destroy)
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            player.name = "Player";
            var second = scene.Guard(new Vector3(2f, 0f, 0f), Vector3.forward);
            var otherSight = second.GetComponent<FieldOfViewSensor>();
            var log = new SightLog(sight, "guard");
            var otherLog = new SightLog(otherSight, "other");
            otherSight.sightRateHz = 2f; // a slow tick: the loss must not wait for it
            scene.Step(0.1f);
            Assert.AreEqual("guard seen Player 5.0", log.Take());
            Assert.AreEqual("other seen Player 5.0", otherLog.Take());
            player.transform.position = new Vector3(0f, 0f, 4f); // moved since its last sighting
            if (destroy) Object.DestroyImmediate(player);
            else player.GetComponent<PerceptionTarget>().enabled = false;
            Assert.AreEqual("guard lost Player 5.0", log.Take(), "lost at once, where it was last perceived");
            Assert.AreEqual("other lost Player 5.0", otherLog.Take());
            CollectionAssert.IsEmpty(sight.visibleTargets);
            CollectionAssert.IsEmpty(otherSight.visibleTargets);
            scene.Step(0.1f, 10);
            Assert.AreEqual("", log.Take(), "lost once");
            Assert.AreEqual("", otherLog.Take());
            if (!destroy)
            {
                player.GetComponent<PerceptionTarget>().enabled = true;
                scene.Step(0.1f);
                Assert.AreEqual("guard seen Player 4.0", log.Take(), "back in the world: seen again");
            }
        }

        [Test]
        public void OnTargetLost_WhenTheGuardLeavesTheWorld()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            player.name = "Player";
            var log = new SightLog(sight, "guard");
            scene.Step(0.1f);
            Assert.AreEqual("guard seen Player 5.0", log.Take());
            guard.GetComponent<PerceptionAgent>().enabled = false;
            Assert.AreEqual("guard lost Player 5.0", log.Take());
            CollectionAssert.IsEmpty(sight.visibleTargets);
            guard.GetComponent<PerceptionAgent>().enabled = true;
            scene.Step(0.1f);
            Assert.AreEqual("guard seen Player 5.0", log.Take(), "a new native agent sees it anew");
            scene.World.enabled = false;
            Assert.AreEqual("guard lost Player 5.0", log.Take(), "the world went away");
            CollectionAssert.IsEmpty(sight.visibleTargets);
        }

        [Test]
        public void Field_enabled_IsForwarded()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            sight.enabled = false;
            scene.Step(0.1f);
            CollectionAssert.IsEmpty(sight.visibleTargets);
            sight.enabled = true;
            scene.Step(0.1f);
            CollectionAssert.Contains(sight.visibleTargets, player.transform);
        }

        [Test]
        public void FindVisibleTargets_ListsExactlyTheSeenTargets()
        {
            var seen = scene.Player(new Vector3(1f, 0f, 5f));
            var far = scene.Player(new Vector3(0f, 0f, 30f));
            var hidden = scene.Player(new Vector3(0f, 0f, 8f));
            scene.Wall(new Vector3(0f, 0f, 7f), new Vector3(1f, 3f, 0.5f));
            var list = sight.FindVisibleTargets();
            CollectionAssert.AreEquivalent(new[] { seen.transform }, list);
            CollectionAssert.DoesNotContain(list, far.transform);
            CollectionAssert.DoesNotContain(list, hidden.transform);
        }

        [Test]
        public void Teams_SameTeamIsFriendly_UnlessPerceiveFriendly()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            player.GetComponent<PerceptionTarget>().team = 0;
            scene.Step(0.1f);
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
            guard.GetComponent<PerceptionAgent>().perceiveFriendly = true;
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
        }

        [Test]
        public void Target_checkPoints_GiveTheVisibleFraction()
        {
            var player = scene.Player(new Vector3(0f, 0f, 8f));
            player.GetComponent<PerceptionTarget>().checkPoints = new[] { new Vector3(0f, 0.5f, 0f), new Vector3(0f, 2.5f, 0f) };
            scene.Wall(new Vector3(0f, 0.75f, 6f), new Vector3(4f, 1.5f, 0.5f)); // hides the low point only
            sight.eyeHeight = 1.5f;
            float strength = -1f;
            guard.GetComponent<PerceptionSystem>().OnPercept += p => { if (p.type == PerceptType.Sight) strength = p.strength; };
            scene.Step(0.1f);
            Assert.AreEqual(0.5f, strength, 1e-5f);
        }
    }
}
