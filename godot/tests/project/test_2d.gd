## Engine tests of the 2D nodes (top-down: a 2D point (x, y) is the core's (x, 0, y), forward is
## +X): facing, occluders from every 2D collision shape, physics-space rays agreeing with
## Argus's occluders, and the signals.
extends SceneTree

const H = preload("res://harness.gd")
const WalkTests = preload("res://walk_tests.gd")
const LevelTests = preload("res://level_tests.gd")
const BeliefTests = preload("res://belief_tests.gd")
var t := H.new()

func _initialize() -> void:
	t.suite = "2d"
	run.call_deferred()

func frames(n: int) -> void:
	for i in n:
		await physics_frame

func fresh_world(physics_rays: bool = false) -> PerceptionWorld2D:
	var w := PerceptionWorld2D.new()
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
	await test_pose_sync_polls_moving_nodes()
	test_cover_2d()
	await test_hearing_child_freed()
	test_tiles_and_loose_walls()
	await test_flipped_tiles_match_physics()
	test_configuration_warnings_2d()
	test_pixels_and_hints()
	var walk_log := H.ErrorLog.new()
	OS.add_logger(walk_log)
	WalkTests.new(self, t, walk_log, true).run()
	BeliefTests.new(self, t, walk_log, true).run()
	await LevelTests.new(self, t, walk_log, true).run()
	OS.remove_logger(walk_log)
	print("2d: %d passed, %d failed" % [t.passed, t.failed])
	quit(1 if t.failed > 0 else 0)

func test_facing() -> void:
	var w := fresh_world()
	var g := H.guard_2d(w, Vector2(100, 100), Vector2.RIGHT)
	var target := H.target_2d(w, Vector2(300, 100))
	t.check(g.can_see(target), "a 2D guard facing +X sees a target to its right")
	g.rotation = PI
	t.check(not g.can_see(target), "turned around, it does not")
	g.rotation = PI / 2  # +Y: down the screen
	target.position = Vector2(100, 300)
	t.check(g.can_see(target), "rotation PI/2 faces +Y (down the screen)")
	target.position = Vector2(100, -100)
	t.check(not g.can_see(target), "and not up the screen")
	clear()

func test_shapes() -> void:
	var shapes := {}
	var rect := RectangleShape2D.new(); rect.size = Vector2(20, 200); shapes["rectangle"] = rect
	var circle := CircleShape2D.new(); circle.radius = 40; shapes["circle"] = circle
	var capsule := CapsuleShape2D.new(); capsule.radius = 15; capsule.height = 200; shapes["capsule"] = capsule
	var convex := ConvexPolygonShape2D.new()
	convex.points = PackedVector2Array([Vector2(-10, -100), Vector2(10, -100), Vector2(10, 100), Vector2(-10, 100)])
	shapes["convex polygon"] = convex
	var concave := ConcavePolygonShape2D.new()
	concave.segments = PackedVector2Array([Vector2(0, -100), Vector2(0, 100)])
	shapes["concave polygon"] = concave
	for name in shapes:
		var w := fresh_world()
		H.wall_2d(root, shapes[name], Transform2D(0.0, Vector2(200, 0)))
		w.register_occluders()
		t.check(w.get_occluder_count() == 1, "%s: one occluder registered" % name)
		var g := H.guard_2d(w, Vector2.ZERO, Vector2.RIGHT)
		var hidden := H.target_2d(w, Vector2(350, 0))
		var beside := H.target_2d(w, Vector2(350, 250))
		t.check(not g.can_see(hidden), "%s hides the target behind it" % name)
		t.check(g.can_see(beside), "%s leaves the target beside it visible" % name)
		clear()
	# A capsule lying along X (rotated 90°) must block a ray along Y but not one beside its end.
	var w2 := fresh_world()
	H.wall_2d(root, capsule, Transform2D(PI / 2, Vector2(0, 200)))
	w2.register_occluders()
	var g2 := H.guard_2d(w2, Vector2.ZERO, Vector2.DOWN)
	t.check(not g2.can_see(H.target_2d(w2, Vector2(80, 350))), "rotated capsule blocks across its length")
	t.check(g2.can_see(H.target_2d(w2, Vector2(0, 100))), "target in front of the rotated capsule is seen")
	clear()
	# CollisionPolygon2D.
	var w3 := fresh_world()
	var body := StaticBody2D.new()
	body.add_to_group("argus_occluders")
	var poly := CollisionPolygon2D.new()
	poly.polygon = PackedVector2Array([Vector2(180, -50), Vector2(220, -50), Vector2(220, 50), Vector2(180, 50)])
	body.add_child(poly)
	root.add_child(body)
	w3.register_occluders()
	var g3 := H.guard_2d(w3, Vector2.ZERO, Vector2.RIGHT)
	t.check(not g3.can_see(H.target_2d(w3, Vector2(350, 0))), "CollisionPolygon2D blocks")
	clear()

func test_physics_rays_agree() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 11
	var builtin := fresh_world(false)
	var physics := fresh_world(true)
	for i in 24:
		var s: Shape2D
		match i % 3:
			0: s = RectangleShape2D.new(); s.size = Vector2(rng.randf_range(10, 80), rng.randf_range(10, 80))
			1: s = CircleShape2D.new(); s.radius = rng.randf_range(8, 40)
			2: s = CapsuleShape2D.new(); s.radius = rng.randf_range(6, 20); s.height = rng.randf_range(60, 120)
		H.wall_2d(root, s, Transform2D(rng.randf_range(0, TAU), Vector2(rng.randf_range(-300, 300), rng.randf_range(-300, 300))))
	builtin.register_occluders()
	physics.register_occluders()
	await frames(2)
	var gb := H.guard_2d(builtin, Vector2.ZERO, Vector2.RIGHT)
	var gp := H.guard_2d(physics, Vector2.ZERO, Vector2.RIGHT)
	gb.view_angle = 360; gp.view_angle = 360
	gb.view_radius = 800; gp.view_radius = 800
	var differ := 0
	var seen := 0
	for i in 200:
		var p := Vector2(rng.randf_range(-350, 350), rng.randf_range(-350, 350))
		var tb := H.target_2d(builtin, p)
		var tp := H.target_2d(physics, p)
		var a := gb.can_see(tb)
		if a != gp.can_see(tp): differ += 1
		if a: seen += 1
		tb.queue_free(); tp.queue_free()
	await frames(1)
	print("2d physics-ray agreement: %d differ of 200 (%d seen)" % [differ, seen])
	t.check(differ == 0, "2D physics-space rays and Argus occluders agree on all 200 targets (%d differ)" % differ)
	t.check(seen > 20 and seen < 180, "the sample has both seen and hidden targets (%d seen)" % seen)
	clear()

## A door on an AnimatableBody2D follows its body without register_occluders() (it moves at the
## physics frame).
func test_moving_occluders() -> void:
	var w := fresh_world()
	var door := AnimatableBody2D.new()
	var cs := CollisionShape2D.new()
	var rect := RectangleShape2D.new(); rect.size = Vector2(20, 200)
	cs.shape = rect
	door.add_child(cs)
	door.position = Vector2(200, 0)
	door.add_to_group("argus_occluders")
	root.add_child(door)
	w.register_occluders()
	var g := H.guard_2d(w, Vector2.ZERO, Vector2.RIGHT)
	var player := H.target_2d(w, Vector2(350, 0))
	var seen_log := []
	g.target_seen.connect(func(x): seen_log.append("seen"))
	g.target_lost.connect(func(x): seen_log.append("lost"))
	await frames(2)
	t.check(seen_log.is_empty() and not g.can_see(player), "the closed 2D door hides the target")
	door.position.y += 300
	await frames(2)
	t.check(seen_log == ["seen"] and g.can_see(player), "the 2D door slid aside: target_seen (%s)" % [seen_log])
	door.position.y -= 300
	await frames(2)
	t.check(seen_log == ["seen", "lost"], "closed again: target_lost (%s)" % [seen_log])
	clear()

func test_signals() -> void:
	var w := fresh_world()
	var rect := RectangleShape2D.new(); rect.size = Vector2(20, 200)
	H.wall_2d(root, rect, Transform2D(0.0, Vector2(200, 0)))
	w.register_occluders()
	var g := H.guard_2d(w, Vector2.ZERO, Vector2.RIGHT)
	var ears := HearingSensor2D.new()
	g.add_child(ears)
	var brain := EnemyBrain.new()
	g.add_child(brain)
	var player := H.target_2d(w, Vector2(350, 0))
	var seen_log := []
	g.target_seen.connect(func(x): seen_log.append("seen"))
	g.target_lost.connect(func(x): seen_log.append("lost"))
	var heard := []
	ears.sound_heard.connect(func(p, l, s): heard.append([p, l, s]))
	await frames(2)
	t.check(seen_log.is_empty(), "hidden behind the wall: nothing seen")
	w.emit_sound(Vector2(350, 0), 400.0, player)
	await frames(2)
	t.check(heard.size() == 1 and heard[0][0] is Vector2 and heard[0][0].is_equal_approx(Vector2(350, 0)),
		"2D sound_heard gives a Vector2 position: %s" % [heard])
	t.check(brain.get_state() == EnemyBrain.STATE_INVESTIGATING, "the 2D brain investigates the sound")
	t.check(brain.get_move_target() is Vector2 and brain.get_move_target().is_equal_approx(Vector2(350, 0)), "2D move target")
	player.position = Vector2(350, 200)
	await frames(2)
	t.check(seen_log == ["seen"], "stepping out from the wall: target_seen (%s)" % [seen_log])
	t.check(brain.get_state() == EnemyBrain.STATE_CHASING, "and the brain chases")
	t.check(g.get_last_known_position(player) is Vector2, "2D last known position is a Vector2")
	var lines: PackedVector2Array = w.get_debug_lines(0, null)
	t.check(lines.size() > 10 and w.get_debug_line_colors().size() * 2 == lines.size(), "2D debug lines are Vector2 pairs")
	var percepts: Array = w.get_last_percepts()
	t.check(percepts.size() == 1 and percepts[0].position is Vector2 and percepts[0].position.is_equal_approx(Vector2(350, 200)),
		"2D percept positions are Vector2: %s" % [percepts])
	player.position = Vector2(350, 0)
	await frames(2)
	t.check(seen_log == ["seen", "lost"], "back behind the wall: target_lost (%s)" % [seen_log])
	clear()

## pose_sync = OnTransformChange in 2D: a guard that turns at every step is polled (its
## notification off) and still follows its target; still again, it is notified again.
func test_pose_sync_polls_moving_nodes() -> void:
	var w := fresh_world()
	w.pose_sync = 1
	var g := H.guard_2d(w, Vector2.ZERO, Vector2.RIGHT)
	g.view_radius = 200.0
	var target := H.target_2d(w, Vector2(0, 100))
	await frames(2)
	t.check(g.is_transform_notification_enabled(), "a new 2D guard is notified of its moves")
	# Godot 2D notifies a node turning every frame at every other frame: 8 notifications take 16.
	for i in 20:
		g.rotation = -0.5 + i * 0.01
		await physics_frame
	t.check(not g.is_transform_notification_enabled(), "after turning at every step it is polled instead")
	g.rotation = PI / 2
	await frames(2)
	t.check(g.get_seen_targets().has(target), "polled: it turned to face the target and sees it")
	await frames(70)
	t.check(g.is_transform_notification_enabled(), "still for a while: notified again")
	g.rotation = 0.0
	await frames(2)
	t.check(g.get_seen_targets().is_empty(), "notified again: turned away, it no longer sees it")
	clear()

func test_cover_2d() -> void:
	var w := fresh_world()
	var rect := RectangleShape2D.new(); rect.size = Vector2(20, 200)
	H.wall_2d(root, rect, Transform2D(0.0, Vector2(200, 0)))
	w.register_occluders()
	var threats := [{"position": Vector2.ZERO, "forward": Vector2.RIGHT}]
	var spots := PackedVector2Array([Vector2(300, 300), Vector2(300, 0), Vector2(260, 20)])
	var cover: Array = w.find_cover(Vector2(400, 0), threats, spots, 3, false, null, 0xFFFFFFFF)
	t.check(cover.size() == 2 and cover[0].position is Vector2 and cover[0].position.is_equal_approx(Vector2(300, 0)),
		"2D cover: the spots behind the wall, nearest first (%s)" % [cover])
	var flank: Array = w.find_flank({"position": Vector2.ZERO, "forward": Vector2.RIGHT}, PackedVector2Array([Vector2(100, 0), Vector2(-100, 10)]), 1, null)
	t.check(flank.size() == 1 and flank[0].position.is_equal_approx(Vector2(-100, 10)), "2D flank: the spot behind the threat (%s)" % [flank])
	clear()

## Freeing a HearingSensor2D child stops that guard's hearing; adding one back restores it.
func test_hearing_child_freed() -> void:
	var w := fresh_world()
	var g := H.guard_2d(w, Vector2.ZERO, Vector2.RIGHT)
	var ears := HearingSensor2D.new()
	g.add_child(ears)
	t.check(await hears(w, g), "with a HearingSensor2D child the guard hears")
	ears.free()
	t.check(not await hears(w, g), "after freeing the HearingSensor2D child the guard hears nothing")
	g.add_child(HearingSensor2D.new())
	t.check(await hears(w, g), "a new HearingSensor2D child gives it ears again")
	clear()

## Emits a sound 50 px from guard `g` and tells whether a step within two frames heard it.
func hears(w: PerceptionWorld2D, g: VisionSensor2D) -> bool:
	w.emit_sound(g.position + Vector2(50, 0), 100.0, null)
	var heard := false
	for i in 2:
		await physics_frame
		for p in w.get_last_percepts():
			heard = heard or (p["kind"] == "sound" and p["sensor"] == g)
	return heard

## A TileMapLayer's physics tiles become occluders; a StaticBody2D neither grouped nor on the
## occluder mask is not one, and the world says so once, naming it.
func test_tiles_and_loose_walls() -> void:
	var errors := H.ErrorLog.new()
	OS.add_logger(errors)
	var w := fresh_world()
	var rect := RectangleShape2D.new()
	rect.size = Vector2(20, 200)
	var loose := H.wall_2d(root, rect, Transform2D(0.0, Vector2(-200, 0)), 1, "")
	loose.name = "LooseWall"
	w.register_occluders()
	var said := errors.take()
	w.register_occluders()
	t.check("LooseWall" in said and not "LooseWall" in errors.take(), "an ungrouped StaticBody2D: one warning naming it: %s" % said)
	var tiles := TileSet.new()
	tiles.tile_size = Vector2i(32, 32)
	tiles.add_physics_layer()
	tiles.set_physics_layer_collision_layer(0, 1)
	var source := TileSetAtlasSource.new()
	source.texture = ImageTexture.create_from_image(Image.create(32, 32, false, Image.FORMAT_RGBA8))
	source.texture_region_size = Vector2i(32, 32)
	tiles.add_source(source, 0)
	source.create_tile(Vector2i(0, 0))
	var data := source.get_tile_data(Vector2i(0, 0), 0)
	data.add_collision_polygon(0)
	data.set_collision_polygon_points(0, 0, PackedVector2Array([Vector2(-16, -16), Vector2(16, -16), Vector2(16, 16), Vector2(-16, 16)]))
	var layer := TileMapLayer.new()
	layer.tile_set = tiles
	layer.add_to_group("argus_occluders")
	root.add_child(layer)
	for y in range(-4, 5):
		layer.set_cell(Vector2i(10, y), 0, Vector2i(0, 0))
	t.check(w.register_occluders() == 9, "nine physics tiles: nine occluders (%d)" % w.get_occluder_count())
	var g := H.guard_2d(w, Vector2(600, 0), Vector2.LEFT)
	t.check(not g.can_see(H.target_2d(w, Vector2(100, 0))), "the tile column hides the target behind it")
	t.check(g.can_see(H.target_2d(w, Vector2(100, 400))), "and not the one past its end")
	OS.remove_logger(errors)
	clear()

## A flipped or transposed tile (its alternative id carries TileSetAtlasSource's TRANSFORM_*
## flags) walls what Godot's physics walls: a scalene corner triangle in each of the 8 flag
## combinations, and sight rays from four sides to a grid of points in each cell agree with
## intersect_ray on the same segments (one check per cell).
func test_flipped_tiles_match_physics() -> void:
	var w := fresh_world()
	var tiles := TileSet.new()
	tiles.tile_size = Vector2i(64, 64)
	tiles.add_physics_layer()
	tiles.set_physics_layer_collision_layer(0, 1)
	var source := TileSetAtlasSource.new()
	source.texture = ImageTexture.create_from_image(Image.create(64, 64, false, Image.FORMAT_RGBA8))
	source.texture_region_size = Vector2i(64, 64)
	tiles.add_source(source, 0)
	source.create_tile(Vector2i(0, 0))
	var data := source.get_tile_data(Vector2i(0, 0), 0)
	data.add_collision_polygon(0)
	# Long leg along the top edge, short leg half down the left edge: no flip maps it to itself.
	data.set_collision_polygon_points(0, 0, PackedVector2Array([Vector2(-32, -32), Vector2(32, -32), Vector2(-32, 0)]))
	var layer := TileMapLayer.new()
	layer.tile_set = tiles
	layer.add_to_group("argus_occluders")
	root.add_child(layer)
	var flags := [TileSetAtlasSource.TRANSFORM_FLIP_H, TileSetAtlasSource.TRANSFORM_FLIP_V, TileSetAtlasSource.TRANSFORM_TRANSPOSE]
	var cells := []
	for combo in 8:
		var alt := 0
		for b in 3:
			if combo & (1 << b): alt |= flags[b]
		var cell := Vector2i(3 * combo, 0)
		layer.set_cell(cell, 0, Vector2i(0, 0), alt)
		cells.append([cell, alt])
	await frames(3)
	t.check(w.register_occluders() == 8, "eight flipped tiles: eight occluders (%d)" % w.get_occluder_count())
	var space := layer.get_world_2d().direct_space_state
	var g := H.guard_2d(w, Vector2.ZERO, Vector2.RIGHT)
	g.view_angle = 360
	var target := H.target_2d(w, Vector2.ZERO)
	# Grid coordinates away from every vertex coordinate (0, ±32) and every transformed edge.
	var grid := [-26, -14, -2, 10, 22]
	var sides := [Vector2(-80, 0), Vector2(80, 0), Vector2(0, -80), Vector2(0, 80)]
	var blocked_total := 0
	var probes_total := 0
	for c in cells:
		var centre := layer.to_global(layer.map_to_local(c[0]))
		var differ := []
		for gx in grid:
			for gy in grid:
				var p := centre + Vector2(gx, gy)
				for side in sides:
					# The eye outside the cell, level with the point on the side's axis.
					var from: Vector2 = centre + Vector2(side.x, gy) if side.y == 0 else centre + Vector2(gx, side.y)
					g.position = from
					g.rotation = (p - from).angle()
					target.position = p
					var q := PhysicsRayQueryParameters2D.create(from, p)
					var blocked := not space.intersect_ray(q).is_empty()
					var seen := g.can_see(target)
					probes_total += 1
					if blocked: blocked_total += 1
					if seen == blocked:
						differ.append("%s->%s physics %s argus %s" % [from - centre, p - centre, "blocked" if blocked else "clear", "sees" if seen else "blind"])
		t.check(differ.is_empty(), "tile alternative flags %d (cell %s): Argus's sight agrees with intersect_ray on all %d probes; %d differ: %s" % [c[1], c[0], grid.size() * grid.size() * sides.size(), differ.size(), differ.slice(0, 4)])
	print("2d flipped tiles: %d of %d probes blocked by the physics" % [blocked_total, probes_total])
	t.check(blocked_total > probes_total / 5 and blocked_total < probes_total * 4 / 5, "the probes have both blocked and clear rays (%d of %d blocked)" % [blocked_total, probes_total])
	clear()

## A 2D sensor with an eye height says so (and a complete 2D scene says nothing).
func test_configuration_warnings_2d() -> void:
	var w := fresh_world()
	var g := H.guard_2d(w, Vector2.ZERO, Vector2.RIGHT)
	H.target_2d(w, Vector2(100, 0))
	t.check(g.configuration_warnings().is_empty(), "a 2D guard with a world and a target: no warning (%s)" % [g.configuration_warnings()])
	g.eye_height = 5.0
	var ws: PackedStringArray = g.configuration_warnings()
	t.check(ws.size() == 1 and "eye_height" in ws[0], "a 2D sensor with an eye height says so: %s" % [ws])
	clear()

## 2D is in pixels: the 2D sensor's default view radius is 640 px (10 m at 64 px per metre);
## 2D masks show the 2D physics layer names; every radius, rate, decay, sensitivity and
## duration has a range hint with a lower bound of 0.
func test_pixels_and_hints() -> void:
	var g := VisionSensor2D.new()
	t.check(is_equal_approx(g.view_radius, 640.0), "VisionSensor2D's default view radius is 640 px (%s)" % g.view_radius)
	var nodes := [g, PerceptionTarget2D.new(), HearingSensor2D.new(), EnemyBrain.new()]
	var hints := {}
	for n in nodes:
		for p in n.get_property_list():
			hints["%s.%s" % [n.get_class(), p.name]] = p
	for k in ["VisionSensor2D.target_mask", "VisionSensor2D.obstacle_mask", "PerceptionTarget2D.layers", "HearingSensor2D.sound_mask", "HearingSensor2D.muffle_mask"]:
		t.check(hints.has(k) and hints[k].hint == PROPERTY_HINT_LAYERS_2D_PHYSICS, "%s uses the 2D physics layer names" % k)
	for k in ["VisionSensor2D.view_radius", "VisionSensor2D.lose_sight_radius", "VisionSensor2D.peripheral_radius",
			"VisionSensor2D.sense_rate_hz", "VisionSensor2D.decay_per_second", "VisionSensor2D.awareness_rise_per_second",
			"VisionSensor2D.awareness_fall_per_second", "HearingSensor2D.hearing_sensitivity", "EnemyBrain.search_duration",
			"EnemyBrain.investigate_timeout"]:
		t.check(hints.has(k) and hints[k].hint == PROPERTY_HINT_RANGE and String(hints[k].hint_string).begins_with("0"),
			"%s has a range hint from 0 (%s)" % [k, hints[k].hint_string if hints.has(k) else "missing"])
	for n in nodes:
		n.free()
