using System.Collections.Generic;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.Tests
{
    /// <summary>Lesson §9–§11: the influence map's add, blur and lookup, and the cover and flank
    /// queries with the lesson's names and arguments.</summary>
    public class SpatialTests
    {
        LessonScene scene;

        [SetUp]
        public void SetUp() { scene = new LessonScene(); }

        [TearDown]
        public void TearDown() { scene.Destroy(); }

        [Test]
        public void Trace_InfluenceBlur_CentrePeak10Becomes6()
        {
            using (var map = new InfluenceMap(5, 5, 1f, Vector3.zero))
            {
                var centre = new Vector3(2.5f, 0f, 2.5f);
                map.AddInfluence(centre, 10f, 2);
                Assert.AreEqual(10f, map.GetValue(centre), 1e-5f);
                Assert.AreEqual(5f, map.GetValue(new Vector3(3.5f, 0f, 2.5f)), 1e-5f);
                Assert.AreEqual(0f, map.GetValue(new Vector3(0.5f, 0f, 0.5f)), 1e-5f);
                map.Blur();
                Assert.AreEqual(6f, map.GetValue(centre), 1e-5f);
                Assert.Greater(map.GetValue(new Vector3(0.5f, 0f, 1.5f)), 0f, "a zero cell picks up its neighbours");
                Assert.AreEqual(new Vector2Int(2, 2), map.WorldToCell(centre));
                Assert.AreEqual(0f, map.GetValue(new Vector3(-3f, 0f, 2f)), "outside the grid");
                map.Clear();
                Assert.AreEqual(0f, map.GetValue(centre));
            }
        }

        [Test]
        public void InfluenceMap_ToTexture_HoldsTheCells()
        {
            using (var map = new InfluenceMap(5, 4, 1f, Vector3.zero))
            {
                map.AddInfluence(new Vector3(3.5f, 0f, 1.5f), 7f, 0);
                Texture2D tex = map.ToTexture();
                Assert.AreEqual(5, tex.width);
                Assert.AreEqual(4, tex.height);
                Assert.AreEqual(TextureFormat.RFloat, tex.format);
                Assert.AreSame(tex, map.ToTexture(tex), "a texture of the right size is reused");
                Assert.AreEqual(7f, tex.GetPixel(3, 1).r, 1e-5f);
                Assert.AreEqual(0f, tex.GetPixel(1, 3).r, 1e-5f);
                Object.DestroyImmediate(tex);
            }
        }

        [Test]
        public void Trace_FindBestCover_PicksTheSpotBehindTheWall()
        {
            scene.Wall(new Vector3(0f, 1f, 5f), new Vector3(2f, 2f, 0.5f));
            var threatEye = new Vector3(0f, 1f, 0f);
            var behindWall = new Vector3(0f, 1f, 7f);
            var open = new Vector3(4f, 1f, 6f);
            var candidates = new List<Vector3> { open, behindWall };
            var self = new Vector3(4f, 1f, 7f);
            Vector3 best = TacticalQueries.FindBestCover(self, threatEye, candidates, null, 1 << LessonScene.ObstacleLayer);
            Assert.AreEqual(behindWall, best);
        }

        [Test]
        public void Trace_FindBestCover_NoCover_ReturnsSelf()
        {
            var self = new Vector3(3f, 1f, 3f);
            var candidates = new List<Vector3> { new Vector3(0f, 1f, 7f), new Vector3(4f, 1f, 6f) };
            Vector3 best = TacticalQueries.FindBestCover(self, new Vector3(0f, 1f, 0f), candidates, null, ~0);
            Assert.AreEqual(self, best);
        }

        [Test]
        public void Trace_FindBestCover_DangerOutweighsDistance()
        {
            scene.Wall(new Vector3(0f, 1f, 5f), new Vector3(10f, 2f, 0.5f));
            var near = new Vector3(0f, 1f, 7f);
            var far = new Vector3(3f, 1f, 7f);
            var candidates = new List<Vector3> { near, far };
            using (var danger = new InfluenceMap(10, 10, 1f, new Vector3(-5f, 0f, 2f)))
            {
                danger.AddInfluence(near, 1f, 0);       // danger 1 × 10 > 3 m of walking
                Vector3 best = TacticalQueries.FindBestCover(new Vector3(0f, 1f, 7f), new Vector3(0f, 1f, 0f), candidates, danger, ~0);
                Assert.AreEqual(far, best);
            }
        }

        [Test]
        public void Trace_FindFlankPosition_PrefersBehind_ThenAvoidsDanger()
        {
            var front = new Vector3(0f, 0f, 5f);
            var side = new Vector3(5f, 0f, 0f);
            var behind = new Vector3(0f, 0f, -5f);
            var candidates = new List<Vector3> { front, side, behind };
            Assert.AreEqual(behind, TacticalQueries.FindFlankPosition(Vector3.zero, Vector3.forward, candidates, null));
            using (var danger = new InfluenceMap(20, 20, 1f, new Vector3(-10f, 0f, -10f)))
            {
                danger.AddInfluence(behind, 2f, 0);     // −(−1) − 2 = −1 < side's 0
                Assert.AreEqual(side, TacticalQueries.FindFlankPosition(Vector3.zero, Vector3.forward, candidates, danger));
            }
            var onlyFront = new List<Vector3> { front };
            Assert.AreEqual(Vector3.zero, TacticalQueries.FindFlankPosition(Vector3.zero, Vector3.forward, onlyFront, null));
        }
    }
}
