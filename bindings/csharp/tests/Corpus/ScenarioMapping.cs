using System.Json;
using System.Linq;

namespace Argus.Tests.Corpus
{
    // JSON → the C ABI's defs: each starts from the library's default (argus_default_*) and overrides
    // only what the file gives. The only place that knows how AgentDef's fields are laid out.
    public sealed partial class ScenarioRunner
    {
        AgentDef AgentDefOf(JsonObject a)
        {
            Keys(a, "agent", "name", "position", "forward", "team", "detect", "sight", "hearing", "memory", "brain", "awareness");
            AgentDef def = AgentDef.Default();
            if (a.ContainsKey("position")) def.Position = V(a["position"]);
            if (a.ContainsKey("forward")) def.Forward = V(a["forward"]);
            if (a.ContainsKey("team")) def.Team = (uint)a["team"];
            if (a.ContainsKey("detect"))
            {
                def.DetectMask = 0;
                foreach (JsonValue d in (JsonArray)a["detect"]) def.DetectMask |= DetectBit((string)d);
            }
            JsonObject s = Obj(a, "sight");
            if (s != null)
            {
                Keys(s, "sight", "enabled", "eye_offset", "view_radius", "view_angle", "lose_sight_radius", "peripheral_radius",
                    "peripheral_angle", "target_mask", "obstacle_mask", "rate_hz");
                def.Sight.Enabled = GetBool(s, "enabled", def.Sight.Enabled);
                if (s.ContainsKey("eye_offset")) def.Sight.EyeOffset = V(s["eye_offset"]);
                Set(ref def.Sight.ViewRadius, s, "view_radius");
                Set(ref def.Sight.ViewAngle, s, "view_angle");
                Set(ref def.Sight.LoseSightRadius, s, "lose_sight_radius");
                Set(ref def.Sight.PeripheralRadius, s, "peripheral_radius");
                Set(ref def.Sight.PeripheralAngle, s, "peripheral_angle");
                SetU(ref def.Sight.TargetMask, s, "target_mask");
                SetU(ref def.Sight.ObstacleMask, s, "obstacle_mask");
                Set(ref def.Sight.RateHz, s, "rate_hz");
            }
            JsonObject h = Obj(a, "hearing");
            if (h != null)
            {
                Keys(h, "hearing", "enabled", "sensitivity", "sound_mask", "obstacle_mask", "path");
                def.Hearing.Enabled = GetBool(h, "enabled", def.Hearing.Enabled);
                Set(ref def.Hearing.Sensitivity, h, "sensitivity");
                SetU(ref def.Hearing.SoundMask, h, "sound_mask");
                SetU(ref def.Hearing.ObstacleMask, h, "obstacle_mask");
                string path = OptStr(h, "path");
                if (path != null) def.Hearing.Path = HearingPathOf(path);
            }
            JsonObject m = Obj(a, "memory");
            if (m != null)
            {
                Keys(m, "memory", "decay_per_second", "forget_threshold");
                Set(ref def.Memory.DecayPerSecond, m, "decay_per_second");
                Set(ref def.Memory.ForgetThreshold, m, "forget_threshold");
            }
            JsonObject b = Obj(a, "brain");
            if (b != null)
            {
                Keys(b, "brain", "enabled", "search_duration", "investigate_timeout", "search", "give_up_probability",
                    "share_belief");
                def.Brain.Enabled = GetBool(b, "enabled", def.Brain.Enabled);
                Set(ref def.Brain.SearchDuration, b, "search_duration");
                Set(ref def.Brain.InvestigateTimeout, b, "investigate_timeout");
                string search = OptStr(b, "search");
                if (search != null) def.Brain.Search = SearchKindOf(search);
                Set(ref def.Brain.GiveUpProbability, b, "give_up_probability");
                def.Brain.ShareBelief = GetBool(b, "share_belief", def.Brain.ShareBelief);
            }
            JsonObject w = Obj(a, "awareness");
            if (w != null)
            {
                Keys(w, "awareness", "enabled", "rise_per_second", "fall_per_second", "far_factor", "edge_factor",
                    "suspicious_threshold", "alert_threshold", "aware_threshold");
                def.Awareness.Enabled = GetBool(w, "enabled", def.Awareness.Enabled);
                Set(ref def.Awareness.RisePerSecond, w, "rise_per_second");
                Set(ref def.Awareness.FallPerSecond, w, "fall_per_second");
                Set(ref def.Awareness.FarFactor, w, "far_factor");
                Set(ref def.Awareness.EdgeFactor, w, "edge_factor");
                Set(ref def.Awareness.SuspiciousThreshold, w, "suspicious_threshold");
                Set(ref def.Awareness.AlertThreshold, w, "alert_threshold");
                Set(ref def.Awareness.AwareThreshold, w, "aware_threshold");
            }
            return def;
        }

        unsafe TargetDef TargetDefOf(JsonObject t)
        {
            Keys(t, "target", "name", "position", "forward", "team", "layers", "check_points", "enabled", "top_speed");
            TargetDef def = TargetDef.Default();
            if (t.ContainsKey("position")) def.Position = V(t["position"]);
            if (t.ContainsKey("forward")) def.Forward = V(t["forward"]);
            if (t.ContainsKey("team")) def.Team = (uint)t["team"];
            if (t.ContainsKey("layers")) def.Layers = (uint)t["layers"];
            def.Enabled = GetBool(t, "enabled", def.Enabled);
            Set(ref def.TopSpeed, t, "top_speed");
            if (t.ContainsKey("check_points"))
            {
                var points = (JsonArray)t["check_points"];
                if (points.Count < 1 || points.Count > Constants.MAX_CHECK_POINTS)
                    throw new ScenarioError("a target has 1 to " + Constants.MAX_CHECK_POINTS + " check points");
                def.SetCheckPoints(points.Select(V).ToArray());
            }
            return def;
        }

        SoundDef SoundDefOf(JsonObject o)
        {
            SoundDef def = SoundDef.Default();
            def.Position = V(o["position"]);
            def.Loudness = Float(o, "loudness");
            string source = OptStr(o, "source");
            if (source != null) def.Source = Target(source);
            if (o.ContainsKey("team")) def.Team = (uint)o["team"];
            if (o.ContainsKey("layers")) def.Layers = (uint)o["layers"];
            return def;
        }

        static void Set(ref float slot, JsonObject o, string key)
        {
            if (o.ContainsKey(key)) slot = Float(o, key);
        }

        static void SetU(ref uint slot, JsonObject o, string key)
        {
            if (o.ContainsKey(key)) slot = (uint)o[key];
        }

        static bool GetBool(JsonObject o, string key, bool fallback)
        {
            return o.ContainsKey(key) ? (bool)o[key] : fallback;
        }
    }
}
