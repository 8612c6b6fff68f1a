## The conformance corpus through the 2D nodes: the same runner as test_corpus.gd, with its hooks
## building PerceptionWorld2D, VisionSensor2D, HearingSensor2D and PerceptionTarget2D nodes and
## StaticBody2D walls. A 2D point (x, y) is the core's ground-plane point (x, 0, y), and 2D sight
## runs at height 0, so only planar files run: every position, direction, eye, check point and
## expected point at y = 0, and every wall upright and crossing the plane. The others are reported
## as skipped with the reason, never counted as passed.
extends "res://test_corpus.gd"

func label() -> String:
	return "corpus2d"

func new_world() -> Node:
	return PerceptionWorld2D.new()

func new_guard() -> Node:
	# The corpus is in metres: the 2D sensor's pixel default (640) is set back to the lesson's 10.
	var g := VisionSensor2D.new()
	g.view_radius = 10.0
	return g

func new_ears() -> Node:
	return HearingSensor2D.new()

func new_target() -> Node:
	return PerceptionTarget2D.new()

func vec(a) -> Variant:
	return Vector2(a[0], a[2])

func point_array(list: Array) -> Variant:
	var pts: Array[Vector2] = []
	for p in list: pts.append(vec(p))
	return pts

func packed(list: Array) -> Variant:
	var out := PackedVector2Array()
	for p in list: out.append(vec(p))
	return out

## The walk grid as the 2D world's: bounds on the plane, the band fixed around it (2D walls cross
## it), so a file that sets a band is refused by `unsupported`.
func set_walk_grid(g: Dictionary) -> void:
	var cell: float = g.get("cell_size", 0.5)
	var o: Array = g.get("origin", [0, 0, 0])
	world.walk_grid_bounds = Rect2(o[0], o[2], g.width * cell, g.depth * cell)
	world.walk_grid_cell_size = cell

## The wall's cross-section with the ground plane (boxes and capsules are upright: checked by
## `unsupported`).
func occluder_body(o: Dictionary) -> Node:
	var shape: Shape2D
	var y: float = o.position[1]
	match o.shape:
		"box":
			shape = RectangleShape2D.new(); shape.size = Vector2(o.half_extents[0], o.half_extents[2]) * 2.0
		"sphere":
			shape = CircleShape2D.new(); shape.radius = sqrt(o.radius * o.radius - y * y)
		"capsule":
			var above := maxf(absf(y) - o.half_height, 0.0)
			shape = CircleShape2D.new(); shape.radius = sqrt(o.radius * o.radius - above * above)
	return H.wall_2d(root, shape, occluder_transform(o), int(o.get("layers", 1)))

## A turn about +Y as a 2D rotation: the basis's X axis (x, 0, z) drawn as (x, z).
func occluder_transform(o: Dictionary) -> Variant:
	var r: Array = o.get("rotation", [0, 0, 0, 1])
	var x_axis := Basis(Quaternion(r[0], r[1], r[2], r[3])).x
	return Transform2D(atan2(x_axis.z, x_axis.x), vec(o.position))

func face(node, position: Array, forward: Array) -> void:
	node.global_position = vec(position)
	node.global_rotation = (vec(forward) as Vector2).angle()

func unsupported(s: Dictionary) -> String:
	var why := super.unsupported(s)
	if why != "":
		return why
	var grid: Dictionary = s.get("walk_graph", {}).get("grid", {})
	if grid.has("band_min") or grid.has("band_max") or grid.get("origin", [0, 0, 0])[1] != 0:
		return "needs height: a walk grid band or floor of its own"
	for a in s.get("agents", []):
		# A blind agent's eye still matters to walk hearing (where a sound seems to come from),
		# but 2D walls cross every height a planar file's rays run at.
		var blind: bool = a.get("sight", {}).get("enabled", true) == false
		if not a.get("sight", {}).has("eye_offset") and not blind:
			return "needs height: agent %s keeps the default eye 1.6 m above its feet" % a.name
	for d in s.get("targets", []):
		if not d.has("check_points"):
			return "needs height: target %s keeps the default check point 1.3 m up" % d.name
	var shapes := {}
	for o in s.get("occluders", []):
		shapes[o.name] = o
		why = off_plane(o, o)
		if why != "":
			return why
	for a in s.timeline:
		if a.do == "set_occluder_pose":
			why = off_plane(shapes[a.occluder], a)
			if why != "":
				return why
	return height_in(s, "")

## Why a wall (`o`'s shape at `pose`'s position and rotation) has no upright cross-section with
## the ground plane or footprint on it ("" when it has one).
func off_plane(o: Dictionary, pose: Dictionary) -> String:
	var r: Array = pose.get("rotation", [0, 0, 0, 1])
	if absf(r[0]) > 1e-6 or absf(r[2]) > 1e-6:
		return "needs height: occluder %s is tilted" % o.name
	var y := absf(pose.position[1])
	var reach: float = {"box": o.get("half_extents", [0, 0, 0])[1], "sphere": o.get("radius", 0.0),
		"capsule": o.get("half_height", 0.0) + o.get("radius", 0.0)}.get(o.shape, 0.0)
	# A wall standing on the plane (its bottom at y = 0) counts: its 2D shape is its footprint.
	if y > reach:
		return "needs height: occluder %s does not cross the ground plane" % o.name
	return ""

## The first point [x, y, z] with y != 0 anywhere in the file (walls are checked by off_plane;
## influence grids are rows of numbers, and walk edges [a, b, length], not points), as
## "needs height: <where>".
func height_in(x, where: String) -> String:
	if x is Dictionary:
		if x.get("do", "") in ["set_occluder_pose", "influence_cells"] or where.begins_with("occluders"):
			return ""
		for k in x:
			if k in ["half_extents", "rotation"] or (k == "edges" and where == "walk_graph"):
				continue
			var why := height_in(x[k], "%s.%s" % [where, k] if where != "" else str(k))
			if why != "":
				return why
	elif x is Array:
		if x.size() == 3 and x.all(func(v): return v is float or v is int):
			return "needs height: %s is %s" % [where, x] if x[1] != 0 else ""
		for i in x.size():
			var why := height_in(x[i], "%s[%d]" % [where, i])
			if why != "":
				return why
	return ""
