## Engine tests of the 3D nodes: facing convention, occluders from every 3D collision shape,
## the physics-space ray path agreeing with Argus's own occluders, and every signal.
extends SceneTree

const H = preload("res://harness.gd")
const WalkTests = preload("res://walk_tests.gd")
const LevelTests = preload("res://level_tests.gd")
const BeliefTests = preload("res://belief_tests.gd")
var t := H.new()
var errors := H.ErrorLog.new()

func _initialize() -> void:
	t.suite = "3d"
	OS.add_logger(errors)
	run.call_deferred()

func frames(n: int) -> void:
	for i in n:
		await physics_frame

func fresh_world(physics_rays: bool = false) -> PerceptionWorld3D:
	var w := PerceptionWorld3D.new()
	w.use_physics_rays = physics_rays
	root.add_child(w)
	return w

func clear() -> void:
	for c in root.get_children():
		root.remove_child(c)
		c.free()

func run() -> void:
	await test_facing()
	await test_shapes()
	await test_physics_rays_agree()
	await test_moving_occluders()
	await test_signals()
	await test_late_listeners()
	await test_pose_sync_on_change()
	await test_pose_sync_polls_moving_nodes()
	await test_pose_after_query()
	await test_lost_between_ticks()
	await test_freeing()
	await test_reparenting()
	await test_hearing()
	await test_memory_and_brain()
	test_influence()
	test_rejected_values()
	test_invalid_at_ready()
	await test_bad_inputs()
	test_world_def_error()
	await test_removed_target_signals()
	await test_freed_world()
	await test_brain_timer()
	test_more_occluder_sources()
	test_configuration_warnings()
	WalkTests.new(self, t, errors, false).run()
	BeliefTests.new(self, t, errors, false).run()
	await LevelTests.new(self, t, errors, false).run()
	print("3d: %d passed, %d failed" % [t.passed, t.failed])
	quit(1 if t.failed > 0 else 0)

func test_facing() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(0, 0, -5))
	t.check(g.is_registered() and target.is_registered(), "guard and target register with the world")
	t.check(g.can_see(target), "a guard facing a target sees it (forward = -Z)")
	g.rotate_y(PI)
	t.check(not g.can_see(target), "turned around, it does not")
	g.rotation = Vector3.ZERO
	g.look_at(Vector3(5, 1.6, 0))
	target.position = Vector3(5, 0, 0)
	t.check(g.can_see(target), "look_at a target faces it")
	t.check(g.get_visible_targets().size() == 1, "get_visible_targets lists it")
	clear()

## One wall per shape type between a guard and a target: each must block, and the same guard
## must see a target beside it.
func test_shapes() -> void:
	var shapes := {}
	var box := BoxShape3D.new(); box.size = Vector3(2, 4, 0.5); shapes["box"] = box
	var sphere := SphereShape3D.new(); sphere.radius = 1.0; shapes["sphere"] = sphere
	var capsule := CapsuleShape3D.new(); capsule.radius = 0.8; capsule.height = 4.0; shapes["capsule"] = capsule
	var cylinder := CylinderShape3D.new(); cylinder.radius = 0.8; cylinder.height = 4.0; shapes["cylinder"] = cylinder
	var convex := ConvexPolygonShape3D.new()
	convex.points = PackedVector3Array([Vector3(-1, -2, -0.3), Vector3(1, -2, -0.3), Vector3(-1, 2, -0.3), Vector3(1, 2, -0.3),
		Vector3(-1, -2, 0.3), Vector3(1, -2, 0.3), Vector3(-1, 2, 0.3), Vector3(1, 2, 0.3)])
	shapes["convex"] = convex
	var concave := ConcavePolygonShape3D.new()
	concave.set_faces(PackedVector3Array([Vector3(-1, -2, 0), Vector3(1, -2, 0), Vector3(1, 2, 0),
		Vector3(-1, -2, 0), Vector3(1, 2, 0), Vector3(-1, 2, 0)]))
	shapes["concave"] = concave
	for name in shapes:
		var w := fresh_world()
		H.wall_3d(root, shapes[name], Transform3D(Basis(), Vector3(0, 1.3, -3)))
		w.register_occluders()
		t.check(w.get_occluder_count() == 1, "%s: one occluder registered" % name)
		var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
		var hidden := H.target_3d(w, Vector3(0, 0, -7))
		var beside := H.target_3d(w, Vector3(4, 0, -7))
		t.check(not g.can_see(hidden), "%s wall hides the target behind it" % name)
		t.check(g.can_see(beside), "%s wall leaves the target beside it visible" % name)
		clear()
	# A rotated, scaled box, and layers: an obstacle mask without the wall's layer sees through.
	var w2 := fresh_world()
	var b2 := BoxShape3D.new(); b2.size = Vector3(1, 1, 1)
	H.wall_3d(root, b2, Transform3D(Basis(Vector3.UP, PI / 4) * Basis.from_scale(Vector3(6, 4, 0.5)), Vector3(0, 1.3, -5)), 4)
	w2.register_occluders()
	var g2 := H.guard_3d(w2, Vector3.ZERO, Vector3(0, 0, -1))
	var t2 := H.target_3d(w2, Vector3(0, 0, -10))
	t.check(not g2.can_see(t2), "rotated scaled box blocks")
	g2.obstacle_mask = 1
	t.check(g2.can_see(t2), "obstacle mask without the wall's physics layer sees through it")
	clear()
	# Occluders by physics layer instead of a group.
	var w3 := PerceptionWorld3D.new()
	w3.occluder_group = &""
	w3.occluder_collision_mask = 2
	H.wall_3d(root, box, Transform3D(Basis(), Vector3(0, 1.3, -5)), 2, "")
	H.wall_3d(root, box, Transform3D(Basis(), Vector3(10, 1.3, -5)), 1, "")
	root.add_child(w3)
	t.check(w3.get_occluder_count() == 1, "occluder_collision_mask takes only bodies on those layers")
	clear()

## A door on an AnimatableBody3D follows its body without register_occluders() (it moves at the
## physics frame: sync_to_physics); a wall on a StaticBody3D stays where it was registered; a
## freed door stops blocking.
func test_moving_occluders() -> void:
	var w := fresh_world()
	var door := AnimatableBody3D.new()
	var cs := CollisionShape3D.new()
	var box := BoxShape3D.new(); box.size = Vector3(3, 4, 0.3)
	cs.shape = box
	door.add_child(cs)
	door.position = Vector3(0, 1.3, -4)
	door.add_to_group("argus_occluders")
	root.add_child(door)
	var wall := H.wall_3d(root, box, Transform3D(Basis(), Vector3(3, 1.3, -4)))
	w.register_occluders()
	t.check(w.get_occluder_count() == 2, "door and wall registered")
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var behind_door := H.target_3d(w, Vector3(0, 0, -8))
	var seen_log := []
	g.target_seen.connect(func(x): if x == behind_door: seen_log.append("seen"))
	g.target_lost.connect(func(x): if x == behind_door: seen_log.append("lost"))
	await frames(2)
	t.check(seen_log.is_empty() and not g.can_see(behind_door), "the closed door hides the target")
	door.position.x -= 5
	await frames(2)
	t.check(seen_log == ["seen"], "the door slid aside: target_seen (%s)" % [seen_log])
	# One assignment: with sync_to_physics, only the last of several part-wise changes made in
	# one frame reaches the physics frame.
	door.transform = Transform3D(Basis(Vector3.UP, PI / 2), Vector3(-1.6, 1.3, -4))
	await frames(1)
	t.check(g.can_see(behind_door), "the door swung open on its hinge: seen")
	door.transform = Transform3D(Basis(), Vector3(0, 1.3, -4))
	await frames(2)
	t.check(seen_log == ["seen", "lost"], "closed again: target_lost (%s)" % [seen_log])
	t.check(not g.can_see(behind_door), "and the query agrees")
	# A static wall is not followed: moving it takes register_occluders().
	var behind_wall := H.target_3d(w, Vector3(6, 0, -8))
	t.check(not g.can_see(behind_wall), "the static wall hides its target")
	wall.position.x += 5
	t.check(not g.can_see(behind_wall), "a moved static wall stays where it was registered")
	w.register_occluders()
	t.check(g.can_see(behind_wall), "until register_occluders()")
	door.free()
	t.check(g.can_see(behind_door), "a freed door blocks nothing")
	t.check(w.get_occluder_count() == 1, "and is no longer counted (%d)" % w.get_occluder_count())
	clear()

## The same walls answered by Argus's occluders and by the physics space: same answers.
func test_physics_rays_agree() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 7
	var builtin := fresh_world(false)
	var physics := fresh_world(true)
	# Exact shapes only: a cylinder is a 24-sided prism in Argus, so grazing rays may differ.
	var kinds := [BoxShape3D.new(), SphereShape3D.new(), CapsuleShape3D.new()]
	for i in 24:
		var s: Shape3D = kinds[i % kinds.size()].duplicate()
		if s is BoxShape3D: s.size = Vector3(rng.randf_range(0.5, 4), 3, rng.randf_range(0.3, 2))
		elif s is SphereShape3D: s.radius = rng.randf_range(0.4, 1.5)
		elif s is CapsuleShape3D: s.radius = rng.randf_range(0.3, 1.0); s.height = 4.0
		var pos := Vector3(rng.randf_range(-15, 15), 1.0, rng.randf_range(-15, 15))
		H.wall_3d(root, s, Transform3D(Basis(Vector3.UP, rng.randf_range(0, TAU)), pos))
	builtin.register_occluders()
	physics.register_occluders()
	await frames(2)
	var gb := H.guard_3d(builtin, Vector3.ZERO, Vector3(0, 0, -1))
	var gp := H.guard_3d(physics, Vector3.ZERO, Vector3(0, 0, -1))
	gb.view_angle = 360; gp.view_angle = 360
	gb.view_radius = 40; gp.view_radius = 40
	var agree := 0
	var differ := 0
	var seen := 0
	for i in 200:
		var p := Vector3(rng.randf_range(-18, 18), 0, rng.randf_range(-18, 18))
		var tb := H.target_3d(builtin, p)
		var tp := H.target_3d(physics, p)
		var a := gb.can_see(tb)
		var b := gp.can_see(tp)
		if a == b: agree += 1
		else: differ += 1
		if a: seen += 1
		tb.queue_free(); tp.queue_free()
	# Cover through the physics space against cover through Argus's occluders.
	var cands := PackedVector3Array()
	for i in 60:
		cands.append(Vector3(rng.randf_range(-15, 15), 0.5, rng.randf_range(-15, 15)))
	var threats := [{"position": Vector3.ZERO, "forward": Vector3(0, 0, -1), "eye": Vector3(0, 1.6, 0)}]
	var cb: Array = builtin.find_cover(Vector3(1, 0, 1), threats, cands, 60, false, null, 0xFFFFFFFF)
	var cp: Array = physics.find_cover(Vector3(1, 0, 1), threats, cands, 60, false, null, 0xFFFFFFFF)
	var same := cb.size() == cp.size()
	for k in mini(cb.size(), cp.size()):
		same = same and cb[k].candidate_index == cp[k].candidate_index
	t.check(same and cb.size() > 3 and cb.size() < 57, "find_cover agrees between physics rays and Argus occluders (%d vs %d spots)" % [cb.size(), cp.size()])
	await frames(1)
	print("3d physics-ray agreement: %d agree, %d differ (%d seen)" % [agree, differ, seen])
	t.check(differ == 0, "physics-space rays and Argus occluders agree on all 200 targets (%d differ)" % differ)
	t.check(seen > 20 and seen < 180, "the agreement sample has both seen and hidden targets (%d seen)" % seen)
	clear()

func test_signals() -> void:
	var w := fresh_world()
	var box := BoxShape3D.new(); box.size = Vector3(4, 4, 0.5)
	H.wall_3d(root, box, Transform3D(Basis(), Vector3(3, 1.3, -5)))
	w.register_occluders()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(0, 0, 20))
	var seen_log := []
	g.target_seen.connect(func(x): seen_log.append(["seen", x]))
	g.target_lost.connect(func(x): seen_log.append(["lost", x]))
	await frames(3)
	t.check(seen_log.is_empty(), "nothing seen while the target is behind the guard")
	target.position = Vector3(0, 0, -5)
	await frames(2)
	t.check(seen_log.size() == 1 and seen_log[0][0] == "seen" and seen_log[0][1] == target, "target_seen once when it steps into view: %s" % [seen_log])
	var percepts: Array = w.get_last_percepts()
	t.check(percepts.size() == 1 and percepts[0].kind == "sight" and percepts[0].sensor == g and percepts[0].target == target,
		"get_last_percepts lists the sight percept of the last step: %s" % [percepts])
	var lines: PackedVector3Array = w.get_debug_lines(0, g)
	t.check(lines.size() > 10 and lines.size() % 2 == 0 and w.get_debug_line_colors().size() * 2 == lines.size(),
		"debug lines come in pairs with one colour each (%d points)" % lines.size())
	var seen_now: Array = g.get_seen_targets()
	t.check(seen_now.size() == 1 and seen_now[0] == target, "get_seen_targets follows the signals")
	await frames(3)
	t.check(seen_log.size() == 1, "no repeat target_seen while it stays in view")
	target.position = Vector3(6, 0, -10)
	await frames(2)
	t.check(seen_log.size() == 2 and seen_log[1][0] == "lost", "target_lost when it hides behind the wall: %s" % [seen_log])
	clear()

## Signals nobody listens to are skipped, so a handler connected later, or by another handler
## during the same step's emits, must still get every signal from then on.
func test_late_listeners() -> void:
	var w := fresh_world()
	var g1 := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var g2 := H.guard_3d(w, Vector3(1, 0, 0), Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(0, 0, 20))
	await frames(2)
	target.position = Vector3(0, 0, -5)
	await frames(2)
	target.position = Vector3(0, 0, 20)
	await frames(2)
	var log := []
	g1.target_seen.connect(func(x): log.append("g1 seen"))
	g1.target_seen.connect(func(x): g2.target_seen.connect(func(y): log.append("g2 seen")), CONNECT_ONE_SHOT)
	target.position = Vector3(0, 0, -5)
	await frames(2)
	t.check(log == ["g1 seen", "g2 seen"], "handlers connected after silent steps, and during a step's emits, get their signals: %s" % [log])
	clear()

func test_hearing() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var ears := HearingSensor3D.new()
	g.add_child(ears)
	var brain := EnemyBrain.new()
	g.add_child(brain)
	var player := H.target_3d(w, Vector3(0, 0, 12))
	var heard := []
	ears.sound_heard.connect(func(p, l, s): heard.append([p, l, s]))
	var states := []
	brain.state_changed.connect(func(a, b): states.append([a, b]))
	w.emit_sound(Vector3(0, 0, 12), 10.0, player)
	await frames(2)
	t.check(heard.is_empty(), "a sound of loudness 10 at 12 m is not heard")
	w.emit_sound(Vector3(0, 0, 8), 10.0, player)
	await frames(2)
	t.check(heard.size() == 1, "a sound of loudness 10 at 8 m is heard once: %s" % [heard])
	if heard.size() == 1:
		t.check(heard[0][0].is_equal_approx(Vector3(0, 0, 8)) and t.near(heard[0][1], 10.0) and heard[0][2] == player,
			"sound_heard carries position, loudness and source")
	t.check(states.size() >= 1 and states[0] == [EnemyBrain.STATE_IDLE, EnemyBrain.STATE_INVESTIGATING],
		"hearing the player makes the brain investigate: %s" % [states])
	t.check(brain.get_move_target() is Vector3 and brain.get_move_target().is_equal_approx(Vector3(0, 0, 8)),
		"the move target is where the sound came from")
	ears.hearing_sensitivity = 2.0
	var anon := Node.new()
	root.add_child(anon)
	w.emit_sound(Vector3(0, 0, 15), 10.0, anon)
	await frames(2)
	t.check(heard.size() == 2 and heard[-1][2] == anon, "hearing_sensitivity 2 doubles the radius; any node can be the source")
	t.check(g.get_confidence(player) > 0.5, "a sourced sound refreshes the memory of its source")
	clear()

func test_memory_and_brain() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	g.decay_per_second = 1.0
	g.forget_threshold = 0.5
	var brain := EnemyBrain.new()
	brain.search_duration = 0.25
	g.add_child(brain)
	var player := H.target_3d(w, Vector3(0, 0, -5))
	var states := []
	brain.state_changed.connect(func(a, b): states.append(b))
	var forgotten := []
	g.target_forgotten.connect(func(x, p): forgotten.append([x, p]))
	await frames(2)
	t.check(brain.get_state() == EnemyBrain.STATE_CHASING, "seeing the player: chasing (%s)" % brain.get_state_name())
	t.check(g.remembers(player) and t.near(g.get_confidence(player), 1.0), "memory at full confidence while seen")
	t.check(g.get_last_known_position(player).is_equal_approx(Vector3(0, 0, -5)), "last known position")
	t.check(g.get_focus_target() == player, "the brain focuses the player")
	player.position = Vector3(0, 0, 30)
	await frames(2)
	t.check(brain.get_state() == EnemyBrain.STATE_SEARCHING, "losing sight: searching (%s)" % brain.get_state_name())
	t.check(g.get_last_known_position(player).is_equal_approx(Vector3(0, 0, -5)), "last known position stays where it was seen")
	await frames(60)
	t.check(forgotten.size() == 1 and forgotten[0][0] == player, "target_forgotten once confidence falls below the threshold")
	t.check(not g.remembers(player), "forgotten: no longer remembered")
	t.check(states == [EnemyBrain.STATE_CHASING, EnemyBrain.STATE_SEARCHING, EnemyBrain.STATE_IDLE],
		"state_changed: chasing, searching, idle (%s)" % [states])
	clear()

func test_influence() -> void:
	var m := InfluenceMap.new()
	t.check(m.setup(16, 16, 1.0, Vector3.ZERO, 2), "influence map setup")
	t.check(m.world_to_cell(Vector3(3.5, 0, 7.2)) == Vector2i(3, 7), "world_to_cell floors x and z")
	m.add_influence(0, Vector3(8.5, 0, 8.5), 1.0, 3)
	t.check(m.get_value(0, Vector3(8.5, 0, 8.5)) > m.get_value(0, Vector3(10.5, 0, 8.5)), "influence falls off from its source")
	t.check(m.get_value(0, Vector3(1.5, 0, 1.5)) == 0.0, "far cells are untouched")
	t.check(m.get_value(0, Vector3(11.5, 0, 8.5)) == 0.0, "before blur the stamp ends at its radius")
	m.blur(0)
	t.check(m.get_value(0, Vector3(11.5, 0, 8.5)) > 0.0, "blur spreads it one cell further")
	var img: Image = m.to_image(0, 0.0, 1.0)
	t.check(img != null and img.get_width() == 16 and img.get_height() == 16, "to_image gives one pixel per cell")
	t.check(m.get_value(1, Vector2(8.5, 8.5)) == 0.0 and m.get_layer_count() == 2, "layers are independent; 2D positions accepted")

## pose_sync = OnTransformChange: only nodes whose transform notification arrived are read.
func test_pose_sync_on_change() -> void:
	var w := fresh_world()
	w.pose_sync = 1
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(0, 0, 20))
	var seen_log := []
	g.target_seen.connect(func(x): seen_log.append("seen"))
	g.target_lost.connect(func(x): seen_log.append("lost"))
	await frames(3)
	target.position = Vector3(0, 0, -5)
	await frames(3)
	t.check(seen_log == ["seen"], "on transform change: a target moved into view is seen (%s)" % [seen_log])
	g.rotate_y(PI)
	await frames(3)
	t.check(seen_log == ["seen", "lost"], "on transform change: a guard that turns away loses it (%s)" % [seen_log])
	clear()

## pose_sync = OnTransformChange: a node that moves every step is read every step instead (its
## notification off), so a move made during the physics frame is seen at that frame's step;
## once it stays still long enough it is notified again.
func test_pose_sync_polls_moving_nodes() -> void:
	var w := fresh_world()
	w.pose_sync = 1
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(30, 0, 30))
	# Moves the target in its _physics_process, before the world's step in the same frame (the
	# world steps last): a notified node is read one step late, a polled one at once.
	var mover := Node.new()
	var script := GDScript.new()
	script.source_code = "extends Node\nvar target: Node3D\nvar to = null\nfunc _physics_process(_d):\n\tif to != null:\n\t\ttarget.position = to\n\t\tto = null\n"
	script.reload()
	mover.set_script(script)
	mover.set("target", target)
	w.add_child(mover)
	await frames(2)
	t.check(target.is_transform_notification_enabled(), "a new target is notified of its moves")
	mover.set("to", Vector3(0, 0, -5))
	await physics_frame
	t.check(not g.get_seen_targets().has(target), "notified: a move before the step is not seen at that step")
	await physics_frame
	t.check(g.get_seen_targets().has(target), "notified: it is seen at the next step")
	for i in 12:
		mover.set("to", Vector3(30 + i, 0, 30))
		await physics_frame
	t.check(not target.is_transform_notification_enabled(), "after moving at every step it is polled instead")
	mover.set("to", Vector3(0, 0, -5))
	await physics_frame
	t.check(g.get_seen_targets().has(target), "polled: a move before the step is seen at that step")
	mover.set("to", Vector3(0, 0, 30))
	await physics_frame
	t.check(g.get_seen_targets().is_empty(), "polled: moved out before the step, lost at that step")
	await frames(70)
	t.check(target.is_transform_notification_enabled(), "still for a while: notified again")
	target.position = Vector3(0, 0, -5)
	await frames(2)
	t.check(g.get_seen_targets().has(target), "notified again: a move is still seen")
	# A target with a script that counts its own transform notifications is never polled.
	var counting := GDScript.new()
	counting.source_code = "extends PerceptionTarget3D\nvar count := 0\nfunc _notification(what):\n\tif what == NOTIFICATION_TRANSFORM_CHANGED:\n\t\tcount += 1\n"
	counting.reload()
	var scripted: PerceptionTarget3D = counting.new()
	scripted.position = Vector3(-30, 0, 30)
	w.add_child(scripted)
	await frames(2)
	var before: int = scripted.get("count")
	for i in 12:
		scripted.position = Vector3(-30 - i, 0, 30)
		await physics_frame
	await physics_frame
	t.check(scripted.is_transform_notification_enabled(), "a scripted target moving at every step keeps its notification")
	t.check(scripted.get("count") - before >= 12, "its script got every move's notification (%d)" % [scripted.get("count") - before])
	scripted.position = Vector3(1, 0, -5)
	await frames(2)
	t.check(g.get_seen_targets().has(scripted), "and it is still seen where it moves")
	clear()

## A step skips poses equal to the last it handed over; an immediate query moves the core's pose
## too, so a target moved away, queried there, and moved back is stepped at its real place.
func test_pose_after_query() -> void:
	var w := fresh_world()
	w.auto_step = false
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(0, 0, -5))
	t.check(w.step(0.1) and g.get_seen_targets().size() == 1, "stepped: the target ahead is seen")
	target.position = Vector3(0, 0, 40)
	t.check(not g.can_see(target), "queried out of range: not seen")
	target.position = Vector3(0, 0, -5)
	t.check(w.step(0.1) and g.get_seen_targets().size() == 1, "moved back and stepped: seen again at its real place")
	clear()

## With a slow sense rate most steps are not sight ticks: the target stays seen between ticks
## (no target_lost from a guard that did not look) and is lost at the first tick after it left.
func test_lost_between_ticks() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	g.sense_rate_hz = 4.0
	var g2 := H.guard_3d(w, Vector3(3, 0, 0), Vector3(0, 0, -1))
	g2.sense_rate_hz = 4.0
	var target := H.target_3d(w, Vector3(0, 0, -5))
	var log := []
	g.target_seen.connect(func(x): log.append("seen"))
	g.target_lost.connect(func(x): log.append("lost"))
	await frames(40)
	t.check(log == ["seen"], "a slow guard sees the target once and keeps it between ticks (%s)" % [log])
	target.position = Vector3(0, 0, 40)
	await frames(40)
	t.check(log == ["seen", "lost"], "and loses it once at a later tick (%s)" % [log])
	t.check(g.get_seen_targets().is_empty() and g2.get_seen_targets().is_empty(), "neither guard lists it any more")
	clear()

## Nodes leave the world cleanly: a freed target is forgotten by every guard, a freed guard stops
## sensing, and stepping goes on.
## A guard or target moved to another parent, or taken out of the tree and put back, registers
## again (with the world it is now under).
func test_reparenting() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(0, 0, -5))
	var holder := Node3D.new()
	w.add_child(holder)
	g.reparent(holder)
	target.reparent(holder)
	t.check(g.is_registered() and target.is_registered() and w.get_agent_count() == 1 and w.get_target_count() == 1,
		"reparented under the same world: still registered, once")
	t.check(g.can_see(target), "and still sees")
	w.remove_child(holder)
	t.check(w.get_agent_count() == 0 and w.get_target_count() == 0, "out of the tree: unregistered")
	w.add_child(holder)
	t.check(w.get_agent_count() == 1 and w.get_target_count() == 1 and g.can_see(target), "back in the tree: registered again")
	var other := fresh_world()
	g.reparent(other)
	target.reparent(other)
	t.check(other.get_agent_count() == 1 and other.get_target_count() == 1 and w.get_agent_count() == 0,
		"moved to another world: registered there, gone from the first")
	await frames(2)
	t.check(g.get_seen_targets().size() == 1, "and the other world's steps see the target")
	clear()

func test_freeing() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var g2 := H.guard_3d(w, Vector3(1, 0, 0), Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(0, 0, -5))
	await frames(2)
	t.check(w.get_agent_count() == 2 and w.get_target_count() == 1 and g.get_seen_targets().size() == 1, "two guards see one target")
	target.queue_free()
	await frames(2)
	t.check(w.get_target_count() == 0 and g.get_seen_targets().is_empty(), "a freed target leaves the world and every seen list")
	g2.free()
	await frames(2)
	t.check(w.get_agent_count() == 1 and w.step(0.1), "a freed guard leaves the world; stepping goes on")
	clear()

## A rejected setting stays off the node (the getter reads the last accepted value), the error
## names the node and the property, and later valid changes apply.
func test_rejected_values() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	g.name = "Sentry"
	var ears := HearingSensor3D.new()
	ears.name = "Ears"
	g.add_child(ears)
	var brain := EnemyBrain.new()
	g.add_child(brain)
	var side := H.target_3d(w, Vector3(4, 0, -4))  # 45° off the guard's axis, 5.7 m away
	side.name = "Side"
	errors.take()
	g.view_radius = -5.0
	var said := errors.take()
	t.check(g.view_radius == 20.0, "a rejected view_radius does not stay on the node (getter: %s)" % g.view_radius)
	t.check("Sentry" in said and "view_radius" in said, "the error names the node and the property: %s" % said)
	g.view_angle = 30.0
	t.check(g.view_angle == 30.0 and not g.can_see(side), "a valid change after a rejected one applies (a 30° cone hides a target 45° off)")
	g.view_angle = 120.0
	t.check(g.can_see(side), "and the next one too")
	var far: float = g.awareness_far_factor
	g.awareness_far_factor = 2.0
	t.check(g.awareness_far_factor == far and "awareness_far_factor" in errors.take(), "an out-of-range factor is rejected and named")
	ears.hearing_sensitivity = -1.0
	said = errors.take()
	t.check(ears.hearing_sensitivity == 1.0 and "Ears" in said and "hearing_sensitivity" in said,
		"a rejected hearing_sensitivity stays off the hearing node, named: %s" % said)
	brain.search_duration = -3.0
	said = errors.take()
	t.check(brain.search_duration > 0.0 and "search_duration" in said, "a rejected search_duration stays off the brain: %s" % said)
	side.team = 99
	said = errors.take()
	t.check(side.team == 1 and "Side" in said and "team" in said, "a rejected target team stays off the target, named: %s" % said)
	side.layers = 2
	g.target_mask = 1
	t.check(not g.can_see(side), "later target changes apply (layers 2 outside mask 1)")
	clear()

## A sensor whose settings are invalid together when it enters the tree says so, and registers
## once they are fixed.
func test_invalid_at_ready() -> void:
	var w := fresh_world()
	errors.take()
	var late := VisionSensor3D.new()
	late.name = "Late"
	late.lose_sight_radius = 5.0  # below the default view radius: invalid together
	w.add_child(late)
	var said := errors.take()
	t.check(not late.is_registered() and "Late" in said, "a sensor invalid at _ready is not registered and says so: %s" % said)
	late.lose_sight_radius = 0.0
	t.check(late.is_registered(), "it registers once fixed")
	clear()

## Null targets and poses the core refuses are reported, naming the node.
func test_bad_inputs() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var runner := H.target_3d(w, Vector3(0, 0, -5))
	runner.name = "Runner"
	await frames(1)
	errors.take()
	var seen = g.can_see(null)
	var said := errors.take()
	t.check(seen == false and "null" in said and not "1337" in said, "can_see(null): false with a clear error: %s" % said)
	t.check(g.get_confidence(null) == 0.0 and "null" in errors.take(), "get_confidence(null): 0 with an error")
	runner.position = Vector3(NAN, 0, 0)
	await frames(2)
	said = errors.take()
	t.check("Runner" in said, "a target moved to NaN gives an error naming it: %s" % said)
	runner.position = Vector3(0, 0, -5)
	await frames(2)
	errors.take()
	runner.position = Vector3(2e6, 0, 0)
	await frames(3)
	said = errors.take()
	t.check("Runner" in said and said.count("Runner") == 1, "past 1e6: one error naming it, not one per frame: %s" % said)
	runner.position = Vector3(0, 0, -5)
	await frames(2)
	t.check(g.can_see(runner) and errors.take() == "", "back in range: seen again, no error")
	clear()

## A world def the core refuses is reported, not swallowed.
func test_world_def_error() -> void:
	errors.take()
	var bad := PerceptionWorld3D.new()
	bad.name = "BadWorld"
	bad.worker_threads = 1000
	root.add_child(bad)
	var said := errors.take()
	t.check("BadWorld" in said and "worker" in said, "a world def the core refuses is reported, naming the world: %s" % said)
	clear()

## A freed or removed target emits target_lost, and target_forgotten as memory drops it.
func test_removed_target_signals() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var a := H.target_3d(w, Vector3(0, 0, -5))
	var b := H.target_3d(w, Vector3(1, 0, -5))
	var lost := []
	var forgotten := []
	g.target_lost.connect(func(x): lost.append(x))
	g.target_forgotten.connect(func(x, _p): forgotten.append(x))
	await frames(2)
	w.remove_child(a)
	t.check(lost == [a] and forgotten == [a], "a removed target: target_lost and target_forgotten (%s, %s)" % [lost, forgotten])
	a.free()
	lost.clear()
	forgotten.clear()
	b.free()
	t.check(lost.size() == 1 and forgotten.size() == 1, "a freed target: target_lost and target_forgotten (%d, %d)" % [lost.size(), forgotten.size()])
	await frames(2)
	t.check(lost.size() == 1, "and nothing more at the next steps")
	clear()

## A freed world: its sensors unregister, say so once, and join the next world that appears.
func test_freed_world() -> void:
	var w := fresh_world()
	var holder := Node3D.new()
	root.add_child(holder)
	var g := H.guard_3d(holder, Vector3.ZERO, Vector3(0, 0, -1))
	g.name = "Orphan"
	var target := H.target_3d(holder, Vector3(0, 0, -5))
	t.check(g.is_registered() and g.can_see(target), "a sensor outside the world node joins it through its group")
	w.free()
	errors.take()
	var first = g.can_see(target)
	var second = g.can_see(target)
	var said := errors.take()
	t.check(first == false and second == false, "can_see returns false once the world is freed")
	t.check(said.count("freed") == 1 and said.count("Orphan") == 2 and not "panic" in said,
		"the first call says the world was freed, each an error naming the sensor, no panic: %s" % said)
	t.check(not g.is_registered(), "the sensor is no longer registered")
	await frames(2)
	var w2 := fresh_world()
	t.check(g.is_registered() and g.can_see(target), "it joins the next world that appears")
	await frames(2)
	t.check(w2.get_agent_count() == 1 and w2.get_target_count() == 1, "the next world holds the sensor and the target")
	clear()

## get_timer(): seconds left Searching or Investigating, 0 otherwise (as documented).
func test_brain_timer() -> void:
	var w := fresh_world()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	g.add_child(HearingSensor3D.new())
	var brain := EnemyBrain.new()
	g.add_child(brain)
	var player := H.target_3d(w, Vector3(0, 0, 8))
	w.emit_sound(Vector3(0, 0, 8), 20.0, player)
	await frames(2)
	t.check(brain.get_state() == EnemyBrain.STATE_INVESTIGATING and brain.get_timer() > 0.0, "investigating: time left > 0")
	player.position = Vector3(0, 0, -5)
	await frames(2)
	t.check(brain.get_state() == EnemyBrain.STATE_CHASING and brain.get_timer() == 0.0,
		"chasing: get_timer() is 0 as its doc says (%s, %s)" % [brain.get_state_name(), brain.get_timer()])
	clear()

## CSG shapes, CollisionPolygon3D and HeightMapShape3D become occluders; a shape that cannot
## be one (an infinite plane) gets one warning naming it.
func test_more_occluder_sources() -> void:
	var w := fresh_world()
	var csg := CSGBox3D.new()
	csg.size = Vector3(4, 4, 0.5)
	csg.use_collision = true
	csg.position = Vector3(0, 0, -5)
	csg.add_to_group("argus_occluders")
	root.add_child(csg)
	var body := StaticBody3D.new()
	var poly := CollisionPolygon3D.new()
	poly.polygon = PackedVector2Array([Vector2(-2, -2), Vector2(2, -2), Vector2(2, 2), Vector2(-2, 2)])
	poly.depth = 0.5
	body.add_child(poly)
	body.position = Vector3(10, 0, -5)
	body.add_to_group("argus_occluders")
	root.add_child(body)
	var ridge := HeightMapShape3D.new()
	ridge.map_width = 3
	ridge.map_depth = 3
	ridge.map_data = PackedFloat32Array([0, 0, 0, 5, 5, 5, 0, 0, 0])
	H.wall_3d(root, ridge, Transform3D(Basis.from_scale(Vector3(2, 1, 2)), Vector3(20, -1, -5)))
	var floor := H.wall_3d(root, WorldBoundaryShape3D.new(), Transform3D(Basis(), Vector3(0, -10, 0)))
	floor.name = "Floor"
	errors.take()
	var n := w.register_occluders()
	var said := errors.take()
	w.register_occluders()
	t.check("Floor" in said and not "Floor" in errors.take(), "an infinite plane cannot be an occluder: one warning naming it: %s" % said)
	t.check(n == 3, "a CSG box, a CollisionPolygon3D and a height map: 3 occluders (%d)" % n)
	for x in [0.0, 10.0, 20.0]:
		var g := H.guard_3d(w, Vector3(x, 0, 0), Vector3(0, 0, -1))
		t.check(not g.can_see(H.target_3d(w, Vector3(x, 0, -10))), "the wall at x=%d hides the target behind it" % x)
		t.check(g.can_see(H.target_3d(w, Vector3(x + 7, 0, -10))), "and not the one beside it (x=%d)" % x)
	clear()

## Every node's configuration warnings (what the editor shows), called from a script.
func test_configuration_warnings() -> void:
	var lone := VisionSensor3D.new()
	root.add_child(lone)
	var ws: PackedStringArray = lone.configuration_warnings()
	t.check(ws.size() == 2 and "PerceptionWorld3D" in ws[0] and "PerceptionTarget3D" in ws[1],
		"a sensor alone: no world in reach, no target in the scene: %s" % [ws])
	var w := fresh_world()
	ws = w.configuration_warnings()
	t.check(ws.size() == 1 and "occluder" in ws[0], "a world with no occluders and physics rays off says so: %s" % [ws])
	w.use_physics_rays = true
	t.check(w.configuration_warnings().is_empty(), "with physics rays on it does not")
	var target := H.target_3d(w, Vector3(0, 0, -5))
	t.check(lone.configuration_warnings().is_empty(), "a sensor with a world and a target: no warning (%s)" % [lone.configuration_warnings()])
	t.check(target.configuration_warnings().is_empty(), "a target inside a guard's mask: no warning")
	lone.target_mask = 2
	ws = target.configuration_warnings()
	t.check(ws.size() == 1 and "target_mask" in ws[0], "a target outside every guard's mask says so: %s" % [ws])
	var ears := HearingSensor3D.new()
	root.add_child(ears)
	var brain := EnemyBrain.new()
	root.add_child(brain)
	t.check(ears.configuration_warnings().size() == 1 and brain.configuration_warnings().size() == 1,
		"ears and a brain without a guard parent say so")
	clear()
