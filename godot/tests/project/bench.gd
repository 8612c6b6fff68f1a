## Benchmark inside Godot headless: 1,000 VisionSensor3D guards, 100 targets, 300 walls.
## (1) time a physics frame spends in the add-on vs the core's own step for the same world, in the
## median of 120 frames (the mean too);
## (2) the add-on's full sight sweep (every guard ticks) vs the lesson's vision loop written in
## GDScript (intersect_shape for range, intersect_ray for line of sight) against the same walls
## as StaticBody3Ds, with the same seen/not-seen answers. Ratios come from one run.
extends SceneTree

const H = preload("res://harness.gd")
const GUARDS := 1000
const TARGETS := 100
const WALLS := 300
const SIZE := 160.0
const RADIUS := 15.0
const ANGLE := 90.0
const WALL_LAYER := 1
const TARGET_LAYER := 2
var t := H.new()

func _initialize() -> void:
	t.suite = "bench"
	run.call_deferred()

func run() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 42
	var w := PerceptionWorld3D.new()
	w.auto_step = false
	root.add_child(w)
	var box := BoxShape3D.new()
	for i in WALLS:
		box = BoxShape3D.new()
		box.size = Vector3(rng.randf_range(1, 6), 3, rng.randf_range(0.3, 1.5))
		H.wall_3d(root, box, Transform3D(Basis(Vector3.UP, rng.randf_range(0, TAU)),
			Vector3(rng.randf_range(-SIZE / 2, SIZE / 2), 1.5, rng.randf_range(-SIZE / 2, SIZE / 2))), WALL_LAYER)
	w.register_occluders()
	var guards: Array[VisionSensor3D] = []
	for i in GUARDS:
		var g := VisionSensor3D.new()
		g.view_radius = RADIUS
		g.view_angle = ANGLE
		g.peripheral_radius = 0.0  # the lesson's cone only, as the GDScript loop it is compared with
		g.obstacle_mask = WALL_LAYER
		g.position = Vector3(rng.randf_range(-SIZE / 2, SIZE / 2), 0, rng.randf_range(-SIZE / 2, SIZE / 2))
		g.rotation.y = rng.randf_range(0, TAU)
		w.add_child(g)
		guards.append(g)
	var bodies: Array[StaticBody3D] = []
	var targets: Array[PerceptionTarget3D] = []
	var ball := SphereShape3D.new()
	ball.radius = 0.3
	for i in TARGETS:
		# The GDScript loop needs a collider per target (on its own layer, at the check point).
		var body := StaticBody3D.new()
		body.collision_layer = TARGET_LAYER
		body.collision_mask = 0
		var cs := CollisionShape3D.new()
		cs.shape = ball
		cs.position = Vector3(0, 1.3, 0)
		body.add_child(cs)
		body.position = Vector3(rng.randf_range(-SIZE / 2, SIZE / 2), 0, rng.randf_range(-SIZE / 2, SIZE / 2))
		var target := PerceptionTarget3D.new()
		body.add_child(target)
		w.add_child(body)
		bodies.append(body)
		targets.append(target)
	for i in 3:
		await physics_frame
	print("bench: %d guards, %d targets, %d occluders" % [w.get_agent_count(), w.get_target_count(), w.get_occluder_count()])

	# (1) Time per physics frame in the add-on vs in the core's own step, at the default sight
	# rate (10 Hz, staggered), with the 100 targets moving every frame and the world stepping
	# itself in _physics_process; once per pose-sync mode.
	for mode in [0, 1]:
		w.pose_sync = mode
		w.auto_step = true
		var frames := 120
		var total_frame := 0.0
		var total_core := 0.0
		var total_sync := 0.0
		var total_signals := 0.0
		var total_read := 0.0
		var ratios: Array[float] = []
		var own: Array[float] = []
		for f in frames:
			for b in bodies:
				b.position.x += 0.05
			await physics_frame
			total_frame += w.get_last_frame_usec()
			total_core += w.get_last_core_step_usec()
			total_sync += w.get_last_sync_usec()
			total_signals += w.get_last_signal_usec()
			total_read += w.get_last_read_usec()
			ratios.append(w.get_last_frame_usec() / maxf(w.get_last_core_step_usec(), 1.0))
			own.append(w.get_last_frame_usec() - w.get_last_core_step_usec())
		var overhead := total_frame / maxf(total_core, 1.0)
		var rest := total_frame - total_core - total_sync - total_signals
		# The goal is judged on the median frame, as the sweep's is on the fastest repetition: on
		# this shared virtual machine a few frames in each run stall for 100-300 us in whatever
		# memory they touch first (see tests/suites/50-godot.sh), which skews the mean. The mean
		# and the count of such frames are printed beside it.
		ratios.sort()
		own.sort()
		var stalled := own.filter(func(us): return us > 4.0 * own[frames / 2]).size()
		print("bench frame (pose_sync %s): median frame %.2fx the core's step (goal <= 1.5x), mean over %d frames %.2fx; add-on %.1f us/frame (poses %.1f us of which engine reads %.1f us, signals %.1f us, rest %.1f us), core step %.1f us/frame; the add-on's own time: median frame %.1f us, %d frames over 4x that" % [
			["every step", "on transform change"][mode], ratios[frames / 2], frames, overhead, total_frame / frames, total_sync / frames,
			total_read / frames, total_signals / frames, rest / frames, total_core / frames, own[frames / 2], stalled])
	print("bench memory: %s" % huge_pages())
	w.auto_step = false
	w.pose_sync = 0

	# Let the physics server catch up with the moved target bodies (the GDScript loop queries it).
	for i in 2:
		await physics_frame
	# (2) Full sight sweep: every guard ticks.
	for g in guards:
		g.sense_rate_hz = 0.0
	w.step(1.0 / 60.0)
	var reps := 9
	var space := w.get_world_3d().direct_space_state
	var index_of := {}
	for i in TARGETS:
		index_of[bodies[i]] = i
	# The fastest of several repetitions on each side (the machine is shared and noisy), the two
	# sides taken in turn within each repetition, so that a slow stretch of the machine hits both
	# alike; each add-on mode after an untimed step in that mode, the GDScript loop after one
	# untimed pass.
	var sweep := {0: [INF, 0.0, 0.0, 0.0], 1: [INF, 0.0, 0.0, 0.0]}
	var gd_seen := {}
	var gd_us := INF
	for r in reps + 1:
		for mode in [0, 1]:
			w.pose_sync = mode
			w.step(1.0 / 60.0)
			var t0 := Time.get_ticks_usec()
			w.step(1.0 / 60.0)
			var us := float(Time.get_ticks_usec() - t0)
			if r > 0 and us < sweep[mode][0]:
				sweep[mode] = [us, w.get_last_core_step_usec(), w.get_last_sync_usec(), w.get_last_signal_usec()]
		gd_seen.clear()
		var t1 := Time.get_ticks_usec()
		for gi in GUARDS:
			lesson_vision(space, guards[gi], gi, index_of, gd_seen)
		if r > 0:
			gd_us = minf(gd_us, float(Time.get_ticks_usec() - t1))
	var addon_seen := {}
	for gi in GUARDS:
		for x in guards[gi].get_seen_targets():
			addon_seen["%d:%d" % [gi, targets.find(x)]] = true

	# For reference, not the goal's baseline: the same loop with the query objects made once.
	var reused := {}
	var reused_us := INF
	var query := PhysicsShapeQueryParameters3D.new()
	query.shape = SphereShape3D.new()
	query.shape.radius = RADIUS
	query.collision_mask = TARGET_LAYER
	for r in reps + 1:
		reused.clear()
		var t2 := Time.get_ticks_usec()
		for gi in GUARDS:
			lesson_vision(space, guards[gi], gi, index_of, reused, query)
		if r > 0:
			reused_us = minf(reused_us, float(Time.get_ticks_usec() - t2))
	var differ := 0
	var shown := 0
	for k in addon_seen:
		if not gd_seen.has(k):
			differ += 1
			if shown < 5:
				shown += 1
				print("bench differ: %s seen by the add-on only" % k)
	for k in gd_seen:
		if not addon_seen.has(k):
			differ += 1
			if shown < 10:
				shown += 1
				print("bench differ: %s seen by the GDScript loop only" % k)
	for mode in [0, 1]:
		var m: Array = sweep[mode]
		print("bench sweep (pose_sync %s): add-on %.1f us (core step %.1f us, reading poses %.1f us, signals %.1f us), GDScript lesson loop %.1f us: add-on %.1fx faster (goal >= 50x; the core step alone %.1fx)" % [
			["every step", "on transform change"][mode], m[0], m[1], m[2], m[3], gd_us, gd_us / maxf(m[0], 1.0), gd_us / maxf(m[1], 1.0)])
	print("bench sweep reference: the GDScript loop making its query objects once %.1f us (add-on, on transform change, %.1fx faster); %d pairs differ from the lesson loop" % [
		reused_us, reused_us / maxf(sweep[1][0], 1.0), differ_count(reused, gd_seen)])
	print("bench sweep answers: %d seen guard/target pairs, %d differ between the add-on and the GDScript loop" % [addon_seen.size(), differ])
	t.check(addon_seen.size() > 20, "the sweep sees something (%d pairs)" % addon_seen.size())
	t.check(differ == 0, "add-on and GDScript loop agree on every guard/target pair (%d differ)" % differ)

	# For reference (the goal is judged on the default, 1 thread): the same sweep in a world with
	# 2 worker threads, the guards and target bodies moved over to it.
	var w2 := PerceptionWorld3D.new()
	w2.auto_step = false
	w2.worker_threads = 2
	w2.pose_sync = 1
	root.add_child(w2)
	w2.register_occluders()
	for g in guards:
		g.reparent(w2)
	for b in bodies:
		b.reparent(w2)
	for i in 2:
		w2.step(1.0 / 60.0)
	var best2 := [INF, 0.0]
	for r in reps:
		var t0 := Time.get_ticks_usec()
		w2.step(1.0 / 60.0)
		var us := float(Time.get_ticks_usec() - t0)
		if us < best2[0]:
			best2 = [us, w2.get_last_core_step_usec()]
	var threaded_seen := {}
	for gi in GUARDS:
		for x in guards[gi].get_seen_targets():
			threaded_seen["%d:%d" % [gi, targets.find(x)]] = true
	var differ2 := differ_count(threaded_seen, addon_seen)
	print("bench sweep (2 worker threads, on transform change, for reference): add-on %.1f us (core step %.1f us): %.1fx faster than the GDScript loop; %d pairs differ from 1 thread" % [
		best2[0], best2[1], gd_us / maxf(best2[0], 1.0), differ2])
	t.check(differ2 == 0, "2 worker threads see the same pairs as 1 (%d differ)" % differ2)
	print("bench: %d passed, %d failed" % [t.passed, t.failed])
	quit(1 if t.failed > 0 else 0)

## How much of the process's memory is on transparent huge pages (the test suite asks glibc for
## them: see tests/suites/50-godot.sh).
func huge_pages() -> String:
	var f := FileAccess.open("/proc/self/smaps_rollup", FileAccess.READ)
	if f == null:
		return "unknown (no /proc/self/smaps_rollup)"
	var kb := {}
	while not f.eof_reached():
		var parts := f.get_line().split(" ", false)
		if parts.size() >= 2 and parts[0] in ["Rss:", "AnonHugePages:"]:
			kb[parts[0]] = parts[1].to_int()
	return "%d of %d kB resident on huge pages" % [kb.get("AnonHugePages:", 0), kb.get("Rss:", 0)]

func differ_count(a: Dictionary, b: Dictionary) -> int:
	var n := 0
	for k in a:
		if not b.has(k): n += 1
	for k in b:
		if not a.has(k): n += 1
	return n

## The lesson's FindVisibleTargets + CanSeeTarget, as a Godot user would write it: the range
## query is made per guard (the lesson's OverlapSphere), unless the caller passes one to reuse.
func lesson_vision(space: PhysicsDirectSpaceState3D, guard: Node3D, gi: int, index_of: Dictionary, out: Dictionary,
		query: PhysicsShapeQueryParameters3D = null) -> void:
	var eye := guard.global_position + Vector3(0, 1.6, 0)
	var forward := -guard.global_basis.z
	if query == null:
		query = PhysicsShapeQueryParameters3D.new()
		var sphere := SphereShape3D.new()
		sphere.radius = RADIUS
		query.shape = sphere
		query.collision_mask = TARGET_LAYER
	query.transform = Transform3D(Basis(), eye)
	var cos_half := cos(deg_to_rad(ANGLE * 0.5))
	for hit in space.intersect_shape(query, 256):
		var body: Node3D = hit.collider
		var point := body.global_position + Vector3(0, 1.3, 0)
		var to := point - eye
		if to.length_squared() > RADIUS * RADIUS:
			continue
		if forward.dot(to.normalized()) < cos_half:
			continue
		# Line of sight against the walls only: Argus's rule (other targets do not hide a
		# target; the lesson's mask with targets in it would let them).
		var ray := PhysicsRayQueryParameters3D.create(eye, point, WALL_LAYER)
		var r := space.intersect_ray(ray)
		if r.is_empty():
			out["%d:%d" % [gi, index_of[body]]] = true
