## Engine tests of recordings (tracker issues #37, #46) on PerceptionWorld3D and PerceptionWorld2D:
## start and stop through the nodes, the file written with FileAccess and verified by the core's
## replay, focus, the errors, physics-ray worlds, record_on_ready (streamed to its file), a
## recording streamed from a script, the flight recorder (saved by a call and by an input action,
## each saved window verified alone), a world freed mid-recording, and the node names a recording
## holds (recording_labels), renames included.
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
	await test_stream_to_file()
	await test_flight_recorder_3d()
	await test_flight_recorder_action()
	await test_flight_recorder_2d()
	await test_names_3d()
	await test_names_2d()
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
	t.check(w.is_recording() and not w.is_flight_recording(), "recording from _ready")
	t.check(FileAccess.file_exists(path), "streamed: the file is created at _ready")
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
	t.check(not d.flight_recorder and d.flight_recorder_seconds == 30.0 and d.save_flight_recording_action == &""
		and d.flight_recording_path == "user://argus-flight-{time}.argusrec",
		"the flight recorder's defaults: off, 30 s, no action, user://argus-flight-{time}.argusrec")
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

## start_recording_to_file: streamed as it goes; only its own file ends it; a freed world makes it whole.
func test_stream_to_file() -> void:
	var s := scene_3d()
	var w: PerceptionWorld3D = s.world
	var path := "user://streamed_3d.argusrec"
	if FileAccess.file_exists(path):
		DirAccess.remove_absolute(path)
	await frames(2)
	errors.take()
	t.check(not w.start_recording_to_file("", []), "an empty path: false")
	t.check("empty" in errors.take() and not w.is_recording(), "said, nothing started")
	t.check(not w.start_recording_to_file("user://no/such/folder/s.argusrec", []), "a folder that does not exist: false")
	t.check("no/such/folder" in errors.take() and not w.is_recording(), "named, nothing started")
	t.check(w.start_recording_to_file(path, [s.guard]), "start_recording_to_file(path, focus)")
	t.check(FileAccess.file_exists(path) and w.is_recording(), "the file exists from the start")
	for i in 10:
		s.target.position.x = 0.5 * i
		await physics_frame
	t.check(w.stop_recording("user://elsewhere.argusrec") == ERR_INVALID_PARAMETER, "stop_recording to another file: refused")
	var said := errors.take()
	t.check("streamed_3d.argusrec" in said and "elsewhere" in said and w.is_recording(), "named, and it goes on: %s" % said)
	t.check(w.stop_recording_bytes().is_empty() and "straight to" in errors.take() and w.is_recording(),
		"stop_recording_bytes on a streamed recording: refused, it goes on")
	await frames(2)
	t.check(w.stop_recording("") == OK and not w.is_recording(), "stop_recording(\"\") ends it in its file")
	t.check(PerceptionWorld3D.verify_recording(path) >= 12, "the streamed file verifies (%d)" % PerceptionWorld3D.verify_recording(path))
	# A world freed while it streams makes its file whole.
	var freed := "user://streamed_freed.argusrec"
	t.check(w.start_recording_to_file(freed, []), "streams again")
	await frames(3)
	errors.take()
	w.free()
	t.check(errors.take() == "", "no warning: nothing is discarded")
	t.check(PerceptionWorld3D.verify_recording(freed) >= 3, "the freed world's file is whole and verifies")
	clear()

## Files in user:// whose name starts with `prefix`.
func user_files(prefix: String) -> PackedStringArray:
	var out := PackedStringArray()
	for f in DirAccess.get_files_at("user://"):
		if f.begins_with(prefix):
			out.append("user://" + f)
	return out

func remove_user_files(prefix: String) -> void:
	for f in user_files(prefix):
		DirAccess.remove_absolute(f)

## The flight recorder of a running world: keeps the last seconds; each saved window verifies alone.
func test_flight_recorder_3d() -> void:
	remove_user_files("flight3d-")
	var w := PerceptionWorld3D.new()
	w.name = "Flight3D"
	w.auto_step = false
	w.flight_recorder = true
	w.flight_recorder_seconds = 3.0
	w.flight_recording_path = "user://flight3d-{time}.argusrec"
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	var target := H.target_3d(w, Vector3(0, 0, -4))
	errors.take()
	root.add_child(w)
	t.check(w.is_recording() and w.is_flight_recording(), "flight_recorder starts at _ready")
	for i in 200:  # 20 s of 0.1 s steps
		target.position.x = sin(i * 0.1) * 3.0
		w.step(0.1)
	var path := "user://flight_3d.argusrec"
	t.check(w.save_flight_recording(path) == OK, "save_flight_recording(path) returns OK")
	var steps := PerceptionWorld3D.verify_recording(path)
	t.check(steps >= 30 and steps < 100, "the saved window verifies alone: at least the 3 s kept, not the 20 s (%d steps)" % steps)
	t.check(magic(path) == "ARGUSREC", "a recording file")
	t.check(w.is_flight_recording(), "saving does not stop the flight recorder")
	for i in 5:
		w.step(0.1)
	t.check(w.save_flight_recording("") == OK and w.save_flight_recording("") == OK, "save_flight_recording(\"\") twice")
	var saved := user_files("flight3d-")
	t.check(saved.size() == 2, "two files from flight_recording_path, {time} replaced, one per save: %s" % [saved])
	for f in saved:
		t.check(not ("{time}" in f) and PerceptionWorld3D.verify_recording(f) >= 30, "%s verifies" % f)
	t.check(errors.take() == "", "no error on the way")
	# Misuse: refused, the flight recorder goes on.
	t.check(not w.start_recording([]), "start while the flight recorder runs: false")
	t.check("already recording" in errors.take() and w.is_flight_recording(), "said; it goes on")
	t.check(w.save_flight_recording("user://no/such/folder/f.argusrec") != OK, "an unopenable path: not OK")
	t.check("no/such/folder" in errors.take() and w.is_flight_recording(), "named; it goes on")
	# stop_recording(path): the window saved there, then stopped.
	w.step(0.1)
	t.check(w.stop_recording("user://flight_stop.argusrec") == OK and not w.is_recording(), "stop_recording(path) saves and stops")
	t.check(PerceptionWorld3D.verify_recording("user://flight_stop.argusrec") >= 30, "the stopped window verifies")
	t.check(w.save_flight_recording("user://never_flight.argusrec") == ERR_UNCONFIGURED, "save when not recording: ERR_UNCONFIGURED")
	var said := errors.take()
	t.check("Flight3D" in said and "flight recorder" in said and not FileAccess.file_exists("user://never_flight.argusrec"),
		"the error names the world and the reason, no file: %s" % said)
	t.check(w.start_recording([]), "a recording in memory")
	t.check(w.save_flight_recording("user://never_flight.argusrec") == ERR_UNCONFIGURED and w.is_recording()
		and not w.is_flight_recording(), "save while recording in memory: refused, the recording goes on")
	errors.take()
	w.stop_recording_bytes()
	w.flight_recorder_seconds = 0.0
	t.check(not w.start_flight_recorder([]) and not w.is_recording(), "start_flight_recorder with 0 s: false, nothing started")
	t.check("flight_recorder_seconds" in errors.take(), "said")
	w.flight_recorder_seconds = 2.0
	t.check(w.start_flight_recorder([g]) and w.is_flight_recording(), "start_flight_recorder(focus)")
	for i in 4:
		w.step(0.1)
	var bytes := w.stop_recording_bytes()
	t.check(bytes.slice(0, 8).get_string_from_ascii() == "ARGUSREC" and not w.is_recording(),
		"stop_recording_bytes returns the flight recorder's window and stops (%d bytes)" % bytes.size())
	# Freed while the flight recorder runs: dropped quietly.
	t.check(w.start_flight_recorder([]), "again")
	w.step(0.1)
	errors.take()
	w.free()
	t.check(errors.take() == "", "a world freed with its flight recorder running says nothing (written only when asked)")
	remove_user_files("flight3d-")

## The save_flight_recording_action input action saves the window ("save the last 30 s" on a key).
func test_flight_recorder_action() -> void:
	var path := "user://flight_action.argusrec"
	if FileAccess.file_exists(path):
		DirAccess.remove_absolute(path)
	var key := InputEventKey.new()
	key.keycode = KEY_F9
	key.pressed = true
	InputMap.add_action(&"argus_test_save_flight")
	InputMap.action_add_event(&"argus_test_save_flight", key)
	var w := PerceptionWorld3D.new()
	w.name = "FlightKey"
	w.flight_recorder = true
	w.save_flight_recording_action = &"argus_test_save_flight"
	w.flight_recording_path = path
	H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	H.target_3d(w, Vector3(0, 0, -4))
	errors.take()
	root.add_child(w)
	await frames(10)
	var other := InputEventKey.new()
	other.keycode = KEY_F8
	other.pressed = true
	root.push_input(other)
	t.check(not FileAccess.file_exists(path), "another key saves nothing")
	root.push_input(key)
	t.check(FileAccess.file_exists(path), "the action's key saved the window")
	var steps := PerceptionWorld3D.verify_recording(path)
	t.check(steps >= 10, "a flight recording saved from a running world by its action verifies (%d steps)" % steps)
	t.check(w.is_flight_recording(), "and the flight recorder goes on")
	# Set to an action the Input Map lacks: a warning at _ready, and no error at each event.
	var w2 := PerceptionWorld3D.new()
	w2.name = "FlightNoAction"
	w2.flight_recorder = true
	w2.save_flight_recording_action = &"no_such_action"
	root.add_child(w2)
	t.check("no_such_action" in errors.take(), "an action missing from the Input Map is reported at _ready")
	root.push_input(key)
	t.check(errors.take() == "", "no error per input event")
	InputMap.erase_action(&"argus_test_save_flight")
	clear()

## The 2D world's flight recorder, and record_on_ready winning over flight_recorder (with a warning).
func test_flight_recorder_2d() -> void:
	var s := scene_2d()
	var w: PerceptionWorld2D = s.world
	await frames(2)
	errors.take()
	w.flight_recorder_seconds = 1.0
	t.check(w.start_flight_recorder([]), "a 2D world's flight recorder")
	for i in 10:
		s.target.position.y = 30.0 * i
		await physics_frame
	var path := "user://flight_2d.argusrec"
	t.check(w.save_flight_recording(path) == OK, "saved")
	var steps := PerceptionWorld2D.verify_recording(path)
	t.check(steps >= 10, "a 2D flight recording saved from a running world verifies (%d steps)" % steps)
	t.check(errors.take() == "", "no error")
	clear()
	var both_path := "user://both.argusrec"
	var both := PerceptionWorld2D.new()
	both.name = "Both2D"
	both.record_on_ready = true
	both.flight_recorder = true
	both.recording_path = both_path
	root.add_child(both)
	var said := errors.take()
	t.check(both.is_recording() and not both.is_flight_recording() and "flight_recorder is ignored" in said,
		"record_on_ready wins over flight_recorder, with a warning: %s" % said)
	await frames(3)
	root.remove_child(both)
	t.check(PerceptionWorld2D.verify_recording(both_path) >= 3, "and its streamed file verifies")
	both.free()

## Names (#46): a 3D recording holds its sensors', targets' and walls' node names, as they were
## at each step (renamed before and while recording), read back by replaying it.
func test_names_3d() -> void:
	var w := PerceptionWorld3D.new()
	w.name = "NamesWorld3D"
	root.add_child(w)
	var box := BoxShape3D.new()
	box.size = Vector3(2, 4, 0.5)
	var wall := H.wall_3d(w, box, Transform3D(Basis(), Vector3(3, 1, -5)))
	wall.name = "NorthWall"
	# One body, two shapes: each wall says which.
	var pillars := H.wall_3d(w, box, Transform3D(Basis(), Vector3(-3, 1, -5)))
	pillars.name = "Pillars"
	pillars.get_child(0).name = "West"
	var east := CollisionShape3D.new()
	east.shape = box
	east.name = "East"
	east.position = Vector3(-2, 0, 0)
	pillars.add_child(east)
	w.register_occluders()
	# Registered under the names add_child gave them, then renamed (as a spawner does).
	var g := H.guard_3d(w, Vector3.ZERO, Vector3(0, 0, -1))
	g.name = "G1"
	var target := H.target_3d(w, Vector3(0, 0, -6))
	target.name = "Élodie the player"
	await frames(2)
	errors.take()
	t.check(w.start_recording([]), "record")
	await frames(3)
	g.name = "G1_alerted"
	wall.name = "SouthWall"
	await frames(3)
	var path := "user://names_3d.argusrec"
	t.check(w.stop_recording(path) == OK, "stopped to a file")
	var names := PerceptionWorld3D.recording_labels(path, -1)
	t.check(names.get("agents") == PackedStringArray(["G1_alerted"]),
		"the guard's node name, as renamed while recording: %s" % names)
	t.check(names.get("targets") == PackedStringArray(["Élodie the player"]), "the target's node name: %s" % names)
	var walls: PackedStringArray = names.get("occluders", PackedStringArray())
	walls.sort()
	t.check(walls == PackedStringArray(["Pillars/East", "Pillars/West", "SouthWall"]),
		"walls by their bodies' names (Body/Shape for a body of several shapes), a renamed wall's new name: %s" % walls)
	var early := PerceptionWorld3D.recording_labels(path, 2)
	var early_walls: PackedStringArray = early.get("occluders", PackedStringArray())
	t.check(early.get("agents") == PackedStringArray(["G1"]) and "NorthWall" in early_walls,
		"after 2 steps, before the renames: the names of then: %s" % early)
	t.check(errors.take() == "", "no error on the way")
	var none := PerceptionWorld3D.recording_labels("user://no_such.argusrec", -1)
	t.check(none.is_empty() and "no_such.argusrec" in errors.take(), "a missing file: empty, with an error naming it")
	none = PerceptionWorld3D.recording_labels(path, 1000)
	var said := errors.take()
	t.check(none.is_empty() and "1000" in said, "more steps than recorded: empty, with an error: %s" % said)
	clear()

## Names in 2D: a guard, a target renamed while recording, a wall.
func test_names_2d() -> void:
	var w := PerceptionWorld2D.new()
	w.name = "NamesWorld2D"
	root.add_child(w)
	var rect := RectangleShape2D.new()
	rect.size = Vector2(40, 200)
	var wall := H.wall_2d(w, rect, Transform2D(0.0, Vector2(200, 120)))
	wall.name = "Crate"
	w.register_occluders()
	var g := H.guard_2d(w, Vector2.ZERO, Vector2(1, 0))
	g.name = "Späher"
	var target := H.target_2d(w, Vector2(400, 0))
	target.name = "Runner"
	await frames(2)
	errors.take()
	t.check(w.start_recording([]), "a 2D world records")
	await frames(2)
	target.name = "Runner_spotted"
	await frames(2)
	var path := "user://names_2d.argusrec"
	t.check(w.stop_recording(path) == OK, "stopped to a file")
	var names := PerceptionWorld2D.recording_labels(path, -1)
	t.check(names.get("agents") == PackedStringArray(["Späher"]) and names.get("targets") == PackedStringArray(["Runner_spotted"])
		and names.get("occluders") == PackedStringArray(["Crate"]), "2D: the node names, a rename included: %s" % names)
	t.check(PerceptionWorld2D.recording_labels(path, 1).get("targets") == PackedStringArray(["Runner"]),
		"2D: after the first step, the name before the rename")
	t.check(errors.take() == "", "no error")
	clear()
