## Shared helpers for the engine tests: counting checks and building scenes.
extends RefCounted

var passed := 0
var failed := 0
var suite := ""

func check(cond: bool, what: String) -> void:
	if cond:
		passed += 1
	else:
		failed += 1
		printerr("FAIL [%s]: %s" % [suite, what])

func near(a: float, b: float, tol: float = 1e-3) -> bool:
	return absf(a - b) <= tol

## A StaticBody3D holding one collision shape, on `layer` (bit mask), added under `parent`.
static func wall_3d(parent: Node, shape: Shape3D, xform: Transform3D, layer: int = 1, group: String = "argus_occluders") -> StaticBody3D:
	var body := StaticBody3D.new()
	body.collision_layer = layer
	body.collision_mask = 0
	var cs := CollisionShape3D.new()
	cs.shape = shape
	body.add_child(cs)
	body.transform = xform
	if group != "":
		body.add_to_group(group)
	parent.add_child(body)
	return body

static func wall_2d(parent: Node, shape: Shape2D, xform: Transform2D, layer: int = 1, group: String = "argus_occluders") -> StaticBody2D:
	var body := StaticBody2D.new()
	body.collision_layer = layer
	body.collision_mask = 0
	var cs := CollisionShape2D.new()
	cs.shape = shape
	body.add_child(cs)
	body.transform = xform
	if group != "":
		body.add_to_group(group)
	parent.add_child(body)
	return body

## A guard at `pos` facing `dir` (3D: −Z of its basis points along dir).
static func guard_3d(parent: Node, pos: Vector3, dir: Vector3) -> VisionSensor3D:
	var g := VisionSensor3D.new()
	g.sense_rate_hz = 0.0
	g.view_radius = 20.0
	g.position = pos
	parent.add_child(g)
	if dir.length() > 0.0:
		g.look_at(pos + dir, Vector3.UP if absf(dir.normalized().y) < 0.99 else Vector3.FORWARD)
	return g

static func target_3d(parent: Node, pos: Vector3) -> PerceptionTarget3D:
	var t := PerceptionTarget3D.new()
	t.position = pos
	parent.add_child(t)
	return t

## A 2D guard at `pos` facing `dir` (2D forward is the node's +X axis).
static func guard_2d(parent: Node, pos: Vector2, dir: Vector2) -> VisionSensor2D:
	var g := VisionSensor2D.new()
	g.sense_rate_hz = 0.0
	g.view_radius = 1000.0
	g.position = pos
	g.rotation = dir.angle()
	parent.add_child(g)
	return g

static func target_2d(parent: Node, pos: Vector2) -> PerceptionTarget2D:
	var t := PerceptionTarget2D.new()
	t.position = pos
	parent.add_child(t)
	return t

## The engine's errors and warnings (what `push_error`/`push_warning` and the add-on report),
## collected through a Godot 4.5+ Logger so a test can check what the user was told.
class ErrorLog extends Logger:
	var lines: Array[String] = []
	var mutex := Mutex.new()

	func _log_error(_function: String, _file: String, _line: int, code: String, rationale: String,
			_editor_notify: bool, _error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
		mutex.lock()
		lines.append("%s %s" % [code, rationale])
		mutex.unlock()

	func _log_message(_message: String, _error: bool) -> void:
		pass

	## Everything reported since the last call, one message a line.
	func take() -> String:
		mutex.lock()
		var s := "\n".join(lines)
		lines.clear()
		mutex.unlock()
		return s
