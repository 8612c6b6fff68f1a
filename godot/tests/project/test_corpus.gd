## The conformance corpus (tests/scenarios/*.json, copied to res://scenarios/) asserted through
## the 3D nodes: occluders become StaticBody3D collision shapes, agents VisionSensor3D nodes
## (with HearingSensor3D and EnemyBrain children), targets PerceptionTarget3D nodes; steps are
## checked through the signals (sound_heard, state_changed, target_forgotten,
## awareness_changed, target_seen/lost) and the nodes' getters. A scenario using something the
## nodes do not expose (scripted engine rays, attitudes, detect masks, sideways eye offsets,
## cover/flank queries) is reported as skipped, never counted as passed.
extends SceneTree

const H = preload("res://harness.gd")
var t := H.new()
const STATES := ["idle", "investigating", "chasing", "searching"]
const STAGES := ["unaware", "suspicious", "alert", "aware"]

var world: PerceptionWorld3D
var bodies := {}
var agents := {}
var targets := {}
var maps := {}
var names := {}  # node -> name
var events := []
var tol := 1e-4

func _initialize() -> void:
	t.suite = "corpus"
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
		var why := unsupported(s)
		if why != "":
			skipped.append("%s (%s)" % [s.name, why])
			continue
		var before := t.failed
		await run_scenario(s)
		ran += 1
		if t.failed > before:
			printerr("scenario %s: %d failed checks" % [s.name, t.failed - before])
	print("corpus: %d scenario files, %d run through the nodes, %d skipped" % [files.size(), ran, skipped.size()])
	for s in skipped:
		print("corpus SKIPPED scenario: " + s)
	t.check(ran > 0, "at least one corpus scenario runs through the nodes")
	print("corpus: %d passed, %d failed" % [t.passed, t.failed])
	quit(1 if t.failed > 0 else 0)

## Why the nodes cannot express a scenario ("" when they can).
func unsupported(s: Dictionary) -> String:
	var w: Dictionary = s.get("world", {})
	if w.get("ray_backend", "builtin") != "builtin":
		return "scripted engine rays"
	if not w.get("attitudes", []).is_empty():
		return "team attitudes"
	if w.has("sound_occlusion") and w.sound_occlusion != 1.0:
		return "sound occlusion"
	for a in s.get("agents", []):
		if a.has("detect"):
			return "detect masks"
		var eye: Array = a.get("sight", {}).get("eye_offset", [0, 1.6, 0])
		if eye[0] != 0 or eye[2] != 0:
			return "sideways eye offset"
		if a.get("hearing", {}).has("obstacle_mask"):
			return "hearing obstacle mask"
		for k in a.get("awareness", {}):
			if not k in ["enabled", "rise_per_second", "fall_per_second"]:
				return "awareness " + k
	for o in s.get("occluders", []):
		if not o.shape in ["box", "sphere", "capsule"]:
			return "occluder shape " + o.shape
	for a in s.timeline:
		if a.do in ["find_cover", "find_flank", "set_attitude"]:
			return a.do
		if a.has("rays"):
			return "scripted rays"
		if a.do == "emit_sound" and (a.has("team") or a.has("layers")):
			return "sound team/layers"
	return ""

func v3(a) -> Vector3:
	return Vector3(a[0], a[1], a[2])

func face(node: Node3D, pos: Vector3, fwd: Vector3) -> void:
	node.global_position = pos
	var up := Vector3.UP if absf(fwd.normalized().y) < 0.999 else Vector3.BACK
	node.look_at(pos + fwd, up)

func run_scenario(s: Dictionary) -> void:
	for c in root.get_children():
		root.remove_child(c)
		c.free()
	bodies.clear(); agents.clear(); targets.clear(); maps.clear(); names.clear(); events.clear()
	tol = s.tolerance
	t.suite = "corpus " + s.name
	world = PerceptionWorld3D.new()
	world.auto_step = false
	root.add_child(world)
	for o in s.get("occluders", []):
		var shape: Shape3D
		match o.shape:
			"box":
				shape = BoxShape3D.new(); shape.size = v3(o.half_extents) * 2.0
			"sphere":
				shape = SphereShape3D.new(); shape.radius = o.radius
			"capsule":
				shape = CapsuleShape3D.new(); shape.radius = o.radius; shape.height = 2.0 * (o.half_height + o.radius)
		var r: Array = o.get("rotation", [0, 0, 0, 1])
		var xf := Transform3D(Basis(Quaternion(r[0], r[1], r[2], r[3])), v3(o.position))
		bodies[o.name] = H.wall_3d(root, shape, xf, int(o.get("layers", 1)))
	world.register_occluders()
	for a in s.get("agents", []):
		var g := VisionSensor3D.new()
		var sight: Dictionary = a.get("sight", {})
		if sight.has("enabled"): g.sight_enabled = sight.enabled
		if sight.has("eye_offset"): g.eye_height = sight.eye_offset[1]
		for k in ["view_radius", "view_angle", "lose_sight_radius", "peripheral_radius", "peripheral_angle"]:
			if sight.has(k): g.set(k, sight[k])
		if sight.has("target_mask"): g.target_mask = int(sight.target_mask)
		if sight.has("obstacle_mask"): g.obstacle_mask = int(sight.obstacle_mask)
		if sight.has("rate_hz"): g.sense_rate_hz = sight.rate_hz
		if a.has("team"): g.team = int(a.team)
		var mem: Dictionary = a.get("memory", {})
		if mem.has("decay_per_second"): g.decay_per_second = mem.decay_per_second
		if mem.has("forget_threshold"): g.forget_threshold = mem.forget_threshold
		var aw: Dictionary = a.get("awareness", {})
		if aw.has("enabled"): g.awareness_enabled = aw.enabled
		if aw.has("rise_per_second"): g.awareness_rise_per_second = aw.rise_per_second
		if aw.has("fall_per_second"): g.awareness_fall_per_second = aw.fall_per_second
		var hearing: Dictionary = a.get("hearing", {})
		var ears := HearingSensor3D.new()
		if hearing.has("enabled"): ears.hearing_enabled = hearing.enabled
		if hearing.has("sensitivity"): ears.hearing_sensitivity = hearing.sensitivity
		if hearing.has("sound_mask"): ears.sound_mask = int(hearing.sound_mask)
		g.add_child(ears)
		var b: Dictionary = a.get("brain", {})
		var brain := EnemyBrain.new()
		if b.has("enabled"): brain.brain_enabled = b.enabled
		if b.has("search_duration"): brain.search_duration = b.search_duration
		if b.has("investigate_timeout"): brain.investigate_timeout = b.investigate_timeout
		g.add_child(brain)
		world.add_child(g)
		face(g, v3(a.get("position", [0, 0, 0])), v3(a.get("forward", [0, 0, 1])))
		agents[a.name] = g
		names[g] = a.name
		var n: String = a.name
		ears.sound_heard.connect(func(p, l, src): events.append({"k": "sound", "agent": n, "position": p, "source": src}))
		brain.state_changed.connect(func(f, to): events.append({"k": "brain", "agent": n, "from": STATES[f], "to": STATES[to]}))
		g.target_forgotten.connect(func(x, p): events.append({"k": "forgotten", "agent": n, "target": x, "position": p}))
		g.awareness_changed.connect(func(x, f, to, lv): events.append({"k": "awareness", "agent": n, "target": x, "from": STAGES[f], "to": STAGES[to], "level": lv}))
	for d in s.get("targets", []):
		var tg := PerceptionTarget3D.new()
		if d.has("team"): tg.team = int(d.team)
		if d.has("layers"): tg.layers = int(d.layers)
		if d.has("enabled"): tg.perceivable = d.enabled
		if d.has("check_points"):
			var pts: Array[Vector3] = []
			for p in d.check_points: pts.append(v3(p))
			tg.check_points = pts
		world.add_child(tg)
		face(tg, v3(d.get("position", [0, 0, 0])), v3(d.get("forward", [0, 0, 1])))
		targets[d.name] = tg
		names[tg] = d.name
	for m in s.get("maps", []):
		var im := InfluenceMap.new()
		im.setup(m.width, m.height, m.get("cell_size", 1.0), v3(m.get("origin", [0, 0, 0])), 1)
		maps[m.name] = im
	for i in s.timeline.size():
		do_action(s.timeline[i], i)

func close(a: Vector3, b: Vector3, tl: float) -> bool:
	return absf(a.x - b.x) <= tl and absf(a.y - b.y) <= tl and absf(a.z - b.z) <= tl

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
			face(agents[a.agent], v3(a.position), v3(a.forward))
		"set_target_pose":
			face(targets[a.target], v3(a.position), v3(a.forward))
		"set_target_enabled":
			targets[a.target].perceivable = a.enabled
		"destroy_target":
			var tg: Node = targets[a.target]
			tg.get_parent().remove_child(tg)
			tg.free()
			targets.erase(a.target)
		"set_occluder_pose":
			var r: Array = a.get("rotation", [0, 0, 0, 1])
			bodies[a.occluder].transform = Transform3D(Basis(Quaternion(r[0], r[1], r[2], r[3])), v3(a.position))
			world.register_occluders()
		"emit_sound":
			var src: Node = targets.get(a.get("source", ""), null) if a.get("source") != null else null
			world.emit_sound(v3(a.position), a.loudness, src)
		"report_arrived":
			agents[a.agent].report_arrived()
		"can_see":
			var got: bool = agents[a.agent].can_see(targets[a.target])
			t.check(got == a.expect.seen, "%s %s sees %s: expected %s, got %s" % [at, a.agent, a.target, a.expect.seen, got])
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
				if e.has("last_known_position"): t.check(close(m.last_known_position, v3(e.last_known_position), tl), "%s last known %s vs %s" % [at, m.last_known_position, e.last_known_position])
				if e.has("seen"): t.check(m.seen == e.seen, "%s seen" % at)
				if e.has("awareness"): t.check(absf(m.awareness - e.awareness) <= tl, "%s awareness %s vs %s" % [at, m.awareness, e.awareness])
				if e.has("stage"): t.check(STAGES[m.stage] == e.stage, "%s stage %s vs %s" % [at, STAGES[m.stage], e.stage])
		"agent_state":
			var g: VisionSensor3D = agents[a.agent]
			var e: Dictionary = a.expect
			if e.has("brain_state"): t.check(STATES[g.get_brain_state()] == e.brain_state, "%s state %s vs %s" % [at, STATES[g.get_brain_state()], e.brain_state])
			if e.has("focus"):
				var f = g.get_focus_target()
				var fname = names.get(f) if f != null else null
				t.check(fname == e.focus, "%s focus %s vs %s" % [at, fname, e.focus])
			if e.has("move_target"):
				var mt = g.get_move_target()
				if e.move_target == null: t.check(mt == null, "%s move target null (got %s)" % [at, mt])
				else: t.check(mt != null and close(mt, v3(e.move_target), tl), "%s move target %s vs %s" % [at, mt, e.move_target])
		"add_influence":
			maps[a.map].add_influence(0, v3(a.position), a.value, a.radius)
		"blur":
			maps[a.map].blur(0)
		"influence_value":
			var v: float = maps[a.map].get_value(0, v3(a.position))
			t.check(absf(v - a.expect) <= tl, "%s %s vs %s" % [at, v, a.expect])
		"influence_cells":
			var m: InfluenceMap = maps[a.map]
			var ok := true
			for r in a.expect.size():
				for c in a.expect[r].size():
					if absf(m.get_cell_value(0, Vector2i(c, r)) - a.expect[r][c]) > tl: ok = false
			t.check(ok, "%s cells match" % at)
		_:
			t.check(false, "%s: unknown action" % at)

func named(x) -> Variant:
	return names.get(x) if x != null else null

func check_step(e: Dictionary, at: String, tl: float) -> void:
	if e.has("percepts"):
		var sounds := []
		for ev in events:
			if ev.k == "sound": sounds.append(ev)
		var want_sounds := []
		for p in e.percepts:
			if p.kind == "sound": want_sounds.append(p)
			else:
				# Sight percepts: the target is among the agent's seen targets after the step.
				var seen: Array = agents[p.agent].get_seen_targets()
				t.check(targets.has(p.target) and seen.has(targets[p.target]), "%s %s saw %s" % [at, p.agent, p.target])
		t.check(sounds.size() == want_sounds.size(), "%s sound_heard count %d vs %d" % [at, sounds.size(), want_sounds.size()])
		for k in mini(sounds.size(), want_sounds.size()):
			var got: Dictionary = sounds[k]
			var want: Dictionary = want_sounds[k]
			t.check(got.agent == want.agent, "%s sound %d agent" % [at, k])
			if want.has("position"): t.check(close(got.position, v3(want.position), tl), "%s sound %d position" % [at, k])
			if want.has("target"): t.check(named(got.source) == want.target, "%s sound %d source %s vs %s" % [at, k, named(got.source), want.target])
	if e.has("brain"):
		var got := []
		for ev in events:
			if ev.k == "brain": got.append([ev.agent, ev.from, ev.to])
		var want := []
		for b in e.brain: want.append([b.agent, b.from, b.to])
		t.check(got == want, "%s state_changed %s vs %s" % [at, got, want])
	if e.has("forgotten"):
		var got := []
		for ev in events:
			if ev.k == "forgotten": got.append([ev.agent, named(ev.target)])
		var want := []
		for f in e.forgotten: want.append([f.agent, f.target])
		t.check(got == want, "%s target_forgotten %s vs %s" % [at, got, want])
	if e.has("awareness"):
		var got := []
		for ev in events:
			if ev.k == "awareness": got.append([ev.agent, named(ev.target), ev.from, ev.to])
		var want := []
		for w in e.awareness: want.append([w.agent, w.target, w.from, w.to])
		t.check(got == want, "%s awareness_changed %s vs %s" % [at, got, want])
