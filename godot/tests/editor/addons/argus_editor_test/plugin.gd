## Drives a real, windowed Godot editor for tests/suites/50-godot.sh (under Xvfb, Mesa llvmpipe,
## the Compatibility renderer). Does nothing unless ARGUS_EDITOR_TEST says what to test:
##   draw   opens guard_3d.tscn and guard_2d.tscn, selects the guard through the editor's
##          selection, captures the editor window and checks the add-on's editor plugin drew the
##          guard's vision cone and hearing ring where the editor's view puts them, and nothing
##          once the selection is cleared.
##   fresh  a fresh project opened in the editor: the add-on's classes and editor plugin loaded.
## Prints "editor-<mode>: N passed, N failed" and quits the editor (exit 1 on any failure).
## ARGUS_EDITOR_SHOTS: a folder to save the captured windows in (PNG), for a person to look at.
@tool
extends EditorPlugin

const WATCHDOG_S := 90.0
## How close (window pixels) a drawn line must pass to an expected point of it.
const TOLERANCE_PX := 2

var mode := ""
var passed := 0
var failed := 0
var shots := ""
var finished := false


func _enter_tree() -> void:
	mode = OS.get_environment("ARGUS_EDITOR_TEST")
	if mode == "":
		return
	shots = OS.get_environment("ARGUS_EDITOR_SHOTS")
	print("editor-test: mode %s, display %s, renderer %s on %s, Godot %s" % [mode, DisplayServer.get_name(),
		RenderingServer.get_current_rendering_driver_name(), RenderingServer.get_video_adapter_name(),
		Engine.get_version_info().string])
	# A hung editor is a failure with a line saying so, not a silent timeout.
	get_tree().create_timer(WATCHDOG_S, true, false, true).timeout.connect(_watchdog)
	_run.call_deferred()


func check(cond: bool, what: String) -> void:
	if cond:
		passed += 1
	else:
		failed += 1
		printerr("FAIL [editor-%s]: %s" % [mode, what])


func _watchdog() -> void:
	if finished:
		return
	check(false, "the test did not finish within %d s" % WATCHDOG_S)
	_finish()


func _finish() -> void:
	finished = true
	print("editor-%s: %d passed, %d failed" % [mode, passed, failed])
	get_tree().quit(1 if failed > 0 else 0)


func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame


func _run() -> void:
	# The editor redraws every frame while the test runs (it otherwise draws only on change).
	OS.low_processor_usage_mode = false
	# A real window on an X server, drawn by OpenGL (the Compatibility renderer), not headless.
	check(DisplayServer.get_name() == "X11", "the editor runs on an X11 display (%s)" % DisplayServer.get_name())
	check(RenderingServer.get_current_rendering_driver_name() == "opengl3",
		"the editor draws with opengl3 (%s)" % RenderingServer.get_current_rendering_driver_name())
	var fs := EditorInterface.get_resource_filesystem()
	await _frames(10)
	while fs.is_scanning():
		await _frames(1)
	await _frames(10)
	match mode:
		"draw":
			await _draw_3d()
			await _draw_2d()
		"fresh":
			_fresh()
		_:
			check(false, "unknown ARGUS_EDITOR_TEST %s" % mode)
	if not finished:
		_finish()


# ---- fresh project ------------------------------------------------------------------------------

func _fresh() -> void:
	var ext := "res://addons/argus/argus.gdextension"
	check(GDExtensionManager.is_extension_loaded(ext), "the editor loaded %s" % ext)
	for cls in ["PerceptionWorld3D", "PerceptionWorld2D", "VisionSensor3D", "VisionSensor2D",
			"HearingSensor3D", "HearingSensor2D", "PerceptionTarget3D", "PerceptionTarget2D",
			"EnemyBrain", "InfluenceMap", "ArgusEditorPlugin"]:
		check(ClassDB.class_exists(cls), "class %s registered" % cls)
	var list := FileAccess.get_file_as_string("res://.godot/extension_list.cfg")
	check(list.contains(ext), "the editor wrote .godot/extension_list.cfg listing the add-on (got %s)" % list.strip_edges())
	# A node of the add-on made in the editor, as Create New Node does.
	var guard: Object = ClassDB.instantiate("VisionSensor3D")
	check(guard != null and guard.get("view_radius") > 0.0, "a VisionSensor3D made in the editor")
	if guard is Node:
		guard.free()


# ---- the editor picture ---------------------------------------------------------------------------

func _is_cone(c: Color) -> bool:
	# colors::CONE, white at 75 % (0xFFFFFFC0): over the editor's darkest backgrounds still above
	# 0.77 in every channel, and grey. The editor's grid lines are darker; the near sense is white
	# at 37 % and does not pass.
	return minf(c.r, minf(c.g, c.b)) > 0.77 and maxf(c.r, maxf(c.g, c.b)) - minf(c.r, minf(c.g, c.b)) < 0.12


func _is_sound(c: Color) -> bool:
	# colors::SOUND, #44AAFF at 63 %: blue well above red, green between.
	return c.b > c.r + 0.3 and c.g > c.r + 0.12 and c.b > c.g + 0.1


func _near(img: Image, p: Vector2, is_color: Callable) -> bool:
	var x0 := int(roundf(p.x))
	var y0 := int(roundf(p.y))
	for y in range(y0 - TOLERANCE_PX, y0 + TOLERANCE_PX + 1):
		for x in range(x0 - TOLERANCE_PX, x0 + TOLERANCE_PX + 1):
			if x >= 0 and y >= 0 and x < img.get_width() and y < img.get_height() and is_color.call(img.get_pixel(x, y)):
				return true
	return false


## How many of `points` (window pixels) have a pixel of the colour within the tolerance.
func _hits(img: Image, points: PackedVector2Array, is_color: Callable) -> int:
	var n := 0
	for p in points:
		if _near(img, p, is_color):
			n += 1
	return n


## Pixels of the colour inside `rect` (window pixels).
func _count(img: Image, rect: Rect2i, is_color: Callable) -> int:
	var r := rect.intersection(Rect2i(0, 0, img.get_width(), img.get_height()))
	var n := 0
	for y in range(r.position.y, r.end.y):
		for x in range(r.position.x, r.end.x):
			if is_color.call(img.get_pixel(x, y)):
				n += 1
	return n


## The editor window as drawn (the plugin's overlay is drawn over the viewport, in the window).
func _capture(name: String) -> Image:
	await _frames(3)
	await RenderingServer.frame_post_draw
	var img := get_tree().root.get_texture().get_image()
	img.convert(Image.FORMAT_RGBA8)
	if shots != "":
		img.save_png(shots.path_join("%s.png" % name))
	return img


func _select(nodes: Array) -> void:
	var sel := EditorInterface.get_selection()
	sel.clear()
	for n in nodes:
		sel.add_node(n)
	await _frames(10)


## The cone's two edges and its arc (`eye`, unit `forward` and `right`, radius) and the hearing
## ring (`feet`, radius) as points in the view, keeping those `to_window` puts inside `view`.
func _samples(to_window: Callable, view: Rect2, eye, forward, right, radius: float, half: float) -> PackedVector2Array:
	var out := PackedVector2Array()
	var pts := []
	for a in [-half, half]:
		var dir = forward * cos(a) + right * sin(a)
		for i in 16:
			pts.append(eye + dir * radius * lerpf(0.3, 0.95, i / 15.0))
	for i in 24:
		var a := lerpf(-half * 0.9, half * 0.9, i / 23.0)
		pts.append(eye + (forward * cos(a) + right * sin(a)) * radius)
	for p in pts:
		var w = to_window.call(p)
		if w != null and view.grow(-4).has_point(w):
			out.append(w)
	return out


func _ring(to_window: Callable, view: Rect2, center, u, v, radius: float) -> PackedVector2Array:
	var out := PackedVector2Array()
	for i in 48:
		var a := TAU * i / 48.0
		var w = to_window.call(center + (u * cos(a) + v * sin(a)) * radius)
		if w != null and view.grow(-4).has_point(w):
			out.append(w)
	return out


func _open(path: String, screen: String) -> Node:
	EditorInterface.open_scene_from_path(path)
	EditorInterface.set_main_screen_editor(screen)
	await _frames(20)
	var root := EditorInterface.get_edited_scene_root()
	check(root != null and root.scene_file_path == path, "the editor opened %s" % path)
	return root


## The points of `points` where `base` (the view with nothing selected) has no pixel of the colour
## nearby: where the view itself has that colour (the 3D editor's blue Z axis crossing the hearing
## ring, say) a point proves nothing.
func _clean(base: Image, points: PackedVector2Array, is_color: Callable) -> PackedVector2Array:
	var out := PackedVector2Array()
	for p in points:
		if not _near(base, p, is_color):
			out.append(p)
	return out


## The window pixels around `points`.
func _box(points: PackedVector2Array) -> Rect2i:
	if points.is_empty():
		return Rect2i()
	var r := Rect2(points[0], Vector2.ZERO)
	for p in points:
		r = r.expand(p)
	return Rect2i(r.grow(8))


## Checks one state of the picture: the cone and ring drawn at their points (`shown`) or not.
func _check_picture(what: String, img: Image, cone: PackedVector2Array, ring: PackedVector2Array, shown: bool) -> void:
	var cone_hits := _hits(img, cone, _is_cone)
	var ring_hits := _hits(img, ring, _is_sound)
	var cone_px := _count(img, _box(cone), _is_cone)
	print("editor-test: %s: cone at %d of %d points, hearing ring at %d of %d points, %d cone-coloured pixels around the cone" % [
		what, cone_hits, cone.size(), ring_hits, ring.size(), cone_px])
	check(cone.size() >= 20, "%s: at least 20 points of the cone in view (%d)" % [what, cone.size()])
	check(ring.size() >= 20, "%s: at least 20 points of the hearing ring in view (%d)" % [what, ring.size()])
	if shown:
		check(cone_hits >= cone.size() * 0.9, "%s: the cone drawn where the view puts it (%d of %d points)" % [what, cone_hits, cone.size()])
		check(ring_hits >= ring.size() * 0.9, "%s: the hearing ring drawn where the view puts it (%d of %d points)" % [what, ring_hits, ring.size()])
	else:
		check(cone_hits == 0, "%s: no cone drawn (at %d of %d points)" % [what, cone_hits, cone.size()])
		check(ring_hits == 0, "%s: no hearing ring drawn (at %d of %d points)" % [what, ring_hits, ring.size()])
		check(cone_px < 10, "%s: no cone-coloured pixels around the cone's place (%d)" % [what, cone_px])


func _draw_3d() -> void:
	var root := await _open("res://guard_3d.tscn", "3D")
	if root == null:
		return
	var guard: Node3D = root.get_node_or_null("Guard")
	var ears: Node = root.get_node_or_null("Guard/Ears")
	check(guard != null and guard.is_class("VisionSensor3D") and ears != null and ears.is_class("HearingSensor3D"),
		"guard_3d.tscn holds a VisionSensor3D with a HearingSensor3D")
	if guard == null or ears == null:
		return
	var vp := EditorInterface.get_editor_viewport_3d(0)
	var container := vp.get_parent() as Control
	var cam := vp.get_camera_3d()
	var view := container.get_global_rect()
	print("editor-test: 3D view %s, subviewport %s, camera at %s" % [view, vp.size, cam.global_position])
	var to_window := func(p: Vector3):
		if cam.is_position_behind(p):
			return null
		return view.position + cam.unproject_position(p)
	var expected := func() -> Array:
		var forward := -guard.global_basis.z.normalized()
		var right := forward.cross(Vector3.UP).normalized()
		var eye: Vector3 = guard.global_position + Vector3.UP * guard.eye_height
		var half: float = deg_to_rad(guard.view_angle) * 0.5
		var reach: float = ears.hearing_sensitivity * 15.0
		return [_samples(to_window, view, eye, forward, right, guard.view_radius, half),
			_ring(to_window, view, guard.global_position, Vector3.RIGHT, Vector3.BACK, reach)]
	await _pictures("3d", guard, ears, expected, func(): guard.position = Vector3(-0.8, 0.0, 0.4))


func _draw_2d() -> void:
	var root := await _open("res://guard_2d.tscn", "2D")
	if root == null:
		return
	var guard: Node2D = root.get_node_or_null("Guard")
	var ears: Node = root.get_node_or_null("Guard/Ears")
	check(guard != null and guard.is_class("VisionSensor2D") and ears != null and ears.is_class("HearingSensor2D"),
		"guard_2d.tscn holds a VisionSensor2D with a HearingSensor2D")
	if guard == null or ears == null:
		return
	var vp := EditorInterface.get_editor_viewport_2d()
	var container := vp.get_parent() as Control
	var view := container.get_global_rect()
	print("editor-test: 2D view %s, subviewport %s" % [view, vp.size])
	var to_window := func(p: Vector2):
		return view.position + guard.get_viewport_transform() * p
	var expected := func() -> Array:
		var forward: Vector2 = Vector2.RIGHT.rotated(guard.global_rotation)
		var right: Vector2 = forward.orthogonal()
		var half: float = deg_to_rad(guard.view_angle) * 0.5
		var reach: float = ears.hearing_sensitivity * 15.0 * 64.0
		return [_samples(to_window, view, guard.global_position, forward, right, guard.view_radius, half),
			_ring(to_window, view, guard.global_position, Vector2.RIGHT, Vector2.DOWN, reach)]
	await _pictures("2d", guard, ears, expected, func(): guard.position += Vector2(-120, 60))


## The selection states of one scene: nothing, the guard, its hearing child, the guard moved while
## selected (the picture follows), nothing again. The points are checked where the view with
## nothing selected lacks the colour; nearly all must be (nothing is drawn there then).
func _pictures(dim: String, guard: Node, ears: Node, expected: Callable, move: Callable) -> void:
	await _select([])
	var base := await _capture("%s-none" % dim)
	var e: Array = expected.call()
	var cone := _clean(base, e[0], _is_cone)
	var ring := _clean(base, e[1], _is_sound)
	print("editor-test: %s nothing selected: %d of %d cone points and %d of %d ring points free of the colour" % [
		dim, cone.size(), e[0].size(), ring.size(), e[1].size()])
	check(cone.size() >= e[0].size() * 0.8 and e[0].size() > 0, "%s nothing selected: no cone at its place (%d of %d points clear)" % [dim, cone.size(), e[0].size()])
	check(ring.size() >= e[1].size() * 0.8 and e[1].size() > 0, "%s nothing selected: no hearing ring at its place (%d of %d points clear)" % [dim, ring.size(), e[1].size()])
	_check_picture("%s nothing selected" % dim, base, cone, ring, false)
	await _select([guard])
	_check_picture("%s guard selected" % dim, await _capture("%s-guard" % dim), cone, ring, true)
	await _select([ears])
	_check_picture("%s hearing sensor selected" % dim, await _capture("%s-ears" % dim), cone, ring, true)
	await _select([guard])
	move.call()
	await _frames(5)
	var moved: Array = expected.call()
	var moved_cone := _clean(base, moved[0], _is_cone)
	var moved_ring := _clean(base, moved[1], _is_sound)
	var img := await _capture("%s-moved" % dim)
	_check_picture("%s guard moved while selected" % dim, img, moved_cone, moved_ring, true)
	var left := _hits(img, cone, _is_cone)
	check(left < cone.size() * 0.5, "%s: the cone left its old place once the guard moved (%d of %d old points still drawn)" % [dim, left, cone.size()])
	await _select([])
	_check_picture("%s selection cleared" % dim, await _capture("%s-cleared" % dim), moved_cone, moved_ring, false)
