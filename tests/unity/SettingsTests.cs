// Every component field that feeds the native def reaches it when changed ALONE after the agent
// exists, at the next step: the per-frame change detection (snapshots of the fields, compared
// without rebuilding the def) must cover each field, not just notice that some field changed.
using System;
using System.Collections.Generic;
using System.Reflection;
using Argus.Perception;
using Argus.Perception.Tests;
using NUnit.Framework;
using UnityEngine;

namespace Argus.Perception.StandInTests
{
    [TestFixture]
    public class SettingsTests
    {
        static readonly HashSet<string> NotForwarded = new HashSet<string>
        {
            "FieldOfViewSensor.visibleTargets", "EnemyBrain.state", "EnemyBrain.arrivalDistance",
            "EnemyBrain.driveNavMeshAgent", "EnemyBrain.perception", "EnemyBrain.memory", "EnemyBrain.player",
            "PerceptionMemory.perception", "PerceptionMemory.target", "PerceptionAgent.world",
        };

        static unsafe bool SameBytes(AgentDef a, AgentDef b)
        {
            byte* x = (byte*)&a, y = (byte*)&b;
            for (int i = 24; i < sizeof(AgentDef); i++) if (x[i] != y[i]) return false; // after Position, Forward
            return true;
        }

        static object Changed(object value)
        {
            if (value is float) return (float)value + 0.25f;
            if (value is int) return (int)value + 1;
            if (value is bool) return !(bool)value;
            if (value is LayerMask) return (LayerMask)(((LayerMask)value).value ^ 0x100);
            return null;
        }

        [SetUp]
        public void SetUp() { StandIn.Player.Reset(); }

        [TearDown]
        public void TearDown() { StandIn.Player.Reset(); }

        [Test]
        public void EachFieldAlone_ReachesTheNativeDef_AtTheNextStep()
        {
            var scene = new LessonScene();
            var guard = scene.Guard(Vector3.zero, Vector3.forward);
            var agent = guard.GetComponent<PerceptionAgent>();
            var components = new Component[]
            {
                agent, guard.GetComponent<FieldOfViewSensor>(), guard.GetComponent<HearingSensor>(),
                guard.GetComponent<PerceptionMemory>(), guard.GetComponent<EnemyBrain>(),
            };
            scene.Step(0.02f);
            AgentDef first = scene.World.Native.GetAgentDef(agent.Id);
            scene.Step(0.02f);
            Assert.IsTrue(SameBytes(first, scene.World.Native.GetAgentDef(agent.Id)), "a step without changes changes nothing");
            int checkedFields = 0;
            var missed = new List<string>();
            foreach (var c in components)
            {
                foreach (var f in c.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance))
                {
                    string name = c.GetType().Name + "." + f.Name;
                    if (NotForwarded.Contains(name)) continue;
                    object now = f.GetValue(c);
                    object next = name == "FieldOfViewSensor.loseSightRadius" ? 20f      // 0 or ≥ viewRadius
                        : name == "FieldOfViewSensor.awarenessAware" ? (object)0.9f       // a meter level ≤ 1
                        : Changed(now);
                    if (next == null) continue;
                    scene.Step(0.02f);
                    AgentDef before = scene.World.Native.GetAgentDef(agent.Id);
                    f.SetValue(c, next);
                    scene.Step(0.02f);
                    if (SameBytes(before, scene.World.Native.GetAgentDef(agent.Id))) missed.Add(name);
                    f.SetValue(c, now); // back, so a refused value cannot hide the next field's change
                    checkedFields++;
                }
                var b = c as Behaviour;
                if (b != null && !(c is PerceptionAgent) && !(c is PerceptionMemory))
                {
                    scene.Step(0.02f);
                    AgentDef before = scene.World.Native.GetAgentDef(agent.Id);
                    b.enabled = false;
                    scene.Step(0.02f);
                    if (SameBytes(before, scene.World.Native.GetAgentDef(agent.Id))) missed.Add(c.GetType().Name + ".enabled");
                    b.enabled = true;
                    checkedFields++;
                }
            }
            Assert.IsEmpty(missed, "changed alone, not sent: " + string.Join(", ", missed.ToArray()));
            Assert.Greater(checkedFields, 25);
            scene.Destroy();
        }

        [Test]
        public void EachTargetSetting_ReachesTheNativeTarget()
        {
            var scene = new LessonScene();
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            var t = player.GetComponent<PerceptionTarget>();
            Func<TargetDef> def = () => scene.World.Native.GetTargetDef(t.Id);
            scene.Step(0.02f);
            t.team = 3;
            scene.Step(0.02f);
            Assert.AreEqual(3u, def().Team);
            player.layer = 4;
            scene.Step(0.02f);
            Assert.AreEqual(1u << 4, def().Layers);
            t.detectable = false;
            scene.Step(0.02f);
            Assert.IsFalse(def().Enabled);
            t.checkPoints[0] = new Vector3(0f, 0.5f, 0f);     // an element changed in place
            scene.Step(0.02f);
            Assert.AreEqual(0.5f, def().GetCheckPoint(0).Y, 1e-6f);
            t.checkPoints = new[] { Vector3.zero, Vector3.up };
            scene.Step(0.02f);
            Assert.AreEqual(2u, def().CheckPointCount);
            scene.Destroy();
        }
    }
}
