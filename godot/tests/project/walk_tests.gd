## Engine tests of walk hearing and the walk graph, for test_3d.gd (d2 = false) and test_2d.gd
## (d2 = true): a guard hears a footstep around a wall through a doorway and not through a solid
## wall, a wall's argus_sound_transmission metadata, a navigation import, and bad input giving a
## clear error. Scenes are built in the ground plane: v(x, z) is Vector3(x, 0, z) in 3D and
## Vector2(x, z) in 2D (a 2D point (x, y) is the core's (x, 0, y)).
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
	test_doorway()
	test_navigation_import()
	test_bad_input()

func v(x: float, z: float) -> Variant:
	return Vector2(x, z) if d2 else Vector3(x, 0, z)

func clear() -> void:
	for c in tree.root.get_children():
		tree.root.remove_child(c)
		c.free()

## A wall standing on the plane: centre (x, z), half sizes (hx, hz), 3 m high in 3D.
func wall(x: float, z: float, hx: float, hz: float) -> Node:
	if d2:
		var r := RectangleShape2D.new()
		r.size = Vector2(hx, hz) * 2.0
		return H.wall_2d(tree.root, r, Transform2D(0.0, Vector2(x, z)))
	var b := BoxShape3D.new()
	b.size = Vector3(hx * 2.0, 3.0, hz * 2.0)
	return H.wall_3d(tree.root, b, Transform3D(Basis(), Vector3(x, 1.5, z)))

func new_world() -> Node:
	var w = PerceptionWorld2D.new() if d2 else PerceptionWorld3D.new()
	w.auto_step = false
	return w

## A blind guard at (x, z) whose ears are returned; `path` its hearing_path.
func ears_at(w: Node, x: float, z: float, path: int, name: String) -> Node:
	var g = VisionSensor2D.new() if d2 else VisionSensor3D.new()
	g.name = name
	g.sight_enabled = false
	var ears = HearingSensor2D.new() if d2 else HearingSensor3D.new()
	ears.hearing_path = path
	g.add_child(ears)
	w.add_child(g)
	g.position = v(x, z)
	return ears

func listen(ears: Node) -> Array:
	var heard := []
	ears.sound_heard_ex.connect(func(p, l, s, d): heard.append({"position": p, "loudness": l, "distance": d}))
	return heard

func close(a, b, tol: float) -> bool:
	return a != null and b != null and (a - b).length() <= tol

## The wall across z = 10 with a doorway at x 13..15 (the corpus's hearing_walk_around_walls).
func test_doorway() -> void:
	var dim := "2d" if d2 else "3d"
	var left := wall(6.5, 10, 6.5, 0.1)
	var right := wall(17.5, 10, 2.5, 0.1)
	right.name = "RightWall"
	var w := new_world()
	w.hearing_path = 2
	w.walk_grid_enabled = true
	w.walk_grid_bounds = Rect2(0, 0, 20, 20) if d2 else AABB(Vector3.ZERO, Vector3(20, 1.8, 20))
	w.walk_grid_cell_size = 0.5
	tree.root.add_child(w)
	var walker := listen(ears_at(w, 5, 8, 0, "WalkGuard"))
	var lesson := listen(ears_at(w, 6, 8, 1, "LessonGuard"))
	t.check(w.get_walk_graph_kind() == 1 and w.get_walk_nodes().size() == 1600, "%s: walk_grid_enabled builds a 40 x 40 grid at _ready" % dim)
	w.emit_sound(v(5, 12), 30.0, null)
	w.step(0.1)
	t.check(walker.size() == 1 and close(walker[0].position, v(13.25, 9.75), 1e-3) and absf(walker[0].distance - 20.24264) < 1e-3,
		"%s: a footstep 4 m away behind the wall is heard through the doorway, 20.24 m on foot, from the doorway: %s" % [dim, walker])
	t.check(lesson.size() == 1 and close(lesson[0].position, v(5, 12), 1e-4) and absf(lesson[0].distance - 4.1231) < 1e-3,
		"%s: a guard whose hearing_path is Straight hears it where it is, 4.12 m away: %s" % [dim, lesson])
	var percepts: Array = w.get_last_percepts()
	t.check(percepts.size() == 2 and absf(percepts[0].distance - 20.24264) < 1e-3, "%s: the percept log carries the distance" % dim)
	w.emit_sound(v(5, 12), 12.0, null)
	w.step(0.1)
	t.check(walker.size() == 1 and lesson.size() == 2, "%s: loudness 12 does not reach around the wall (the straight line does): %d, %d" % [dim, walker.size(), lesson.size()])
	var walk: Dictionary = w.find_walk(v(5, 12), v(5, 8), 100.0)
	var through_door := false
	for p in walk.get("points", []):
		var z: float = p.y if d2 else p.z
		if p.x > 13 and p.x < 15 and absf(z - 10) < 0.6: through_door = true
	t.check(walk.found and absf(walk.distance - 20.24264) < 1e-3 and walk.nodes.size() == 38 and through_door,
		"%s: find_walk goes through the doorway: %s" % [dim, walk])
	var flag: int = PerceptionWorld2D.DEBUG_WALK_GRAPH if d2 else PerceptionWorld3D.DEBUG_WALK_GRAPH
	var lines = w.get_debug_lines(flag, null)
	var edges: PackedInt32Array = w.get_walk_edges()
	t.check(edges.size() > 0 and lines.size() == edges.size() and w.get_debug_line_colors().size() == edges.size() / 2,
		"%s: DEBUG_WALK_GRAPH draws one segment per walk edge (%d points, %d edge ends)" % [dim, lines.size(), edges.size()])
	t.check(w.get_walk_edge_lengths().size() == edges.size() / 2, "%s: one length per edge" % dim)
	# A plug in the doorway: the grid follows the occluders, no walk is left.
	var plug := wall(14, 10, 1, 0.1)
	w.register_occluders()
	t.check(not w.find_walk(v(5, 12), v(5, 8), 100.0).found, "%s: a solid wall leaves no walk" % dim)
	var blocked_node := 0
	for n in w.get_walk_nodes().size():
		if not w.is_walk_node_open(n): blocked_node += 1
	t.check(blocked_node > 0 and not w.is_walk_node_open(-1), "%s: the walls' cells are blocked nodes" % dim)
	w.emit_sound(v(5, 12), 30.0, null)
	w.step(0.1)
	t.check(walker.size() == 1 and lesson.size() == 3, "%s: through a solid wall the walking guard hears nothing: %s" % [dim, walker])
	# The wall transmits half a sound's reach: 30 x 0.5 = 15 m straight through.
	left.set_meta("argus_sound_transmission", 0.5)
	w.register_occluders()
	w.emit_sound(v(5, 12), 30.0, null)
	w.step(0.1)
	t.check(walker.size() == 2 and close(walker[1].position, v(5, 12), 1e-4) and absf(walker[1].distance - 4.0) < 1e-4,
		"%s: argus_sound_transmission 0.5 lets the footstep through the wall, heard where it is: %s" % [dim, walker])
	w.emit_sound(v(5, 12), 7.0, null)
	w.step(0.1)
	t.check(walker.size() == 2, "%s: 7 x 0.5 = 3.5 m does not reach 4 m through the wall" % dim)
	errors.take()
	right.set_meta("argus_sound_transmission", "loud")
	plug.set_meta("argus_sound_transmission", 1.5)
	w.register_occluders()
	var said: String = errors.take()
	t.check("RightWall" in said and "argus_sound_transmission" in said and "1.5" in said, "%s: a transmission that is not a number in 0..1 is reported, naming the wall: %s" % [dim, said])
	clear()

## An L-shaped navigation mesh around a block; the import's nodes, edges and hearing along it.
func test_navigation_import() -> void:
	var dim := "2d" if d2 else "3d"
	wall(5, 5, 4, 4)
	var w := new_world()
	w.hearing_path = 2
	tree.root.add_child(w)
	var heard := listen(ears_at(w, 0, 0, 0, "Guard"))
	var pts := [[-1, -1], [11, -1], [11, 1], [9, 1], [-1, 1], [11, 11], [9, 11]]
	var nav
	var region
	if d2:
		nav = NavigationPolygon.new()
		var verts := PackedVector2Array()
		for p in pts: verts.append(Vector2(p[0], p[1]))
		nav.vertices = verts
		region = NavigationRegion2D.new()
		region.navigation_polygon = nav
	else:
		nav = NavigationMesh.new()
		var verts := PackedVector3Array()
		for p in pts: verts.append(Vector3(p[0], 0, p[1]))
		nav.vertices = verts
		region = NavigationRegion3D.new()
		region.navigation_mesh = nav
	nav.add_polygon(PackedInt32Array([0, 1, 2, 3, 4]))
	nav.add_polygon(PackedInt32Array([3, 2, 5, 6]))
	tree.root.add_child(region)
	t.check(w.set_walk_graph_from_navigation(region, 2.0), "%s: a navigation region imports" % dim)
	t.check(w.get_walk_graph_kind() == 2 and w.get_walk_nodes().size() == 9 and w.get_walk_edges().size() == 2 * 24,
		"%s: nodes = 7 vertices + 2 polygon centres, 24 edges (sides, diagonals, centre spokes; the shared side once): %d nodes, %d edges" % [dim, w.get_walk_nodes().size(), w.get_walk_edges().size() / 2])
	var walk: Dictionary = w.find_walk(v(10, 10), v(0, 0), 100.0)
	t.check(walk.found and walk.distance > 20.0 and walk.distance < 23.5, "%s: the walk goes around the block (straight: 14.1): %s" % [dim, walk])
	w.emit_sound(v(10, 10), 30.0, null)
	w.step(0.1)
	t.check(heard.size() == 1 and absf(heard[0].distance - walk.get("distance", -1.0)) < 1e-3 and not close(heard[0].position, v(10, 10), 0.5),
		"%s: heard along the imported graph at the walk's distance, from a corner: %s" % [dim, heard])
	w.emit_sound(v(10, 10), 16.0, null)
	w.step(0.1)
	t.check(heard.size() == 1, "%s: loudness 16 reaches 14.1 m straight but not around the block" % dim)
	region.position = v(100, 0)
	t.check(w.set_walk_graph_from_navigation(region, 2.0) and close(w.get_walk_nodes()[0], v(99, -1), 1e-4), "%s: the region's transform places the mesh" % dim)
	t.check(w.set_walk_graph_from_navigation(nav, 2.0) and close(w.get_walk_nodes()[0], v(-1, -1), 1e-4), "%s: the navigation data itself imports as it is" % dim)
	w.clear_walk_graph()
	t.check(w.get_walk_graph_kind() == 0 and w.get_walk_nodes().is_empty(), "%s: clear_walk_graph removes it" % dim)
	clear()

func test_bad_input() -> void:
	var dim := "2d" if d2 else "3d"
	var w := new_world()
	w.name = "WalkWorld"
	tree.root.add_child(w)
	var ears := ears_at(w, 0, 0, 0, "Ears")
	errors.take()
	var freed = NavigationRegion2D.new() if d2 else NavigationRegion3D.new()
	freed.free()
	t.check(not w.set_walk_graph_from_navigation(freed, 1.0) and "freed" in errors.take(), "%s: a freed region: false, 'freed'" % dim)
	t.check(not w.set_walk_graph_from_navigation(null, 1.0) and "null" in errors.take(), "%s: null: false, 'null'" % dim)
	var empty_region = NavigationRegion2D.new() if d2 else NavigationRegion3D.new()
	var said: String
	t.check(not w.set_walk_graph_from_navigation(empty_region, 1.0), "%s: a region without navigation data: false" % dim)
	said = errors.take()
	t.check("has no Navigation" in said, "%s: ... saying so: %s" % [dim, said])
	empty_region.free()
	var nothing = NavigationPolygon.new() if d2 else NavigationMesh.new()
	t.check(not w.set_walk_graph_from_navigation(nothing, 1.0) and "no polygon" in errors.take(), "%s: navigation data without polygons: false, 'no polygon'" % dim)
	var other := Node.new()
	t.check(not w.set_walk_graph_from_navigation(other, 1.0) and "neither" in errors.take(), "%s: another node: false, 'neither'" % dim)
	other.free()
	w.walk_grid_cell_size = 0.0
	t.check(not w.build_walk_grid(), "%s: a zero cell size builds no grid" % dim)
	said = errors.take()
	t.check("walk_grid_cell_size" in said and w.get_walk_graph_kind() == 0, "%s: ... naming walk_grid_cell_size: %s" % [dim, said])
	var nodes = PackedVector2Array([Vector2(NAN, 0), Vector2(1, 0)]) if d2 else PackedVector3Array([Vector3(NAN, 0, 0), Vector3(1, 0, 0)])
	t.check(not w.set_walk_graph(nodes, PackedInt32Array([0, 1]), PackedFloat32Array(), 1.0), "%s: a NaN node is refused" % dim)
	said = errors.take()
	t.check("walk node 0" in said, "%s: ... naming the node: %s" % [dim, said])
	var ok = PackedVector2Array([Vector2(0, 0), Vector2(1, 0)]) if d2 else PackedVector3Array([Vector3(0, 0, 0), Vector3(1, 0, 0)])
	t.check(not w.set_walk_graph(ok, PackedInt32Array([0]), PackedFloat32Array(), 1.0) and "pairs" in errors.take(), "%s: an odd edge list is refused" % dim)
	t.check(not w.set_walk_graph(ok, PackedInt32Array([0, 1]), PackedFloat32Array([0.5]), 1.0) and "shorter" in errors.take(), "%s: an edge shorter than the straight line is refused" % dim)
	t.check(not w.find_walk(v(0, 0), v(1, 0), 10.0).found and "no walk graph" in errors.take(), "%s: find_walk without a walk graph: not found, an error" % dim)
	t.check(w.set_walk_graph(ok, PackedInt32Array([0, 1]), PackedFloat32Array(), 1.0), "%s: a valid graph is set" % dim)
	t.check(not w.find_walk(v(NAN, 0), v(1, 0), 10.0).found and "walk start" in errors.take(), "%s: find_walk from NaN: not found, an error" % dim)
	ears.hearing_path = 7
	said = errors.take()
	t.check(ears.hearing_path == 0 and "Ears" in said and "hearing_path" in said, "%s: hearing_path 7 is refused, named: %s" % [dim, said])
	clear()
