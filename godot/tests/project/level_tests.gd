## Engine tests of what a developer meets building a level (issue #47), for test_3d.gd (d2 =
## false) and test_2d.gd (d2 = true): walls found through the collision mask agree with Godot's
## own rays (CSG in 3D, TileMapLayer tiles in 2D), a floor is not warned about, a grouped wall
## added later blocks at once, the wrong node or no world gives an error naming the nodes,
## configuration warnings refresh when a property they read changes, and the near sense keeps a
## guard trailing a crouched player chasing.
extends RefCounted

const H = preload("res://harness.gd")
var tree: SceneTree
var t
var errors
var d2 := false

func _init(scene_tree: SceneTree, checks, log, two_d: bool) -> void:
	tree = scene_tree
	t = checks
	errors = log
	d2 = two_d

func run() -> void:
	if d2:
		await test_tiles_on_the_mask_match_physics()
	else:
		await test_csg_on_the_mask_matches_physics()
		test_floors_are_not_walls()
		await test_near_sense_keeps_chasing()
	test_wall_added_later()
	test_wrong_node_and_no_world()
	test_warnings_refresh()

func frames(n: int) -> void:
	for i in n:
		await tree.physics_frame

func clear() -> void:
	tree.set_edited_scene_root(null)
	for c in tree.root.get_children():
		tree.root.remove_child(c)
		c.free()

func v(x: float, z: float) -> Variant:
	return Vector2(x, z) if d2 else Vector3(x, 0, z)

func new_world() -> Node:
	return PerceptionWorld2D.new() if d2 else PerceptionWorld3D.new()

func guard(parent: Node, at: Variant, dir: Variant) -> Node:
	return H.guard_2d(parent, at, dir) if d2 else H.guard_3d(parent, at, dir)

func target(parent: Node, at: Variant) -> Node:
	return H.target_2d(parent, at) if d2 else H.target_3d(parent, at)

## A grouped wall standing on the plane at (x, z), half sizes (hx, hz).
func wall(x: float, z: float, hx: float, hz: float, layer: int = 1) -> Node:
	if d2:
		var r := RectangleShape2D.new()
		r.size = Vector2(hx, hz) * 2.0
		return H.wall_2d(tree.root, r, Transform2D(0.0, Vector2(x, z)), layer)
	var b := BoxShape3D.new()
	b.size = Vector3(hx * 2.0, 3.0, hz * 2.0)
	return H.wall_3d(tree.root, b, Transform3D(Basis(), Vector3(x, 1.5, z)), layer)

## Argus's line of sight (a 360° guard at the origin, obstacle_mask 2) against Godot's own
## physics ray on layer 2 from the same eye to the same point, over `n` random points. Returns
## [agree, differ, blocked].
func compare_with_physics(w: Node, g: Node, n: int, half: float, eye: Variant, rng: RandomNumberGenerator) -> Array:
	var space = g.get_world_2d().direct_space_state if d2 else g.get_world_3d().direct_space_state
	var counts := [0, 0, 0]
	for i in n:
		var p: Variant
		if d2:
			p = Vector2(rng.randf_range(-half, half), rng.randf_range(-half, half))
		else:
			p = Vector3(rng.randf_range(-half, half), rng.randf_range(0.0, 3.0), rng.randf_range(-half, half))
		var tg = target(w, p)
		if d2:
			var at: Array[Vector2] = [Vector2.ZERO]
			tg.check_points = at
		else:
			var at: Array[Vector3] = [Vector3.ZERO]
			tg.check_points = at
		var query = PhysicsRayQueryParameters2D.create(eye, p, 2) if d2 else PhysicsRayQueryParameters3D.create(eye, p, 2)
		var blocked: bool = not space.intersect_ray(query).is_empty()
		var seen: bool = g.can_see(tg)
		counts[0 if seen != blocked else 1] += 1
		if blocked: counts[2] += 1
		w.remove_child(tg)
		tg.free()
	return counts

## CSG walls on the occluder mask (a box, a rotated box, a combiner of a box and a cylinder) with
## one other wall grouped: every one an occluder, and Argus agrees with intersect_ray.
func test_csg_on_the_mask_matches_physics() -> void:
	var root := tree.root
	wall(-8, 0, 0.3, 4, 2)  # grouped: the mask must still find the CSG walls
	var a := CSGBox3D.new()
	a.size = Vector3(8, 3, 0.4)
	a.position = Vector3(0, 1.5, -6)
	var b := CSGBox3D.new()
	b.size = Vector3(6, 2, 0.4)
	b.transform = Transform3D(Basis(Vector3.UP, 0.7), Vector3(6, 1.0, -4))
	var combo := CSGCombiner3D.new()
	combo.position = Vector3(2, 0, 6)
	var part := CSGBox3D.new()
	part.size = Vector3(0.4, 3, 6)
	part.position = Vector3(0, 1.5, 0)
	var pillar := CSGCylinder3D.new()
	pillar.radius = 1.0
	pillar.height = 3.0
	pillar.position = Vector3(-3, 1.5, 0)
	combo.add_child(part)
	combo.add_child(pillar)
	for c in [a, b, combo]:
		c.use_collision = true
		c.collision_layer = 2
		root.add_child(c)
	var w := PerceptionWorld3D.new()
	w.occluder_collision_mask = 2
	root.add_child(w)
	await frames(2)  # CSG builds its collision shape deferred
	t.check(w.register_occluders() == 4, "three CSG roots on the mask and a grouped box: 4 occluders (%d)" % w.get_occluder_count())
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	g.view_angle = 360
	g.view_radius = 40
	g.obstacle_mask = 2
	var rng := RandomNumberGenerator.new()
	rng.seed = 47
	var c := compare_with_physics(w, g, 600, 14.0, Vector3(0, 1.6, 0), rng)
	t.check(c[1] == 0 and c[2] > 30, "CSG walls on the mask: Argus agrees with intersect_ray on %d of %d points (%d blocked)" % [c[0], c[0] + c[1], c[2]])
	clear()

## TileMapLayer tiles on the occluder mask (its TileSet physics layer on layer 2), with one other
## wall grouped: Argus agrees with intersect_ray; a tile layer on neither is warned about.
func test_tiles_on_the_mask_match_physics() -> void:
	var root := tree.root
	wall(-300, 0, 10, 150, 2)
	var tiles := TileSet.new()
	tiles.tile_size = Vector2i(32, 32)
	tiles.add_physics_layer()
	tiles.set_physics_layer_collision_layer(0, 2)
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
	root.add_child(layer)
	for k in range(-5, 6):
		layer.set_cell(Vector2i(6, k), 0, Vector2i(0, 0))   # a column right of the guard
		layer.set_cell(Vector2i(k, -7), 0, Vector2i(0, 0))  # a row above it
	layer.set_cell(Vector2i(-4, 4), 0, Vector2i(0, 0))      # a lone block
	var stray := TileMapLayer.new()
	stray.name = "StrayTiles"
	var other: TileSet = tiles.duplicate()
	other.set_physics_layer_collision_layer(0, 4)
	stray.tile_set = other
	stray.set_cell(Vector2i(0, 10), 0, Vector2i(0, 0))
	root.add_child(stray)
	errors.take()
	var w := PerceptionWorld2D.new()
	w.occluder_collision_mask = 2
	root.add_child(w)
	var said: String = errors.take()
	t.check(w.get_occluder_count() == 24, "23 tiles on the mask and a grouped wall: 24 occluders (%d)" % w.get_occluder_count())
	t.check("StrayTiles" in said, "a tile layer neither grouped nor on the mask is warned about: %s" % said)
	await frames(2)
	var g := H.guard_2d(w, Vector2.ZERO, Vector2.RIGHT)
	g.view_angle = 360
	g.obstacle_mask = 2
	var rng := RandomNumberGenerator.new()
	rng.seed = 47
	var c := compare_with_physics(w, g, 600, 400.0, Vector2.ZERO, rng)
	t.check(c[1] == 0 and c[2] > 30, "tiles on the mask: Argus agrees with intersect_ray on %d of %d points (%d blocked)" % [c[0], c[0] + c[1], c[2]])
	clear()

## A flat floor (and a body marked argus_occluder = false) left off the mask is not warned about
## at every level start; a crate left off it still is.
func test_floors_are_not_walls() -> void:
	var root := tree.root
	var slab := BoxShape3D.new()
	slab.size = Vector3(40, 0.5, 40)
	H.wall_3d(root, slab, Transform3D(Basis(), Vector3(0, -0.25, 0)), 1, "").name = "Floor"
	var crate := BoxShape3D.new()
	crate.size = Vector3(1, 1, 1)
	H.wall_3d(root, crate, Transform3D(Basis(), Vector3(3, 0.5, 3)), 1, "").name = "Crate"
	var post := BoxShape3D.new()
	post.size = Vector3(0.3, 3, 0.3)
	var marked := H.wall_3d(root, post, Transform3D(Basis(), Vector3(-3, 1.5, 3)), 1, "")
	marked.name = "Lamp"
	marked.set_meta("argus_occluder", false)
	wall(0, -5, 2, 0.2)
	errors.take()
	var w := PerceptionWorld3D.new()
	root.add_child(w)
	var said: String = errors.take()
	t.check("Crate" in said and not "Floor" in said and not "Lamp" in said,
		"a crate off the mask is warned about; a flat floor and a body marked argus_occluder = false are not: %s" % said)
	clear()

## A grouped wall added after the world is ready blocks sight at once (no register_occluders()).
func test_wall_added_later() -> void:
	var w := new_world()
	tree.root.add_child(w)
	var far := 5.0 if not d2 else 300.0
	var g = guard(w, v(0, 0), v(0, -1))
	var tg = target(w, v(0, -far))
	t.check(g.can_see(tg), "no wall yet: seen")
	wall(0, -far / 2, far / 2, far / 20)
	t.check(not g.can_see(tg) and w.get_occluder_count() == 1, "a grouped wall added later blocks at once (%d occluders)" % w.get_occluder_count())
	clear()

## A body passed where its target child belongs, a node that is no target, and calls without a
## world: each an error naming the nodes, never a quiet false.
func test_wrong_node_and_no_world() -> void:
	var w := new_world()
	tree.root.add_child(w)
	var g = guard(w, v(0, 0), v(0, -1))
	g.name = "Guard"
	var body: Node = CharacterBody2D.new() if d2 else CharacterBody3D.new()
	body.name = "Player"
	var tg = target(body, v(0, 0))
	tg.name = "PlayerTarget"
	w.add_child(body)
	errors.take()
	t.check(not g.can_see(body), "can_see(body): false")
	var said: String = errors.take()
	t.check("Guard" in said and "CharacterBody" in said and "PlayerTarget" in said and "can_see" in said,
		"can_see(body) names the guard, the body and its target child: %s" % said)
	g.get_confidence(body)
	said = errors.take()
	t.check("get_confidence" in said and "PlayerTarget" in said, "get_confidence(body) too: %s" % said)
	t.check(g.get_memory(body).is_empty() and "PlayerTarget" in errors.take(), "get_memory(body) too")
	var plain: Node = Node2D.new() if d2 else Node3D.new()
	plain.name = "Rock"
	w.add_child(plain)
	g.can_see(plain)
	said = errors.take()
	t.check("Rock" in said and "no Perception" in said, "a node with no target child says so: %s" % said)
	clear()
	var lone = guard(tree.root, v(0, 0), v(0, -1))
	lone.name = "LoneGuard"
	var stray = target(tree.root, v(0, -1))
	stray.name = "LoneTarget"
	errors.take()
	t.check(not lone.can_see(stray), "can_see without a world: false")
	said = errors.take()
	t.check("LoneGuard" in said and "World" in said, "can_see without a world: an error naming the guard: %s" % said)
	stray.make_sound(10.0)
	said = errors.take()
	t.check("LoneTarget" in said and "make_sound" in said, "make_sound without a world: an error naming the target: %s" % said)
	clear()

## The editor shows configuration warnings again when a property they read changes (Godot emits
## SceneTree.node_configuration_warning_changed for nodes of the edited scene).
func test_warnings_refresh() -> void:
	var scene: Node = Node2D.new() if d2 else Node3D.new()
	tree.root.add_child(scene)
	tree.set_edited_scene_root(scene)
	var w := new_world()
	scene.add_child(w)
	var g = guard(scene, v(0, 0), v(0, -1))
	var tg = target(scene, v(0, -1))
	var changed := []
	var note := func(n): changed.append(n)
	tree.node_configuration_warning_changed.connect(note)
	g.target_mask = 2
	t.check(g in changed and tg in changed, "a guard's target_mask refreshes its and the targets' warnings")
	changed.clear()
	tg.layers = 2
	t.check(tg in changed, "a target's layers refresh its warnings")
	changed.clear()
	w.use_physics_rays = true
	w.occluder_collision_mask = 1
	t.check(changed.count(w) == 2, "the world's use_physics_rays and occluder_collision_mask refresh its warnings")
	tree.node_configuration_warning_changed.disconnect(note)
	clear()

## A guard trailing a crouched player 1 m behind (the check point 0.5 m up: below the 90° cone
## from a 1.6 m eye) keeps Chasing for 10 s with the nodes' default near sense; without it (the
## control, peripheral_radius = 0) the same guard loses the player.
func test_near_sense_keeps_chasing() -> void:
	var flips_with := await trail(true)
	var flips_without := await trail(false)
	t.check(flips_with == 0, "with the default near sense the trailing guard keeps Chasing for 10 s (%d frames not chasing)" % flips_with)
	t.check(flips_without > 0, "control: without it the guard loses the crouched player (%d frames not chasing)" % flips_without)
	var g2 := VisionSensor2D.new()
	t.check(is_equal_approx(g2.peripheral_radius, 96.0) and is_equal_approx(g2.peripheral_angle, 360.0),
		"the 2D default near sense is 96 px (1.5 m at 64 px per metre) all around (%s, %s)" % [g2.peripheral_radius, g2.peripheral_angle])
	g2.free()

## Frames out of Chasing in 10 s of trailing (see test_near_sense_keeps_chasing).
func trail(near_sense: bool) -> int:
	var w := PerceptionWorld3D.new()
	tree.root.add_child(w)
	var g := VisionSensor3D.new()  # the nodes' defaults, as a user adds them
	if not near_sense:
		g.peripheral_radius = 0.0
	g.add_child(HearingSensor3D.new())
	var brain := EnemyBrain.new()
	g.add_child(brain)
	w.add_child(g)
	var player := PerceptionTarget3D.new()
	var crouched: Array[Vector3] = [Vector3(0, 0.5, 0)]
	player.check_points = crouched
	player.position = Vector3(0, 0, -4)
	w.add_child(player)
	for i in 30:
		await tree.physics_frame
		if brain.get_state() == EnemyBrain.STATE_CHASING: break
	t.check(brain.get_state() == EnemyBrain.STATE_CHASING, "the guard chases the player it sees 4 m ahead (near sense %s)" % near_sense)
	var dt := 1.0 / Engine.physics_ticks_per_second
	var out := 0
	player.position = Vector3(0, 0, -1)
	for i in int(10.0 / dt):
		player.position.z -= 1.5 * dt
		g.position.z = player.position.z + 1.0
		await tree.physics_frame
		if brain.get_state() != EnemyBrain.STATE_CHASING: out += 1
	clear()
	return out
