using System.Collections.Generic;
using UnityEngine;

namespace Argus.Perception.Samples
{
    /// <summary>
    /// The repository's courtyard demo (examples/courtyard), built when you press Play: a walled
    /// 32 × 22 m courtyard, three patrolling guards with the lesson's components, and a scripted
    /// player who sneaks along the middle wall, freezes, runs east (every guard hears it, one sees
    /// it) and hides behind the east wall. Walls, guards and the player are primitives with renderers
    /// and each guard's cone is drawn at run time (CourtyardView), so Play shows the scene; select
    /// the PerceptionWorld for the gizmos too: green lines to the seen player, red rays stopping at walls.
    /// Put this component on an empty GameObject in an empty scene (add a camera looking down).
    /// </summary>
    public sealed class CourtyardDemo : MonoBehaviour
    {
        public const float Width = 32f, Depth = 22f;

        /// <summary>Walls as (x0, z0, x1, z1, height), from examples/courtyard/level.rs.</summary>
        public static readonly float[][] Walls =
        {
            new[] { -0.5f, -0.5f, Width + 0.5f, 0f, 3f },
            new[] { -0.5f, Depth, Width + 0.5f, Depth + 0.5f, 3f },
            new[] { -0.5f, 0f, 0f, Depth, 3f },
            new[] { Width, 0f, Width + 0.5f, Depth, 3f },
            new[] { 9f, 10.6f, 21f, 11.4f, 2.5f },   // the long middle wall
            new[] { 24.6f, 12.5f, 25.4f, 20f, 2.5f }, // the east wall
            new[] { 4f, 15f, 6f, 17f, 2f },          // a stack of crates
            new[] { 5f, 4f, 7f, 6f, 2f },            // a crate in the north-west
            new[] { 28f, 5f, 29.5f, 6.5f, 2.5f },    // a pillar in the north-east
        };

        /// <summary>The guards and the built world, once Awake has run (for scripts and tests).</summary>
        public readonly List<EnemyBrain> Guards = new List<EnemyBrain>();
        public PerceptionWorld World { get; private set; }
        public CourtyardPlayer Player { get; private set; }

        void Awake()
        {
            var worldObject = new GameObject("Perception World");
            worldObject.transform.SetParent(transform, false);
            World = worldObject.AddComponent<PerceptionWorld>();

            foreach (var w in Walls)
            {
                // A cube primitive (renderer and BoxCollider), scaled: the occluder takes the scaled box.
                var wall = GameObject.CreatePrimitive(PrimitiveType.Cube);
                wall.name = "Wall";
                wall.transform.SetParent(transform, false);
                wall.transform.position = new Vector3((w[0] + w[2]) * 0.5f, w[4] * 0.5f, (w[1] + w[3]) * 0.5f);
                wall.transform.localScale = new Vector3(w[2] - w[0], w[4], w[3] - w[1]);
                CourtyardView.Tint(wall.GetComponent<Renderer>(), new Color(0.45f, 0.42f, 0.38f));
                wall.AddComponent<PerceptionOccluder>();
            }

            AddGuard("G1", new Vector3(20f, 0f, 8f), new Vector3(6f, 0f, 8f));
            AddGuard("G2", new Vector3(12f, 0f, 20.5f), new Vector3(3f, 0f, 20.5f), new Vector3(20f, 0f, 20.5f));
            AddGuard("G3", new Vector3(22f, 0f, 2.5f), new Vector3(30.5f, 0f, 2.5f));

            var player = new GameObject("Player");
            player.transform.SetParent(transform, false);
            player.transform.position = new Vector3(4f, 0f, 13f);
            player.AddComponent<PerceptionTarget>();
            player.AddComponent<Footsteps>();
            player.AddComponent<CourtyardView>().bodyColor = new Color(0.2f, 0.45f, 0.95f);
            Player = player.AddComponent<CourtyardPlayer>();
        }

        void AddGuard(string name, params Vector3[] patrol)
        {
            var go = new GameObject(name);
            go.SetActive(false); // configure everything before the agent is created
            go.transform.SetParent(transform, false);
            go.transform.position = patrol[0];
            go.transform.rotation = Quaternion.LookRotation(patrol[1] - patrol[0]);
            go.AddComponent<FieldOfViewSensor>();
            go.AddComponent<HearingSensor>();
            go.AddComponent<PerceptionSystem>();
            go.AddComponent<PerceptionMemory>();
            var brain = go.AddComponent<EnemyBrain>();
            brain.arrivalDistance = 0f; // CourtyardGuard reports arrival itself, from its look distance
            go.AddComponent<CourtyardGuard>().patrol = patrol;
            go.AddComponent<CourtyardView>();
            go.SetActive(true);
            Guards.Add(brain);
        }

        /// <summary>True if a ground point is within margin of a wall's footprint.</summary>
        public static bool Blocked(Vector3 p, float margin)
        {
            foreach (var w in Walls)
                if (p.x > w[0] - margin && p.x < w[2] + margin && p.z > w[1] - margin && p.z < w[3] + margin) return true;
            return false;
        }
    }
}
