using System.Collections.Generic;
using System.Json;
using System.Linq;

namespace Argus.Tests.Corpus
{
    // The timeline's actions, each through Argus.World, and the checks of their expectations.
    public sealed partial class ScenarioRunner
    {
        /// <summary>The caller's ray answers for an engine-ray world ("clear", or "blocked" at a distance,
        /// default half the ray), recording which (agent, target) each ray was for.</summary>
        sealed class ScriptedRays : IRayCaster
        {
            public bool Blocked;
            public float? Distance;
            public readonly List<KeyValuePair<AgentId, TargetId>> Asked = new List<KeyValuePair<AgentId, TargetId>>();

            public void CastRays(RayArray rays, RayHits hits)
            {
                for (int i = 0; i < rays.Length; i++)
                {
                    EngineRay r = rays[i];
                    Asked.Add(new KeyValuePair<AgentId, TargetId>(r.Agent, r.Target));
                    var hit = new RayHit();
                    if (Blocked)
                    {
                        hit.Hit = true;
                        hit.Distance = Distance ?? r.MaxDistance * 0.5f;
                    }
                    hits[i] = hit;
                }
            }
        }

        /// <summary>Installs the file's ray answers before a sight-using call; null for a builtin world.
        /// A mismatch between the world and the file is an error, never silently ignored.</summary>
        ScriptedRays Rays(JsonObject action)
        {
            JsonObject spec = Obj(action, "rays");
            if (!_engineRays && spec == null) return null;
            if (_engineRays && spec == null)
                throw new ScenarioError("an engine-ray world needs `rays` (how the caller answers) on every step and sight query");
            if (!_engineRays)
                throw new ScenarioError("`rays` given for a builtin-ray world, where the occluders answer: it would be ignored");
            Keys(spec, "rays", "answer", "distance", "expect");
            string answer = Str(spec, "answer");
            if (answer != "clear" && answer != "blocked") throw new ScenarioError("unknown ray answer " + answer + " (clear | blocked)");
            var rays = new ScriptedRays { Blocked = answer == "blocked", Distance = OptFloat(spec, "distance") };
            _world.SetRayCaster(rays);
            return rays;
        }

        void CheckRays(JsonObject action, ScriptedRays rays)
        {
            if (rays == null) return;
            JsonObject spec = Obj(action, "rays");
            if (!spec.ContainsKey("expect")) return;
            string expected = string.Join(", ", ((JsonArray)spec["expect"]).Select(p => (string)p[0] + " -> " + (string)p[1]).ToArray());
            string actual = string.Join(", ", rays.Asked.Select(p => AgentName(p.Key) + " -> " + (TargetName(p.Value) ?? "")).ToArray());
            Eq("rays asked (agent, target)", "[" + expected + "]", "[" + actual + "]");
        }

        float Tol(JsonObject o)
        {
            return OptFloat(o, "tolerance") ?? _tolerance;
        }

        void Perform(JsonObject a)
        {
            string what = Str(a, "do");
            switch (what)
            {
                case "step":
                {
                    Keys(a, what, "do", "dt", "rays", "expect");
                    ScriptedRays rays = Rays(a);
                    _world.Step(Float(a, "dt"));
                    CheckRays(a, rays);
                    if (a.ContainsKey("expect")) CheckEvents((JsonObject)a["expect"]);
                    break;
                }
                case "set_agent_pose":
                    Keys(a, what, "do", "agent", "position", "forward");
                    _world.SetAgentPose(Agent(a, "agent"), V(a["position"]), V(a["forward"]));
                    break;
                case "set_target_pose":
                    Keys(a, what, "do", "target", "position", "forward");
                    _world.SetTargetPose(Target(Str(a, "target")), V(a["position"]), V(a["forward"]));
                    break;
                case "set_target_enabled":
                    Keys(a, what, "do", "target", "enabled");
                    _world.SetTargetEnabled(Target(Str(a, "target")), (bool)a["enabled"]);
                    break;
                case "destroy_target":
                    Keys(a, what, "do", "target");
                    _world.DestroyTarget(Target(Str(a, "target")));
                    break;
                case "set_occluder_pose":
                {
                    Keys(a, what, "do", "occluder", "position", "rotation");
                    OccluderId id;
                    if (!_occluders.TryGetValue(Str(a, "occluder"), out id)) throw new ScenarioError("unknown occluder name " + Str(a, "occluder"));
                    _world.SetOccluderPose(id, V(a["position"]), a.ContainsKey("rotation") ? Q(a["rotation"]) : Quat.Identity);
                    break;
                }
                case "emit_sound":
                    Keys(a, what, "do", "position", "loudness", "source", "team", "layers");
                    _world.EmitSound(SoundDefOf(a));
                    break;
                case "report_arrived":
                    Keys(a, what, "do", "agent");
                    _world.ReportArrived(Agent(a, "agent"));
                    break;
                case "set_attitude":
                    Keys(a, what, "do", "observer", "other", "attitude");
                    _world.SetAttitude((uint)a["observer"], (uint)a["other"], AttitudeOf(Str(a, "attitude")));
                    break;
                case "can_see":
                {
                    Keys(a, what, "do", "agent", "target", "rays", "tolerance", "expect");
                    ScriptedRays rays = Rays(a);
                    SightResult r = _world.CanSee(Agent(a, "agent"), Target(Str(a, "target")));
                    CheckRays(a, rays);
                    CheckSight((JsonObject)a["expect"], r, Tol(a));
                    break;
                }
                case "visible_targets":
                {
                    Keys(a, what, "do", "agent", "rays", "expect");
                    ScriptedRays rays = Rays(a);
                    TargetRef[] buffer = null;
                    int n = _world.GetVisibleTargets(Agent(a, "agent"), ref buffer);
                    CheckRays(a, rays);
                    string expected = string.Join(", ", ((JsonArray)a["expect"]).Select(v => (string)v).ToArray());
                    string actual = string.Join(", ", buffer.Take(n).Select(t => TargetName(t.Target)).Where(t => t != null).ToArray());
                    Eq("visible targets", "[" + expected + "]", "[" + actual + "]");
                    break;
                }
                case "memory":
                    Keys(a, what, "do", "agent", "target", "tolerance", "expect");
                    CheckMemory(a);
                    break;
                case "agent_state":
                    Keys(a, what, "do", "agent", "tolerance", "expect");
                    CheckState(a);
                    break;
                case "add_influence":
                    Keys(a, what, "do", "map", "position", "value", "radius");
                    _world.AddInfluence(Map(Str(a, "map")), 0, V(a["position"]), Float(a, "value"), (int)a["radius"]);
                    break;
                case "blur":
                    Keys(a, what, "do", "map");
                    _world.BlurInfluence(Map(Str(a, "map")), 0, 1);
                    break;
                case "influence_cells":
                    Keys(a, what, "do", "map", "tolerance", "expect");
                    CheckCells(a);
                    break;
                case "influence_value":
                    Keys(a, what, "do", "map", "position", "tolerance", "expect");
                    FloatEq("value at " + Show(V(a["position"])), Float(a, "expect"),
                        _world.GetInfluence(Map(Str(a, "map")), 0, V(a["position"])), Tol(a));
                    break;
                case "find_cover":
                    Keys(a, what, "do", "self_position", "threats", "candidates", "map", "mode", "top_k", "tolerance", "expect");
                    FindCover(a);
                    break;
                case "find_walk":
                {
                    Keys(a, what, "do", "from", "to", "limit", "tolerance", "expect");
                    var e = (JsonObject)a["expect"];
                    Keys(e, "find_walk expectation", "found", "distance", "node_count");
                    WalkResult walk = _world.FindWalk(V(a["from"]), V(a["to"]), Float(a, "limit"));
                    Eq("find_walk found", (bool)e["found"], walk.Found);
                    if (walk.Found)
                    {
                        OptFloatEq("find_walk distance", OptFloat(e, "distance"), walk.Distance, Tol(a));
                        if (e.ContainsKey("node_count")) Eq("find_walk node_count", (int)e["node_count"], walk.NodeCount);
                    }
                    break;
                }
                case "find_flank":
                    Keys(a, what, "do", "threat", "candidates", "map", "top_k", "tolerance", "expect");
                    FindFlank(a);
                    break;
                default:
                    throw new ScenarioError("unknown action " + what);
            }
        }

        void CheckSight(JsonObject e, SightResult r, float tol)
        {
            Keys(e, "sight expectation", "seen", "perceivable", "fraction", "points");
            Eq("seen", (bool)e["seen"], r.Seen);
            bool? perceivable = OptBool(e, "perceivable");
            if (perceivable.HasValue) Eq("perceivable", perceivable.Value, r.Perceivable);
            OptFloatEq("visible fraction", OptFloat(e, "fraction"), r.Fraction, tol);
            if (!e.ContainsKey("points")) return;
            var points = (JsonArray)e["points"];
            if (!SameLength("check points", points.Count, (int)r.PointCount)) return;
            for (int i = 0; i < points.Count; i++)
            {
                var p = (JsonObject)points[i];
                Keys(p, "point expectation", "status", "hit");
                Eq("point " + i + " status", Str(p, "status"), Name(StatusNames, (uint)r.Status(i)));
                OptVecEq("point " + i + " hit", p, "hit", r.Hit(i), tol);
            }
        }

        void CheckMemory(JsonObject a)
        {
            var e = (JsonObject)a["expect"];
            Keys(e, "memory expectation", "exists", "confidence", "last_known_position", "seen", "awareness", "stage");
            float tol = Tol(a);
            MemoryRecord[] buffer = null;
            int n = _world.GetMemory(Agent(a, "agent"), ref buffer);
            TargetId target = Target(Str(a, "target"));
            int found = -1;
            for (int i = 0; i < n; i++) if (buffer[i].Target == target) found = i;
            Eq("record exists", (bool)e["exists"], found >= 0);
            if (found < 0) return;
            MemoryRecord r = buffer[found];
            OptFloatEq("confidence", OptFloat(e, "confidence"), r.Confidence, tol);
            OptVecEq("last known position", e, "last_known_position", r.LastKnownPosition, tol);
            bool? seen = OptBool(e, "seen");
            if (seen.HasValue) Eq("seen", seen.Value, r.Seen);
            OptFloatEq("awareness", OptFloat(e, "awareness"), r.Awareness, tol);
            string stage = OptStr(e, "stage");
            if (stage != null) Eq("stage", stage, Name(StageNames, (uint)r.AwarenessStage));
        }

        void CheckState(JsonObject a)
        {
            var e = (JsonObject)a["expect"];
            Keys(e, "state expectation", "brain_state", "focus", "timer", "move_target");
            float tol = Tol(a);
            AgentState s = _world.GetAgentState(Agent(a, "agent"));
            string state = OptStr(e, "brain_state");
            if (state != null) Eq("brain state", state, Name(BrainNames, (uint)s.BrainState));
            if (e.ContainsKey("focus")) Eq("focus", OptStr(e, "focus") ?? "null", TargetName(s.Focus) ?? "null");
            OptFloatEq("brain timer", OptFloat(e, "timer"), s.BrainTimer, tol);
            if (e.ContainsKey("move_target"))
            {
                if (e["move_target"] == null)
                {
                    if (s.HasMoveTarget) Fail("move target: expected null, got " + Show(s.MoveTarget));
                }
                else if (!s.HasMoveTarget) Fail("move target: expected " + Show(V(e["move_target"])) + ", got null");
                else VecEq("move target", V(e["move_target"]), s.MoveTarget, tol);
            }
        }

        void CheckCells(JsonObject a)
        {
            InfluenceMapId map = Map(Str(a, "map"));
            InfluenceMapInfo info = _world.GetInfluenceMapInfo(map);
            FloatArray layer = _world.GetInfluenceLayer(map, 0);
            var rows = (JsonArray)a["expect"];
            float tol = Tol(a);
            if (!SameLength("rows", rows.Count, (int)info.Height)) return;
            for (int r = 0; r < rows.Count; r++)
            {
                var row = (JsonArray)rows[r];
                if (!SameLength("row " + r, row.Count, (int)info.Width)) continue;
                for (int c = 0; c < row.Count; c++)
                    FloatEq("cell (x " + c + ", z " + r + ")", F(row[c]), layer[r * (int)info.Width + c], tol);
            }
        }

        Threat ThreatOf(JsonObject t, bool needEye)
        {
            Keys(t, "threat", "position", "forward", "eye");
            if (needEye && !t.ContainsKey("eye")) throw new ScenarioError("a cover threat needs an eye");
            Vec3 position = V(t["position"]);
            return new Threat { Position = position, Forward = V(t["forward"]), Eye = t.ContainsKey("eye") ? V(t["eye"]) : position };
        }

        Vec3[] Candidates(JsonObject a)
        {
            return ((JsonArray)a["candidates"]).Select(V).ToArray();
        }

        void FindCover(JsonObject a)
        {
            CoverQuery q = CoverQuery.Default();
            q.SelfPosition = V(a["self_position"]);
            q.Candidates.Kind = CandidateKind.Points;
            string map = OptStr(a, "map");
            if (map != null)
            {
                q.Map = Map(map);
                q.MapLayer = 0;
            }
            string mode = OptStr(a, "mode") ?? "hidden_from_all";
            if (mode == "hidden_from_all") q.Mode = CoverMode.HiddenFromAll;
            else if (mode == "hidden_from_most") q.Mode = CoverMode.HiddenFromMost;
            else throw new ScenarioError("unknown cover mode " + mode + " (hidden_from_all | hidden_from_most)");
            q.TopK = a.ContainsKey("top_k") ? (uint)a["top_k"] : 1;
            Threat[] threats = ((JsonArray)a["threats"]).Cast<JsonObject>().Select(t => ThreatOf(t, true)).ToArray();
            TacticalResult[] results = null;
            TacticalAnswer answer;
            int n = _world.FindCover(q, Candidates(a), threats, ref results, out answer);
            CheckTactical((JsonObject)a["expect"], answer, results, n, Tol(a));
        }

        void FindFlank(JsonObject a)
        {
            FlankQuery q = FlankQuery.Default();
            q.Candidates.Kind = CandidateKind.Points;
            q.Threat = ThreatOf((JsonObject)a["threat"], false);
            string map = OptStr(a, "map");
            if (map != null)
            {
                q.Map = Map(map);
                q.MapLayer = 0;
            }
            q.TopK = a.ContainsKey("top_k") ? (uint)a["top_k"] : 1;
            TacticalResult[] results = null;
            TacticalAnswer answer;
            int n = _world.FindFlank(q, Candidates(a), ref results, out answer);
            CheckTactical((JsonObject)a["expect"], answer, results, n, Tol(a));
        }

        void CheckTactical(JsonObject e, TacticalAnswer answer, TacticalResult[] results, int n, float tol)
        {
            Keys(e, "tactical expectation", "position", "found", "results");
            VecEq("answer position", V(e["position"]), answer.Position, tol);
            Eq("found", (uint)e["found"], answer.Found);
            if (!e.ContainsKey("results")) return;
            var expected = (JsonArray)e["results"];
            if (!SameLength("results", expected.Count, n)) return;
            for (int i = 0; i < n; i++)
            {
                var x = (JsonObject)expected[i];
                Keys(x, "tactical result", "position", "score", "candidate_index", "hidden_from");
                VecEq("result " + i + " position", V(x["position"]), results[i].Position, tol);
                FloatEq("result " + i + " score", Float(x, "score"), results[i].Score, tol);
                Eq("result " + i + " candidate index", (uint)x["candidate_index"], results[i].CandidateIndex);
                if (x.ContainsKey("hidden_from")) Eq("result " + i + " hidden from", (uint)x["hidden_from"], results[i].HiddenFrom);
            }
        }

        void CheckSightEvents(JsonObject e, string which, float tol)
        {
            if (!e.ContainsKey(which)) return;
            var expected = (JsonArray)e[which];
            SightEventArray actual = which == "seen" ? _world.SeenEvents : _world.LostEvents;
            if (SameLength(which + " events", expected.Count, actual.Length))
                for (int i = 0; i < expected.Count; i++)
                {
                    var x = (JsonObject)expected[i];
                    Keys(x, which + " event", "agent", "target", "position");
                    SightEvent s = actual[i];
                    string w = which + " event " + i + " ";
                    Eq(w + "agent", Str(x, "agent"), AgentName(s.Agent));
                    Eq(w + "target", Str(x, "target"), TargetName(s.Target) ?? "null");
                    OptVecEq(w + "position", x, "position", s.Position, tol);
                }
        }

        void CheckEvents(JsonObject e)
        {
            Keys(e, "step expectation", "tolerance", "percepts", "brain", "forgotten", "awareness", "seen", "lost");
            float tol = Tol(e);
            if (e.ContainsKey("percepts"))
            {
                var expected = (JsonArray)e["percepts"];
                PerceptArray actual = _world.Percepts;
                if (SameLength("percepts", expected.Count, actual.Length))
                    for (int i = 0; i < expected.Count; i++)
                    {
                        var x = (JsonObject)expected[i];
                        Keys(x, "percept", "agent", "kind", "target", "position", "strength", "time", "sound_index", "loudness",
                            "distance");
                        PerceptEvent p = actual[i];
                        string w = "percept " + i + " ";
                        Eq(w + "agent", Str(x, "agent"), AgentName(p.Agent));
                        Eq(w + "kind", Str(x, "kind"), Name(KindNames, (uint)p.Kind));
                        if (x.ContainsKey("target")) Eq(w + "target", OptStr(x, "target") ?? "null", TargetName(p.Target) ?? "null");
                        OptVecEq(w + "position", x, "position", p.Position, tol);
                        OptFloatEq(w + "strength", OptFloat(x, "strength"), p.Strength, tol);
                        OptFloatEq(w + "time", OptFloat(x, "time"), p.Time, tol);
                        if (x.ContainsKey("sound_index")) Eq(w + "sound_index", (uint)x["sound_index"], p.SoundIndex);
                        OptFloatEq(w + "loudness", OptFloat(x, "loudness"), p.Loudness, tol);
                        if (x.ContainsKey("sound_index") || x.ContainsKey("loudness") || x.ContainsKey("distance"))
                            Eq(w + "kind (sound_index / loudness / distance are sound fields)", "sound", Name(KindNames, (uint)p.Kind));
                        OptFloatEq(w + "distance", OptFloat(x, "distance"), p.Distance, tol);
                    }
            }
            // Seen / lost through the generated layer (the object model's surface for them comes later).
            CheckSightEvents(e, "seen", tol);
            CheckSightEvents(e, "lost", tol);
            if (e.ContainsKey("brain"))
            {
                var expected = (JsonArray)e["brain"];
                BrainEventArray actual = _world.BrainEvents;
                if (SameLength("brain events", expected.Count, actual.Length))
                    for (int i = 0; i < expected.Count; i++)
                    {
                        var x = (JsonObject)expected[i];
                        Keys(x, "brain event", "agent", "from", "to", "target", "time");
                        BrainEvent b = actual[i];
                        string w = "brain event " + i + " ";
                        Eq(w + "agent", Str(x, "agent"), AgentName(b.Agent));
                        Eq(w + "from", Str(x, "from"), Name(BrainNames, (uint)b.From));
                        Eq(w + "to", Str(x, "to"), Name(BrainNames, (uint)b.To));
                        if (x.ContainsKey("target")) Eq(w + "target", OptStr(x, "target") ?? "null", TargetName(b.Target) ?? "null");
                        OptFloatEq(w + "time", OptFloat(x, "time"), b.Time, tol);
                    }
            }
            if (e.ContainsKey("forgotten"))
            {
                var expected = (JsonArray)e["forgotten"];
                ForgetEventArray actual = _world.ForgetEvents;
                if (SameLength("forget events", expected.Count, actual.Length))
                    for (int i = 0; i < expected.Count; i++)
                    {
                        var x = (JsonObject)expected[i];
                        Keys(x, "forget event", "agent", "target", "position", "time");
                        ForgetEvent f = actual[i];
                        string w = "forget event " + i + " ";
                        Eq(w + "agent", Str(x, "agent"), AgentName(f.Agent));
                        Eq(w + "target", Str(x, "target"), TargetName(f.Target) ?? "null");
                        OptVecEq(w + "position", x, "position", f.Position, tol);
                        OptFloatEq(w + "time", OptFloat(x, "time"), f.Time, tol);
                    }
            }
            if (e.ContainsKey("awareness"))
            {
                var expected = (JsonArray)e["awareness"];
                AwarenessEventArray actual = _world.AwarenessEvents;
                if (SameLength("awareness events", expected.Count, actual.Length))
                    for (int i = 0; i < expected.Count; i++)
                    {
                        var x = (JsonObject)expected[i];
                        Keys(x, "awareness event", "agent", "target", "from", "to", "level", "time");
                        AwarenessEvent w = actual[i];
                        string s = "awareness event " + i + " ";
                        Eq(s + "agent", Str(x, "agent"), AgentName(w.Agent));
                        Eq(s + "target", Str(x, "target"), TargetName(w.Target) ?? "null");
                        Eq(s + "from", Str(x, "from"), Name(StageNames, (uint)w.From));
                        Eq(s + "to", Str(x, "to"), Name(StageNames, (uint)w.To));
                        OptFloatEq(s + "level", OptFloat(x, "level"), w.Level, tol);
                        OptFloatEq(s + "time", OptFloat(x, "time"), w.Time, tol);
                    }
            }
        }
    }
}
