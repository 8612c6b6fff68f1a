using System.Json;

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
                SetBool(ref def.SightEnabled, s, "enabled");
                if (s.ContainsKey("eye_offset")) def.EyeOffset = V(s["eye_offset"]);
                Set(ref def.ViewRadius, s, "view_radius");
                Set(ref def.ViewAngle, s, "view_angle");
                Set(ref def.LoseSightRadius, s, "lose_sight_radius");
                Set(ref def.PeripheralRadius, s, "peripheral_radius");
                Set(ref def.PeripheralAngle, s, "peripheral_angle");
                SetU(ref def.TargetMask, s, "target_mask");
                SetU(ref def.SightObstacleMask, s, "obstacle_mask");
                Set(ref def.SightRateHz, s, "rate_hz");
            }
            JsonObject h = Obj(a, "hearing");
            if (h != null)
            {
                Keys(h, "hearing", "enabled", "sensitivity", "sound_mask", "obstacle_mask");
                SetBool(ref def.HearingEnabled, h, "enabled");
                Set(ref def.HearingSensitivity, h, "sensitivity");
                SetU(ref def.SoundMask, h, "sound_mask");
                SetU(ref def.HearingObstacleMask, h, "obstacle_mask");
            }
            JsonObject m = Obj(a, "memory");
            if (m != null)
            {
                Keys(m, "memory", "decay_per_second", "forget_threshold");
                Set(ref def.MemoryDecayPerSecond, m, "decay_per_second");
                Set(ref def.MemoryForgetThreshold, m, "forget_threshold");
            }
            JsonObject b = Obj(a, "brain");
            if (b != null)
            {
                Keys(b, "brain", "enabled", "search_duration", "investigate_timeout");
                SetBool(ref def.BrainEnabled, b, "enabled");
                Set(ref def.SearchDuration, b, "search_duration");
                Set(ref def.InvestigateTimeout, b, "investigate_timeout");
            }
            JsonObject w = Obj(a, "awareness");
            if (w != null)
            {
                Keys(w, "awareness", "enabled", "rise_per_second", "fall_per_second", "far_factor", "edge_factor",
                    "suspicious_threshold", "alert_threshold", "aware_threshold");
                SetBool(ref def.AwarenessEnabled, w, "enabled");
                Set(ref def.AwarenessRisePerSecond, w, "rise_per_second");
                Set(ref def.AwarenessFallPerSecond, w, "fall_per_second");
                Set(ref def.AwarenessFarFactor, w, "far_factor");
                Set(ref def.AwarenessEdgeFactor, w, "edge_factor");
                Set(ref def.AwarenessSuspicious, w, "suspicious_threshold");
                Set(ref def.AwarenessAlert, w, "alert_threshold");
                Set(ref def.AwarenessAware, w, "aware_threshold");
            }
            return def;
        }

        unsafe TargetDef TargetDefOf(JsonObject t)
        {
            Keys(t, "target", "name", "position", "forward", "team", "layers", "check_points", "enabled");
            TargetDef def = TargetDef.Default();
            if (t.ContainsKey("position")) def.Position = V(t["position"]);
            if (t.ContainsKey("forward")) def.Forward = V(t["forward"]);
            if (t.ContainsKey("team")) def.Team = (uint)t["team"];
            if (t.ContainsKey("layers")) def.Layers = (uint)t["layers"];
            SetBool(ref def.Enabled, t, "enabled");
            if (t.ContainsKey("check_points"))
            {
                var points = (JsonArray)t["check_points"];
                if (points.Count < 1 || points.Count > Constants.MAX_CHECK_POINTS)
                    throw new ScenarioError("a target has 1 to " + Constants.MAX_CHECK_POINTS + " check points");
                def.CheckPointCount = (uint)points.Count;
                Vec3* slots = &def.CheckPoints0; // CheckPoints0..7 are consecutive fields (the drift test checks offsets)
                for (int i = 0; i < points.Count; i++) slots[i] = V(points[i]);
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

        static void SetBool(ref byte slot, JsonObject o, string key)
        {
            if (o.ContainsKey(key)) slot = (byte)((bool)o[key] ? 1 : 0);
        }
    }
}
