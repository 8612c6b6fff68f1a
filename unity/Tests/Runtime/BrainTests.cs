using System.Collections.Generic;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.Tests
{
    /// <summary>Lesson §8: the guard sees, chases, searches for searchDuration and gives up; hears,
    /// investigates, arrives, searches. Asserted through EnemyBrain.state and OnStateChanged.</summary>
    public class BrainTests
    {
        LessonScene scene;
        GameObject guard;
        EnemyBrain brain;
        List<string> changes;

        [SetUp]
        public void SetUp()
        {
            scene = new LessonScene();
            guard = scene.Guard(Vector3.zero, Vector3.forward);
            brain = guard.GetComponent<EnemyBrain>();
            changes = new List<string>();
            brain.OnStateChanged += (from, to) => changes.Add(from + ">" + to);
        }

        [TearDown]
        public void TearDown() { scene.Destroy(); }

        [Test]
        public void Trace_Sees_Chases_Searches4s_GivesUp()
        {
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            Assert.AreEqual(AIState.Idle, brain.state);
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Chasing, brain.state);
            player.transform.position = new Vector3(0f, 0f, -30f);
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Searching, brain.state);
            Assert.AreEqual(5f, brain.MoveTarget.z, 1e-4f, "searches the last known position");
            scene.Step(0.1f, 38);                              // 3.9 s of searching
            Assert.AreEqual(AIState.Searching, brain.state);
            scene.Step(0.1f, 3);                               // 4.1 s: the 4 s timer ran out
            Assert.AreEqual(AIState.Idle, brain.state);
            CollectionAssert.AreEqual(new[] { "Idle>Chasing", "Chasing>Searching", "Searching>Idle" }, changes);
        }

        [Test]
        public void Field_searchDuration_IsForwarded()
        {
            brain.searchDuration = 2f;
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.1f);
            player.transform.position = new Vector3(0f, 0f, -30f);
            scene.Step(0.1f);
            scene.Step(0.1f, 21);
            Assert.AreEqual(AIState.Idle, brain.state);
        }

        [Test]
        public void Trace_SoundWhileIdle_Investigates_ThenSearchesOnArrival()
        {
            AudioPerception.EmitSound(new Vector3(0f, 0f, -5f), 15f, null);
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Investigating, brain.state);
            Assert.AreEqual(-5f, brain.MoveTarget.z, 1e-4f);
            // No NavMeshAgent: arriving means coming within arrivalDistance.
            guard.transform.position = new Vector3(0f, 0f, -4.5f);
            scene.Step(0.1f);
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Searching, brain.state);
            CollectionAssert.AreEqual(new[] { "Idle>Investigating", "Investigating>Searching" }, changes);
        }

        [Test]
        public void Trace_SoundWhileChasing_KeepsChasing()
        {
            scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.1f);
            AudioPerception.EmitSound(new Vector3(0f, 0f, -5f), 15f, null);
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Chasing, brain.state);
        }

        [Test]
        public void Field_brainEnabled_IsForwarded()
        {
            brain.enabled = false;
            scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Idle, brain.state);
            brain.enabled = true;
            scene.Step(0.1f);
            Assert.AreEqual(AIState.Chasing, brain.state);
        }

        [Test]
        public void MemoryForgottenWhileSearching_GivesUp()
        {
            brain.searchDuration = 100f;
            guard.GetComponent<PerceptionMemory>().decayPerSecond = 1f;
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.1f);
            player.transform.position = new Vector3(0f, 0f, -30f);
            scene.Step(0.1f, 11);
            Assert.AreEqual(AIState.Idle, brain.state);
        }
    }
}
