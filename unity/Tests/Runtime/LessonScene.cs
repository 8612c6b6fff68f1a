using System.Collections.Generic;
using UnityEngine;

namespace Argus.Perception.Tests
{
    /// <summary>Builds the lesson's little scenes out of the package's real components: a world that
    /// the test steps by hand (exact dt, no frame timing), guards, a player, walls. Destroy() removes
    /// everything it made. Used by the Unity Test Framework in the editor and by the Mono suite.</summary>
    public sealed class LessonScene
    {
        public const int ObstacleLayer = 8;
        public const int PlayerLayer = 9;

        readonly List<GameObject> m_Made = new List<GameObject>();
        public readonly PerceptionWorld World;

        public LessonScene() : this(PerceptionWorld.LineOfSightSource.ArgusOccluders) { }

        public LessonScene(PerceptionWorld.LineOfSightSource lineOfSight)
        {
            var go = Make("World");
            World = go.AddComponent<PerceptionWorld>();
            World.autoStep = false;
            World.lineOfSight = lineOfSight;
            go.SetActive(true);
        }

        // Made inactive: components are configured (and pointed at this scene's world, whatever
        // other world the test scene may hold) before they create their native things.
        GameObject Make(string name)
        {
            var go = new GameObject(name);
            go.SetActive(false);
            m_Made.Add(go);
            return go;
        }

        /// <summary>A guard as in the lesson: eye at its position (eyeHeight 0), sight every step,
        /// sensors, percept system, memory and brain, facing <paramref name="forward"/>.</summary>
        public GameObject Guard(Vector3 position, Vector3 forward)
        {
            var go = Make("Guard");
            go.transform.position = position;
            go.transform.rotation = Quaternion.LookRotation(forward);
            var sight = go.AddComponent<FieldOfViewSensor>();
            sight.eyeHeight = 0f;
            sight.sightRateHz = 0f;
            sight.obstacleMask = 1 << ObstacleLayer;
            sight.targetMask = 1 << PlayerLayer;
            go.AddComponent<HearingSensor>();
            go.AddComponent<PerceptionSystem>();
            go.AddComponent<PerceptionMemory>();
            go.AddComponent<EnemyBrain>();
            go.GetComponent<PerceptionAgent>().world = World;
            go.SetActive(true);
            return go;
        }

        /// <summary>The player: a target on the Player layer whose one check point is its position.</summary>
        public GameObject Player(Vector3 position)
        {
            var go = Make("Player");
            go.layer = PlayerLayer;
            go.transform.position = position;
            var t = go.AddComponent<PerceptionTarget>();
            t.checkPoints = new[] { Vector3.zero };
            t.world = World;
            go.AddComponent<Footsteps>();
            go.SetActive(true);
            return go;
        }

        /// <summary>An axis-aligned wall on the Obstacle layer.</summary>
        public GameObject Wall(Vector3 center, Vector3 size)
        {
            var go = Make("Wall");
            go.layer = ObstacleLayer;
            go.transform.position = center;
            var box = go.AddComponent<BoxCollider>();
            box.size = size;
            go.AddComponent<PerceptionOccluder>().world = World;
            go.SetActive(true);
            return go;
        }

        /// <summary>Steps the world <paramref name="steps"/> times by dt.</summary>
        public void Step(float dt, int steps = 1)
        {
            for (int i = 0; i < steps; i++) World.Step(dt);
        }

        public void Destroy()
        {
            for (int i = m_Made.Count - 1; i >= 0; i--)
                if (m_Made[i] != null) Object.DestroyImmediate(m_Made[i]);
            m_Made.Clear();
        }
    }
}
