## Engine tests of belief search through the nodes (issue #44), for test_3d.gd (d2 = false) and
## test_2d.gd (d2 = true): guards whose EnemyBrain searches by belief lose the player behind a
## wall and keep a belief over the walk grid (sum 1) whose search point is their move target; a
## team of three splits the search points; the lesson's search keeps none; the settings reach
## the core (share_belief, give_up_probability, the target's top_speed); the heat map in the
## debug lines; bad values give a clear error and change nothing. The level is the core's
## (core/tests/belief_search.rs): 30 x 30 m of 0.5 m cells, a wall across the middle with a gap
## at its east end. v(x, z) is Vector3(x, 0, z) in 3D and, in 2D, the same level at 64 px per
## metre, Vector2(x, z) * 64 (the 2D nodes' pixel defaults: top_speed 89.6 px/s = 1.4 m/s).
extends RefCounted

const H = preload("res://harness.gd")
var tree: SceneTree
var t
var errors
var d2 := false
var s := 1.0  # units per metre: 1 in 3D, 64 px in 2D
var dim := "3d"

func _init(scene_tree: SceneTree, checks, log, two_d: bool) -> void:
	tree = scene_tree
	t = checks
	errors = log
	d2 = two_d
	s = 64.0 if d2 else 1.0
	dim = "2d" if d2 else "3d"

func run() -> void:
	test_one_guard()
	test_team()
	test_lessons_search()
	test_settings_reach_the_core()
	test_bad_values()

func v(x: float, z: float) -> Variant:
	return Vector2(x, z) * s if d2 else Vector3(x, 0, z)

func clear() -> void:
	for c in tree.root.get_children():
		tree.root.remove_child(c)
		c.free()

## The level: the wall, a world with the walk grid, `guards` guards at (4 + 2k, 6) facing +Z
## (their brains searching by belief unless `belief` is false), the player at (6, 11).
func level(guards: int, belief: bool = true) -> Dictionary:
	if d2:
		var r := RectangleShape2D.new()
		r.size = Vector2(24, 0.6) * s
		H.wall_2d(tree.root, r, Transform2D(0.0, v(12, 15)))
	else:
		var b := BoxShape3D.new()
		b.size = Vector3(24, 3, 0.6)
		H.wall_3d(tree.root, b, Transform3D(Basis(), Vector3(12, 1.5, 15)))
	var w = PerceptionWorld2D.new() if d2 else PerceptionWorld3D.new()
	w.name = "BeliefWorld"
	w.auto_step = false
	w.walk_grid_enabled = true
	w.walk_grid_bounds = Rect2(0, 0, 30 * s, 30 * s) if d2 else AABB(Vector3.ZERO, Vector3(30, 1.8, 30))
	w.walk_grid_cell_size = 0.5 * s
	tree.root.add_child(w)
	var out := {"world": w, "guards": [], "brains": []}
	for k in guards:
		var g = VisionSensor2D.new() if d2 else VisionSensor3D.new()
		g.name = "Guard%d" % k
		g.view_radius = 15.0 * s
		g.view_angle = 120.0
		g.peripheral_radius = 0.0
		g.sense_rate_hz = 10.0
		var brain := EnemyBrain.new()
		brain.search_duration = 30.0
		if belief:
			brain.search = EnemyBrain.SEARCH_BELIEF
		g.add_child(brain)
		w.add_child(g)
		face(g, v(4 + 2 * k, 6), v(4 + 2 * k, 7))
		out.guards.append(g)
		out.brains.append(brain)
	var p = PerceptionTarget2D.new() if d2 else PerceptionTarget3D.new()
	p.name = "Player"
	w.add_child(p)
	p.position = v(6, 11)
	out["player"] = p
	return out

## Puts guard `g` at `at` facing `to`.
func face(g: Node, at, to) -> void:
	g.position = at
	if (to - at).length() < 1e-3:
		return
	if d2:
		g.rotation = (to - at).angle()
	else:
		g.look_at(to, Vector3.UP)

func step(w: Node, n: int) -> void:
	for i in n:
		w.step(0.1)

## Every guard chases; then the player slips behind the wall (as the core's test).
func chase_then_hide(l: Dictionary) -> void:
	step(l.world, 5)
	var chasing := true
	for b in l.brains:
		chasing = chasing and b.get_state() == EnemyBrain.STATE_CHASING
	t.check(chasing, "%s: every guard chases the player it sees" % dim)
	l.player.position = v(20, 24)
	step(l.world, 3)

func total(p: PackedFloat32Array) -> float:
	var sum := 0.0
	for x in p:
		sum += x
	return sum

func nonzero(p: PackedFloat32Array) -> int:
	var n := 0
	for x in p:
		if x > 0.0: n += 1
	return n

func close(a, b, tol: float) -> bool:
	return a != null and b != null and (a - b).length() <= tol

func test_one_guard() -> void:
	var l := level(1)
	var w = l.world
	var g = l.guards[0]
	var brain: EnemyBrain = l.brains[0]
	var nodes: int = w.get_walk_nodes().size()
	t.check(nodes == 3600, "%s: a 60 x 60 walk grid (%d nodes)" % [dim, nodes])
	t.check(g.get_belief().is_empty() and g.get_belief_peak() == -1.0 and not g.has_search_point() and g.get_search_point() == null,
		"%s: before it loses anyone the guard keeps no belief" % dim)
	chase_then_hide(l)
	t.check(brain.get_state() == EnemyBrain.STATE_SEARCHING, "%s: losing the player behind the wall: searching (%s)" % [dim, brain.get_state_name()])
	var belief: PackedFloat32Array = g.get_belief()
	t.check(belief.size() == nodes and absf(total(belief) - 1.0) < 1e-5,
		"%s: it keeps a belief over the walk nodes that sums to 1 (%d values, sum %f)" % [dim, belief.size(), total(belief)])
	t.check(brain.get_belief() == belief, "%s: EnemyBrain.get_belief() reads the guard's" % dim)
	var peak: float = g.get_belief_peak()
	var most := 0.0
	for x in belief: most = maxf(most, x)
	t.check(peak > 0.0 and peak <= 1.0 and is_equal_approx(peak, most) and is_equal_approx(brain.get_belief_peak(), peak),
		"%s: get_belief_peak() is its largest probability (%f, %f)" % [dim, peak, most])
	var point = g.get_search_point()
	var point_type := TYPE_VECTOR2 if d2 else TYPE_VECTOR3
	t.check(g.has_search_point() and brain.has_search_point() and typeof(point) == point_type and brain.get_search_point() == point,
		"%s: it has a search point, a %s: %s" % [dim, type_string(point_type), point])
	t.check(g.get_move_target() == point and brain.get_move_target() == point, "%s: its move target is the search point (%s, %s)" % [dim, g.get_move_target(), point])
	t.check(g.get_belief_at(point) > 0.0 and is_equal_approx(brain.get_belief_at(point), g.get_belief_at(point)),
		"%s: the search point is where the belief holds probability (%f)" % [dim, g.get_belief_at(point)])
	t.check(g.get_belief_at(v(-100, -100)) == 0.0, "%s: off the graph the probability is 0" % dim)
	var points: Array = g.get_search_points(3)
	var ordered := points.size() >= 1 and points.size() <= 3
	for i in points.size():
		ordered = ordered and typeof(points[i].position) == point_type and points[i].probability > 0.0
		if i > 0: ordered = ordered and points[i].probability <= points[i - 1].probability
	t.check(ordered, "%s: get_search_points(3): up to 3 places, most probable first: %s" % [dim, points])
	t.check(brain.get_search_points(3).size() == points.size() and g.get_search_points(0).is_empty(), "%s: EnemyBrain.get_search_points() and a count of 0" % dim)
	# The heat map: a cross per node holding probability, the search point's diamond and the line
	# from the guard.
	var flag: int = PerceptionWorld2D.DEBUG_BELIEFS if d2 else PerceptionWorld3D.DEBUG_BELIEFS
	var lines = w.get_debug_lines(flag, null)
	var colors: PackedColorArray = w.get_debug_line_colors()
	var held := nonzero(belief)
	t.check(lines.size() == 2 * (2 * held + 5) and colors.size() == 2 * held + 5,
		"%s: DEBUG_BELIEFS draws 2 segments per node holding probability (%d) and 5 for the search point: %d segments" % [dim, held, lines.size() / 2])
	t.check(colors.size() > 0 and colors[colors.size() - 1] == Color.WHITE and colors[0].a >= 0.35, "%s: the search point is white, the heat map coloured" % dim)
	t.check(close(lines[lines.size() - 1], point, 0.06) and close(lines[lines.size() - 2], g.position, 0.06), "%s: the last segment runs from the guard to its search point" % dim)
	t.check(w.get_debug_lines(flag, g).size() == lines.size(), "%s: only this guard's belief with the guard passed" % dim)
	var everything: int = w.get_debug_lines(0, null).size()
	var walk_graph: int = w.get_debug_lines(PerceptionWorld2D.DEBUG_WALK_GRAPH if d2 else PerceptionWorld3D.DEBUG_WALK_GRAPH, null).size()
	t.check(everything > walk_graph + lines.size(), "%s: flags 0 draws the beliefs too" % dim)
	# Walking to its points, it keeps a belief that sums to 1 and keeps searching by it.
	var kept := true
	var found := false
	for i in 100:
		var to = g.get_move_target()
		if to == null: break
		var at = g.position
		var d = to - at
		var next = at + d.normalized() * 0.15 * s if d.length() > 0.15 * s else to
		face(g, next, next + (d if d.length() > 1e-3 * s else v(0, 1)))
		w.step(0.1)
		var b: PackedFloat32Array = g.get_belief()
		if not b.is_empty() and absf(total(b) - 1.0) > 1e-5: kept = false
		if brain.get_state() == EnemyBrain.STATE_CHASING:
			found = true
			break
	t.check(kept, "%s: walking to its search points, the belief keeps summing to 1" % dim)
	t.check(found or brain.get_state() == EnemyBrain.STATE_SEARCHING, "%s: it found the player or still searches after 10 s of a 30 s search (%s)" % [dim, brain.get_state_name()])
	clear()

func test_team() -> void:
	var l := level(3)
	var w = l.world
	chase_then_hide(l)
	var g: Array = l.guards
	var b0: PackedFloat32Array = g[0].get_belief()
	t.check(b0.size() == 3600 and g[1].get_belief() == b0 and g[2].get_belief() == b0,
		"%s: three guards of one team share one belief (share_belief on by default)" % dim)
	# Apart by more than a search tile (4 m, 256 px in 2D: the core measures the search in walk
	# cells), as the core's test asks.
	var apart := func() -> bool:
		for i in 3:
			for j in range(i + 1, 3):
				var a = g[i].get_search_point()
				var b = g[j].get_search_point()
				if a == null or b == null or (a - b).length() <= 4.0 * s: return false
		return true
	var steps := 0
	while not apart.call() and steps < 60:
		w.step(0.1)
		steps += 1
	t.check(apart.call(), "%s: within 6 s the three guards walk to search points a tile apart (after %d steps): %s, %s, %s" % [dim, steps, g[0].get_search_point(), g[1].get_search_point(), g[2].get_search_point()])
	var same_target := true
	for k in 3:
		same_target = same_target and g[k].get_move_target() == g[k].get_search_point()
	t.check(same_target, "%s: each one's move target is its own search point" % dim)
	var flag: int = PerceptionWorld2D.DEBUG_BELIEFS if d2 else PerceptionWorld3D.DEBUG_BELIEFS
	var held := nonzero(g[0].get_belief())
	var segments: int = w.get_debug_lines(flag, null).size() / 2
	t.check(segments == 2 * held + 3 * 5, "%s: the shared belief is drawn once, with three search points: %d segments for %d nodes" % [dim, segments, held])
	clear()

func test_lessons_search() -> void:
	var l := level(2, false)
	chase_then_hide(l)
	var g = l.guards[0]
	t.check(l.brains[0].search == EnemyBrain.SEARCH_LAST_KNOWN_POSITION, "%s: a new brain searches as the lesson does" % dim)
	t.check(l.brains[0].get_state() == EnemyBrain.STATE_SEARCHING, "%s: the lesson's guard searches too" % dim)
	t.check(g.get_belief().is_empty() and g.get_belief_peak() == -1.0 and not g.has_search_point() and g.get_search_point() == null and g.get_search_points(4).is_empty(),
		"%s: the lesson's search keeps no belief and no search point" % dim)
	t.check(close(g.get_move_target(), v(6, 11), 1e-3), "%s: it walks to the last known position: %s" % [dim, g.get_move_target()])
	var flag: int = PerceptionWorld2D.DEBUG_BELIEFS if d2 else PerceptionWorld3D.DEBUG_BELIEFS
	t.check(l.world.get_debug_lines(flag, null).is_empty(), "%s: no heat map without a belief" % dim)
	t.check(g.get_belief_at(v(6, 11)) == 0.0, "%s: get_belief_at without a belief: 0" % dim)
	clear()

func test_settings_reach_the_core() -> void:
	# share_belief off: each guard keeps its own belief (they clear what each sees).
	var l := level(2)
	for b in l.brains: b.share_belief = false
	chase_then_hide(l)
	step(l.world, 10)
	var a: PackedFloat32Array = l.guards[0].get_belief()
	var b: PackedFloat32Array = l.guards[1].get_belief()
	var flag: int = PerceptionWorld2D.DEBUG_BELIEFS if d2 else PerceptionWorld3D.DEBUG_BELIEFS
	var points := 0
	for g in l.guards:
		if g.has_search_point(): points += 1
	var segments: int = l.world.get_debug_lines(flag, null).size() / 2
	t.check(a.size() == 3600 and b.size() == 3600 and segments == 2 * nonzero(a) + 2 * nonzero(b) + 5 * points,
		"%s: share_belief off: two guards keep beliefs of their own (the heat map draws both: %d segments)" % [dim, segments])
	clear()
	# give_up_probability 0.9: the spread belief is too thin at once; the guard gives up.
	l = level(1)
	l.brains[0].give_up_probability = 0.9
	chase_then_hide(l)
	step(l.world, 5)
	t.check(l.brains[0].get_state() == EnemyBrain.STATE_IDLE and l.guards[0].get_belief().is_empty() and not l.guards[0].has_search_point(),
		"%s: give_up_probability 0.9: the guard gives up and keeps no belief (%s)" % [dim, l.brains[0].get_state_name()])
	clear()
	# The player's top_speed: 0 keeps the belief where it was last seen; the default spreads it.
	for speed in [0.0, -1.0]:
		l = level(1)
		if speed == 0.0:
			l.player.top_speed = 0.0
		var default_speed := 89.6 if d2 else 1.4
		t.check(speed == 0.0 or is_equal_approx(l.player.top_speed, default_speed), "%s: top_speed defaults to %s" % [dim, default_speed])
		chase_then_hide(l)
		step(l.world, 10)
		var peak: float = l.guards[0].get_belief_peak()
		if speed == 0.0:
			t.check(is_equal_approx(peak, 1.0), "%s: top_speed 0: the belief stays where the player was last seen (peak %f)" % [dim, peak])
		else:
			t.check(peak > 0.0 and peak < 0.9, "%s: at the default top_speed it spreads (peak %f after 1.3 s)" % [dim, peak])
		clear()

func test_bad_values() -> void:
	var l := level(1)
	chase_then_hide(l)
	var g = l.guards[0]
	var brain: EnemyBrain = l.brains[0]
	var before: PackedFloat32Array = g.get_belief()
	errors.take()
	brain.search = 5
	var said: String = errors.take()
	t.check(brain.search == EnemyBrain.SEARCH_BELIEF and "search = 5" in said and "Guard0" in said, "%s: search = 5 is refused, naming the brain and the property: %s" % [dim, said])
	for bad in [1.5, -0.1, NAN]:
		brain.give_up_probability = bad
		said = errors.take()
		t.check(is_equal_approx(brain.give_up_probability, 0.002) and "give_up_probability" in said and "keeping" in said,
			"%s: give_up_probability = %s is refused, the last value kept: %s" % [dim, bad, said])
	for bad in [-1.0, INF, NAN, 2000.0]:
		l.player.top_speed = bad
		said = errors.take()
		t.check(is_equal_approx(l.player.top_speed, 89.6 if d2 else 1.4) and "top_speed" in said and "Player" in said,
			"%s: top_speed = %s is refused, naming the target: %s" % [dim, bad, said])
	t.check(g.get_belief() == before and brain.get_state() == EnemyBrain.STATE_SEARCHING, "%s: refused settings change nothing (the belief and the search go on)" % dim)
	t.check(g.get_search_points(-1).is_empty() and "count = -1" in errors.take(), "%s: get_search_points(-1): empty, an error" % dim)
	var nan_point = Vector2(NAN, 0) if d2 else Vector3(NAN, 0, 0)
	t.check(g.get_belief_at(nan_point) == 0.0 and "get_belief_at" in errors.take(), "%s: get_belief_at(NaN): 0, an error naming it" % dim)
	brain.give_up_probability = 1.0
	brain.share_belief = false
	brain.search = EnemyBrain.SEARCH_LAST_KNOWN_POSITION
	t.check(errors.take() == "" and brain.search == 0 and brain.give_up_probability == 1.0 and not brain.share_belief, "%s: valid values are kept" % dim)
	w_step_clear(l)

func w_step_clear(l: Dictionary) -> void:
	l.world.step(0.1)
	t.check(l.guards[0].get_belief().is_empty(), "%s: back to the lesson's search, the belief goes at the next step" % dim)
	clear()
