using System.Collections.Generic;
using NUnit.Framework;
using UnityEngine;
using UnityEngine.AI;

namespace Argus.Perception.Tests
{
    /// <summary>Walk hearing (sound around walls, through doorways), occluders' sound transmission, the
    /// world's walk graph (grid, given, imported from the NavMesh) and its gizmo, through the components.</summary>
    public class WalkHearingTests
    {
        LessonScene scene;

        [SetUp]
        public void SetUp() { scene = new LessonScene(); }

        [TearDown]
        public void TearDown() { scene.Destroy(); }

        // A wall across z = 10 from x 0 to 20 with a doorway at x 13-15; a grid of 0.5 m cells over 20 x 20 m.
        void WallWithDoorway()
        {
            scene.Wall(new Vector3(6.5f, 1.5f, 10f), new Vector3(13f, 3f, 0.2f));
            scene.Wall(new Vector3(17.5f, 1.5f, 10f), new Vector3(5f, 3f, 0.2f));
            var bounds = new Bounds();
            bounds.SetMinMax(Vector3.zero, new Vector3(20f, 0f, 20f));
            scene.World.walkGridBounds = bounds;
            scene.World.walkCellSize = 0.5f;
        }

        List<Percept> Sounds(GameObject guard)
        {
            var list = new List<Percept>();
            guard.GetComponent<PerceptionSystem>().OnPercept += p => { if (p.type == PerceptType.Sound) list.Add(p); };
            return list;
        }

        GameObject Listener(Vector3 at, HearingSensor.Obstruction obstruction)
        {
            GameObject g = scene.Guard(at, Vector3.back); // facing away from the sounds: hearing only
            g.GetComponent<HearingSensor>().obstruction = obstruction;
            return g;
        }

        [Test]
        public void WalkAroundWalls_HearsThroughTheDoorway_TheLessonsGuardThroughTheWall()
        {
            WallWithDoorway();
            scene.World.BuildWalkGrid();
            Assert.AreEqual(WalkGraphKind.Grid, scene.World.Native.WalkGraph.Kind);
            Assert.AreEqual(1600u, scene.World.Native.WalkGraph.NodeCount, "40 x 40 cells from the bounds");
            GameObject walker = Listener(new Vector3(5f, 0f, 8f), HearingSensor.Obstruction.WalkAroundWalls);
            GameObject lesson = Listener(new Vector3(6f, 0f, 8f), HearingSensor.Obstruction.FollowWorld); // world: straight
            List<Percept> walkerHeard = Sounds(walker), lessonHeard = Sounds(lesson);
            var heardAt = new List<Vector3>();
            walker.GetComponent<HearingSensor>().OnHeardSound += heardAt.Add;

            AudioPerception.EmitSound(new Vector3(5f, 0f, 12f), 30f, null);
            scene.Step(0.1f);
            Assert.AreEqual(1, walkerHeard.Count);
            Assert.AreEqual(20.24264f, walkerHeard[0].distance, 1e-3f, "the walk through the doorway");
            Assert.AreEqual(13.25f, walkerHeard[0].position.x, 1e-4f, "heard from the doorway");
            Assert.AreEqual(9.75f, walkerHeard[0].position.z, 1e-4f);
            Assert.AreEqual(walkerHeard[0].position, heardAt[0], "OnHeardSound says where it seems to come from");
            Assert.AreEqual(1, lessonHeard.Count);
            Assert.AreEqual(Mathf.Sqrt(17f), lessonHeard[0].distance, 1e-4f, "the lesson's straight line");
            Assert.AreEqual(12f, lessonHeard[0].position.z, 1e-5f);

            // Loudness 12: the 20 m walk is out of reach, the 4 m line is not.
            AudioPerception.EmitSound(new Vector3(5f, 0f, 12f), 12f, null);
            scene.Step(0.1f);
            Assert.AreEqual(1, walkerHeard.Count);
            Assert.AreEqual(2, lessonHeard.Count);

            // The lesson's guard switched to walking hears nothing more either.
            lesson.GetComponent<HearingSensor>().obstruction = HearingSensor.Obstruction.WalkAroundWalls;
            AudioPerception.EmitSound(new Vector3(5f, 0f, 12f), 12f, null);
            scene.Step(0.1f);
            Assert.AreEqual(2, lessonHeard.Count);
            Assert.AreEqual(HearingPath.Walk, scene.World.Native.GetHearing(lesson.GetComponent<PerceptionAgent>().Id).Path);
        }

        [Test]
        public void TheWorldsSettings_BuildTheGridAndChooseWalkHearing_WhenEnabled()
        {
            WallWithDoorway();
            GameObject guard = Listener(new Vector3(5f, 0f, 8f), HearingSensor.Obstruction.FollowWorld);
            List<Percept> heard = Sounds(guard);
            scene.World.hearingPath = PerceptionWorld.HearingRoute.WalkAroundWalls;
            scene.World.walkGraph = PerceptionWorld.WalkGraphSource.Grid;
            scene.World.enabled = false;
            Assert.IsFalse(scene.World.IsCreated);
            scene.World.enabled = true;
            Assert.AreEqual(WalkGraphKind.Grid, scene.World.Native.WalkGraph.Kind, "walkGraph = Grid builds at enable");

            AudioPerception.EmitSound(new Vector3(5f, 0f, 12f), 12f, null);
            scene.Step(0.1f);
            Assert.AreEqual(0, heard.Count, "walk hearing from the world: 20 m around the wall > 12");
            AudioPerception.EmitSound(new Vector3(5f, 0f, 12f), 30f, null);
            scene.Step(0.1f);
            Assert.AreEqual(1, heard.Count);
            Assert.AreEqual(20.24264f, heard[0].distance, 1e-3f);

            float d;
            var path = new List<Vector3>();
            Assert.IsTrue(scene.World.FindWalk(new Vector3(5f, 0f, 12f), new Vector3(5f, 0f, 8f), 100f, out d, path));
            Assert.AreEqual(20.24264f, d, 1e-3f);
            Assert.AreEqual(38, path.Count);
            Assert.Greater(path[0].z, 11f, "the walk starts by the sound");
            Assert.Less(path[path.Count - 1].z, 9f, "and ends by the guard");
            Assert.IsFalse(scene.World.FindWalk(new Vector3(5f, 0f, 12f), new Vector3(5f, 0f, 8f), 15f, out d, path));
            Assert.AreEqual(-1f, d);
            Assert.AreEqual(0, path.Count);

            scene.World.ClearWalkGraph();
            Assert.IsFalse(scene.World.FindWalk(new Vector3(5f, 0f, 12f), new Vector3(5f, 0f, 8f), 100f, out d), "no graph: no walk");
            AudioPerception.EmitSound(new Vector3(5f, 0f, 12f), 12f, null);
            scene.Step(0.1f);
            Assert.AreEqual(2, heard.Count, "no graph: walk hearing is the straight line");
            Assert.AreEqual(4f, heard[1].distance, 1e-5f);
        }

        [Test]
        public void ADoorsSoundTransmission_PassesThatFractionOfTheReach()
        {
            WallWithDoorway();
            GameObject door = scene.Wall(new Vector3(14f, 1.5f, 10f), new Vector3(2f, 3f, 0.1f));
            var occluder = door.GetComponent<PerceptionOccluder>();
            Assert.IsFalse(occluder.overrideSoundTransmission, "off by default");
            scene.World.BuildWalkGrid();
            float d;
            Assert.IsFalse(scene.World.FindWalk(new Vector3(14f, 0f, 12f), new Vector3(14f, 0f, 8f), 100f, out d), "the door shuts the doorway");
            GameObject guard = Listener(new Vector3(14f, 0f, 8f), HearingSensor.Obstruction.WalkAroundWalls);
            List<Percept> heard = Sounds(guard);

            AudioPerception.EmitSound(new Vector3(14f, 0f, 12f), 10f, null);
            scene.Step(0.1f);
            Assert.AreEqual(0, heard.Count, "no transmission of its own: walk hearing goes around it, and cannot");

            occluder.overrideSoundTransmission = true;
            occluder.soundTransmission = 0.5f;
            AudioPerception.EmitSound(new Vector3(14f, 0f, 12f), 10f, null);
            scene.Step(0.1f);
            Assert.AreEqual(1, heard.Count, "reach 10 x 0.5 = 5 m > 4 m");
            Assert.AreEqual(4f, heard[0].distance, 1e-5f);
            Assert.AreEqual(0.2f, heard[0].strength, 1e-5f);
            Assert.AreEqual(12f, heard[0].position.z, 1e-5f, "straight through: heard where it is");

            occluder.soundTransmission = 0.3f; // reach 3 m < 4 m
            AudioPerception.EmitSound(new Vector3(14f, 0f, 12f), 10f, null);
            scene.Step(0.1f);
            Assert.AreEqual(1, heard.Count, "a changed transmission is followed");
            Assert.IsFalse(occluder.Id.IsNull);
            Assert.IsFalse(scene.World.FindWalk(new Vector3(14f, 0f, 12f), new Vector3(14f, 0f, 8f), 100f, out d), "still shut");
        }

        // An L of floor around a 4 x 4 m block, baked as a navmesh of quads whose triangles repeat their
        // corners (as NavMesh.CalculateTriangulation does per polygon).
        static void BakeLCorridor()
        {
            var v = new List<Vector3>();
            var idx = new List<int>();
            // Along X: z 0..1 from x 0 to 6; then along Z: x 5..6 from z 1 to 6.
            Quad(v, idx, new Vector3(0, 0, 0), new Vector3(3, 0, 0), new Vector3(3, 0, 1), new Vector3(0, 0, 1));
            Quad(v, idx, new Vector3(3, 0, 0), new Vector3(6, 0, 0), new Vector3(6, 0, 1), new Vector3(3, 0, 1));
            Quad(v, idx, new Vector3(5, 0, 1), new Vector3(6, 0, 1), new Vector3(6, 0, 6), new Vector3(5, 0, 6));
            NavMesh.StandInVertices = v.ToArray();
            NavMesh.StandInIndices = idx.ToArray();
            NavMesh.StandInAreas = new int[idx.Count / 3];
        }

        static void Quad(List<Vector3> v, List<int> idx, Vector3 a, Vector3 b, Vector3 c, Vector3 d)
        {
            int i = v.Count;
            v.Add(a); v.Add(b); v.Add(c);
            v.Add(a); v.Add(c); v.Add(d);
            for (int k = 0; k < 6; k++) idx.Add(i + k);
        }

        [Test]
        public void ImportNavMesh_WeldsTheTriangles_AndSoundWalksAroundTheBlock()
        {
            scene.Wall(new Vector3(2.5f, 1.5f, 3.5f), new Vector3(5f, 3f, 5f)); // the block inside the L
            BakeLCorridor();
            try
            {
                int nodes = scene.World.ImportNavMesh();
                // 18 corners welded to 10 distinct points ((0,0),(3,0),(6,0),(0,1),(3,1),(6,1),(5,1),(5,6),(6,6)
                // = 9, plus none else) and one centre per triangle (6).
                Assert.AreEqual(9 + 6, nodes);
                WalkGraphInfo info = scene.World.Native.WalkGraph;
                Assert.AreEqual(WalkGraphKind.Given, info.Kind);
                Assert.AreEqual(15u, info.NodeCount);
                Assert.Greater(info.SnapDistance, 0.5f);

                float d;
                Assert.IsTrue(scene.World.FindWalk(new Vector3(0.5f, 0f, 0.5f), new Vector3(5.5f, 0f, 5.5f), 100f, out d),
                    "the two ends of the L are joined: the welded quads share their corners");
                Assert.Greater(d, 9.9f, "around the block, never shorter than the 7.1 m line through it");
                Assert.Less(d, 12.5f);

                GameObject guard = Listener(new Vector3(0.5f, 0f, 0.5f), HearingSensor.Obstruction.WalkAroundWalls);
                List<Percept> heard = Sounds(guard);
                AudioPerception.EmitSound(new Vector3(5.5f, 0f, 5.5f), 9f, null);
                scene.Step(0.1f);
                Assert.AreEqual(0, heard.Count, "9 m of reach: the line is 7.1 m but the walk is longer");
                AudioPerception.EmitSound(new Vector3(5.5f, 0f, 5.5f), 13f, null);
                scene.Step(0.1f);
                Assert.AreEqual(1, heard.Count);
                Assert.AreEqual(d, heard[0].distance, 0.05f, "heard along the imported walk");
                Assert.Less(heard[0].position.z, 1.5f, "from the corner of the L the guard can see");

                Assert.Greater(scene.World.DrawWalkGraph(), 20, "the walk graph gizmo draws its edges");

                NavMesh.StandInClear();
                Assert.AreEqual(0, scene.World.ImportNavMesh(), "nothing baked: no graph");
                Assert.AreEqual(WalkGraphKind.None, scene.World.Native.WalkGraph.Kind);
                Assert.AreEqual(0, scene.World.DrawWalkGraph());
            }
            finally
            {
                NavMesh.StandInClear();
            }
        }

        [Test]
        public void SetWalkGraph_RefusesBadGraphs_AndKeepsTheOldOne()
        {
            scene.World.SetWalkGraph(new[] { Vector3.zero, new Vector3(3f, 0f, 0f) }, new[] { new WalkEdge(0, 1, 3f) }, 1f);
            Assert.AreEqual(2u, scene.World.Native.WalkGraph.NodeCount);
            Assert.Throws<ArgusException>(() => scene.World.SetWalkGraph(new[] { new Vector3(float.NaN, 0f, 0f) }, null, 1f));
            Assert.Throws<ArgusException>(() => scene.World.SetWalkGraph(new[] { Vector3.zero }, new[] { new WalkEdge(0, 4, 3f) }, 1f));
            Assert.Throws<ArgusException>(() =>
                scene.World.SetWalkGraph(new[] { Vector3.zero, Vector3.one }, new[] { new WalkEdge(0, 1, -1f) }, 1f));
            scene.World.walkCellSize = 0f;
            Assert.Throws<ArgusException>(() => scene.World.BuildWalkGrid());
            WalkGraphInfo info = scene.World.Native.WalkGraph;
            Assert.AreEqual(WalkGraphKind.Given, info.Kind, "the graph before the refused calls");
            Assert.AreEqual(2u, info.NodeCount);
            Assert.AreEqual(1u, info.EdgeCount);
        }
    }
}
