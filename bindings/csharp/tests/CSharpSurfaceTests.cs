using System;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text.RegularExpressions;
using NUnit.Framework;

namespace Argus.Tests
{
    /// <summary>Issue 34, "C# that a C# developer expects": expired views throw, foreach everywhere, bools,
    /// Vec3 maths, argument and dispose errors, batch errors naming the index, docs in C# names.</summary>
    [TestFixture]
    public class CSharpSurfaceTests
    {
        // A guard looking at a target 5 m ahead: percepts every sight tick, a brain event on the first.
        static World Scene(out AgentId guard, out TargetId target)
        {
            var world = new World();
            AgentDef def = AgentDef.Default();
            def.Position = Support.V(0, 0, 0);
            def.Forward = Support.V(0, 0, 1);
            guard = world.CreateAgent(def);
            TargetDef t = TargetDef.Default();
            t.Position = Support.V(0, 0, 5);
            target = world.CreateTarget(t);
            return world;
        }

        static PerceptArray StepUntilPercepts(World world)
        {
            for (int i = 0; i < 30; i++)
            {
                world.Step(1 / 30f);
                PerceptArray p = world.Percepts;
                if (p.Length > 0) return p;
            }
            Assert.Fail("no percept in 30 steps");
            return world.Percepts;
        }

        // ---- expired views throw ---------------------------------------------------------------------------

        [Test]
        public void AnEventArrayReadAfterTheNextStepThrowsInvalidOperation()
        {
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                PerceptArray p = StepUntilPercepts(world);
                BrainEventArray b = world.BrainEvents;
                Assert.AreEqual(guard, p[0].Agent, "valid before the next step");
                Assert.IsTrue(p.IsValid);
                world.Step(1 / 30f);
                Assert.IsFalse(p.IsValid);
                var e = Assert.Throws<InvalidOperationException>(() => { var x = p[0]; });
                StringAssert.Contains("expired", e.Message);
                Assert.Throws<InvalidOperationException>(() => { var x = p.Length; });
                Assert.Throws<InvalidOperationException>(() => { foreach (PerceptEvent x in p) { } });
                Assert.Throws<InvalidOperationException>(() => p.CopyTo(new PerceptEvent[64]));
                Assert.Throws<InvalidOperationException>(() => { var x = b.Length; });
                Assert.Throws<InvalidOperationException>(() => { var x = world.ForgetEvents; world.Step(1 / 30f); var y = x.Length; });
                Assert.Throws<InvalidOperationException>(() => { var x = world.AwarenessEvents; world.Step(1 / 30f); var y = x.Length; });
                Assert.DoesNotThrow(() => { var x = world.Percepts.Length; }, "a fresh view reads");
            }
        }

        [Test]
        public void AnEventArrayReadAfterLoadThrowsAndAFailedStepKeepsItValid()
        {
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                PerceptArray p = StepUntilPercepts(world);
                Assert.Throws<ArgusException>(() => world.Step(float.NaN));
                Assert.AreEqual(guard, p[0].Agent, "a refused step changes nothing, views included");
                world.Load(world.Save());
                Assert.Throws<InvalidOperationException>(() => { var x = p[0]; });
            }
        }

        [Test]
        public void AnEventArrayReadAfterDisposeThrowsObjectDisposed()
        {
            AgentId guard;
            TargetId target;
            World world = Scene(out guard, out target);
            PerceptArray p = StepUntilPercepts(world);
            world.Dispose();
            var e = Assert.Throws<ObjectDisposedException>(() => { var x = p[0]; });
            Assert.AreEqual("Argus.World", e.ObjectName);
            Assert.Throws<ObjectDisposedException>(() => { foreach (PerceptEvent x in p) { } });
        }

        [Test]
        public void RaysDebugDrawAndInfluenceLayersExpire()
        {
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                RayArray rays = world.BeginStep(1 / 30f);
                Assert.Greater(rays.Length, 0);
                var hits = new RayHit[rays.Length];
                world.FinishStep(hits, hits.Length);
                Assert.Throws<InvalidOperationException>(() => { var x = rays[0]; }, "step rays die with FinishStep");

                DebugDrawView draw = world.DebugDraw(DebugDrawOptions.Default());
                Assert.Greater(draw.LineCount, 0);
                world.Step(1 / 30f);
                Assert.Throws<InvalidOperationException>(() => draw.Line(0));
                draw = world.DebugDraw(DebugDrawOptions.Default());
                world.DebugDraw(DebugDrawOptions.Default());
                Assert.Throws<InvalidOperationException>(() => { var x = draw.LineCount; }, "the next debug draw replaces it");

                InfluenceMapId map = world.CreateInfluenceMap(InfluenceMapDef.Default());
                FloatArray layer = world.GetInfluenceLayer(map, 0);
                Assert.Greater(layer.Length, 0);
                Assert.AreEqual(0f, layer[0]);
                world.AddInfluence(map, 0, Support.V(0, 0, 0), 1, 2);
                Assert.Throws<InvalidOperationException>(() => { var x = layer[0]; });
                layer = world.GetInfluenceLayer(map, 0);
                world.Dispose();
                Assert.Throws<ObjectDisposedException>(() => { var x = layer[0]; });
            }
        }

        sealed class KeepingCaster : IRayCaster
        {
            public RayArray Kept;
            public RayHits KeptHits;

            public void CastRays(RayArray rays, RayHits hits)
            {
                Kept = rays;
                KeptHits = hits;
                foreach (EngineRay r in rays) Assert.Greater(r.MaxDistance, 0f);
                for (int i = 0; i < hits.Length; i++) hits[i] = new RayHit { Hit = false };
            }
        }

        [Test]
        public void TheRayCallersViewsExpireWhenTheCallReturns()
        {
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                var caster = new KeepingCaster();
                world.SetRayCaster(caster);
                world.Step(1 / 30f);
                Assert.Greater(caster.Kept.IsValid ? 1 : 0, -1);
                Assert.IsFalse(caster.Kept.IsValid);
                Assert.Throws<InvalidOperationException>(() => { var x = caster.Kept.Length; });
                Assert.Throws<InvalidOperationException>(() => caster.KeptHits[0] = new RayHit());
            }
        }

        // ---- foreach -------------------------------------------------------------------------------------------

        [Test]
        public void ForeachWalksEveryViewInOrder()
        {
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                PerceptArray p = StepUntilPercepts(world);
                int k = 0;
                foreach (PerceptEvent e in p) Assert.AreEqual(p[k++].Target, e.Target);
                Assert.AreEqual(p.Length, k);
                k = 0;
                BrainEventArray brains = world.BrainEvents;
                foreach (BrainEvent e in brains) Assert.AreEqual(brains[k++].To, e.To);
                Assert.AreEqual(brains.Length, k);
                k = 0;
                foreach (ForgetEvent e in world.ForgetEvents) k++;
                foreach (AwarenessEvent e in world.AwarenessEvents) k++;

                RayArray rays = world.BeginStep(1 / 30f);
                k = 0;
                foreach (EngineRay r in rays) Assert.AreEqual(rays[k++].Origin, r.Origin);
                Assert.AreEqual(rays.Length, k);
                world.CancelStep();

                DebugDrawView draw = world.DebugDraw(DebugDrawOptions.Default());
                k = 0;
                foreach (DebugLine l in draw.Lines) Assert.AreEqual(draw.Line(k++).A, l.A);
                Assert.AreEqual(draw.LineCount, k);
                k = 0;
                foreach (DebugPoint pt in draw.Points) Assert.AreEqual(draw.Point(k++).Position, pt.Position);
                Assert.AreEqual(draw.PointCount, k);

                InfluenceMapId map = world.CreateInfluenceMap(InfluenceMapDef.Default());
                world.AddInfluence(map, 0, Support.V(0, 0, 0), 1, 2);
                float sum = 0;
                foreach (float v in world.GetInfluenceLayer(map, 0)) sum += v;
                Assert.Greater(sum, 0f);
            }
        }

        // ---- bools, hidden fields ------------------------------------------------------------------------------

        [Test]
        public void FlagsAreBoolPropertiesAndNoPublicStructHasAByteOrCookieField()
        {
            var offenders = typeof(World).Assembly.GetTypes()
                .Where(t => t.IsValueType && t.IsPublic)
                .SelectMany(t => t.GetFields(BindingFlags.Instance | BindingFlags.Public)
                    .Where(f => f.FieldType == typeof(byte) || f.Name == "InternalCookie")
                    .Select(f => t.Name + "." + f.Name))
                .ToList();
            CollectionAssert.IsEmpty(offenders, "0/1 flags are bool properties; the def cookie is the library's");
            AgentDef def = AgentDef.Default();
            Assert.IsTrue(def.Sight.Enabled);
            def.Sight.Enabled = false;
            Assert.IsFalse(def.Sight.Enabled);
            Assert.AreEqual(typeof(bool), typeof(RayHit).GetProperty("Hit").PropertyType);
            Assert.AreEqual(typeof(bool), typeof(AgentState).GetProperty("HasMoveTarget").PropertyType);
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                world.SetAgentDef(guard, def);
                Assert.IsFalse(world.GetSight(guard).Enabled, "the bool reaches the library");
                Assert.IsFalse(world.CanSee(guard, target).Seen);
            }
        }

        // ---- Vec3 ------------------------------------------------------------------------------------------------

        [Test]
        public void Vec3HasOperatorsAndConvertsToSystemNumerics()
        {
            var a = new Vec3(1, 2, 3);
            var b = new Vec3(4, 5, 6);
            Assert.AreEqual(new Vec3(5, 7, 9), a + b);
            Assert.AreEqual(new Vec3(3, 3, 3), b - a);
            Assert.AreEqual(new Vec3(-1, -2, -3), -a);
            Assert.AreEqual(new Vec3(2, 4, 6), a * 2);
            Assert.AreEqual(new Vec3(2, 4, 6), 2 * a);
            Assert.AreEqual(new Vec3(0.5f, 1, 1.5f), a / 2);
            Assert.IsTrue(a == new Vec3(1, 2, 3));
            Assert.IsTrue(a != b);
            Assert.AreEqual(32f, Vec3.Dot(a, b));
            Assert.AreEqual(new Vec3(-3, 6, -3), Vec3.Cross(a, b));
            Assert.AreEqual(5f, new Vec3(3, 0, 4).Length, 1e-6f);
            Assert.AreEqual(1f, new Vec3(3, 0, 4).Normalized.Length, 1e-6f);
            System.Numerics.Vector3 n = a;
            Assert.AreEqual(new System.Numerics.Vector3(1, 2, 3), n);
            Vec3 back = new System.Numerics.Vector3(7, 8, 9);
            Assert.AreEqual(new Vec3(7, 8, 9), back);
            System.Numerics.Quaternion q = Quat.Identity;
            Assert.AreEqual(System.Numerics.Quaternion.Identity, q);
        }

        // ---- argument errors --------------------------------------------------------------------------------------

        [Test]
        public void NullArraysThrowArgumentNullNamingTheParameter()
        {
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                var pos = new[] { Support.V(0, 0, 0) };
                Assert.AreEqual("agents", Assert.Throws<ArgumentNullException>(() => world.SetAgentPoses(null, pos, pos, 1)).ParamName);
                Assert.AreEqual("positions", Assert.Throws<ArgumentNullException>(() => world.SetAgentPoses(new[] { guard }, null, pos, 1)).ParamName);
                Assert.AreEqual("targets", Assert.Throws<ArgumentNullException>(() => world.SetTargetPoses(null, pos, pos, 1)).ParamName);
                Assert.AreEqual("positions", Assert.Throws<ArgumentNullException>(() => world.SetTargetPoses(new[] { target }, null, pos, 1)).ParamName);
                InfluenceMapId map = world.CreateInfluenceMap(InfluenceMapDef.Default());
                Assert.AreEqual("positions", Assert.Throws<ArgumentNullException>(() => world.AddInfluences(map, 0, null, new float[1], 1, 1)).ParamName);
                Assert.AreEqual("values", Assert.Throws<ArgumentNullException>(() => world.AddInfluences(map, 0, pos, null, 1, 1)).ParamName);
                Assert.AreEqual("bytes", Assert.Throws<ArgumentNullException>(() => world.Load(null)).ParamName);
                Assert.AreEqual("dest", Assert.Throws<ArgumentNullException>(() => world.Percepts.CopyTo(null)).ParamName);
                OccluderDef mesh = OccluderDef.Default();
                mesh.Shape = ShapeKind.Mesh;
                Assert.AreEqual("vertices", Assert.Throws<ArgumentNullException>(() => world.CreateOccluder(mesh, null, new uint[3])).ParamName);
                world.BeginStep(1 / 30f);
                Assert.AreEqual("hits", Assert.Throws<ArgumentNullException>(() => world.FinishStep((RayHit[])null, 1)).ParamName);
                world.CancelStep();
                TargetDef t = TargetDef.Default();
                Assert.AreEqual("offsets", Assert.Throws<ArgumentNullException>(() => t.SetCheckPoints(null)).ParamName);
            }
        }

        [Test]
        public void SetPosesWithoutForwardsKeepsEachFacing()
        {
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                world.SetAgentPose(guard, Support.V(0, 0, 0), Support.V(1, 0, 0));
                world.SetAgentPoses(new[] { guard }, new[] { Support.V(2, 0, 3) }, null, 1);
                AgentState s = world.GetAgentState(guard);
                Assert.AreEqual(Support.V(2, 0, 3), s.Position);
                Assert.AreEqual(1f, s.Forward.X, 1e-6f, "facing kept");
                world.SetTargetPose(target, Support.V(0, 0, 5), Support.V(0, 0, -1));
                world.SetTargetPoses(new[] { target }, new[] { Support.V(1, 0, 5) }, null, 1);
                TargetDef t = world.GetTargetDef(target);
                Assert.AreEqual(Support.V(1, 0, 5), t.Position);
                Assert.AreEqual(-1f, t.Forward.Z, 1e-6f, "facing kept");
            }
        }

        [Test]
        public void ABatchErrorNamesTheIndexThatFailed()
        {
            AgentId guard;
            TargetId target;
            using (var world = Scene(out guard, out target))
            {
                AgentId second = world.CreateAgent(AgentDef.Default());
                AgentId third = world.CreateAgent(AgentDef.Default());
                world.CreateAgent(AgentDef.Default()); // count may not exceed the live agents: keep 3 alive
                world.DestroyAgent(third);
                var ids = new[] { guard, second, third };
                var pos = new[] { Support.V(0, 0, 0), Support.V(1, 0, 0), Support.V(2, 0, 0) };
                var e = Assert.Throws<ArgusException>(() => world.SetAgentPoses(ids, pos, null, 3));
                Assert.AreEqual(Result.InvalidId, e.Code);
                Assert.AreEqual(2, e.Index);
                StringAssert.Contains("agents[2]", e.Message);
                ids[2] = guard;
                pos[1] = Support.V(float.NaN, 0, 0);
                e = Assert.Throws<ArgusException>(() => world.SetAgentPoses(ids, pos, null, 3));
                Assert.AreEqual(1, e.Index);
                StringAssert.Contains("positions[1]", e.Message);
                world.CreateTarget(TargetDef.Default());
                var tids = new[] { target, default(TargetId) };
                e = Assert.Throws<ArgusException>(() => world.SetTargetPoses(tids, pos, null, 2));
                StringAssert.Contains("targets[1]", e.Message);
                Assert.AreEqual(Support.V(0, 0, 0), world.GetAgentState(guard).Position, "nothing moved");

                RayArray rays = world.BeginStep(1 / 30f);
                Assert.Greater(rays.Length, 0);
                var hits = new RayHit[rays.Length];
                int last = hits.Length - 1;
                hits[last] = new RayHit { Hit = true, Distance = float.NaN };
                e = Assert.Throws<ArgusException>(() => world.FinishStep(hits, hits.Length));
                Assert.AreEqual(Result.InvalidArgument, e.Code);
                Assert.AreEqual(last, e.Index);
                StringAssert.Contains("hits[" + last + "]", e.Message);
                hits[last] = new RayHit { Hit = true, Distance = 1 };
                world.FinishStep(hits, hits.Length); // the step stayed pending: answer again
            }
        }

        // ---- dispose -------------------------------------------------------------------------------------------------

        [Test]
        public void ADisposedWorldThrowsObjectDisposedNamingArgusWorldAndIsValidIsFalse()
        {
            AgentId guard;
            TargetId target;
            World world = Scene(out guard, out target);
            OccluderId box = world.CreateBox(Support.V(3, 1, 3), Quat.Identity, Support.V(1, 1, 1));
            InfluenceMapId map = world.CreateInfluenceMap(InfluenceMapDef.Default());
            Assert.IsTrue(world.IsValid(guard));
            world.Dispose();
            Assert.AreEqual("Argus.World", Assert.Throws<ObjectDisposedException>(() => world.Step(1 / 30f)).ObjectName);
            Assert.AreEqual("Argus.World", Assert.Throws<ObjectDisposedException>(() => world.CreateAgent(AgentDef.Default())).ObjectName);
            Assert.AreEqual("Argus.World", Assert.Throws<ObjectDisposedException>(() => { var x = world.Percepts; }).ObjectName);
            Assert.AreEqual("Argus.World", Assert.Throws<ObjectDisposedException>(() => { var x = world.Tag; }).ObjectName);
            Assert.AreEqual("Argus.World", Assert.Throws<ObjectDisposedException>(() => world.Save()).ObjectName);
            Assert.IsFalse(world.IsValid(guard));
            Assert.IsFalse(world.IsValid(target));
            Assert.IsFalse(world.IsValid(box));
            Assert.IsFalse(world.IsValid(map));
            Assert.DoesNotThrow(() => world.Dispose(), "a second Dispose does nothing");
        }

        // ---- docs ----------------------------------------------------------------------------------------------------

        [Test]
        public void DocCommentsNameFieldsTheCSharpWay()
        {
            string xml = Path.ChangeExtension(typeof(World).Assembly.Location, ".xml");
            Assume.That(File.Exists(xml), "build.sh writes Argus.xml next to Argus.dll");
            string text = File.ReadAllText(xml);
            // Every C field name with an underscore that is not also a function's parameter name (those keep
            // their C spelling: NativeMethods' parameters are named so).
            string header = File.ReadAllText(Path.Combine(Support.Root, "include", "argus.h"));
            var parameters = new System.Collections.Generic.HashSet<string>(
                Regex.Matches(header, @"argus_\w+\(([^)]*)\)").Cast<Match>()
                    .SelectMany(m => m.Groups[1].Value.Split(','))
                    .Select(p => Regex.Match(p, @"(\w+)\s*$").Groups[1].Value));
            var fields = LayoutTable.Fields.Select(f => f[1].Split('[')[0]).Where(f => f.Contains("_") && !parameters.Contains(f)).Distinct();
            var found = fields.Where(f => Regex.IsMatch(text, @"\b" + f + @"\b")).ToList();
            CollectionAssert.IsEmpty(found, "C field names in the C# docs");
            StringAssert.DoesNotContain("has_move_target", text);
            StringAssert.DoesNotContain("top_k", text);
            StringAssert.DoesNotContain("`", text, "backticked C names become <c>C# names</c>");
        }
    }
}
