// Every component field that feeds the native def reaches it when changed ALONE after the agent
// exists, at the next step: the per-frame change detection (snapshots of the fields, compared
// without rebuilding the def) must cover each field, not just notice that some field changed.
// With PerceptionWorld.settingsSync = OnChange a field reaches it only once flagged (ApplySettings,
// an inspector edit, OnEnable/OnDisable, the world's MarkSettingsChanged), and not before.
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
            if (value is Enum)
            {
                Array values = Enum.GetValues(value.GetType());
                return values.GetValue((Array.IndexOf(values, value) + 1) % values.Length);
            }
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

        // ---- PerceptionWorld.settingsSync = OnChange: fields are sent only when flagged -------------------

        static object NextValue(string name, object now)
        {
            return name == "FieldOfViewSensor.loseSightRadius" ? 20f      // 0 or ≥ viewRadius
                : name == "FieldOfViewSensor.awarenessAware" ? (object)0.9f // a meter level ≤ 1
                : Changed(now);
        }

        static AgentDef PerceptionAgentDefaults() { return AgentDef.Default(); }

        static Component[] GuardComponents(GameObject guard)
        {
            return new Component[]
            {
                guard.GetComponent<PerceptionAgent>(), guard.GetComponent<FieldOfViewSensor>(), guard.GetComponent<HearingSensor>(),
                guard.GetComponent<PerceptionMemory>(), guard.GetComponent<EnemyBrain>(),
            };
        }

        static void Apply(Component c)
        {
            MethodInfo m = c.GetType().GetMethod("ApplySettings", BindingFlags.Public | BindingFlags.Instance, null, Type.EmptyTypes, null);
            Assert.IsNotNull(m, c.GetType().Name + " has a public ApplySettings()");
            m.Invoke(c, null);
        }

        [Test]
        public void World_SyncsSettingsEveryFrame_ByDefault()
        {
            var go = new GameObject("World");
            Assert.AreEqual(PerceptionWorld.SettingsSync.EveryFrame, go.AddComponent<PerceptionWorld>().settingsSync);
        }

        [Test]
        public void OnChange_EachFieldAlone_IsSentAfterApplySettings_AndNotWithoutIt([Values(false, true)] bool inspectorEdit)
        {
            var scene = new LessonScene();
            scene.World.settingsSync = PerceptionWorld.SettingsSync.OnChange;
            var guard = scene.Guard(Vector3.zero, Vector3.forward);
            var agent = guard.GetComponent<PerceptionAgent>();
            scene.Step(0.02f);
            int checkedFields = 0;
            var missed = new List<string>();
            var leaked = new List<string>();
            foreach (var c in GuardComponents(guard))
            {
                foreach (var f in c.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance))
                {
                    string name = c.GetType().Name + "." + f.Name;
                    if (NotForwarded.Contains(name)) continue;
                    object now = f.GetValue(c);
                    object next = NextValue(name, now);
                    if (next == null) continue;
                    scene.Step(0.02f);
                    AgentDef before = scene.World.Native.GetAgentDef(agent.Id);
                    f.SetValue(c, next);
                    scene.Step(0.02f);
                    // The documented trade-off: a field set by a script without a call is not sent.
                    if (!SameBytes(before, scene.World.Native.GetAgentDef(agent.Id))) leaked.Add(name);
                    if (inspectorEdit) StandIn.Player.InspectorEdit((Behaviour)c); // the editor's OnValidate
                    else Apply(c);
                    scene.Step(0.02f);
                    if (SameBytes(before, scene.World.Native.GetAgentDef(agent.Id))) missed.Add(name);
                    f.SetValue(c, now);
                    Apply(c);
                    scene.Step(0.02f);
                    Assert.IsTrue(SameBytes(before, scene.World.Native.GetAgentDef(agent.Id)), name + " set back and applied");
                    checkedFields++;
                }
                var b = c as Behaviour;
                if (b != null && !(c is PerceptionAgent) && !(c is PerceptionMemory))
                {
                    // Enabling or disabling a sensor or the brain needs no call (OnEnable / OnDisable flag it).
                    scene.Step(0.02f);
                    AgentDef before = scene.World.Native.GetAgentDef(agent.Id);
                    b.enabled = false;
                    scene.Step(0.02f);
                    if (SameBytes(before, scene.World.Native.GetAgentDef(agent.Id))) missed.Add(c.GetType().Name + ".enabled");
                    b.enabled = true;
                    scene.Step(0.02f);
                    Assert.IsTrue(SameBytes(before, scene.World.Native.GetAgentDef(agent.Id)), c.GetType().Name + " enabled again");
                    checkedFields++;
                }
            }
            Assert.IsEmpty(missed, "flagged, not sent: " + string.Join(", ", missed.ToArray()));
            Assert.IsEmpty(leaked, "sent without a flag (OnChange compares nothing unflagged): " + string.Join(", ", leaked.ToArray()));
            Assert.Greater(checkedFields, 25);
            scene.Destroy();
        }

        [Test]
        public void OnChange_TargetSettings_AreSentAfterApplySettings_AndNotWithoutIt()
        {
            var scene = new LessonScene();
            scene.World.settingsSync = PerceptionWorld.SettingsSync.OnChange;
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            var t = player.GetComponent<PerceptionTarget>();
            Func<TargetDef> def = () => scene.World.Native.GetTargetDef(t.Id);
            scene.Step(0.02f);
            t.team = 3;
            player.layer = 4;
            t.detectable = false;
            t.checkPoints[0] = new Vector3(0f, 0.5f, 0f);
            t.topSpeed = 3f;
            scene.Step(0.02f);
            Assert.AreEqual(1u, def().Team, "not flagged: not sent");
            Assert.AreEqual(1.4f, def().TopSpeed);
            Assert.AreEqual(1u << LessonScene.PlayerLayer, def().Layers);
            Assert.IsTrue(def().Enabled);
            t.ApplySettings();
            scene.Step(0.02f);
            Assert.AreEqual(3u, def().Team);
            Assert.AreEqual(1u << 4, def().Layers);
            Assert.IsFalse(def().Enabled);
            Assert.AreEqual(0.5f, def().GetCheckPoint(0).Y, 1e-6f);
            Assert.AreEqual(3f, def().TopSpeed);
            t.team = 5;
            StandIn.Player.InspectorEdit(t);
            scene.Step(0.02f);
            Assert.AreEqual(5u, def().Team, "an inspector edit (OnValidate) flags it");
            scene.Destroy();
        }

        [Test]
        public void OnChange_WorldMarkSettingsChanged_SendsEveryGuardAndTarget()
        {
            var scene = new LessonScene();
            scene.World.settingsSync = PerceptionWorld.SettingsSync.OnChange;
            var a = scene.Guard(Vector3.zero, Vector3.forward);
            var b = scene.Guard(new Vector3(5f, 0f, 0f), Vector3.forward);
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            scene.Step(0.02f);
            a.GetComponent<FieldOfViewSensor>().viewRadius = 4f;
            b.GetComponent<PerceptionMemory>().decayPerSecond = 0.7f;
            player.GetComponent<PerceptionTarget>().team = 2;
            scene.Step(0.02f);
            Assert.AreEqual(10f, scene.World.Native.GetAgentDef(a.GetComponent<PerceptionAgent>().Id).Sight.ViewRadius);
            scene.World.MarkSettingsChanged();
            scene.Step(0.02f);
            Assert.AreEqual(4f, scene.World.Native.GetAgentDef(a.GetComponent<PerceptionAgent>().Id).Sight.ViewRadius);
            Assert.AreEqual(0.7f, scene.World.Native.GetAgentDef(b.GetComponent<PerceptionAgent>().Id).Memory.DecayPerSecond, 1e-6f);
            Assert.AreEqual(2u, scene.World.Native.GetTargetDef(player.GetComponent<PerceptionTarget>().Id).Team);
            scene.Destroy();
        }

        [Test]
        public void OnChange_QueriesUseTheSentSettings_ApplySettingsTakesEffectAtOnce()
        {
            var scene = new LessonScene();
            scene.World.settingsSync = PerceptionWorld.SettingsSync.OnChange;
            var guard = scene.Guard(Vector3.zero, Vector3.forward);
            var player = scene.Player(new Vector3(0f, 0f, 5f));
            var sight = guard.GetComponent<FieldOfViewSensor>();
            scene.Step(0.02f);
            Assert.IsTrue(sight.CanSeeTarget(player.transform));
            sight.viewRadius = 3f;
            Assert.IsTrue(sight.CanSeeTarget(player.transform), "not flagged: the query uses the settings last sent");
            sight.ApplySettings();
            Assert.IsFalse(sight.CanSeeTarget(player.transform), "flagged: sent before the query");
            scene.Destroy();
        }

        [Test]
        public void OnChange_FieldsSetRightAfterAddComponent_AreSentAtTheFirstStep()
        {
            // A guard and a target built by a script on active GameObjects: AddComponent enables them (the
            // native things are made with the defaults), then the script sets fields in the same frame.
            var scene = new LessonScene();
            scene.World.settingsSync = PerceptionWorld.SettingsSync.OnChange;
            var guard = new GameObject("Guard");
            var sight = guard.AddComponent<FieldOfViewSensor>();
            var player = new GameObject("Player");
            var target = player.AddComponent<PerceptionTarget>();
            var agent = guard.GetComponent<PerceptionAgent>();
            Assert.IsFalse(agent.Id.IsNull, "made at AddComponent");
            Assert.AreSame(scene.World, agent.World);
            sight.viewRadius = 7f;
            agent.team = 4;
            target.team = 6;
            scene.Step(0.02f);
            Assert.AreEqual(7f, scene.World.Native.GetAgentDef(agent.Id).Sight.ViewRadius);
            Assert.AreEqual(4u, scene.World.Native.GetAgentDef(agent.Id).Team);
            Assert.AreEqual(6u, scene.World.Native.GetTargetDef(target.Id).Team);
            var memory = guard.AddComponent<PerceptionMemory>(); // no OnEnable: its Awake flags the guard
            memory.decayPerSecond = 0.6f;
            scene.Step(0.02f);
            Assert.AreEqual(0.6f, scene.World.Native.GetAgentDef(agent.Id).Memory.DecayPerSecond, 1e-6f);
            UnityEngine.Object.DestroyImmediate(memory);
            scene.Step(0.02f);
            Assert.AreEqual(PerceptionAgentDefaults().Memory.DecayPerSecond, scene.World.Native.GetAgentDef(agent.Id).Memory.DecayPerSecond, 1e-6f);
            agent.enabled = false;                  // the agent alone re-enabled: a new native agent
            agent.enabled = true;
            agent.team = 2;
            scene.Step(0.02f);
            Assert.AreEqual(2u, scene.World.Native.GetAgentDef(agent.Id).Team);
            UnityEngine.Object.DestroyImmediate(guard);
            UnityEngine.Object.DestroyImmediate(player);
            scene.Destroy();
        }

        [Test]
        public void SwitchingBackToEveryFrame_SendsWhatWasNotFlagged()
        {
            var scene = new LessonScene();
            scene.World.settingsSync = PerceptionWorld.SettingsSync.OnChange;
            var guard = scene.Guard(Vector3.zero, Vector3.forward);
            var agent = guard.GetComponent<PerceptionAgent>();
            scene.Step(0.02f);
            guard.GetComponent<HearingSensor>().hearingSensitivity = 2f;
            scene.Step(0.02f);
            Assert.AreEqual(1f, scene.World.Native.GetAgentDef(agent.Id).Hearing.Sensitivity);
            scene.World.settingsSync = PerceptionWorld.SettingsSync.EveryFrame;
            scene.Step(0.02f);
            Assert.AreEqual(2f, scene.World.Native.GetAgentDef(agent.Id).Hearing.Sensitivity);
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
            t.topSpeed = 3f;
            scene.Step(0.02f);
            Assert.AreEqual(3f, def().TopSpeed);
            scene.Destroy();
        }
    }
}
