## The conformance corpus (tests/scenarios/*.json, copied to res://scenarios/) asserted through
## the 3D nodes (test_corpus_2d.gd runs the planar files through the 2D nodes by overriding the
## hooks below): occluders become StaticBody3D collision shapes, agents VisionSensor3D nodes
## (with HearingSensor3D and EnemyBrain children), targets PerceptionTarget3D nodes; steps are
## checked through the world's percept log (get_last_percepts), the signals (state_changed,
## target_forgotten, awareness_changed, sound_heard) and the nodes' getters. A scenario using
## something the nodes cannot express (scripted engine ray answers: the add-on's engine path is
## the physics space, tested in test_3d/test_2d; sideways eye offsets) is reported as skipped,
## never counted as passed.
extends SceneTree

const H = preload("res://harness.gd")
const Keys = preload("res://corpus_keys.gd")
var t := H.new()
const STATES := ["idle", "investigating", "chasing", "searching"]
const STAGES := ["unaware", "suspicious", "alert", "aware"]
const ATTITUDES := ["hostile", "neutral", "friendly"]
const PATHS := ["world", "straight", "walk"]
## The brain's searches in EnemyBrain.SEARCH_* order.
const SEARCHES := ["last_known_position", "belief"]

var world  # a PerceptionWorld3D here, a PerceptionWorld2D in test_corpus_2d.gd
var bodies := {}
var agents := {}
var targets := {}
var maps := {}
var names := {}  # node -> name
var events := []
var tol := 1e-4

func _initialize() -> void:
	t.suite = label()
	run.call_deferred()

func run() -> void:
	var dir := DirAccess.open("res://scenarios")
	var files: Array = []
	if dir:
		for f in dir.get_files():
			if f.ends_with(".json"):
				files.append(f)
	files.sort()
	var ran := 0
	var skipped := []
	for f in files:
		var text := FileAccess.get_file_as_string("res://scenarios/" + f)
		var s = JSON.parse_string(text)
		if typeof(s) != TYPE_DICTIONARY:
			t.check(false, "%s parses as JSON" % f)
			continue
		var unknown := Keys.unknown(s)
		if not unknown.is_empty():
			t.suite = label() + " " + f
			t.check(false, "%s: keys the corpus format does not know (a runner refuses the file): %s" % [f, unknown])
			continue
		var why := unsupported(s)
		if why != "":
			skipped.append("%s (%s)" % [s.name, why])
			continue
		var before := t.failed
		await run_scenario(s)
		ran += 1
		if t.failed > before:
			printerr("scenario %s: %d failed checks" % [s.name, t.failed - before])
	print("%s: %d scenario files, %d run through the nodes, %d skipped" % [label(), files.size(), ran, skipped.size()])
	for s in skipped:
		print("%s SKIPPED scenario: %s" % [label(), s])
	t.check(ran > 0, "at least one corpus scenario runs through the nodes")
	print("%s: %d passed, %d failed" % [label(), t.passed, t.failed])
	quit(1 if t.failed > 0 else 0)

## Why the nodes cannot express a scenario ("" when they can).
func unsupported(s: Dictionary) -> String:
	var w: Dictionary = s.get("world", {})
	if w.get("ray_backend", "builtin") != "builtin":
		return "scripted engine rays"
	for a in s.get("agents", []):
		var eye: Array = a.get("sight", {}).get("eye_offset", [0, 1.6, 0])
		if eye[0] != 0 or eye[2] != 0:
			return "sideways eye offset"
	for o in s.get("occluders", []):
		if not o.shape in ["box", "sphere", "capsule"]:
			return "occluder shape " + o.shape
	for a in s.timeline:
		if a.has("rays"):
			return "scripted rays"
	return ""

# ----- the hooks test_corpus_2d.gd overrides to run the same files through the 2D nodes -----

func label() -> String:
	return "corpus"

func new_world() -> Node:
	return PerceptionWorld3D.new()

func new_guard() -> Node:
	return VisionSensor3D.new()

func new_ears() -> Node:
	return HearingSensor3D.new()

func new_target() -> Node:
	return PerceptionTarget3D.new()

## A scenario point [x, y, z] as this dimension's vector.
func vec(a) -> Variant:
	return Vector3(a[0], a[1], a[2])

## A list of scenario points as a target's `check_points` (a typed array).
func point_array(list: Array) -> Variant:
	var pts: Array[Vector3] = []
	for p in list: pts.append(vec(p))
	return pts

func packed(list: Array) -> Variant:
	var out := PackedVector3Array()
	for p in list: out.append(vec(p))
	return out

## The walk grid of a scenario's `walk_graph.grid` as the world's walk_grid_* properties.
func set_walk_grid(g: Dictionary) -> void:
	var cell: float = g.get("cell_size", 0.5)
	var top: float = g.get("band_max", 1.8)
	world.walk_grid_bounds = AABB(vec(g.get("origin", [0, 0, 0])), Vector3(g.width * cell, top, g.depth * cell))
	world.walk_grid_step_height = g.get("band_min", 0.3)
	world.walk_grid_cell_size = cell

## A StaticBody with the occluder's shape, under the scene root.
func occluder_body(o: Dictionary) -> Node:
	var shape: Shape3D
	match o.shape:
		"box":
			shape = BoxShape3D.new(); shape.size = vec(o.half_extents) * 2.0
		"sphere":
			shape = SphereShape3D.new(); shape.radius = o.radius
		"capsule":
			shape = CapsuleShape3D.new(); shape.radius = o.radius; shape.height = 2.0 * (o.half_height + o.radius)
	return H.wall_3d(root, shape, occluder_transform(o), int(o.get("layers", 1)))

## Where an occluder (or a set_occluder_pose action) puts its body.
func occluder_transform(o: Dictionary) -> Variant:
	var r: Array = o.get("rotation", [0, 0, 0, 1])
	return Transform3D(Basis(Quaternion(r[0], r[1], r[2], r[3])), vec(o.position))

func face(node, position: Array, forward: Array) -> void:
	var pos: Vector3 = vec(position)
	var fwd: Vector3 = vec(forward)
	node.global_position = pos
	var up := Vector3.UP if absf(fwd.normalized().y) < 0.999 else Vector3.BACK
	node.look_at(pos + fwd, up)

func run_scenario(s: Dictionary) -> void:
	for c in root.get_children():
		root.remove_child(c)
		c.free()
	bodies.clear(); agents.clear(); targets.clear(); maps.clear(); names.clear(); events.clear()
	tol = s.tolerance
	t.suite = label() + " " + s.name
	world = new_world()
	world.auto_step = false
	var wspec: Dictionary = s.get("world", {})
	if wspec.has("sound_occlusion"): world.sound_occlusion = wspec.sound_occlusion
	if wspec.has("hearing_path"): world.hearing_path = PATHS.find(wspec.hearing_path)
	root.add_child(world)
	for at in wspec.get("attitudes", []):
		world.set_attitude(int(at[0]), int(at[1]), ATTITUDES.find(at[2]))
	for o in s.get("occluders", []):
		bodies[o.name] = occluder_body(o)
		if o.has("sound_transmission"): bodies[o.name].set_meta("argus_sound_transmission", o.sound_transmission)
	world.register_occluders()
	if s.has("walk_graph"):
		var wg: Dictionary = s.walk_graph
		if wg.has("grid"):
			set_walk_grid(wg.grid)
			world.walk_grid_layers = int(wg.grid.get("layers", 0xFFFFFFFF))
			world.walk_grid_snap_distance = wg.grid.get("snap_distance", 0.0)
			t.check(world.build_walk_grid(), "the walk grid is built")
		else:
			var pairs := PackedInt32Array()
			var lengths := PackedFloat32Array()
			for e in wg.get("edges", []):
				pairs.append(int(e[0])); pairs.append(int(e[1])); lengths.append(e[2])
			t.check(world.set_walk_graph(packed(wg.nodes), pairs, lengths, wg.snap_distance), "the walk graph is set")
	for a in s.get("agents", []):
		var g = new_guard()
		var sight: Dictionary = a.get("sight", {})
		if sight.has("enabled"): g.sight_enabled = sight.enabled
		if sight.has("eye_offset"): g.eye_height = sight.eye_offset[1]
		# The nodes' default near sense (peripheral cone 1.5 m, 360°) is not the corpus's: a file
		# without the keys means the core's defaults (off, 180°).
		g.peripheral_radius = 0.0
		g.peripheral_angle = 180.0
		for k in ["view_radius", "view_angle", "lose_sight_radius", "peripheral_radius", "peripheral_angle"]:
			if sight.has(k): g.set(k, sight[k])
		if sight.has("target_mask"): g.target_mask = int(sight.target_mask)
		if sight.has("obstacle_mask"): g.obstacle_mask = int(sight.obstacle_mask)
		if sight.has("rate_hz"): g.sense_rate_hz = sight.rate_hz
		if a.has("team"): g.team = int(a.team)
		if a.has("detect"):
			var bits := 0
			for d in a.detect: bits |= 1 << ATTITUDES.find(d)
			g.detect_attitudes = bits
		var mem: Dictionary = a.get("memory", {})
		if mem.has("decay_per_second"): g.decay_per_second = mem.decay_per_second
		if mem.has("forget_threshold"): g.forget_threshold = mem.forget_threshold
		var aw: Dictionary = a.get("awareness", {})
		if aw.has("enabled"): g.awareness_enabled = aw.enabled
		if aw.has("rise_per_second"): g.awareness_rise_per_second = aw.rise_per_second
		if aw.has("fall_per_second"): g.awareness_fall_per_second = aw.fall_per_second
		if aw.has("far_factor"): g.awareness_far_factor = aw.far_factor
		if aw.has("edge_factor"): g.awareness_edge_factor = aw.edge_factor
		if aw.has("suspicious_threshold"): g.suspicious_threshold = aw.suspicious_threshold
		if aw.has("alert_threshold"): g.alert_threshold = aw.alert_threshold
		if aw.has("aware_threshold"): g.aware_threshold = aw.aware_threshold
		var hearing: Dictionary = a.get("hearing", {})
		var ears = new_ears()
		if hearing.has("enabled"): ears.hearing_enabled = hearing.enabled
		if hearing.has("sensitivity"): ears.hearing_sensitivity = hearing.sensitivity
		if hearing.has("sound_mask"): ears.sound_mask = int(hearing.sound_mask)
		if hearing.has("obstacle_mask"): ears.muffle_mask = int(hearing.obstacle_mask)
		if hearing.has("path"): ears.hearing_path = PATHS.find(hearing.path)
		g.add_child(ears)
		var b: Dictionary = a.get("brain", {})
		var brain := EnemyBrain.new()
		if b.has("enabled"): brain.brain_enabled = b.enabled
		if b.has("search_duration"): brain.search_duration = b.search_duration
		if b.has("investigate_timeout"): brain.investigate_timeout = b.investigate_timeout
		if b.has("search"): brain.search = SEARCHES.find(b.search)
		if b.has("give_up_probability"): brain.give_up_probability = b.give_up_probability
		if b.has("share_belief"): brain.share_belief = b.share_belief
		g.add_child(brain)
		world.add_child(g)
		face(g, a.get("position", [0, 0, 0]), a.get("forward", [0, 0, 1]))
		agents[a.name] = g
		names[g] = a.name
		var n: String = a.name
		ears.sound_heard.connect(func(p, l, src): events.append({"k": "sound", "agent": n, "position": p, "loudness": l, "source": src}))
		ears.sound_heard_ex.connect(func(p, l, src, d): events.append({"k": "sound_ex", "agent": n, "position": p, "loudness": l, "source": src, "distance": d}))
		g.target_seen.connect(func(x): events.append({"k": "seen", "agent": n, "target": x}))
		g.target_lost.connect(func(x): events.append({"k": "lost", "agent": n, "target": x}))
		brain.state_changed.connect(func(f, to): events.append({"k": "brain", "agent": n, "from": STATES[f], "to": STATES[to]}))
		g.target_forgotten.connect(func(x, p): events.append({"k": "forgotten", "agent": n, "target": x, "position": p}))
		g.awareness_changed.connect(func(x, f, to, lv): events.append({"k": "awareness", "agent": n, "target": x, "from": STAGES[f], "to": STAGES[to], "level": lv}))
	for d in s.get("targets", []):
		var tg = new_target()
		if d.has("team"): tg.team = int(d.team)
		if d.has("layers"): tg.layers = int(d.layers)
		if d.has("enabled"): tg.perceivable = d.enabled
		if d.has("top_speed"): tg.top_speed = d.top_speed
		if d.has("check_points"):
			tg.check_points = point_array(d.check_points)
		world.add_child(tg)
		face(tg, d.get("position", [0, 0, 0]), d.get("forward", [0, 0, 1]))
		targets[d.name] = tg
		names[tg] = d.name
	for m in s.get("maps", []):
		var im := InfluenceMap.new()
		im.setup(m.width, m.height, m.get("cell_size", 1.0), vec(m.get("origin", [0, 0, 0])), 1)
		maps[m.name] = im
	for i in s.timeline.size():
		do_action(s.timeline[i], i)

## Every component of two vectors (of either dimension) within `tl`.
func close(a, b, tl: float) -> bool:
	var d = (a - b).abs()
	return d[d.max_axis_index()] <= tl

func do_action(a: Dictionary, i: int) -> void:
	var at := "#%d %s" % [i, a.do]
	var tl: float = a.get("tolerance", tol)
	match a.do:
		"step":
			events.clear()
			var seen_before := {}
			for n in agents:
				seen_before[n] = agents[n].get_seen_targets()
			t.check(world.step(a.dt), at + " steps")
			if a.has("expect"):
				check_step(a.expect, at, tl)
		"set_agent_pose":
			face(agents[a.agent], a.position, a.forward)
		"set_target_pose":
			face(targets[a.target], a.position, a.forward)
		"set_target_enabled":
			targets[a.target].perceivable = a.enabled
		"destroy_target":
			var tg: Node = targets[a.target]
			tg.get_parent().remove_child(tg)
			tg.free()
			targets.erase(a.target)
		"set_occluder_pose":
			bodies[a.occluder].transform = occluder_transform(a)
			world.register_occluders()
		"emit_sound":
			var src: Node = targets.get(a.get("source", ""), null) if a.get("source") != null else null
			if a.has("team") or a.has("layers"):
				world.emit_sound_ex(vec(a.position), a.loudness, src, int(a.get("team", 1)), int(a.get("layers", 1)))
			else:
				world.emit_sound(vec(a.position), a.loudness, src)
		"report_arrived":
			agents[a.agent].report_arrived()
		"can_see":
			var got: bool = agents[a.agent].can_see(targets[a.target])
			t.check(got == a.expect.seen, "%s %s sees %s: expected %s, got %s" % [at, a.agent, a.target, a.expect.seen, got])
			var r: Dictionary = agents[a.agent].check_sight(targets[a.target])
			var e: Dictionary = a.expect
			t.check(r.seen == got, "%s check_sight agrees with can_see" % at)
			if e.has("perceivable"): t.check(r.perceivable == e.perceivable, "%s perceivable" % at)
			if e.has("fraction"): t.check(absf(r.fraction - e.fraction) <= tl, "%s fraction %s vs %s" % [at, r.fraction, e.fraction])
			if e.has("points"):
				t.check(r.points.size() == e.points.size(), "%s point count" % at)
				for k in mini(r.points.size(), e.points.size()):
					t.check(r.points[k].status == e.points[k].status, "%s point %d status %s vs %s" % [at, k, r.points[k].status, e.points[k].status])
					if e.points[k].has("hit"): t.check(close(r.points[k].hit, vec(e.points[k].hit), tl), "%s point %d hit %s vs %s" % [at, k, r.points[k].hit, e.points[k].hit])
		"set_attitude":
			world.set_attitude(int(a.observer), int(a.other), ATTITUDES.find(a.attitude))
		"visible_targets":
			var got := []
			for x in agents[a.agent].get_visible_targets():
				got.append(names[x])
			t.check(got == a.expect, "%s: expected %s, got %s" % [at, a.expect, got])
		"memory":
			var m: Dictionary = agents[a.agent].get_memory(targets[a.target])
			var e: Dictionary = a.expect
			t.check(m.is_empty() != e.exists, "%s record exists == %s (%s)" % [at, e.exists, m])
			if not m.is_empty():
				if e.has("confidence"): t.check(absf(m.confidence - e.confidence) <= tl, "%s confidence %s vs %s" % [at, m.confidence, e.confidence])
				if e.has("last_known_position"): t.check(close(m.last_known_position, vec(e.last_known_position), tl), "%s last known %s vs %s" % [at, m.last_known_position, e.last_known_position])
				if e.has("seen"): t.check(m.seen == e.seen, "%s seen" % at)
				if e.has("awareness"): t.check(absf(m.awareness - e.awareness) <= tl, "%s awareness %s vs %s" % [at, m.awareness, e.awareness])
				if e.has("stage"): t.check(STAGES[m.stage] == e.stage, "%s stage %s vs %s" % [at, STAGES[m.stage], e.stage])
		"agent_state":
			var g = agents[a.agent]
			var e: Dictionary = a.expect
			if e.has("brain_state"): t.check(STATES[g.get_brain_state()] == e.brain_state, "%s state %s vs %s" % [at, STATES[g.get_brain_state()], e.brain_state])
			if e.has("focus"):
				var f = g.get_focus_target()
				var fname = names.get(f) if f != null else null
				t.check(fname == e.focus, "%s focus %s vs %s" % [at, fname, e.focus])
			if e.has("timer"): t.check(absf(g.get_brain_timer() - e.timer) <= tl, "%s timer %s vs %s" % [at, g.get_brain_timer(), e.timer])
			if e.has("move_target"):
				var mt = g.get_move_target()
				if e.move_target == null: t.check(mt == null, "%s move target null (got %s)" % [at, mt])
				else: t.check(mt != null and close(mt, vec(e.move_target), tl), "%s move target %s vs %s" % [at, mt, e.move_target])
		"add_influence":
			maps[a.map].add_influence(0, vec(a.position), a.value, a.radius)
		"blur":
			maps[a.map].blur(0)
		"influence_value":
			var v: float = maps[a.map].get_value(0, vec(a.position))
			t.check(absf(v - a.expect) <= tl, "%s %s vs %s" % [at, v, a.expect])
		"influence_cells":
			var m: InfluenceMap = maps[a.map]
			var ok := true
			for r in a.expect.size():
				for c in a.expect[r].size():
					if absf(m.get_cell_value(0, Vector2i(c, r)) - a.expect[r][c]) > tl: ok = false
			t.check(ok, "%s cells match" % at)
		"find_cover":
			var threats := []
			for th in a.threats:
				threats.append({"position": vec(th.position), "forward": vec(th.forward), "eye": vec(th.get("eye", th.position))})
			var cands = packed(a.candidates)
			var map: InfluenceMap = maps[a.map] if a.has("map") else null
			var got: Array = world.find_cover(vec(a.self_position), threats, cands, int(a.get("top_k", 1)),
				a.get("mode", "hidden_from_all") == "hidden_from_most", map, 0xFFFFFFFF)
			check_tactics(got, a.expect, vec(a.self_position), at, tl)
		"find_walk":
			var got: Dictionary = world.find_walk(vec(a.from), vec(a.to), a.limit)
			var e: Dictionary = a.expect
			t.check(got.found == e.found, "%s found %s vs %s" % [at, got.found, e.found])
			if got.found and e.has("distance"): t.check(absf(got.distance - e.distance) <= tl, "%s distance %s vs %s" % [at, got.distance, e.distance])
			if got.found and e.has("node_count"): t.check(got.nodes.size() == int(e.node_count), "%s node count %d vs %s" % [at, got.nodes.size(), e.node_count])
			if got.found: t.check(got.points.size() == got.nodes.size() + 2 and close(got.points[0], vec(a.from), 1e-5), "%s points: from, the nodes, to" % at)
		"find_flank":
			var th: Dictionary = a.threat
			var cands = packed(a.candidates)
			var map: InfluenceMap = maps[a.map] if a.has("map") else null
			var got: Array = world.find_flank({"position": vec(th.position), "forward": vec(th.forward)}, cands, int(a.get("top_k", 1)), map)
			check_tactics(got, a.expect, vec(th.position), at, tl)
		_:
			t.check(false, "%s: unknown action" % at)

func check_tactics(got: Array, e: Dictionary, fallback: Variant, at: String, tl: float) -> void:
	var best = got[0].position if got.size() > 0 else fallback
	t.check(close(best, vec(e.position), tl), "%s best %s vs %s" % [at, best, e.position])
	t.check(got.size() == int(e.found), "%s found %d vs %d" % [at, got.size(), e.found])
	if e.has("results"):
		t.check(got.size() == e.results.size(), "%s result count" % at)
		for k in mini(got.size(), e.results.size()):
			var w: Dictionary = e.results[k]
			t.check(close(got[k].position, vec(w.position), tl) and absf(got[k].score - w.score) <= tl
				and got[k].candidate_index == int(w.candidate_index), "%s result %d %s vs %s" % [at, k, got[k], w])
			if w.has("hidden_from"): t.check(got[k].hidden_from == int(w.hidden_from), "%s result %d hidden_from" % [at, k])

func named(x) -> Variant:
	return names.get(x) if x != null else null

func check_step(e: Dictionary, at: String, tl: float) -> void:
	if e.has("percepts"):
		var got: Array = world.get_last_percepts()
		t.check(got.size() == e.percepts.size(), "%s percept count %d vs %d" % [at, got.size(), e.percepts.size()])
		for k in mini(got.size(), e.percepts.size()):
			var g: Dictionary = got[k]
			var w: Dictionary = e.percepts[k]
			t.check(named(g.sensor) == w.agent and g.kind == w.kind, "%s percept %d: %s %s vs %s %s" % [at, k, named(g.sensor), g.kind, w.agent, w.kind])
			if w.has("target"): t.check(named(g.target) == w.target, "%s percept %d target %s vs %s" % [at, k, named(g.target), w.target])
			if w.has("position"): t.check(close(g.position, vec(w.position), tl), "%s percept %d position" % [at, k])
			if w.has("strength"): t.check(absf(g.strength - w.strength) <= tl, "%s percept %d strength %s vs %s" % [at, k, g.strength, w.strength])
			if w.has("time"): t.check(absf(g.time - w.time) <= tl, "%s percept %d time" % [at, k])
			if w.has("distance"): t.check(absf(g.distance - w.distance) <= tl, "%s percept %d distance %s vs %s" % [at, k, g.distance, w.distance])
		# The signals carry the same sounds: one sound_heard per sound percept, in order.
		var heard := []
		for ev in events:
			if ev.k == "sound": heard.append([ev.agent, named(ev.source)])
		var want_heard := []
		for p in got:
			if p.kind == "sound": want_heard.append([named(p.sensor), named(p.target)])
		t.check(heard == want_heard, "%s sound_heard signals %s match the sound percepts %s" % [at, heard, want_heard])
		# Which sound each was (issue #34): its loudness and source, also with two sounds at one spot.
		var sounds_heard := []
		for ev in events:
			if ev.k == "sound": sounds_heard.append(ev)
		# sound_heard_ex: the same sounds, in order, with the same position and loudness and the distance.
		var ex := []
		for ev in events:
			if ev.k == "sound_ex": ex.append(ev)
		t.check(ex.size() == sounds_heard.size(), "%s one sound_heard_ex per sound_heard" % at)
		for k in mini(ex.size(), sounds_heard.size()):
			t.check(ex[k].agent == sounds_heard[k].agent and ex[k].position == sounds_heard[k].position and ex[k].source == sounds_heard[k].source,
				"%s sound_heard_ex %d is sound_heard's sound" % [at, k])
		var heard_k := 0
		for w in e.percepts:
			if w.kind != "sound": continue
			if heard_k < ex.size() and w.has("distance"): t.check(absf(ex[heard_k].distance - w.distance) <= tl, "%s sound_heard_ex %d distance %s vs %s" % [at, heard_k, ex[heard_k].distance, w.distance])
			if heard_k < sounds_heard.size():
				if w.has("loudness"): t.check(absf(sounds_heard[heard_k].loudness - w.loudness) <= tl, "%s sound %d loudness %s vs %s" % [at, heard_k, sounds_heard[heard_k].loudness, w.loudness])
				if w.has("target"): t.check(named(sounds_heard[heard_k].source) == w.target, "%s sound %d source %s vs %s" % [at, heard_k, named(sounds_heard[heard_k].source), w.target])
			heard_k += 1
	for which in ["seen", "lost"]:
		if e.has(which):
			var got := []
			for ev in events:
				if ev.k == which: got.append([ev.agent, named(ev.target)])
			var want := []
			for x in e[which]: want.append([x.agent, x.target])
			t.check(got == want, "%s target_%s %s vs %s" % [at, which, got, want])
	if e.has("brain"):
		var got := []
		for ev in events:
			if ev.k == "brain": got.append([ev.agent, ev.from, ev.to])
		var want := []
		for b in e.brain: want.append([b.agent, b.from, b.to])
		t.check(got == want, "%s state_changed %s vs %s" % [at, got, want])
		for b in e.brain:
			if b.has("target"):
				var f = named(agents[b.agent].get_focus_target())
				t.check(f == b.target, "%s brain focus after the change %s vs %s" % [at, f, b.target])
			if b.has("time"): t.check(absf(world.get_time() - b.time) <= tl, "%s brain event time" % at)
	if e.has("forgotten"):
		var got := []
		for ev in events:
			if ev.k == "forgotten": got.append([ev.agent, named(ev.target)])
		var want := []
		for f in e.forgotten: want.append([f.agent, f.target])
		t.check(got == want, "%s target_forgotten %s vs %s" % [at, got, want])
		var k := 0
		for ev in events:
			if ev.k != "forgotten": continue
			if k < e.forgotten.size() and e.forgotten[k].has("position"):
				t.check(close(ev.position, vec(e.forgotten[k].position), tl), "%s forgotten position" % at)
			k += 1
	if e.has("awareness"):
		var got := []
		for ev in events:
			if ev.k == "awareness": got.append([ev.agent, named(ev.target), ev.from, ev.to])
		var want := []
		for w in e.awareness: want.append([w.agent, w.target, w.from, w.to])
		t.check(got == want, "%s awareness_changed %s vs %s" % [at, got, want])
		var k := 0
		for ev in events:
			if ev.k != "awareness": continue
			if k < e.awareness.size() and e.awareness[k].has("level"):
				t.check(absf(ev.level - e.awareness[k].level) <= tl, "%s awareness level %s vs %s" % [at, ev.level, e.awareness[k].level])
			k += 1
