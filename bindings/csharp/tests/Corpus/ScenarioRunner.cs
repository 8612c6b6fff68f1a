using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Json;
using System.Linq;

namespace Argus.Tests.Corpus
{
    /// <summary>
    /// Runs one conformance scenario (tests/scenarios/*.json, format in tests/scenarios/README.md)
    /// through Argus.World: builds the world, performs the timeline in order and records every
    /// failed expectation with its file, timeline index and action. Unknown keys and actions are
    /// failures, so a typo can never silently skip a check. Absent fields mean "the library's default"
    /// (setup) or "not checked" (expectations).
    /// </summary>
    public sealed partial class ScenarioRunner
    {
        readonly List<string> _failures = new List<string>();
        readonly Dictionary<string, AgentId> _agents = new Dictionary<string, AgentId>();
        readonly Dictionary<string, TargetId> _targets = new Dictionary<string, TargetId>();
        readonly Dictionary<string, OccluderId> _occluders = new Dictionary<string, OccluderId>();
        readonly Dictionary<string, InfluenceMapId> _maps = new Dictionary<string, InfluenceMapId>();
        string _context = "";
        float _tolerance;
        bool _engineRays;
        World _world;

        /// <summary>The scenarios directory: $ARGUS_SCENARIOS, else tests/scenarios of the checkout.</summary>
        public static string Directory
        {
            get
            {
                string env = Environment.GetEnvironmentVariable("ARGUS_SCENARIOS");
                return !string.IsNullOrEmpty(env) ? env : Path.Combine(Support.Root, "tests", "scenarios");
            }
        }

        /// <summary>Runs a file; returns every failure (empty when it passed).</summary>
        public static List<string> RunFile(string path)
        {
            var runner = new ScenarioRunner();
            string file = Path.GetFileName(path);
            runner._context = file + ": setup";
            try
            {
                var root = (JsonObject)JsonValue.Parse(File.ReadAllText(path));
                runner.Run(root, file);
            }
            catch (ScenarioError e)
            {
                runner.Fail(e.Message + " (scenario stopped here)");
            }
            catch (ArgusException e)
            {
                runner.Fail("API error: " + e.Message + " (scenario stopped here)");
            }
            catch (Exception e)
            {
                runner.Fail(e.GetType().Name + ": " + e.Message + " (scenario stopped here)");
            }
            finally
            {
                if (runner._world != null) runner._world.Dispose();
            }
            return runner._failures;
        }

        sealed class ScenarioError : Exception
        {
            public ScenarioError(string message) : base(message)
            {
            }
        }

        void Fail(string message)
        {
            _failures.Add(_context + ": " + message);
        }

        void Run(JsonObject s, string file)
        {
            Keys(s, "scenario", "name", "source", "description", "tolerance", "world", "occluders", "walk_graph", "agents",
                "targets", "maps", "timeline");
            string stem = Path.GetFileNameWithoutExtension(file);
            if (Str(s, "name") != stem) Fail("name must equal the file name without .json (" + stem + ")");
            if (Str(s, "source").Trim().Length == 0) Fail("source must say which lesson trace or README behaviour this encodes");
            _tolerance = Float(s, "tolerance");
            Build(s);
            JsonArray timeline = Arr(s, "timeline");
            for (int i = 0; i < timeline.Count; i++)
            {
                var action = (JsonObject)timeline[i];
                _context = file + ": timeline[" + i + "] " + Str(action, "do");
                Perform(action);
            }
        }

        // ---- building ------------------------------------------------------------------------------------------

        void Build(JsonObject s)
        {
            WorldDef def = WorldDef.Default();
            JsonObject w = Obj(s, "world");
            if (w != null)
            {
                Keys(w, "world", "ray_backend", "sound_occlusion", "hearing_path", "attitudes");
                string backend = OptStr(w, "ray_backend") ?? "builtin";
                if (backend == "engine") def.RayBackend = RayBackend.Engine;
                else if (backend != "builtin") throw new ScenarioError("unknown ray_backend " + backend + " (builtin | engine)");
                if (w.ContainsKey("sound_occlusion")) def.SoundOcclusion = Float(w, "sound_occlusion");
                string path = OptStr(w, "hearing_path");
                if (path != null) def.HearingPath = HearingPathOf(path);
            }
            _engineRays = def.RayBackend == RayBackend.Engine;
            _world = new World(def);
            if (w != null && w.ContainsKey("attitudes"))
                foreach (JsonValue a in Arr(w, "attitudes"))
                    _world.SetAttitude((uint)a[0], (uint)a[1], AttitudeOf((string)a[2]));
            foreach (JsonObject o in Items(s, "occluders")) Add(_occluders, Str(o, "name"), _world.CreateOccluder(OccluderDefOf(o)));
            JsonObject g = Obj(s, "walk_graph");
            if (g != null) SetWalkGraph(g);
            foreach (JsonObject a in Items(s, "agents")) Add(_agents, Str(a, "name"), _world.CreateAgent(AgentDefOf(a)));
            foreach (JsonObject t in Items(s, "targets")) Add(_targets, Str(t, "name"), _world.CreateTarget(TargetDefOf(t)));
            foreach (JsonObject m in Items(s, "maps")) Add(_maps, Str(m, "name"), _world.CreateInfluenceMap(MapDefOf(m)));
        }

        static void Add<T>(Dictionary<string, T> table, string name, T id)
        {
            if (table.ContainsKey(name)) throw new ScenarioError("name \"" + name + "\" is used twice");
            table[name] = id;
        }

        OccluderDef OccluderDefOf(JsonObject o)
        {
            Keys(o, "occluder", "name", "shape", "position", "half_extents", "radius", "half_height", "rotation", "layers",
                "sound_transmission");
            OccluderDef def = OccluderDef.Default();
            string shape = Str(o, "shape");
            string name = Str(o, "name");
            if (shape == "box")
            {
                def.Shape = ShapeKind.Box;
                if (!o.ContainsKey("half_extents")) throw new ScenarioError("occluder " + name + ": box needs half_extents");
                def.HalfExtents = V(o["half_extents"]);
            }
            else if (shape == "sphere")
            {
                def.Shape = ShapeKind.Sphere;
                def.Radius = Need(o, "radius", name);
            }
            else if (shape == "capsule")
            {
                def.Shape = ShapeKind.Capsule;
                def.HalfHeight = Need(o, "half_height", name);
                def.Radius = Need(o, "radius", name);
            }
            else throw new ScenarioError("occluder " + name + ": unknown shape " + shape + " (box | sphere | capsule)");
            def.Position = V(o["position"]);
            def.Rotation = o.ContainsKey("rotation") ? Q(o["rotation"]) : Quat.Identity;
            if (o.ContainsKey("layers")) def.Layers = (uint)o["layers"];
            if (o.ContainsKey("sound_transmission"))
            {
                def.HasSoundTransmission = true;
                def.SoundTransmission = Float(o, "sound_transmission");
            }
            return def;
        }

        /// <summary>The file's walk graph: either a grid over the occluders, or the engine's nodes and edges.</summary>
        void SetWalkGraph(JsonObject g)
        {
            Keys(g, "walk_graph", "grid", "nodes", "edges", "snap_distance");
            JsonObject grid = Obj(g, "grid");
            if (grid != null && !g.ContainsKey("nodes") && !g.ContainsKey("edges") && !g.ContainsKey("snap_distance"))
            {
                Keys(grid, "walk_graph grid", "origin", "width", "depth", "cell_size", "band_min", "band_max", "layers", "snap_distance");
                WalkGridDef def = WalkGridDef.Default();
                if (grid.ContainsKey("origin")) def.Origin = V(grid["origin"]);
                def.Width = (uint)grid["width"];
                def.Depth = (uint)grid["depth"];
                Set(ref def.CellSize, grid, "cell_size");
                Set(ref def.BandMin, grid, "band_min");
                Set(ref def.BandMax, grid, "band_max");
                SetU(ref def.Layers, grid, "layers");
                Set(ref def.SnapDistance, grid, "snap_distance");
                _world.SetWalkGrid(def);
            }
            else if (grid == null && g.ContainsKey("nodes"))
            {
                Vec3[] nodes = Arr(g, "nodes").Select(V).ToArray();
                WalkEdge[] edges = !g.ContainsKey("edges") ? new WalkEdge[0]
                    : Arr(g, "edges").Select(e => new WalkEdge((uint)e[0], (uint)e[1], F(e[2]))).ToArray();
                if (!g.ContainsKey("snap_distance")) throw new ScenarioError("walk_graph: nodes need snap_distance");
                _world.SetWalkGraph(nodes, edges, Float(g, "snap_distance"));
            }
            else throw new ScenarioError("walk_graph: give either `grid` or `nodes` (with `edges`, `snap_distance`)");
        }

        static SearchKind SearchKindOf(string name)
        {
            switch (name)
            {
                case "last_known_position": return SearchKind.LastKnownPosition;
                case "belief": return SearchKind.Belief;
            }
            throw new ScenarioError("unknown search " + name + " (last_known_position | belief)");
        }

        static HearingPath HearingPathOf(string name)
        {
            switch (name)
            {
                case "world": return HearingPath.World;
                case "straight": return HearingPath.Straight;
                case "walk": return HearingPath.Walk;
            }
            throw new ScenarioError("unknown hearing path " + name + " (world | straight | walk)");
        }

        float Need(JsonObject o, string key, string name)
        {
            if (!o.ContainsKey(key)) throw new ScenarioError("occluder " + name + ": " + Str(o, "shape") + " needs " + key);
            return Float(o, key);
        }

        InfluenceMapDef MapDefOf(JsonObject m)
        {
            Keys(m, "map", "name", "width", "height", "cell_size", "origin");
            InfluenceMapDef def = InfluenceMapDef.Default();
            def.Width = (uint)m["width"];
            def.Height = (uint)m["height"];
            if (m.ContainsKey("cell_size")) def.CellSize = Float(m, "cell_size");
            if (m.ContainsKey("origin")) def.Origin = V(m["origin"]);
            return def;
        }

        static Attitude AttitudeOf(string name)
        {
            switch (name)
            {
                case "hostile": return Attitude.Hostile;
                case "neutral": return Attitude.Neutral;
                case "friendly": return Attitude.Friendly;
            }
            throw new ScenarioError("unknown attitude " + name + " (hostile | neutral | friendly)");
        }

        static uint DetectBit(string name)
        {
            switch (name)
            {
                case "hostile": return Constants.DETECT_HOSTILE;
                case "neutral": return Constants.DETECT_NEUTRAL;
                case "friendly": return Constants.DETECT_FRIENDLY;
            }
            throw new ScenarioError("unknown attitude " + name + " (hostile | neutral | friendly)");
        }

        // ---- names of the library's values, as the files spell them ---------------------------------------------

        static readonly string[] BrainNames = { "idle", "investigating", "chasing", "searching" };
        static readonly string[] StageNames = { "unaware", "suspicious", "alert", "aware" };
        static readonly string[] KindNames = { "sight", "sound" };
        static readonly string[] StatusNames = { "out_of_range", "outside_cone", "blocked", "visible" };

        static string Name(string[] names, uint value)
        {
            return value < names.Length ? names[value] : "unknown(" + value + ")";
        }

        string TargetName(TargetId id)
        {
            if (id.IsNull) return null;
            foreach (var kv in _targets) if (kv.Value == id) return kv.Key;
            return id.ToString();
        }

        string AgentName(AgentId id)
        {
            foreach (var kv in _agents) if (kv.Value == id) return kv.Key;
            return id.ToString();
        }

        AgentId Agent(JsonObject o, string key)
        {
            AgentId id;
            if (!_agents.TryGetValue(Str(o, key), out id)) throw new ScenarioError("unknown agent name " + Str(o, key));
            return id;
        }

        TargetId Target(string name)
        {
            TargetId id;
            if (!_targets.TryGetValue(name, out id)) throw new ScenarioError("unknown target name " + name);
            return id;
        }

        InfluenceMapId Map(string name)
        {
            InfluenceMapId id;
            if (!_maps.TryGetValue(name, out id)) throw new ScenarioError("unknown map name " + name);
            return id;
        }

        // ---- JSON helpers ---------------------------------------------------------------------------------------

        static void Keys(JsonObject o, string what, params string[] allowed)
        {
            foreach (string k in o.Keys)
                if (Array.IndexOf(allowed, k) < 0) throw new ScenarioError("unknown field \"" + k + "\" in " + what);
        }

        static string Str(JsonObject o, string key)
        {
            if (!o.ContainsKey(key) || o[key] == null) throw new ScenarioError("missing field " + key);
            return (string)o[key];
        }

        static string OptStr(JsonObject o, string key)
        {
            return o.ContainsKey(key) && o[key] != null ? (string)o[key] : null;
        }

        static float Float(JsonObject o, string key)
        {
            if (!o.ContainsKey(key) || o[key] == null) throw new ScenarioError("missing field " + key);
            return F(o[key]);
        }

        static float F(JsonValue v)
        {
            return (float)(double)v;
        }

        static float? OptFloat(JsonObject o, string key)
        {
            return o.ContainsKey(key) && o[key] != null ? F(o[key]) : (float?)null;
        }

        static bool? OptBool(JsonObject o, string key)
        {
            return o.ContainsKey(key) && o[key] != null ? (bool)o[key] : (bool?)null;
        }

        static JsonObject Obj(JsonObject o, string key)
        {
            return o.ContainsKey(key) ? (JsonObject)o[key] : null;
        }

        static JsonArray Arr(JsonObject o, string key)
        {
            if (!o.ContainsKey(key) || o[key] == null) throw new ScenarioError("missing field " + key);
            return (JsonArray)o[key];
        }

        static IEnumerable<JsonObject> Items(JsonObject o, string key)
        {
            return o.ContainsKey(key) ? ((JsonArray)o[key]).Cast<JsonObject>() : Enumerable.Empty<JsonObject>();
        }

        static Vec3 V(JsonValue v)
        {
            return new Vec3(F(v[0]), F(v[1]), F(v[2]));
        }

        static Quat Q(JsonValue v)
        {
            return new Quat(F(v[0]), F(v[1]), F(v[2]), F(v[3]));
        }

        static string Show(Vec3 v)
        {
            return string.Format(CultureInfo.InvariantCulture, "[{0}, {1}, {2}]", v.X, v.Y, v.Z);
        }

        // ---- checks ----------------------------------------------------------------------------------------------

        void Eq<T>(string what, T expected, T actual)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                Fail(what + ": expected " + expected + ", got " + actual);
        }

        void FloatEq(string what, float expected, float actual, float tol)
        {
            if (Math.Abs(expected - actual) > tol || float.IsNaN(actual))
                Fail(string.Format(CultureInfo.InvariantCulture, "{0}: expected {1} ± {2}, got {3}", what, expected, tol, actual));
        }

        void OptFloatEq(string what, float? expected, float actual, float tol)
        {
            if (expected.HasValue) FloatEq(what, expected.Value, actual, tol);
        }

        void VecEq(string what, Vec3 e, Vec3 a, float tol)
        {
            float d = Math.Max(Math.Abs(e.X - a.X), Math.Max(Math.Abs(e.Y - a.Y), Math.Abs(e.Z - a.Z)));
            if (d > tol || float.IsNaN(d))
                Fail(what + ": expected " + Show(e) + " ± " + tol.ToString(CultureInfo.InvariantCulture) + ", got " + Show(a));
        }

        void OptVecEq(string what, JsonObject o, string key, Vec3 actual, float tol)
        {
            if (o.ContainsKey(key) && o[key] != null) VecEq(what, V(o[key]), actual, tol);
        }

        bool SameLength(string what, int expected, int actual)
        {
            if (expected == actual) return true;
            Fail(what + ": expected " + expected + " item(s), got " + actual);
            return false;
        }
    }
}
