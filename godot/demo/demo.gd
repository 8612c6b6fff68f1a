## Argus demo: a walled yard, a guard that sees, hears, chases and searches, and a player you
## move with the arrow keys or WASD (hold Shift to run: loud footsteps). The guard's cone, its
## sight rays and its memory are drawn every frame from the add-on's debug-draw buffer.
## Headless smoke run: godot --headless --path godot/demo -- --frames 300
extends Node3D

var world: PerceptionWorld3D
var guard: VisionSensor3D
var brain: EnemyBrain
var player: Node3D
var lines: MeshInstance3D
var mesh := ImmediateMesh.new()
var material := StandardMaterial3D.new()
var scripted := false
var frame := 0
var max_frames := -1
var step_timer := 0.0
var patrol := [Vector3(-6, 0, -6), Vector3(6, 0, -6), Vector3(6, 0, 6), Vector3(-6, 0, 6)]
var patrol_index := 0

func _ready() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() >= 2 and args[0] == "--frames":
		max_frames = int(args[1])
		scripted = true
	world = PerceptionWorld3D.new()
	add_child(world)
	for w in [[Vector3(0, 1, 0), Vector3(4, 2, 0.4)], [Vector3(-4, 1, 3), Vector3(0.4, 2, 4)], [Vector3(4, 1, -3), Vector3(0.4, 2, 3)]]:
		add_wall(w[0], w[1])
	world.register_occluders()
	guard = VisionSensor3D.new()
	guard.view_radius = 12.0
	guard.view_angle = 80.0
	guard.add_child(HearingSensor3D.new())
	brain = EnemyBrain.new()
	guard.add_child(brain)
	guard.add_child(make_body(Color(0.9, 0.2, 0.2)))
	world.add_child(guard)
	guard.position = patrol[0]
	player = Node3D.new()
	player.add_child(make_body(Color.WHITE))
	player.add_child(PerceptionTarget3D.new())
	world.add_child(player)
	player.position = Vector3(0, 0, 5)
	brain.state_changed.connect(func(a, b): print("t=%.2f guard: %s -> %s" % [world.get_time(), state_name(a), state_name(b)]))
	guard.target_seen.connect(func(_t): print("t=%.2f guard sees the player" % world.get_time()))
	guard.target_lost.connect(func(_t): print("t=%.2f guard lost sight of the player" % world.get_time()))
	lines = MeshInstance3D.new()
	lines.mesh = mesh
	material.vertex_color_use_as_albedo = true
	material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	lines.material_override = material
	add_child(lines)
	var cam := Camera3D.new()
	cam.position = Vector3(0, 22, 10)
	add_child(cam)
	cam.look_at(Vector3.ZERO)
	var sun := DirectionalLight3D.new()
	sun.rotation = Vector3(-1.0, 0.5, 0)
	add_child(sun)

func state_name(s: int) -> String:
	return ["idle", "investigating", "chasing", "searching"][s]

func add_wall(center: Vector3, size: Vector3) -> void:
	var body := StaticBody3D.new()
	body.add_to_group("argus_occluders")
	var cs := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = size
	cs.shape = box
	body.add_child(cs)
	var mi := MeshInstance3D.new()
	var bm := BoxMesh.new()
	bm.size = size
	mi.mesh = bm
	body.add_child(mi)
	body.position = center
	add_child(body)

func make_body(color: Color) -> MeshInstance3D:
	var mi := MeshInstance3D.new()
	var cap := CapsuleMesh.new()
	cap.radius = 0.35
	cap.height = 1.8
	var mat := StandardMaterial3D.new()
	mat.albedo_color = color
	cap.material = mat
	mi.mesh = cap
	mi.position.y = 0.9
	return mi

func _physics_process(delta: float) -> void:
	frame += 1
	move_player(delta)
	move_guard(delta)
	draw()
	if max_frames > 0 and frame >= max_frames:
		print("demo: %d frames, guard state %s" % [frame, brain.get_state_name()])
		get_tree().quit()

func move_player(delta: float) -> void:
	var dir := Vector3.ZERO
	var running := false
	if scripted:
		# A scripted walk for headless runs: sneak past the wall, then run into the open.
		dir = Vector3(1, 0, 0) if frame < 150 else Vector3(0, 0, -1)
		running = frame >= 150
	else:
		dir.x = Input.get_axis("ui_left", "ui_right")
		dir.z = Input.get_axis("ui_up", "ui_down")
		running = Input.is_key_pressed(KEY_SHIFT)
	if dir.length() > 0:
		player.position += dir.normalized() * (6.0 if running else 2.5) * delta
		step_timer -= delta
		if step_timer <= 0.0:
			step_timer = 0.4
			world.emit_sound(player.position, 15.0 if running else 4.0, player.get_child(1))

func move_guard(delta: float) -> void:
	var goal = brain.get_move_target()
	if goal == null:
		goal = patrol[patrol_index]
		if guard.position.distance_to(goal) < 0.3:
			patrol_index = (patrol_index + 1) % patrol.size()
	elif guard.position.distance_to(goal) < 0.5 and brain.get_state() == EnemyBrain.STATE_INVESTIGATING:
		brain.report_arrived()
	var to: Vector3 = goal - guard.position
	to.y = 0
	if to.length() > 0.1:
		guard.look_at(guard.position + to, Vector3.UP)
		guard.position += to.normalized() * minf(3.0 * delta, to.length())

## The cone, rays, memory and sounds, from the core's debug-draw buffer.
func draw() -> void:
	var pts := world.get_debug_lines(0, null)
	var cols := world.get_debug_line_colors()
	mesh.clear_surfaces()
	if pts.is_empty():
		return
	mesh.surface_begin(Mesh.PRIMITIVE_LINES)
	for i in cols.size():
		mesh.surface_set_color(cols[i])
		mesh.surface_add_vertex(pts[2 * i] + Vector3(0, 0.02, 0))
		mesh.surface_set_color(cols[i])
		mesh.surface_add_vertex(pts[2 * i + 1] + Vector3(0, 0.02, 0))
	mesh.surface_end()
