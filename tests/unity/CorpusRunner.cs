// The conformance corpus (tests/scenarios/*.json) run through the Unity package's components: every
// scene is built out of GameObjects with FieldOfViewSensor, HearingSensor, PerceptionSystem,
// PerceptionMemory, EnemyBrain, PerceptionTarget, PerceptionOccluder and InfluenceMap, every action
// is the component call a game would make, and every expectation is read back through the
// components' own fields and events. Format: tests/scenarios/README.md.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Json;
using Argus.Perception;
using UnityEngine;
using Object = UnityEngine.Object;

namespace Argus.Perception.StandInTests
{
    public sealed class CorpusRunner
    {
        readonly string m_File;
        readonly JsonObject m_Doc;
        readonly List<string> m_Errors = new List<string>();
        float m_Tolerance;
        PerceptionWorld m_World;
        ScriptedRays m_Rays;
        readonly Dictionary<string, GameObject> m_Agents = new Dictionary<string, GameObject>();
        readonly List<string> m_AgentOrder = new List<string>();
        readonly Dictionary<string, GameObject> m_Targets = new Dictionary<string, GameObject>();
        readonly Dictionary<string, TargetId> m_TargetIds = new Dictionary<string, TargetId>();
        readonly Dictionary<string, GameObject> m_Occluders = new Dictionary<string, GameObject>();
        readonly Dictionary<string, InfluenceMap> m_Maps = new Dictionary<string, InfluenceMap>();
        readonly List<object[]> m_PerceptValues = new List<object[]>();
        readonly List<object[]> m_Brain = new List<object[]>();
        readonly List<object[]> m_Forgotten = new List<object[]>();
        readonly List<object[]> m_Awareness = new List<object[]>();
        readonly List<object[]> m_Seen = new List<object[]>();
        readonly List<object[]> m_Lost = new List<object[]>();
        string m_Where = "setup";

        public CorpusRunner(string file, string json)
        {
            m_File = file;
            m_Doc = (JsonObject)JsonValue.Parse(json);
        }

        public List<string> Errors { get { return m_Errors; } }

        void Fail(string message) { m_Errors.Add(m_File + " " + m_Where + ": " + message); }

        // ---- JSON helpers --------------------------------------------------------------------------------

        static void Keys(JsonObject o, string what, List<string> errors, string where, params string[] allowed)
        {
            foreach (var k in o.Keys)
                if (Array.IndexOf(allowed, k) < 0) errors.Add(where + ": unknown key '" + k + "' in " + what);
        }

        void Keys(JsonObject o, string what, params string[] allowed)
        {
            foreach (var k in o.Keys)
                if (Array.IndexOf(allowed, k) < 0) Fail("unknown key '" + k + "' in " + what);
        }

        static float F(JsonValue v) { return (float)(double)v; }

        static Vector3 V(JsonValue v)
        {
            var a = (JsonArray)v;
            return new Vector3(F(a[0]), F(a[1]), F(a[2]));
        }

        static bool Has(JsonObject o, string k) { return o.ContainsKey(k) && o[k] != null; }

        static string Str(JsonValue v) { return v == null ? null : (string)v; }

        static int LayerOf(uint bits, out bool single)
        {
            single = bits != 0 && (bits & (bits - 1)) == 0;
            int layer = 0;
            while (bits > 1) { bits >>= 1; layer++; }
            return layer;
        }

        bool Near(string field, float expected, float actual, float tol)
        {
            if (Math.Abs(expected - actual) <= tol) return true;
            Fail(field + ": expected " + expected.ToString("R", CultureInfo.InvariantCulture) + ", got " + actual.ToString("R", CultureInfo.InvariantCulture));
            return false;
        }

        void Near(string field, Vector3 expected, Vector3 actual, float tol)
        {
            if (Math.Abs(expected.x - actual.x) <= tol && Math.Abs(expected.y - actual.y) <= tol && Math.Abs(expected.z - actual.z) <= tol) return;
            Fail(field + ": expected " + expected + ", got " + actual);
        }

        void Same(string field, object expected, object actual)
        {
            if (Equals(expected, actual)) return;
            Fail(field + ": expected " + (expected ?? "null") + ", got " + (actual ?? "null"));
        }

        float Tol(JsonObject o) { return Has(o, "tolerance") ? F(o["tolerance"]) : m_Tolerance; }

        string NameOf(Transform t)
        {
            if (t == null) return null;
            foreach (var kv in m_Targets) if (kv.Value != null && kv.Value.transform == t) return kv.Key;
            return "<unknown " + t.name + ">";
        }

        string NameOf(GameObject agent)
        {
            foreach (var kv in m_Agents) if (kv.Value == agent) return kv.Key;
            return "<unknown agent>";
        }

        static readonly string[] s_States = { "idle", "investigating", "chasing", "searching" };
        static readonly string[] s_Stages = { "unaware", "suspicious", "alert", "aware" };
        static readonly string[] s_PointStatus = { "out_of_range", "outside_cone", "blocked", "visible" };

        static Attitude AttitudeOf(string name)
        {
            if (name == "hostile") return Attitude.Hostile;
            if (name == "neutral") return Attitude.Neutral;
            if (name == "friendly") return Attitude.Friendly;
            throw new FormatException("unknown attitude " + name);
        }

        // ---- engine rays: the file's answers through PerceptionWorld's custom ray caster -------------------

        sealed class ScriptedRays : IRayCaster
        {
            public CorpusRunner Runner;
            public bool Blocked;
            public float Distance = -1f;
            public readonly List<string> Asked = new List<string>();

            public void CastRays(RayArray rays, RayHits hits)
            {
                for (int i = 0; i < rays.Length; i++)
                {
                    EngineRay r = rays[i];
                    PerceptionAgent a = Runner.m_World.AgentFor(r.Agent);
                    PerceptionTarget t = Runner.m_World.TargetFor(r.Target);
                    Asked.Add((a != null ? Runner.NameOf(a.gameObject) : "null") + "," + (t != null ? Runner.NameOf(t.transform) : "null"));
                    var h = new RayHit();
                    h.Hit = Blocked;
                    h.Distance = Blocked ? (Distance >= 0f ? Distance : r.MaxDistance * 0.5f) : 0f;
                    hits[i] = h;
                }
            }
        }

        void BeginRays(JsonObject action)
        {
            if (!Has(action, "rays"))
            {
                if (m_Rays != null) Fail("an engine-ray world needs 'rays' here");
                return;
            }
            if (m_Rays == null)
            {
                Fail("'rays' in a world without engine rays");
                return;
            }
            var spec = (JsonObject)action["rays"];
            Keys(spec, "rays", "answer", "expect", "distance");
            m_Rays.Blocked = Str(spec["answer"]) == "blocked";
            m_Rays.Distance = Has(spec, "distance") ? F(spec["distance"]) : -1f;
            m_Rays.Asked.Clear();
        }

        void EndRays(JsonObject action)
        {
            if (m_Rays == null || !Has(action, "rays")) return;
            var spec = (JsonObject)action["rays"];
            if (!Has(spec, "expect")) return;
            var want = new List<string>();
            foreach (JsonValue pair in (JsonArray)spec["expect"]) want.Add(Str(pair[0]) + "," + Str(pair[1]));
            Same("rays asked", string.Join(" ", want.ToArray()), string.Join(" ", m_Rays.Asked.ToArray()));
        }

        // ---- setup ---------------------------------------------------------------------------------------

        public void Run()
        {
            try
            {
                Keys(m_Doc, "file", "name", "source", "description", "tolerance", "world", "occluders", "walk_graph", "agents", "targets", "maps", "timeline");
                m_Tolerance = Has(m_Doc, "tolerance") ? F(m_Doc["tolerance"]) : 1e-5f;
                BuildWorld();
                if (Has(m_Doc, "occluders")) foreach (JsonObject o in (JsonArray)m_Doc["occluders"]) BuildOccluder(o);
                if (Has(m_Doc, "walk_graph")) GivenWalkGraph((JsonObject)m_Doc["walk_graph"]);
                if (Has(m_Doc, "agents")) foreach (JsonObject a in (JsonArray)m_Doc["agents"]) BuildAgent(a);
                if (Has(m_Doc, "targets")) foreach (JsonObject t in (JsonArray)m_Doc["targets"]) BuildTarget(t);
                if (Has(m_Doc, "maps")) foreach (JsonObject m in (JsonArray)m_Doc["maps"]) BuildMap(m);
                var timeline = (JsonArray)m_Doc["timeline"];
                for (int i = 0; i < timeline.Count; i++)
                {
                    var action = (JsonObject)timeline[i];
                    m_Where = "timeline[" + i + "] " + Str(action["do"]);
                    Do(action);
                }
            }
            catch (Exception e)
            {
                Fail("stopped: " + e.GetType().Name + ": " + e.Message);
            }
            finally
            {
                foreach (var m in m_Maps.Values) m.Dispose();
            }
        }

        void BuildWorld()
        {
            var go = new GameObject("World");
            go.SetActive(false);
            m_World = go.AddComponent<PerceptionWorld>();
            m_World.autoStep = false;
            JsonObject w = Has(m_Doc, "world") ? (JsonObject)m_Doc["world"] : new JsonObject();
            Keys(w, "world", "ray_backend", "sound_occlusion", "hearing_path", "attitudes");
            if (Has(w, "ray_backend") && Str(w["ray_backend"]) == "engine")
            {
                m_Rays = new ScriptedRays { Runner = this };
                m_World.lineOfSight = PerceptionWorld.LineOfSightSource.Custom;
                m_World.customRayCaster = m_Rays;
            }
            if (Has(w, "sound_occlusion")) m_World.soundOcclusion = F(w["sound_occlusion"]);
            if (Has(w, "hearing_path"))
            {
                string path = Str(w["hearing_path"]);
                if (path == "straight") m_World.hearingPath = PerceptionWorld.HearingRoute.StraightLine;
                else if (path == "walk") m_World.hearingPath = PerceptionWorld.HearingRoute.WalkAroundWalls;
                else Fail("unknown world hearing_path " + path + " (straight | walk)");
            }
            // A grid walk graph is the world's own setting, built when it is enabled (before the occluders
            // join: the grid follows occluders added later, as in a scene).
            if (Has(m_Doc, "walk_graph") && Has((JsonObject)m_Doc["walk_graph"], "grid"))
            {
                var g = (JsonObject)m_Doc["walk_graph"];
                Keys(g, "walk_graph", "grid");
                var grid = (JsonObject)g["grid"];
                Keys(grid, "walk_graph grid", "origin", "width", "depth", "cell_size", "band_min", "band_max", "layers", "snap_distance");
                m_World.walkGraph = PerceptionWorld.WalkGraphSource.Grid;
                if (Has(grid, "cell_size")) m_World.walkCellSize = F(grid["cell_size"]);
                Vector3 origin = Has(grid, "origin") ? V(grid["origin"]) : Vector3.zero;
                var bounds = new Bounds();
                bounds.SetMinMax(origin, origin + new Vector3((int)grid["width"] * m_World.walkCellSize, 0f, (int)grid["depth"] * m_World.walkCellSize));
                m_World.walkGridBounds = bounds;
                if (Has(grid, "band_min")) m_World.walkBandMin = F(grid["band_min"]);
                if (Has(grid, "band_max")) m_World.walkBandMax = F(grid["band_max"]);
                if (Has(grid, "layers")) m_World.walkBlockingMask = unchecked((int)(uint)(long)grid["layers"]);
                if (Has(grid, "snap_distance")) m_World.walkSnapDistance = F(grid["snap_distance"]);
            }
            go.SetActive(true);
            if (m_World.walkGraph == PerceptionWorld.WalkGraphSource.Grid && m_World.Native.WalkGraph.Kind != WalkGraphKind.Grid)
                Fail("the world's walk grid was not built");
            if (Has(w, "attitudes"))
                foreach (JsonArray a in (JsonArray)w["attitudes"])
                    m_World.Native.SetAttitude((uint)(int)a[0], (uint)(int)a[1], AttitudeOf(Str(a[2])));
        }

        // The engine's own nodes and edges, through PerceptionWorld.SetWalkGraph (after the occluders).
        void GivenWalkGraph(JsonObject g)
        {
            if (Has(g, "grid")) return; // set up with the world
            Keys(g, "walk_graph", "nodes", "edges", "snap_distance");
            var nodes = new List<Vector3>();
            foreach (JsonValue n in (JsonArray)g["nodes"]) nodes.Add(V(n));
            var edges = new List<WalkEdge>();
            if (Has(g, "edges"))
                foreach (JsonArray e in (JsonArray)g["edges"]) edges.Add(new WalkEdge((uint)(int)e[0], (uint)(int)e[1], F(e[2])));
            if (!Has(g, "snap_distance")) { Fail("walk_graph: nodes need snap_distance"); return; }
            m_World.SetWalkGraph(nodes.ToArray(), edges.ToArray(), F(g["snap_distance"]));
        }

        void SetLayer(GameObject go, JsonObject o, string what)
        {
            if (!Has(o, "layers")) return;
            bool single;
            int layer = LayerOf((uint)(long)o["layers"], out single);
            if (!single) Fail(what + ": layers must be one bit in Unity (one GameObject, one layer)");
            go.layer = layer;
        }

        void BuildOccluder(JsonObject o)
        {
            Keys(o, "occluder", "name", "shape", "position", "rotation", "half_extents", "radius", "half_height", "layers", "sound_transmission");
            var go = new GameObject(Str(o["name"]));
            go.SetActive(false);
            go.transform.position = V(o["position"]);
            if (Has(o, "rotation"))
            {
                var q = (JsonArray)o["rotation"];
                go.transform.rotation = new Quaternion(F(q[0]), F(q[1]), F(q[2]), F(q[3]));
            }
            SetLayer(go, o, "occluder");
            string shape = Str(o["shape"]);
            if (shape == "box") go.AddComponent<BoxCollider>().size = V(o["half_extents"]) * 2f;
            else if (shape == "sphere") go.AddComponent<SphereCollider>().radius = F(o["radius"]);
            else if (shape == "capsule")
            {
                var c = go.AddComponent<CapsuleCollider>();
                c.direction = 1;
                c.radius = F(o["radius"]);
                c.height = 2f * (F(o["half_height"]) + c.radius);
            }
            else Fail("unknown shape " + shape);
            var occluder = go.AddComponent<PerceptionOccluder>();
            occluder.movable = true;
            if (Has(o, "sound_transmission"))
            {
                occluder.overrideSoundTransmission = true;
                occluder.soundTransmission = F(o["sound_transmission"]);
            }
            go.SetActive(true);
            m_Occluders.Add(Str(o["name"]), go);
        }

        void BuildAgent(JsonObject a)
        {
            Keys(a, "agent", "name", "position", "forward", "team", "detect", "sight", "hearing", "memory", "brain", "awareness");
            string name = Str(a["name"]);
            var go = new GameObject(name);
            go.SetActive(false);
            if (Has(a, "position")) go.transform.position = V(a["position"]);
            if (Has(a, "forward")) go.transform.rotation = Quaternion.LookRotation(V(a["forward"]));
            var sight = go.AddComponent<FieldOfViewSensor>();
            var hearing = go.AddComponent<HearingSensor>();
            var system = go.AddComponent<PerceptionSystem>();
            var memory = go.AddComponent<PerceptionMemory>();
            var brain = go.AddComponent<EnemyBrain>();
            var agent = go.GetComponent<PerceptionAgent>();
            brain.arrivalDistance = 0f; // the file says when the guard arrives
            brain.driveNavMeshAgent = false;
            if (Has(a, "team")) agent.team = (int)a["team"];
            if (Has(a, "detect"))
            {
                bool hostile = false;
                foreach (JsonValue d in (JsonArray)a["detect"])
                {
                    string s = Str(d);
                    if (s == "hostile") hostile = true;
                    else if (s == "neutral") agent.perceiveNeutral = true;
                    else if (s == "friendly") agent.perceiveFriendly = true;
                    else Fail("unknown detect " + s);
                }
                if (!hostile) Fail("detect without hostile cannot be expressed: guards always perceive hostile teams");
            }
            // The corpus is written against the library's defaults: the components' near sense (a 1.5 m,
            // 360° peripheral cone on by default) is the library's "off" unless a scenario sets it.
            AgentDef libraryDefaults = AgentDef.Default();
            sight.peripheralRadius = libraryDefaults.Sight.PeripheralRadius;
            sight.peripheralAngle = libraryDefaults.Sight.PeripheralAngle;
            if (Has(a, "sight"))
            {
                var s = (JsonObject)a["sight"];
                Keys(s, "sight", "enabled", "eye_offset", "view_radius", "view_angle", "lose_sight_radius", "peripheral_radius", "peripheral_angle", "target_mask", "obstacle_mask", "rate_hz");
                if (Has(s, "enabled")) sight.enabled = (bool)s["enabled"];
                if (Has(s, "eye_offset"))
                {
                    Vector3 eye = V(s["eye_offset"]);
                    if (eye.x != 0f || eye.z != 0f) Fail("eye_offset off the vertical cannot be expressed by eyeHeight");
                    sight.eyeHeight = eye.y;
                }
                if (Has(s, "view_radius")) sight.viewRadius = F(s["view_radius"]);
                if (Has(s, "view_angle")) sight.viewAngle = F(s["view_angle"]);
                if (Has(s, "lose_sight_radius")) sight.loseSightRadius = F(s["lose_sight_radius"]);
                if (Has(s, "peripheral_radius")) sight.peripheralRadius = F(s["peripheral_radius"]);
                if (Has(s, "peripheral_angle")) sight.peripheralAngle = F(s["peripheral_angle"]);
                if (Has(s, "target_mask")) sight.targetMask = unchecked((int)(uint)(long)s["target_mask"]);
                if (Has(s, "obstacle_mask")) sight.obstacleMask = unchecked((int)(uint)(long)s["obstacle_mask"]);
                if (Has(s, "rate_hz")) sight.sightRateHz = F(s["rate_hz"]);
            }
            if (Has(a, "hearing"))
            {
                var h = (JsonObject)a["hearing"];
                Keys(h, "hearing", "enabled", "sensitivity", "sound_mask", "obstacle_mask", "path");
                if (Has(h, "enabled")) hearing.enabled = (bool)h["enabled"];
                if (Has(h, "sensitivity")) hearing.hearingSensitivity = F(h["sensitivity"]);
                if (Has(h, "sound_mask")) hearing.soundMask = unchecked((int)(uint)(long)h["sound_mask"]);
                if (Has(h, "obstacle_mask")) hearing.muffleMask = unchecked((int)(uint)(long)h["obstacle_mask"]);
                if (Has(h, "path"))
                {
                    string path = Str(h["path"]);
                    if (path == "world") hearing.obstruction = HearingSensor.Obstruction.FollowWorld;
                    else if (path == "straight") hearing.obstruction = HearingSensor.Obstruction.StraightLine;
                    else if (path == "walk") hearing.obstruction = HearingSensor.Obstruction.WalkAroundWalls;
                    else Fail("unknown hearing path " + path + " (world | straight | walk)");
                }
            }
            if (Has(a, "memory"))
            {
                var m = (JsonObject)a["memory"];
                Keys(m, "memory", "decay_per_second", "forget_threshold");
                if (Has(m, "decay_per_second")) memory.decayPerSecond = F(m["decay_per_second"]);
                if (Has(m, "forget_threshold")) memory.forgetThreshold = F(m["forget_threshold"]);
            }
            if (Has(a, "brain"))
            {
                var b = (JsonObject)a["brain"];
                Keys(b, "brain", "enabled", "search_duration", "investigate_timeout", "search", "give_up_probability", "share_belief");
                if (Has(b, "enabled")) brain.enabled = (bool)b["enabled"];
                if (Has(b, "search_duration")) brain.searchDuration = F(b["search_duration"]);
                if (Has(b, "investigate_timeout")) brain.investigateTimeout = F(b["investigate_timeout"]);
                if (Has(b, "search")) brain.search = SearchModeOf(Str(b["search"]));
                if (Has(b, "give_up_probability")) brain.giveUpProbability = F(b["give_up_probability"]);
                if (Has(b, "share_belief")) brain.shareBelief = (bool)b["share_belief"];
            }
            if (Has(a, "awareness"))
            {
                var w = (JsonObject)a["awareness"];
                Keys(w, "awareness", "enabled", "rise_per_second", "fall_per_second", "far_factor", "edge_factor", "suspicious_threshold", "alert_threshold", "aware_threshold");
                if (Has(w, "enabled")) sight.useAwareness = (bool)w["enabled"];
                if (Has(w, "rise_per_second")) sight.awarenessRisePerSecond = F(w["rise_per_second"]);
                if (Has(w, "fall_per_second")) sight.awarenessFallPerSecond = F(w["fall_per_second"]);
                if (Has(w, "far_factor")) sight.awarenessFarFactor = F(w["far_factor"]);
                if (Has(w, "edge_factor")) sight.awarenessEdgeFactor = F(w["edge_factor"]);
                if (Has(w, "suspicious_threshold")) sight.awarenessSuspicious = F(w["suspicious_threshold"]);
                if (Has(w, "alert_threshold")) sight.awarenessAlert = F(w["alert_threshold"]);
                if (Has(w, "aware_threshold")) sight.awarenessAware = F(w["aware_threshold"]);
            }
            // The step's events, recorded in the order the components raise them.
            system.OnPercept += p => m_PerceptValues.Add(new object[] { name, p.type == PerceptType.Sight ? "sight" : "sound", NameOf(p.target), p.position, p.strength, p.timestamp, p.distance });
            brain.OnStateChanged += (from, to) => m_Brain.Add(new object[] { name, s_States[(int)from], s_States[(int)to], NameOf(brain.Focus), (float)m_World.Native.Time });
            memory.OnForgotten += (t, pos) => m_Forgotten.Add(new object[] { name, NameOf(t), pos });
            sight.OnTargetSeen += (t, pos) => m_Seen.Add(new object[] { name, NameOf(t), pos });
            sight.OnTargetLost += (t, pos) => m_Lost.Add(new object[] { name, NameOf(t), pos });
            sight.OnAwarenessChanged += (t, from, to, level) => m_Awareness.Add(new object[] { name, NameOf(t), s_Stages[(int)from], s_Stages[(int)to], level });
            go.SetActive(true);
            m_Agents.Add(name, go);
            m_AgentOrder.Add(name);
        }

        static EnemyBrain.SearchMode SearchModeOf(string name)
        {
            switch (name)
            {
                case "last_known_position": return EnemyBrain.SearchMode.LastKnownPosition;
                case "belief": return EnemyBrain.SearchMode.Belief;
            }
            throw new System.ArgumentException("unknown search " + name + " (last_known_position | belief)");
        }

        void BuildTarget(JsonObject t)
        {
            Keys(t, "target", "name", "position", "forward", "team", "layers", "check_points", "enabled", "top_speed");
            string name = Str(t["name"]);
            var go = new GameObject(name);
            go.SetActive(false);
            if (Has(t, "position")) go.transform.position = V(t["position"]);
            if (Has(t, "forward")) go.transform.rotation = Quaternion.LookRotation(V(t["forward"]));
            SetLayer(go, t, "target");
            var target = go.AddComponent<PerceptionTarget>();
            if (Has(t, "team")) target.team = (int)t["team"];
            if (Has(t, "enabled")) target.detectable = (bool)t["enabled"];
            if (Has(t, "top_speed")) target.topSpeed = F(t["top_speed"]);
            if (Has(t, "check_points"))
            {
                var pts = (JsonArray)t["check_points"];
                target.checkPoints = new Vector3[pts.Count];
                for (int i = 0; i < pts.Count; i++) target.checkPoints[i] = V(pts[i]);
            }
            go.SetActive(true);
            m_Targets.Add(name, go);
            m_TargetIds.Add(name, target.Id);
        }

        void BuildMap(JsonObject m)
        {
            Keys(m, "map", "name", "width", "height", "cell_size", "origin");
            float cell = Has(m, "cell_size") ? F(m["cell_size"]) : 1f;
            Vector3 origin = Has(m, "origin") ? V(m["origin"]) : Vector3.zero;
            m_Maps.Add(Str(m["name"]), new InfluenceMap((int)m["width"], (int)m["height"], cell, origin, m_World));
        }

        // ---- the timeline --------------------------------------------------------------------------------

        GameObject Agent(JsonObject a) { return m_Agents[Str(a["agent"])]; }

        GameObject Target(JsonValue name) { return m_Targets[Str(name)]; }

        void Do(JsonObject a)
        {
            string what = Str(a["do"]);
            JsonObject expect = Has(a, "expect") && a["expect"] is JsonObject ? (JsonObject)a["expect"] : null;
            switch (what)
            {
                case "step":
                    Keys(a, "step", "do", "dt", "expect", "rays");
                    m_PerceptValues.Clear(); m_Brain.Clear(); m_Forgotten.Clear(); m_Awareness.Clear(); m_Seen.Clear(); m_Lost.Clear();
                    BeginRays(a);
                    m_World.Step(F(a["dt"]));
                    EndRays(a);
                    if (expect != null) CheckStep(expect);
                    break;
                case "set_agent_pose":
                    Keys(a, "set_agent_pose", "do", "agent", "position", "forward");
                    Agent(a).transform.position = V(a["position"]);
                    Agent(a).transform.rotation = Quaternion.LookRotation(V(a["forward"]));
                    break;
                case "set_target_pose":
                    Keys(a, "set_target_pose", "do", "target", "position", "forward");
                    Target(a["target"]).transform.position = V(a["position"]);
                    Target(a["target"]).transform.rotation = Quaternion.LookRotation(V(a["forward"]));
                    break;
                case "set_target_enabled":
                    Keys(a, "set_target_enabled", "do", "target", "enabled");
                    Target(a["target"]).GetComponent<PerceptionTarget>().detectable = (bool)a["enabled"];
                    break;
                case "destroy_target":
                    Keys(a, "destroy_target", "do", "target");
                    Object.DestroyImmediate(Target(a["target"]));
                    break;
                case "set_occluder_pose":
                {
                    Keys(a, "set_occluder_pose", "do", "occluder", "position", "rotation");
                    var go = m_Occluders[Str(a["occluder"])];
                    go.transform.position = V(a["position"]);
                    if (Has(a, "rotation"))
                    {
                        var q = (JsonArray)a["rotation"];
                        go.transform.rotation = new Quaternion(F(q[0]), F(q[1]), F(q[2]), F(q[3]));
                    }
                    go.GetComponent<PerceptionOccluder>().SyncTransform();
                    break;
                }
                case "emit_sound":
                {
                    Keys(a, "emit_sound", "do", "position", "loudness", "source", "team", "layers");
                    GameObject source = Has(a, "source") ? Target(a["source"]) : null;
                    int team = Has(a, "team") ? (int)a["team"] : -1;
                    int layers = Has(a, "layers") ? unchecked((int)(uint)(long)a["layers"]) : 0;
                    AudioPerception.EmitSound(V(a["position"]), F(a["loudness"]), source, team, layers);
                    break;
                }
                case "report_arrived":
                    Keys(a, "report_arrived", "do", "agent");
                    Agent(a).GetComponent<EnemyBrain>().ReportArrived();
                    break;
                case "set_attitude":
                    Keys(a, "set_attitude", "do", "observer", "other", "attitude");
                    m_World.Native.SetAttitude((uint)(int)a["observer"], (uint)(int)a["other"], AttitudeOf(Str(a["attitude"])));
                    break;
                case "can_see":
                    Keys(a, "can_see", "do", "agent", "target", "rays", "expect");
                    BeginRays(a);
                    CanSee(Agent(a), Target(a["target"]), expect);
                    EndRays(a);
                    break;
                case "visible_targets":
                {
                    Keys(a, "visible_targets", "do", "agent", "rays", "expect");
                    BeginRays(a);
                    var seen = Agent(a).GetComponent<FieldOfViewSensor>().FindVisibleTargets();
                    EndRays(a);
                    var names = new List<string>();
                    foreach (var t in seen) names.Add(NameOf(t));
                    var want = new List<string>();
                    foreach (JsonValue n in (JsonArray)a["expect"]) want.Add(Str(n));
                    Same("visible targets", string.Join(" ", want.ToArray()), string.Join(" ", names.ToArray()));
                    break;
                }
                case "memory":
                    Keys(a, "memory", "do", "agent", "target", "expect");
                    Memory(Agent(a), Str(a["target"]), expect);
                    break;
                case "agent_state":
                    Keys(a, "agent_state", "do", "agent", "expect");
                    State(Agent(a).GetComponent<EnemyBrain>(), expect);
                    break;
                case "add_influence":
                    Keys(a, "add_influence", "do", "map", "position", "value", "radius");
                    m_Maps[Str(a["map"])].AddInfluence(V(a["position"]), F(a["value"]), (int)a["radius"]);
                    break;
                case "blur":
                    Keys(a, "blur", "do", "map");
                    m_Maps[Str(a["map"])].Blur();
                    break;
                case "influence_cells":
                {
                    Keys(a, "influence_cells", "do", "map", "expect", "tolerance");
                    InfluenceMap map = m_Maps[Str(a["map"])];
                    Texture2D tex = map.ToTexture(); // the Texture2D view: one texel per cell
                    var rows = (JsonArray)a["expect"];
                    Same("rows", rows.Count, tex.height);
                    for (int r = 0; r < rows.Count && r < tex.height; r++)
                    {
                        var row = (JsonArray)rows[r];
                        Same("row " + r + " width", row.Count, tex.width);
                        for (int c = 0; c < row.Count && c < tex.width; c++)
                            Near("cell [" + r + "][" + c + "]", F(row[c]), tex.GetPixel(c, r).r, Tol(a));
                    }
                    break;
                }
                case "influence_value":
                    Keys(a, "influence_value", "do", "map", "position", "expect", "tolerance");
                    Near("value", F(a["expect"]), m_Maps[Str(a["map"])].GetValue(V(a["position"])), Tol(a));
                    break;
                case "find_cover":
                    Keys(a, "find_cover", "do", "self_position", "threats", "candidates", "map", "mode", "top_k", "expect", "tolerance");
                    Tactical(a, expect, true);
                    break;
                case "find_walk":
                {
                    Keys(a, "find_walk", "do", "from", "to", "limit", "expect", "tolerance");
                    var path = new List<Vector3>();
                    float distance;
                    bool found = m_World.FindWalk(V(a["from"]), V(a["to"]), F(a["limit"]), out distance, path);
                    if (expect == null) break;
                    Keys(expect, "find_walk expect", "found", "distance", "node_count");
                    Same("find_walk found", (bool)expect["found"], found);
                    if (found && Has(expect, "distance")) Near("find_walk distance", F(expect["distance"]), distance, Tol(a));
                    if (found && Has(expect, "node_count")) Same("find_walk node_count", (int)expect["node_count"], path.Count);
                    if (!found && path.Count != 0) Fail("find_walk: no walk, yet " + path.Count + " path points");
                    break;
                }
                case "find_flank":
                    Keys(a, "find_flank", "do", "threat", "candidates", "map", "top_k", "expect", "tolerance");
                    Tactical(a, expect, false);
                    break;
                default:
                    Fail("unknown action '" + what + "'");
                    break;
            }
        }

        void CheckStep(JsonObject e)
        {
            Keys(e, "step expect", "percepts", "brain", "forgotten", "awareness", "seen", "lost", "tolerance");
            float tol = Tol(e);
            if (Has(e, "percepts"))
            {
                var want = (JsonArray)e["percepts"];
                Same("percept count", want.Count, m_PerceptValues.Count);
                for (int i = 0; i < want.Count && i < m_PerceptValues.Count; i++)
                {
                    var w = (JsonObject)want[i];
                    object[] got = m_PerceptValues[i];
                    Keys(w, "percept", "agent", "kind", "target", "position", "strength", "time", "sound_index", "loudness", "distance");
                    Same("percept " + i + " agent", Str(w["agent"]), got[0]);
                    Same("percept " + i + " kind", Str(w["kind"]), got[1]);
                    if (w.ContainsKey("target")) Same("percept " + i + " target", Str(w["target"]), got[2]);
                    if (Has(w, "position")) Near("percept " + i + " position", V(w["position"]), (Vector3)got[3], tol);
                    if (Has(w, "strength")) Near("percept " + i + " strength", F(w["strength"]), (float)got[4], tol);
                    if (Has(w, "time")) Near("percept " + i + " time", F(w["time"]), (float)got[5], tol);
                    if (Has(w, "distance")) Near("percept " + i + " distance (Percept.distance)", F(w["distance"]), (float)got[6], tol);
                    // Which sound it was: not on the lesson's Percept yet, read from the step's native
                    // percepts (same order as OnPercept).
                    if (Has(w, "sound_index") || Has(w, "loudness"))
                    {
                        PerceptArray native = m_World.Native.Percepts;
                        if (i < native.Length)
                        {
                            if (Has(w, "sound_index")) Same("percept " + i + " sound_index", (uint)(int)w["sound_index"], native[i].SoundIndex);
                            if (Has(w, "loudness")) Near("percept " + i + " loudness", F(w["loudness"]), native[i].Loudness, tol);
                        }
                        else Fail("percept " + i + ": no native percept");
                    }
                }
            }
            CheckSightEvents(e, "seen", tol);
            CheckSightEvents(e, "lost", tol);
            if (Has(e, "brain"))
            {
                var want = (JsonArray)e["brain"];
                Same("brain event count", want.Count, m_Brain.Count);
                for (int i = 0; i < want.Count && i < m_Brain.Count; i++)
                {
                    var w = (JsonObject)want[i];
                    object[] got = m_Brain[i];
                    Keys(w, "brain event", "agent", "from", "to", "target", "time");
                    Same("brain " + i + " agent", Str(w["agent"]), got[0]);
                    Same("brain " + i + " from", Str(w["from"]), got[1]);
                    Same("brain " + i + " to", Str(w["to"]), got[2]);
                    if (w.ContainsKey("target")) Same("brain " + i + " target", Str(w["target"]), got[3]);
                    if (Has(w, "time")) Near("brain " + i + " time", F(w["time"]), (float)got[4], tol);
                }
            }
            if (Has(e, "forgotten"))
            {
                var want = (JsonArray)e["forgotten"];
                Same("forgotten count", want.Count, m_Forgotten.Count);
                for (int i = 0; i < want.Count && i < m_Forgotten.Count; i++)
                {
                    var w = (JsonObject)want[i];
                    object[] got = m_Forgotten[i];
                    Keys(w, "forgotten", "agent", "target", "position");
                    Same("forgotten " + i + " agent", Str(w["agent"]), got[0]);
                    Same("forgotten " + i + " target", Str(w["target"]), got[1]);
                    if (Has(w, "position")) Near("forgotten " + i + " position", V(w["position"]), (Vector3)got[2], tol);
                }
            }
            if (Has(e, "awareness"))
            {
                var want = (JsonArray)e["awareness"];
                Same("awareness count", want.Count, m_Awareness.Count);
                for (int i = 0; i < want.Count && i < m_Awareness.Count; i++)
                {
                    var w = (JsonObject)want[i];
                    object[] got = m_Awareness[i];
                    Keys(w, "awareness", "agent", "target", "from", "to", "level");
                    Same("awareness " + i + " agent", Str(w["agent"]), got[0]);
                    Same("awareness " + i + " target", Str(w["target"]), got[1]);
                    Same("awareness " + i + " from", Str(w["from"]), got[2]);
                    Same("awareness " + i + " to", Str(w["to"]), got[3]);
                    if (Has(w, "level")) Near("awareness " + i + " level", F(w["level"]), (float)got[4], tol);
                }
            }
        }

        // Seen / lost events: FieldOfViewSensor.OnTargetSeen / OnTargetLost, in the order the components
        // raised them (every guard's visibleTargets follows them).
        void CheckSightEvents(JsonObject e, string which, float tol)
        {
            if (!Has(e, which)) return;
            var want = (JsonArray)e[which];
            List<object[]> got = which == "seen" ? m_Seen : m_Lost;
            Same(which + " count", want.Count, got.Count);
            for (int i = 0; i < want.Count && i < got.Count; i++)
            {
                var w = (JsonObject)want[i];
                Keys(w, which, "agent", "target", "position");
                Same(which + " " + i + " agent", Str(w["agent"]), got[i][0]);
                Same(which + " " + i + " target", Str(w["target"]), got[i][1]);
                if (Has(w, "position")) Near(which + " " + i + " position", V(w["position"]), (Vector3)got[i][2], tol);
            }
            // visibleTargets holds exactly what the memory says was seen at the latest tick.
            foreach (var kv in m_Agents)
            {
                var sight = kv.Value.GetComponent<FieldOfViewSensor>();
                var memory = kv.Value.GetComponent<PerceptionMemory>();
                var expected = new List<string>();
                foreach (var t in m_Targets)
                {
                    MemoryRecord r;
                    if (t.Value != null && memory.TryGetRecord(t.Value.transform, out r) && r.Seen) expected.Add(t.Key);
                }
                var listed = new List<string>();
                foreach (var t in sight.visibleTargets) listed.Add(NameOf(t));
                expected.Sort();
                listed.Sort();
                Same(kv.Key + " visibleTargets", string.Join(" ", expected.ToArray()), string.Join(" ", listed.ToArray()));
            }
        }

        static unsafe uint PointStatus(ref SightResult r, int i)
        {
            fixed (SightResult* p = &r) return p->PointStatus[i];
        }

        static unsafe Vector3 PointHit(ref SightResult r, int i)
        {
            fixed (SightResult* p = &r) return new Vector3(p->PointHits[3 * i], p->PointHits[3 * i + 1], p->PointHits[3 * i + 2]);
        }

        void CanSee(GameObject agent, GameObject target, JsonObject e)
        {
            var sight = agent.GetComponent<FieldOfViewSensor>();
            bool lessonAnswer = sight.CanSeeTarget(target.transform);
            SightResult r;
            if (!sight.CheckSight(target.transform, out r)) { Fail("CheckSight refused the target"); return; }
            if (m_Rays != null) m_Rays.Asked.RemoveRange(0, m_Rays.Asked.Count / 2); // asked twice: keep one
            if (e == null) return;
            Keys(e, "can_see expect", "seen", "perceivable", "fraction", "points", "tolerance");
            float tol = Tol(e);
            Same("seen (CanSeeTarget)", (bool)e["seen"], lessonAnswer);
            Same("seen", (bool)e["seen"], r.Seen);
            if (Has(e, "perceivable")) Same("perceivable", (bool)e["perceivable"], r.Perceivable);
            if (Has(e, "fraction")) Near("fraction", F(e["fraction"]), r.Fraction, tol);
            if (Has(e, "points"))
            {
                var pts = (JsonArray)e["points"];
                Same("point count", pts.Count, (int)r.PointCount);
                for (int i = 0; i < pts.Count && i < r.PointCount; i++)
                {
                    var w = (JsonObject)pts[i];
                    Same("point " + i + " status", Str(w["status"]), s_PointStatus[PointStatus(ref r, i)]);
                    if (Has(w, "hit")) Near("point " + i + " hit", V(w["hit"]), PointHit(ref r, i), tol);
                }
            }
        }

        void Memory(GameObject agent, string target, JsonObject e)
        {
            var memory = agent.GetComponent<PerceptionMemory>();
            GameObject t = m_Targets[target];
            MemoryRecord record = new MemoryRecord();
            bool exists;
            if (t != null)
            {
                exists = memory.TryGetRecord(t.transform, out record);
                memory.target = t.transform; // the lesson's properties show this target's record
            }
            else
            {
                // Destroyed: no component left to ask, so look for its old id in the native memory.
                MemoryRecord[] all = null;
                var pa = agent.GetComponent<PerceptionAgent>();
                int n = m_World.Native.GetMemory(pa.Id, ref all);
                exists = false;
                for (int i = 0; i < n; i++) if (all[i].Target == m_TargetIds[target]) { exists = true; record = all[i]; }
                memory.target = null;
            }
            if (e == null) return;
            Keys(e, "memory expect", "exists", "confidence", "last_known_position", "seen", "awareness", "stage", "tolerance");
            float tol = Tol(e);
            Same("exists", (bool)e["exists"], exists);
            if (!exists || t == null) return;
            if (Has(e, "confidence")) Near("Confidence", F(e["confidence"]), memory.Confidence, tol);
            if (Has(e, "last_known_position")) Near("LastKnownPosition", V(e["last_known_position"]), memory.LastKnownPosition, tol);
            if (Has(e, "seen")) Same("seen", (bool)e["seen"], record.Seen);
            if (Has(e, "awareness")) Near("awareness", F(e["awareness"]), record.Awareness, tol);
            if (Has(e, "stage")) Same("stage", Str(e["stage"]), s_Stages[(int)record.AwarenessStage]);
        }

        void State(EnemyBrain brain, JsonObject e)
        {
            if (e == null) return;
            Keys(e, "agent_state expect", "brain_state", "focus", "timer", "move_target", "tolerance");
            float tol = Tol(e);
            if (Has(e, "brain_state")) Same("state", Str(e["brain_state"]), s_States[(int)brain.state]);
            if (e.ContainsKey("focus")) Same("Focus", Str(e["focus"]), NameOf(brain.Focus));
            if (Has(e, "timer")) Near("StateTimer", F(e["timer"]), brain.StateTimer, tol);
            if (e.ContainsKey("move_target"))
            {
                if (e["move_target"] == null) Same("HasMoveTarget", false, brain.HasMoveTarget);
                else
                {
                    Same("HasMoveTarget", true, brain.HasMoveTarget);
                    Near("MoveTarget", V(e["move_target"]), brain.MoveTarget, tol);
                }
            }
        }

        static ThreatView Threat(JsonObject t)
        {
            ThreatView v;
            v.position = V(t["position"]);
            v.forward = Has(t, "forward") ? V(t["forward"]) : Vector3.forward;
            v.eye = Has(t, "eye") ? V(t["eye"]) : v.position;
            return v;
        }

        void Tactical(JsonObject a, JsonObject e, bool cover)
        {
            var candidates = new List<Vector3>();
            foreach (JsonValue c in (JsonArray)a["candidates"]) candidates.Add(V(c));
            InfluenceMap map = Has(a, "map") ? m_Maps[Str(a["map"])] : null;
            int topK = Has(a, "top_k") ? (int)a["top_k"] : 1;
            var results = new List<TacticalSpot>();
            Vector3 best;
            int found;
            Vector3 lessonAnswer;
            if (cover)
            {
                var threats = new List<ThreatView>();
                foreach (JsonObject t in (JsonArray)a["threats"]) threats.Add(Threat(t));
                bool all = !Has(a, "mode") || Str(a["mode"]) == "hidden_from_all";
                Vector3 self = V(a["self_position"]);
                found = TacticalQueries.FindCover(self, threats, candidates, map, ~0, all, topK, results, out best);
                lessonAnswer = threats.Count == 1 && all
                    ? TacticalQueries.FindBestCover(self, threats[0].eye, candidates, map, ~0) : best;
            }
            else
            {
                ThreatView t = Threat((JsonObject)a["threat"]);
                found = TacticalQueries.FindFlank(t, candidates, map, topK, results, out best);
                lessonAnswer = TacticalQueries.FindFlankPosition(t.position, t.forward, candidates, map);
            }
            if (e == null) return;
            Keys(e, "tactical expect", "position", "found", "results", "tolerance");
            float tol = Has(a, "tolerance") ? F(a["tolerance"]) : Tol(e);
            Near("position", V(e["position"]), best, tol);
            Near("position (lesson method)", V(e["position"]), lessonAnswer, tol);
            Same("found", (int)e["found"], found);
            if (Has(e, "results"))
            {
                var want = (JsonArray)e["results"];
                Same("result count", want.Count, results.Count);
                for (int i = 0; i < want.Count && i < results.Count; i++)
                {
                    var w = (JsonObject)want[i];
                    Keys(w, "result", "position", "score", "candidate_index", "hidden_from");
                    if (Has(w, "position")) Near("result " + i + " position", V(w["position"]), results[i].position, tol);
                    if (Has(w, "score")) Near("result " + i + " score", F(w["score"]), results[i].score, tol);
                    if (Has(w, "candidate_index")) Same("result " + i + " candidate_index", (int)w["candidate_index"], results[i].candidateIndex);
                    if (Has(w, "hidden_from")) Same("result " + i + " hidden_from", (int)w["hidden_from"], results[i].hiddenFrom);
                }
            }
        }
    }
}
