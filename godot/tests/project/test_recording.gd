## Engine tests of recordings (tracker issue #37) on PerceptionWorld3D and PerceptionWorld2D:
## start and stop through the nodes, the file written with FileAccess and verified by the core's
## replay, focus, the errors, physics-ray worlds, record_on_ready, and a world freed mid-recording.
extends SceneTree

const H = preload("res://harness.gd")
var t := H.new()
var errors := H.ErrorLog.new()

func _initialize() -> void:
	t.suite = "recording"
	OS.add_logger(errors)
	run.call_deferred()

func frames(n: int) -> void:
	for i in n:
		await physics_frame

func clear() -> void:
	for c in root.get_children():
		root.remove_child(c)
		c.free()

func run() -> void:
	await test_record_3d()
	await test_errors_3d()
	await test_focus_3d()
	await test_physics_rays_3d()
	await test_record_2d()
	await test_physics_rays_2d()
	await test_record_on_ready()
	await test_freed_while_recording()
	test_verify_bad_files()
	print("recording: %d passed, %d failed" % [t.passed, t.failed])
	quit(1 if t.failed > 0 else 0)

## The first 8 bytes of a file as text.
func magic(path: String) -> String:
	return FileAccess.get_file_as_bytes(path).slice(0, 8).get_string_from_ascii()

## A 3D scene: a guard, a walking target, a wall beside them.
func scene_3d(physics_rays: bool = false) -> Dictionary:
	var w := PerceptionWorld3D.new()
	w.name = "RecWorld3D"
	w.use_physics_rays = physics_rays
	root.add_child(w)
	var box := BoxShape3D.new()
	box.size = Vector3(2, 4, 0.5)
	H.wall_3d(w, box, Transform3D(Basis(), Vector3(3, 1, -5)))
	w.register_occluders()
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	g.name = "Guard"
	var target := H.target_3d(w, Vector3(0, 0, -6))
	target.name = "Walker"
	return {"world": w, "guard": g, "target": target}

func test_record_3d() -> void:
	var s := scene_3d()
	var w: PerceptionWorld3D = s.world
	var target: PerceptionTarget3D = s.target
	await frames(2)
	errors.take()
	t.check(not w.is_recording(), "a world does not record by default")
	t.check(w.start_recording([]), "start_recording([]) records every agent")
	t.check(w.is_recording(), "is_recording() is true while recording")
	for i in 12:
		target.position.x = 0.5 * i  # walks behind the wall and out of view
		if i == 4:
			w.emit_sound(Vector3(1, 0, -2), 10.0, target)
		if i == 6:
			w.set_attitude(1, 2, 1)
		await physics_frame
	var path := "user://rec_3d.argusrec"
	var rc := w.stop_recording(path)
	t.check(rc == OK, "stop_recording(path) returns OK (%s)" % rc)
	t.check(not w.is_recording(), "the world no longer records")
	t.check(FileAccess.file_exists(path), "the file exists")
	t.check(magic(path) == "ARGUSREC", "the file starts with ARGUSREC (%s)" % magic(path))
	var steps := PerceptionWorld3D.verify_recording(path)
	t.check(steps >= 12, "the core replays every recorded step exactly (%d)" % steps)
	t.check(errors.take() == "", "no error or warning on the way")
	# A second recording of the same world, as bytes.
	t.check(w.start_recording([]), "the world records again after a stop")
	await frames(3)
	var bytes := w.stop_recording_bytes()
	t.check(bytes.slice(0, 8).get_string_from_ascii() == "ARGUSREC" and not w.is_recording(),
		"stop_recording_bytes() returns the recording and stops it (%d bytes)" % bytes.size())
	clear()

func test_errors_3d() -> void:
	var s := scene_3d()
	var w: PerceptionWorld3D = s.world
	errors.take()
	var rc := w.stop_recording("user://never.argusrec")
	var said := errors.take()
	t.check(rc != OK, "stop_recording when not recording: not OK (%s)" % rc)
	t.check("RecWorld3D" in said and "not recording" in said and "user://never.argusrec" in said,
		"the error names the world, the reason and the path: %s" % said)
	t.check(not FileAccess.file_exists("user://never.argusrec"), "and writes no file")
	var empty := w.stop_recording_bytes()
	t.check(empty.is_empty() and "not recording" in errors.take(), "stop_recording_bytes when not recording: empty, with an error")
	t.check(w.start_recording([]), "start")
	t.check(not w.start_recording([]), "start twice: false")
	said = errors.take()
	t.check("RecWorld3D" in said and "already recording" in said, "the error names the world and the reason: %s" % said)
	t.check(w.is_recording(), "the first recording goes on")
	await frames(3)
	var bad := "user://no/such/folder/rec.argusrec"
	rc = w.stop_recording(bad)
	said = errors.take()
	t.check(rc != OK and "RecWorld3D" in said and bad in said, "a path that cannot be opened: not OK, named: %s" % said)
	t.check(w.is_recording(), "the world keeps recording when the file cannot be opened")
	await frames(2)
	var path := "user://after_bad_path.argusrec"
	t.check(w.stop_recording(path) == OK and PerceptionWorld3D.verify_recording(path) >= 5,
		"stopping to a good path afterwards keeps every step")
	clear()

func test_focus_3d() -> void:
	var s := scene_3d()
	var w: PerceptionWorld3D = s.world
	var g: VisionSensor3D = s.guard
	var other := H.guard_3d(w, Vector3(2, 0, 0), Vector3(0, 0, -1))
	errors.take()
	t.check(not w.start_recording([s.target]), "a focus node that is not a sensor: false")
	var said := errors.take()
	t.check("RecWorld3D" in said and "Walker" in said and "VisionSensor3D" in said,
		"the error names the world, the node and what it should be: %s" % said)
	t.check(not w.is_recording(), "nothing started")
	t.check(not w.start_recording([42]), "a focus entry that is not a node: false")
	t.check("not a node" in errors.take(), "and says so")
	var loose := VisionSensor3D.new()
	loose.name = "Unregistered"
	t.check(not w.start_recording([loose]), "a sensor outside the tree (not registered): false")
	t.check("Unregistered" in errors.take() and not w.is_recording(), "named, nothing started")
	loose.free()
	var w2 := PerceptionWorld3D.new()
	root.add_child(w2)
	var elsewhere := H.guard_3d(w2, Vector3(0, 0, 5), Vector3(0, 0, 1))
	elsewhere.name = "OtherWorldGuard"
	t.check(elsewhere.is_registered() and not w.start_recording([g, elsewhere]), "a sensor of another world: false")
	said = errors.take()
	t.check("OtherWorldGuard" in said and "registered in this world" in said and not w.is_recording(),
		"named, nothing started: %s" % said)
	var typed: Array[VisionSensor3D] = [g]
	t.check(w.start_recording(typed), "a typed Array[VisionSensor3D] focus is accepted")
	await frames(4)
	var path := "user://focus_3d.argusrec"
	t.check(w.stop_recording(path) == OK and PerceptionWorld3D.verify_recording(path) >= 4, "a focused recording verifies")
	var focused := FileAccess.get_file_as_bytes(path).size()
	t.check(w.start_recording([]), "every agent")
	await frames(4)
	w.stop_recording("user://all_3d.argusrec")
	var everyone := FileAccess.get_file_as_bytes("user://all_3d.argusrec").size()
	t.check(everyone > focused, "recording every agent holds more than one in focus (%d > %d)" % [everyone, focused])
	t.check(other.is_registered() and errors.take() == "", "no error for the valid calls")
	clear()

func test_physics_rays_3d() -> void:
	var s := scene_3d(true)
	var w: PerceptionWorld3D = s.world
	var target: PerceptionTarget3D = s.target
	await frames(2)
	errors.take()
	t.check(w.start_recording([]), "a physics-ray world records")
	var seen := 0
	for i in 10:
		target.position.x = 0.6 * i
		await physics_frame
		if s.guard.can_see(target):
			seen += 1
	t.check(seen > 0 and seen < 10, "the wall hides the walker part of the way (%d of 10)" % seen)
	var path := "user://rays_3d.argusrec"
	t.check(w.stop_recording(path) == OK, "stopped to a file")
	var steps := PerceptionWorld3D.verify_recording(path)
	t.check(steps >= 10, "a recording of a physics-ray world replays with the engine's ray answers (%d)" % steps)
	t.check(errors.take() == "", "no error")
	clear()

## A 2D scene in pixels: a guard, a walking target, a wall.
func scene_2d(physics_rays: bool = false) -> Dictionary:
	var w := PerceptionWorld2D.new()
	w.name = "RecWorld2D"
	w.use_physics_rays = physics_rays
	root.add_child(w)
	var rect := RectangleShape2D.new()
	rect.size = Vector2(40, 200)
	H.wall_2d(w, rect, Transform2D(0.0, Vector2(200, 120)))
	w.register_occluders()
	var g := H.guard_2d(w, Vector2.ZERO, Vector2(1, 0))
	g.name = "Guard2D"
	var target := H.target_2d(w, Vector2(400, 0))
	return {"world": w, "guard": g, "target": target}

func test_record_2d() -> void:
	var s := scene_2d()
	var w: PerceptionWorld2D = s.world
	var target: PerceptionTarget2D = s.target
	await frames(2)
	errors.take()
	t.check(w.start_recording([s.guard]), "a 2D world records (a 2D sensor in focus)")
	for i in 10:
		target.position.y = 30.0 * i
		await physics_frame
	var path := "user://rec_2d.argusrec"
	t.check(w.stop_recording(path) == OK and magic(path) == "ARGUSREC", "a 2D recording is written")
	var steps := PerceptionWorld2D.verify_recording(path)
	t.check(steps >= 10, "a 2D recording verifies (%d steps)" % steps)
	t.check(not w.start_recording([H.target_2d(w, Vector2.ONE)]), "2D: a target as focus is refused")
	t.check("VisionSensor2D" in errors.take(), "naming the 2D sensor class")
	t.check(w.start_recording([]) and not w.start_recording([]), "2D: start twice is refused")
	t.check("RecWorld2D" in errors.take(), "naming the 2D world")
	t.check(w.stop_recording("user://rec_2d_b.argusrec") == OK and w.stop_recording("user://rec_2d_c.argusrec") != OK,
		"2D: a second stop is refused")
	errors.take()
	clear()

func test_physics_rays_2d() -> void:
	var s := scene_2d(true)
	var w: PerceptionWorld2D = s.world
	var target: PerceptionTarget2D = s.target
	await frames(2)
	errors.take()
	t.check(w.start_recording([]), "a 2D physics-ray world records")
	for i in 10:
		target.position.y = 30.0 * i
		await physics_frame
	var path := "user://rays_2d.argusrec"
	t.check(w.stop_recording(path) == OK, "stopped to a file")
	var steps := PerceptionWorld2D.verify_recording(path)
	t.check(steps >= 10, "a 2D physics-ray recording verifies (%d)" % steps)
	t.check(errors.take() == "", "no error")
	clear()

## record_on_ready: a recording without script, written when the world leaves the tree.
func test_record_on_ready() -> void:
	var path := "user://on_ready.argusrec"
	if FileAccess.file_exists(path):
		DirAccess.remove_absolute(path)
	var w := PerceptionWorld3D.new()
	w.name = "Designer"
	w.record_on_ready = true
	w.recording_path = path
	H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	H.target_3d(w, Vector3(0, 0, -4))
	t.check(w.recording_path == path and not w.is_recording(), "not recording before _ready")
	root.add_child(w)
	t.check(w.is_recording(), "recording from _ready")
	await frames(5)
	errors.take()
	root.remove_child(w)
	t.check(not w.is_recording(), "leaving the tree stops the recording")
	t.check(FileAccess.file_exists(path) and PerceptionWorld3D.verify_recording(path) >= 5,
		"and writes recording_path, which verifies")
	w.free()
	t.check(errors.take() == "", "no error or warning (the recording was written)")
	var d := PerceptionWorld2D.new()
	t.check(d.recording_path == "user://argus.argusrec" and not d.record_on_ready, "the defaults: off, user://argus.argusrec")
	d.free()

## A world freed while it records says the recording is discarded, once.
func test_freed_while_recording() -> void:
	var s := scene_3d()
	var w: PerceptionWorld3D = s.world
	w.start_recording([])
	await frames(2)
	errors.take()
	w.free()
	var said := errors.take()
	t.check(said.count("discarded") == 1 and "RecWorld3D" in said, "one warning naming the world: %s" % said)
	clear()

func test_verify_bad_files() -> void:
	errors.take()
	t.check(PerceptionWorld3D.verify_recording("user://missing.argusrec") == -1, "a missing file: -1")
	var said := errors.take()
	t.check("user://missing.argusrec" in said, "the error names the path: %s" % said)
	var f := FileAccess.open("user://not_a_recording.argusrec", FileAccess.WRITE)
	f.store_string("hello, this is not a recording")
	f.close()
	t.check(PerceptionWorld2D.verify_recording("user://not_a_recording.argusrec") == -1, "not a recording: -1")
	t.check("not_a_recording" in errors.take(), "named")
	var bytes := FileAccess.get_file_as_bytes("user://rec_3d.argusrec")
	bytes.resize(bytes.size() - 10)
	f = FileAccess.open("user://truncated.argusrec", FileAccess.WRITE)
	f.store_buffer(bytes)
	f.close()
	t.check(PerceptionWorld3D.verify_recording("user://truncated.argusrec") == -1, "a truncated recording: -1")
	said = errors.take()
	t.check("truncated.argusrec" in said and "recording" in said, "with the core's reason: %s" % said)
