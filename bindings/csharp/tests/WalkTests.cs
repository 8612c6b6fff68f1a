using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>The walk graph and walk hearing (issues 44 and 45) through the object model: a wall with a
    /// doorway, a door that passes half a sound's reach, the engine's own graph, FindWalk, and bad input
    /// refused with the world unchanged.</summary>
    [TestFixture]
    public class WalkTests
    {
        // A wall across z = 10 from x 0 to 20, with a doorway at x 13-15 (the corpus's
        // hearing_walk_around_walls), and a 20 x 20 m grid of 0.5 m cells over it.
        static World WallWorld(HearingPath path)
        {
            WorldDef wd = WorldDef.Default();
            wd.HearingPath = path;
            var world = new World(wd);
            world.CreateBox(Support.V(6.5f, 1.5f, 10), Quat.Identity, Support.V(6.5f, 1.5f, 0.1f));
            world.CreateBox(Support.V(17.5f, 1.5f, 10), Quat.Identity, Support.V(2.5f, 1.5f, 0.1f));
            WalkGridDef grid = WalkGridDef.Default();
            grid.Origin = Support.V(0, 0, 0);
            grid.Width = 40;
            grid.Depth = 40;
            grid.CellSize = 0.5f;
            world.SetWalkGrid(grid);
            return world;
        }

        static AgentId Listener(World world, Vec3 position, HearingPath path, uint soundMask = ~0u)
        {
            AgentDef def = AgentDef.Default();
            def.Position = position;
            def.Sight.Enabled = false;
            def.Brain.Enabled = false;
            def.Hearing.Path = path;
            def.Hearing.SoundMask = soundMask;
            return world.CreateAgent(def);
        }

        static void Emit(World world, Vec3 at, float loudness, uint layers = 1)
        {
            SoundDef s = SoundDef.Default();
            s.Position = at;
            s.Loudness = loudness;
            s.Layers = layers;
            world.EmitSound(s);
        }

        static List<PerceptEvent> Heard(World world)
        {
            var list = new List<PerceptEvent>();
            foreach (PerceptEvent p in world.Percepts) if (p.IsSound) list.Add(p);
            return list;
        }

        [Test]
        public void WalkHearingGoesAroundTheWallThroughTheDoorway()
        {
            using (World world = WallWorld(HearingPath.Walk))
            {
                WalkGraphInfo info = world.WalkGraph;
                Assert.AreEqual(WalkGraphKind.Grid, info.Kind);
                Assert.AreEqual(1600u, info.NodeCount);
                Assert.IsTrue(world.HasWalkGraph);
                AgentId guard = Listener(world, Support.V(5, 0, 8), HearingPath.World);
                AgentId lesson = Listener(world, Support.V(6, 0, 8), HearingPath.Straight);

                Emit(world, Support.V(5, 0, 12), 30);
                world.Step(0.1f);
                List<PerceptEvent> heard = Heard(world);
                Assert.AreEqual(2, heard.Count, "both hear a loudness-30 footstep");
                Assert.AreEqual(guard, heard[0].Agent);
                Assert.AreEqual(20.24264f, heard[0].Distance, 1e-3f, "the walk through the doorway, not the 4 m line");
                Assert.AreEqual(13.25f, heard[0].Position.X, 1e-4f, "it seems to come from the doorway");
                Assert.AreEqual(9.75f, heard[0].Position.Z, 1e-4f);
                Assert.AreEqual(1 - heard[0].Distance / 30, heard[0].Strength, 1e-5f);
                Assert.AreEqual(lesson, heard[1].Agent);
                Assert.AreEqual((float)Math.Sqrt(17), heard[1].Distance, 1e-4f, "the lesson's straight line");
                Assert.AreEqual(12f, heard[1].Position.Z, 1e-6f, "heard where it is");

                // The walk is 20.2 m: a loudness-12 footstep reaches only the straight-line listener.
                Emit(world, Support.V(5, 0, 12), 12);
                world.Step(0.1f);
                heard = Heard(world);
                Assert.AreEqual(1, heard.Count);
                Assert.AreEqual(lesson, heard[0].Agent);

                // An agent switched to the straight line hears it through the wall; back to the world's walk, not.
                HearingSettings h = world.GetHearing(guard);
                Assert.AreEqual(HearingPath.World, h.Path);
                h.Path = HearingPath.Straight;
                world.SetHearing(guard, h);
                Assert.AreEqual(HearingPath.Straight, world.GetHearing(guard).Path);
                Emit(world, Support.V(5, 0, 12), 12);
                world.Step(0.1f);
                Assert.AreEqual(2, Heard(world).Count);
                Assert.AreEqual(4f, Heard(world)[0].Distance, 1e-5f);
            }
        }

        [Test]
        public void TheLessonsStraightLineIsTheDefaultAndIgnoresTheGraph()
        {
            Assert.AreEqual(HearingPath.Straight, WorldDef.Default().HearingPath);
            Assert.AreEqual(HearingPath.World, AgentDef.Default().Hearing.Path);
            using (World world = WallWorld(HearingPath.Straight))
            {
                AgentId guard = Listener(world, Support.V(5, 0, 8), HearingPath.World);
                Emit(world, Support.V(5, 0, 12), 12);
                world.Step(0.1f);
                List<PerceptEvent> heard = Heard(world);
                Assert.AreEqual(1, heard.Count, "straight hearing: through the wall");
                Assert.AreEqual(guard, heard[0].Agent);
                Assert.AreEqual(4f, heard[0].Distance, 1e-5f);
            }
        }

        [Test]
        public void ADoorShutsTheWalkAndPassesItsTransmissionStraightThrough()
        {
            Assert.IsFalse(OccluderDef.Default().HasSoundTransmission, "no transmission of its own by default");
            using (World world = WallWorld(HearingPath.Walk))
            {
                AgentId byDoor = Listener(world, Support.V(14, 0, 8), HearingPath.World);
                Assert.IsTrue(world.FindWalk(Support.V(14, 0, 12), Support.V(14, 0, 8), 100).Found, "open doorway");

                OccluderDef door = OccluderDef.Default();
                door.Shape = ShapeKind.Box;
                door.Position = Support.V(14, 1.5f, 10);
                door.Rotation = Quat.Identity;
                door.HalfExtents = Support.V(1, 1.5f, 0.05f);
                door.HasSoundTransmission = true;
                door.SoundTransmission = 0.5f;
                OccluderId doorId = world.CreateOccluder(door);
                WalkResult none = world.FindWalk(Support.V(14, 0, 12), Support.V(14, 0, 8), 100);
                Assert.IsFalse(none.Found, "the door fills the doorway: no walk");
                Assert.AreEqual(-1f, none.Distance);
                Assert.AreEqual(0, none.NodeCount);
                Assert.AreEqual("no walk", none.ToString());

                // 4 m away through the door, reach 10 × 0.5 = 5 m: heard where it is, strength 1 - 4/5.
                Emit(world, Support.V(14, 0, 12), 10);
                world.Step(0.1f);
                List<PerceptEvent> heard = Heard(world);
                Assert.AreEqual(1, heard.Count);
                Assert.AreEqual(byDoor, heard[0].Agent);
                Assert.AreEqual(4f, heard[0].Distance, 1e-5f);
                Assert.AreEqual(0.2f, heard[0].Strength, 1e-5f);
                Assert.AreEqual(12f, heard[0].Position.Z, 1e-5f);

                // Reach 7 × 0.5 = 3.5 m < 4 m: not heard.
                Emit(world, Support.V(14, 0, 12), 7);
                world.Step(0.1f);
                Assert.AreEqual(0, Heard(world).Count);

                // A door without transmission of its own blocks walk hearing.
                world.DestroyOccluder(doorId);
                door.HasSoundTransmission = false;
                world.CreateOccluder(door);
                Emit(world, Support.V(14, 0, 12), 10);
                world.Step(0.1f);
                Assert.AreEqual(0, Heard(world).Count, "blocked: no transmission, no walk");
            }
        }

        [Test]
        public void TheEnginesGraphIsWalkedAndReadBack()
        {
            using (var world = new World(WithWalkHearing()))
            {
                Assert.AreEqual(WalkGraphKind.None, world.WalkGraph.Kind);
                Assert.IsFalse(world.HasWalkGraph);
                WalkNode[] nodesOut = null;
                Assert.AreEqual(0, world.GetWalkNodes(ref nodesOut), "no graph: no nodes");
                var ex = Assert.Throws<ArgusException>(() => world.FindWalk(Support.V(0, 0, 0), Support.V(1, 0, 0), 10));
                Assert.AreEqual(Result.InvalidArgument, ex.Code, "FindWalk without a graph");

                // An L around a block: (0,0,0) - (10,0,0) - (10,0,10), as in hearing_walk_given_graph.
                world.CreateBox(Support.V(5, 1.5f, 5), Quat.Identity, Support.V(4, 1.5f, 4));
                Vec3[] nodes = { Support.V(0, 0, 0), Support.V(10, 0, 0), Support.V(10, 0, 10) };
                WalkEdge[] edges = { new WalkEdge(0, 1, 10), new WalkEdge(2, 1, 10) };
                world.SetWalkGraph(nodes, edges, 2);
                WalkGraphInfo info = world.WalkGraph;
                Assert.AreEqual(WalkGraphKind.Given, info.Kind);
                Assert.AreEqual(3u, info.NodeCount);
                Assert.AreEqual(2u, info.EdgeCount);
                Assert.AreEqual(2f, info.SnapDistance);

                Assert.AreEqual(3, world.GetWalkNodes(ref nodesOut));
                Assert.AreEqual(10f, nodesOut[2].Position.Z);
                Assert.IsTrue(nodesOut[0].IsOpen && nodesOut[1].IsOpen && nodesOut[2].IsOpen);
                WalkEdge[] edgesOut = new WalkEdge[1]; // too small: grown
                Assert.AreEqual(2, world.GetWalkEdges(ref edgesOut));
                Assert.AreEqual(2, edgesOut.Length);
                Assert.AreEqual(1u, edgesOut[1].A, "each edge once, a < b");
                Assert.AreEqual(2u, edgesOut[1].B);

                uint[] path = new uint[1]; // too small: grown
                WalkResult walk = world.FindWalk(Support.V(10, 0, 10), Support.V(0, 0, 0.5f), 100, ref path);
                Assert.IsTrue(walk.Found);
                Assert.AreEqual(20.5f, walk.Distance, 1e-5f);
                Assert.AreEqual(3, walk.NodeCount);
                Assert.AreEqual(new uint[] { 2, 1, 0 }, new[] { path[0], path[1], path[2] });
                Assert.IsFalse(world.FindWalk(Support.V(10, 0, 10), Support.V(0, 0, 0.5f), 20).Found, "longer than the limit");
                Assert.IsFalse(world.FindWalk(Support.V(10, 0, 10), Support.V(30, 0, 30), 100).Found, "off the graph");

                AgentId guard = Listener(world, Support.V(0, 0, 0.5f), HearingPath.World);
                Emit(world, Support.V(10, 0, 10), 25);
                world.Step(0.1f);
                List<PerceptEvent> heard = Heard(world);
                Assert.AreEqual(1, heard.Count);
                Assert.AreEqual(guard, heard[0].Agent);
                Assert.AreEqual(20.5f, heard[0].Distance, 1e-4f);
                Assert.AreEqual(0.18f, heard[0].Strength, 1e-5f);
                Assert.AreEqual(Support.V(10, 0, 0), heard[0].Position, "the corner it seems to come from");

                // Cleared: walk hearing falls back to the straight line (14.1 m < 20).
                world.ClearWalkGraph();
                Assert.AreEqual(WalkGraphKind.None, world.WalkGraph.Kind);
                Emit(world, Support.V(10, 0, 10), 20);
                world.Step(0.1f);
                heard = Heard(world);
                Assert.AreEqual(1, heard.Count, "no graph: walk hearing is the straight line (14.1 m < 20 m)");
                Assert.AreEqual((float)Math.Sqrt(100 + 9.5 * 9.5), heard[0].Distance, 1e-4f);
                Assert.AreEqual(Support.V(10, 0, 10), heard[0].Position, "heard where it is");
            }
        }

        static WorldDef WithWalkHearing()
        {
            WorldDef wd = WorldDef.Default();
            wd.HearingPath = HearingPath.Walk;
            return wd;
        }

        [Test]
        public void BadWalkGraphsAndSettingsAreRefusedWithTheWorldUnchanged()
        {
            using (World world = WallWorld(HearingPath.Walk))
            {
                AgentId guard = Listener(world, Support.V(5, 0, 8), HearingPath.World);
                byte[] before = world.Save();
                WalkGraphInfo infoBefore = world.WalkGraph;
                Vec3[] pts = { Support.V(0, 0, 0), Support.V(3, 0, 0), Support.V(3, 0, 4) };

                ExpectRefused(world, before, "NaN node", () =>
                    world.SetWalkGraph(new[] { Support.V(0, 0, 0), Support.V(float.NaN, 0, 0) }, null, 1));
                ExpectRefused(world, before, "infinite node", () =>
                    world.SetWalkGraph(new[] { Support.V(float.PositiveInfinity, 0, 0) }, null, 1));
                ExpectRefused(world, before, "edge to a missing node", () =>
                    world.SetWalkGraph(pts, new[] { new WalkEdge(0, 3, 10) }, 1));
                ExpectRefused(world, before, "negative length", () =>
                    world.SetWalkGraph(pts, new[] { new WalkEdge(0, 1, -3) }, 1));
                ExpectRefused(world, before, "shorter than the straight line", () =>
                    world.SetWalkGraph(pts, new[] { new WalkEdge(1, 2, 2) }, 1));
                ExpectRefused(world, before, "NaN length", () =>
                    world.SetWalkGraph(pts, new[] { new WalkEdge(1, 2, float.NaN) }, 1));
                ExpectRefused(world, before, "snap distance under 0.05 m", () => world.SetWalkGraph(pts, null, 0.01f));

                WalkGridDef grid = WalkGridDef.Default();
                grid.CellSize = 0;
                ExpectRefused(world, before, "zero cell size", () => world.SetWalkGrid(grid));
                grid = WalkGridDef.Default();
                grid.CellSize = 0.01f;
                ExpectRefused(world, before, "tiny cell size", () => world.SetWalkGrid(grid));
                grid = WalkGridDef.Default();
                grid.BandMin = 2;
                grid.BandMax = 1;
                ExpectRefused(world, before, "empty band", () => world.SetWalkGrid(grid));
                grid = WalkGridDef.Default();
                grid.Origin = Support.V(float.NaN, 0, 0);
                ExpectRefused(world, before, "NaN origin", () => world.SetWalkGrid(grid));
                var zeroed = Assert.Throws<ArgusException>(() => world.SetWalkGrid(new WalkGridDef()));
                Assert.AreEqual(Result.DefNotInitialized, zeroed.Code, "a zeroed grid def");

                HearingSettings h = world.GetHearing(guard);
                h.Path = (HearingPath)7;
                ExpectRefused(world, before, "hearing path 7", () => world.SetHearing(guard, h));
                Assert.AreEqual(HearingPath.World, world.GetHearing(guard).Path);

                OccluderDef door = OccluderDef.Default();
                door.Shape = ShapeKind.Box;
                door.HalfExtents = Support.V(1, 1, 1);
                door.HasSoundTransmission = true;
                door.SoundTransmission = 1.5f;
                ExpectRefused(world, before, "transmission 1.5", () => world.CreateOccluder(door));
                door.SoundTransmission = -0.1f;
                ExpectRefused(world, before, "negative transmission", () => world.CreateOccluder(door));
                door.SoundTransmission = float.NaN;
                ExpectRefused(world, before, "NaN transmission", () => world.CreateOccluder(door));

                ExpectRefused(world, before, "NaN FindWalk point", () =>
                    world.FindWalk(Support.V(float.NaN, 0, 0), Support.V(1, 0, 1), 10));
                ExpectRefused(world, before, "negative FindWalk limit", () =>
                    world.FindWalk(Support.V(1, 0, 1), Support.V(2, 0, 2), -1));

                Assert.Throws<ArgumentNullException>(() => world.SetWalkGraph(null, null, 1));
                Assert.Throws<ArgumentOutOfRangeException>(() => world.SetWalkGraph(pts, 4, null, 0, 1));
                Assert.Throws<ArgumentOutOfRangeException>(() => world.SetWalkGraph(pts, 3, null, 1, 1));

                WalkGraphInfo infoAfter = world.WalkGraph;
                Assert.AreEqual(infoBefore.Kind, infoAfter.Kind);
                Assert.AreEqual(infoBefore.NodeCount, infoAfter.NodeCount);
                Assert.AreEqual(infoBefore.EdgeCount, infoAfter.EdgeCount);

                WorldDef bad = WorldDef.Default();
                bad.HearingPath = HearingPath.World; // a world's own setting is straight or walk
                var e1 = Assert.Throws<ArgusException>(() => new World(bad).Dispose());
                Assert.AreEqual(Result.InvalidArgument, e1.Code);
                bad.HearingPath = (HearingPath)9;
                var e2 = Assert.Throws<ArgusException>(() => new World(bad).Dispose());
                Assert.AreEqual(Result.InvalidArgument, e2.Code);
            }
        }

        static void ExpectRefused(World world, byte[] before, string what, TestDelegate call)
        {
            var e = Assert.Throws<ArgusException>(call, what);
            Assert.AreEqual(Result.InvalidArgument, e.Code, what + ": " + e.Message);
            Assert.AreEqual(before, world.Save(), what + ": the world changed");
        }
    }
}
