## The corpus format's keys (tests/scenarios/README.md; the Rust runner's format.rs is the
## reference): `unknown(s)` lists every key of a scenario file that the format does not know,
## with where it is, so a runner refuses the file rather than ignoring what it cannot read.
extends RefCounted

const TOP := ["name", "source", "description", "tolerance", "world", "occluders", "walk_graph", "agents", "targets", "maps", "timeline"]
const SECTIONS := {
	"world": ["ray_backend", "sound_occlusion", "hearing_path", "attitudes"],
	"occluders": ["name", "shape", "position", "half_extents", "radius", "half_height", "rotation", "layers", "sound_transmission"],
	"walk_graph": ["grid", "nodes", "edges", "snap_distance"],
	"grid": ["origin", "width", "depth", "cell_size", "band_min", "band_max", "layers", "snap_distance"],
	"agents": ["name", "position", "forward", "team", "detect", "sight", "hearing", "memory", "brain", "awareness"],
	"sight": ["enabled", "eye_offset", "view_radius", "view_angle", "lose_sight_radius", "peripheral_radius", "peripheral_angle", "target_mask", "obstacle_mask", "rate_hz"],
	"hearing": ["enabled", "sensitivity", "sound_mask", "obstacle_mask", "path"],
	"memory": ["decay_per_second", "forget_threshold"],
	"brain": ["enabled", "search_duration", "investigate_timeout", "search", "give_up_probability", "share_belief"],
	"awareness": ["enabled", "rise_per_second", "fall_per_second", "far_factor", "edge_factor", "suspicious_threshold", "alert_threshold", "aware_threshold"],
	"targets": ["name", "position", "forward", "team", "layers", "check_points", "enabled", "top_speed"],
	"maps": ["name", "width", "height", "cell_size", "origin"],
}
const ACTIONS := {
	"step": ["dt", "rays", "tolerance", "expect"],
	"set_agent_pose": ["agent", "position", "forward"],
	"set_target_pose": ["target", "position", "forward"],
	"set_target_enabled": ["target", "enabled"],
	"destroy_target": ["target"],
	"set_occluder_pose": ["occluder", "position", "rotation"],
	"emit_sound": ["position", "loudness", "source", "team", "layers"],
	"report_arrived": ["agent"],
	"set_attitude": ["observer", "other", "attitude"],
	"can_see": ["agent", "target", "rays", "tolerance", "expect"],
	"visible_targets": ["agent", "rays", "expect"],
	"memory": ["agent", "target", "tolerance", "expect"],
	"agent_state": ["agent", "tolerance", "expect"],
	"add_influence": ["map", "position", "value", "radius"],
	"blur": ["map"],
	"influence_cells": ["map", "tolerance", "expect"],
	"influence_value": ["map", "position", "tolerance", "expect"],
	"find_cover": ["self_position", "threats", "candidates", "map", "mode", "top_k", "tolerance", "expect"],
	"find_walk": ["from", "to", "limit", "tolerance", "expect"],
	"find_flank": ["threat", "candidates", "map", "top_k", "tolerance", "expect"],
}
## Keys of an action's `expect` object (actions whose expect is a list or a number are absent).
const EXPECTS := {
	"step": ["percepts", "brain", "forgotten", "awareness", "seen", "lost"],
	"can_see": ["seen", "perceivable", "fraction", "points"],
	"memory": ["exists", "confidence", "last_known_position", "seen", "awareness", "stage"],
	"agent_state": ["brain_state", "focus", "timer", "move_target"],
	"find_cover": ["position", "found", "results"],
	"find_flank": ["position", "found", "results"],
	"find_walk": ["found", "distance", "node_count"],
}
## Keys of the entries of lists inside an `expect`.
const EXPECT_LISTS := {
	"percepts": ["agent", "kind", "target", "position", "strength", "time", "sound_index", "loudness", "distance"],
	"seen": ["agent", "target", "position"],
	"lost": ["agent", "target", "position"],
	"brain": ["agent", "from", "to", "target", "time"],
	"forgotten": ["agent", "target", "position"],
	"awareness": ["agent", "target", "from", "to", "level"],
	"points": ["status", "hit"],
	"results": ["position", "score", "candidate_index", "hidden_from"],
}
const RAYS := ["answer", "distance", "expect"]
const THREAT := ["position", "forward", "eye"]

## Every unknown key of scenario `s`, as "where.key".
static func unknown(s: Dictionary) -> Array:
	var out := []
	extra(s, TOP, "", out)
	for k in SECTIONS:
		if k in ["world", "walk_graph"] and s.get(k) is Dictionary:
			extra(s[k], SECTIONS[k], k, out)
		elif k in ["occluders", "agents", "targets", "maps"]:
			for e in s.get(k, []):
				extra(e, SECTIONS[k], "%s[%s]" % [k, e.get("name", "?")], out)
	if s.get("walk_graph", {}).get("grid") is Dictionary:
		extra(s.walk_graph.grid, SECTIONS.grid, "walk_graph.grid", out)
	for a in s.get("agents", []):
		for sense in ["sight", "hearing", "memory", "brain", "awareness"]:
			if a.get(sense) is Dictionary:
				extra(a[sense], SECTIONS[sense], "agents[%s].%s" % [a.get("name", "?"), sense], out)
	for i in s.get("timeline", []).size():
		var a: Dictionary = s.timeline[i]
		var at := "timeline[%d]" % i
		if not ACTIONS.has(a.get("do", "")):
			out.append("%s.do = %s" % [at, a.get("do")])
			continue
		extra(a, ["do"] + ACTIONS[a.do], at, out)
		if a.get("rays") is Dictionary:
			extra(a.rays, RAYS, at + ".rays", out)
		for th in a.get("threats", []) + ([a.threat] if a.has("threat") else []):
			extra(th, THREAT, at + ".threat", out)
		var e = a.get("expect")
		if e is Dictionary and EXPECTS.has(a.do):
			extra(e, EXPECTS[a.do], at + ".expect", out)
			for list in EXPECT_LISTS:
				for entry in (e.get(list, []) if e.get(list) is Array else []):
					if entry is Dictionary:
						extra(entry, EXPECT_LISTS[list], "%s.expect.%s" % [at, list], out)
	return out

static func extra(d, known: Array, where: String, out: Array) -> void:
	if not d is Dictionary:
		return
	for k in d:
		if not k in known:
			out.append(("%s.%s" % [where, k]) if where != "" else k)
