using System.Text.RegularExpressions;
using NUnit.Framework;
using UnityEngine;
using UnityEngine.TestTools;

namespace Argus.Perception.Tests
{
    /// <summary>A bad value typed into a field is refused by the library with the old settings kept;
    /// the world keeps stepping, the error is logged once, and fixing the field applies it.</summary>
    public class RobustnessTests
    {
        LessonScene scene;

        [SetUp]
        public void SetUp() { scene = new LessonScene(); }

        [TearDown]
        public void TearDown() { scene.Destroy(); }

        [Test]
        public void RefusedField_KeepsTheOldSettings_AndTheWorldStepping()
        {
            var guard = scene.Guard(Vector3.zero, Vector3.forward);
            var sight = guard.GetComponent<FieldOfViewSensor>();
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Chasing, guard.GetComponent<EnemyBrain>().state);

            LogAssert.Expect(LogType.Exception, new Regex("INVALID_ARGUMENT"));
            sight.viewRadius = float.NaN;
            Assert.DoesNotThrow(() => scene.Step(0.1f, 5), "a refused def does not stop the world");
            var agentId = guard.GetComponent<PerceptionAgent>().Id;
            Assert.AreEqual(10f, scene.World.Native.GetAgentDef(agentId).Sight.ViewRadius, "the old settings stay");
            Assert.IsTrue(sight.CanSeeTarget(player.transform));

            sight.viewRadius = 3f;
            scene.Step(0.1f);
            Assert.AreEqual(3f, scene.World.Native.GetAgentDef(agentId).Sight.ViewRadius, "fixed: applied");
            Assert.IsFalse(sight.CanSeeTarget(player.transform));
        }
    }
}
