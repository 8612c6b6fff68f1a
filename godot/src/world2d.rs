//! `PerceptionWorld2D`: owns the Argus world of a top-down 2D scene and steps it every physics
//! frame. The class is a shell over `world.rs` / `world_occluders.rs` (the logic, shared with
//! 3D); what is 2D only (occluder shapes, the physics space) is in `occluders2d.rs`.

use godot::classes::{INode2D, InputEvent, Node2D};
use godot::prelude::*;

use crate::dim::{D2, Dim};
use crate::world::{self, WorldCore, WorldProps, WorldShell};
use crate::world_occluders as occluders;
use crate::world_queries;
use crate::world_recording as recording;

/// The perception world of a top-down 2D scene (a 2D point (x, y) is the core's ground-plane point (x, 0, y); distances are in pixels): owns the Argus core world, registers the occluders (walls) from collision shapes, and steps sight, hearing, memory, awareness and brains in `_physics_process` (after your scripts have moved things), then emits every sensor's signals from the step's events.
///
/// Occluders come from `StaticBody2D`/`CollisionShape2D`/`CollisionPolygon2D` nodes in `occluder_group` and, when `occluder_collision_mask` is set, from every `StaticBody2D` on those physics layers: rectangles, circles, capsules, convex and concave polygons, segments. An occluder's layers are its body's `collision_layer`. A shape on an animatable, character or rigid body is followed as it moves; a `StaticBody2D`'s stays where it was until `register_occluders()`. With `use_physics_rays` the physics space answers line of sight instead (`PhysicsDirectSpaceState2D.intersect_ray`, every ray of a step in one batch), so every collider counts.
///
/// `start_recording`/`stop_recording` (or `record_on_ready`, streamed to its file as it is made) record the world to a file that `verify_recording` replays and `tools/inspector/argus-inspector.html` opens; the flight recorder (`flight_recorder`) keeps the last seconds and `save_flight_recording` (or `save_flight_recording_action`) writes them when a tester asks.
#[derive(GodotClass)]
#[class(base = Node2D, tool)]
pub struct PerceptionWorld2D {
    /// Nodes in this group (static bodies or collision shapes) become occluders at `_ready`.
    #[export]
    #[var(set)]
    occluder_group: StringName,
    /// Every static body on one of these physics layers becomes an occluder at `_ready` (0 = none).
    #[export(flags_2d_physics)]
    #[var(set)]
    occluder_collision_mask: u32,
    /// Answer line of sight with the physics space (`intersect_ray`) instead of Argus's occluders. Fixed once the world has started.
    #[export]
    #[var(set)]
    use_physics_rays: bool,
    /// Worker threads a step splits its work between (1 = the main thread only). Fixed once started.
    #[export(range = (1.0, 64.0))]
    worker_threads: u32,
    /// Each muffling occluder between a sound and a guard multiplies its radius by this (1 = off, the lesson's rule). Fixed once started.
    #[export(range = (0.0, 1.0))]
    sound_occlusion: f32,
    /// How sounds reach guards whose hearing sensor says World: Straight (default, the lesson: within loudness × sensitivity in a straight line, walls muffled by sound_occlusion) or Walk (around walls along the walk graph within loudness × sensitivity, or straight through walls whose `argus_sound_transmission` metadata lets sound through; heard from where it seems to come from, the doorway). Without a walk graph walk hearing is the straight line. Fixed once started.
    #[export(enum = (Straight = 1, Walk = 2))]
    hearing_path: i64,
    /// Build the walk graph (what walk hearing follows) at `_ready` as a grid over the registered occluders (`build_walk_grid()` builds it later).
    #[export]
    walk_grid_enabled: bool,
    /// Where the grid lies, in pixels: a cell is blocked when an occluder (a 2D wall) overlaps it.
    #[export]
    walk_grid_bounds: Rect2,
    /// Side of a grid cell, in pixels (at least 0.05).
    #[export(range = (0.05, 100.0, or_greater))]
    walk_grid_cell_size: f32,
    /// Physics layers whose occluders block walking.
    #[export(flags_2d_physics)]
    walk_grid_layers: u32,
    /// How far a sound or a guard may be from the nearest open cell's centre and still be on the grid (pixels; 0 = 1.5 cells, at least 1 px).
    #[export(range = (0.0, 100.0, or_greater))]
    walk_grid_snap_distance: f32,
    /// Step automatically in `_physics_process` (off: call `step()` yourself).
    #[export]
    auto_step: bool,
    /// How a step reads node poses. Every step (0, default): each sensor's and target's global
    /// transform, exact. On transform change (1): only nodes whose transform notification arrived
    /// since they were last read, and nodes that keep moving (8 notifications in a row: read at
    /// every step, their notification off, until still for 15 steps; never a node with a script,
    /// which may use those notifications); cheaper with many still nodes, but Godot delivers
    /// those notifications between frames, so a node that starts moving during the physics frame
    /// before the step is seen one frame late.
    #[export(enum = (EveryStep = 0, OnTransformChange = 1))]
    pose_sync: i64,
    /// Start recording every agent at the end of `_ready`, streamed to `recording_path` as it is made (memory stays bounded however long the game runs), and make the file whole when the world leaves the tree (quitting the game included): a recording without script. Open it in `tools/inspector/argus-inspector.html`. A file cut short (a crash) is not a whole recording.
    #[export]
    record_on_ready: bool,
    /// The file `record_on_ready` streams to, created (or replaced) at `_ready` (`user://`, `res://` — in the editor only — or a file path; its folder must exist).
    #[export(file = "*.argusrec")]
    recording_path: GString,
    /// Keep about the last `flight_recorder_seconds` of every agent from the end of `_ready`, in bounded memory, and write them only when asked: `save_flight_recording("")`, or the `save_flight_recording_action` input action ("save the last 30 s" when a tester presses a key). Ignored, with a warning, while `record_on_ready` records.
    #[export]
    flight_recorder: bool,
    /// Seconds of play the flight recorder keeps (of the steps' delta), in (0, 86400]. A saved file begins at the key frame at or before them, so it may hold a little more.
    #[export(range = (0.1, 600.0, or_greater))]
    flight_recorder_seconds: f32,
    /// The Input Map action (Project Settings > Input Map, e.g. one bound to F9) that saves the flight recorder's window to `flight_recording_path` while it runs, read in `_unhandled_input`; empty (the default): none.
    #[export]
    save_flight_recording_action: StringName,
    /// Where `save_flight_recording("")` and the action write the flight recorder's window (`user://`, `res://` — in the editor only — or a file path). `{time}` becomes the local date and time (`20261204-153012`, then `-2`, `-3`, ... when that file exists), so every save keeps its own file.
    #[export(file = "*.argusrec")]
    flight_recording_path: GString,
    core: WorldCore<D2>,
    base: Base<Node2D>,
}

impl WorldShell for PerceptionWorld2D {
    type D = D2;
    fn props(&self) -> WorldProps {
        WorldProps {
            occluder_collision_mask: self.occluder_collision_mask,
            use_physics_rays: self.use_physics_rays,
            worker_threads: self.worker_threads,
            sound_occlusion: self.sound_occlusion,
            auto_step: self.auto_step,
            pose_sync: self.pose_sync,
            hearing_path: self.hearing_path,
            walk_grid: self.walk_grid_props(),
        }
    }
    fn occluder_group(&self) -> StringName {
        self.occluder_group.clone()
    }
    fn core(&mut self) -> &mut WorldCore<D2> {
        &mut self.core
    }
    fn core_ref(&self) -> &WorldCore<D2> {
        &self.core
    }
    fn recording_props(&self) -> recording::RecordingProps {
        recording::RecordingProps {
            record_on_ready: self.record_on_ready,
            recording_path: self.recording_path.clone(),
            flight_recorder: self.flight_recorder,
            flight_recorder_seconds: self.flight_recorder_seconds,
            save_action: self.save_flight_recording_action.clone(),
            flight_recording_path: self.flight_recording_path.clone(),
        }
    }
}

impl PerceptionWorld2D {
    fn walk_grid_props(&self) -> crate::world_walk::GridProps {
        let (corner, extent, top) = crate::world_walk::bounds_2d(self.walk_grid_bounds);
        crate::world_walk::GridProps {
            enabled: self.walk_grid_enabled,
            corner,
            extent,
            band: (crate::world_walk::STEP_2D, top), // 2D only
            cell_size: self.walk_grid_cell_size,
            layers: self.walk_grid_layers,
            snap_distance: self.walk_grid_snap_distance,
        }
    }
}

#[godot_api]
impl INode2D for PerceptionWorld2D {
    fn init(base: Base<Node2D>) -> Self {
        Self {
            occluder_group: "argus_occluders".into(),
            occluder_collision_mask: 0,
            use_physics_rays: false,
            worker_threads: 1,
            sound_occlusion: 1.0,
            auto_step: true,
            pose_sync: 0,
            hearing_path: 1,
            walk_grid_enabled: false,
            walk_grid_bounds: crate::world_walk::default_bounds_2d(),
            walk_grid_cell_size: 0.5 * D2::DISTANCE_SCALE,
            walk_grid_layers: u32::MAX,
            walk_grid_snap_distance: 0.0,
            record_on_ready: false,
            recording_path: "user://argus.argusrec".into(),
            flight_recorder: false,
            flight_recorder_seconds: 30.0,
            save_flight_recording_action: StringName::default(),
            flight_recording_path: "user://argus-flight-{time}.argusrec".into(),
            core: WorldCore::default(),
            base,
        }
    }
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(D2::WORLD_GROUP);
        world::enter_tree(self);
    }
    fn exit_tree(&mut self) {
        world::exit_tree(self);
    }
    fn ready(&mut self) {
        world::ready(self);
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        world::configuration_warnings(self)
    }
    fn physics_process(&mut self, delta: f64) {
        world::physics_process(self, delta);
    }
    fn unhandled_input(&mut self, event: Gd<InputEvent>) {
        recording::unhandled_input(self, &event);
    }
}

#[godot_api]
impl PerceptionWorld2D {
    /// Advances perception by `delta` seconds and emits the resulting signals. Called every
    /// physics frame when `auto_step` is on. Returns false (and reports why) on error.
    #[func]
    pub fn step(&mut self, delta: f64) -> bool {
        world::step(self, delta)
    }
    /// Broadcasts a sound heard at the next step by every guard within `loudness` (metres
    /// in 3D, pixels in 2D) times its hearing sensitivity. `source` may be a perception
    /// target (its memory is refreshed), any other node (passed back in `sound_heard`),
    /// or null.
    #[func]
    pub fn emit_sound(&mut self, position: Vector2, loudness: f32, source: Option<Gd<Node>>) {
        world::emit_sound(self, "emit_sound", position, loudness, source, None);
    }
    /// `emit_sound` with the sound's `team` (for the attitude rule; default 1, like targets)
    /// and `layers` (matched against each hearing sensor's `sound_mask`; default 1).
    #[func]
    pub fn emit_sound_ex(
        &mut self,
        position: Vector2,
        loudness: f32,
        source: Option<Gd<Node>>,
        team: i64,
        layers: i64,
    ) {
        let team_and_layers = Some((team.clamp(0, u32::MAX as i64) as u32, layers as u32));
        world::emit_sound(self, "emit_sound_ex", position, loudness, source, team_and_layers);
    }
    /// Removes every occluder and registers them again from the group and the collision
    /// mask (call after adding or removing walls, or moving a static body's; occluders of
    /// animatable, character and rigid bodies follow their shapes by themselves). Returns
    /// how many were registered.
    #[func]
    pub fn register_occluders(&mut self) -> i64 {
        occluders::register_occluders(self)
    }
    /// Registers one collision shape (3D: `CollisionShape3D`; 2D: `CollisionShape2D` or
    /// `CollisionPolygon2D`) as an occluder on its body's collision layers; on an animatable,
    /// character or rigid body it follows the shape as it moves. Returns false (and
    /// reports why) for a disabled or unsupported shape.
    #[func]
    pub fn add_occluder_shape(&mut self, shape: Gd<Node>) -> bool {
        occluders::add_occluder_shape(self, shape)
    }
    /// What the editor shows as this node's configuration warnings (also callable from
    /// scripts): no occluders while physics rays are off.
    #[func]
    pub fn configuration_warnings(&self) -> PackedStringArray {
        world::configuration_warnings(self)
    }
    /// Sets `occluder_group` (the configuration warnings follow).
    #[func]
    fn set_occluder_group(&mut self, v: StringName) {
        self.occluder_group = v;
        world::warnings_changed(self);
    }
    /// Sets `occluder_collision_mask` (the configuration warnings follow).
    #[func]
    fn set_occluder_collision_mask(&mut self, v: u32) {
        self.occluder_collision_mask = v;
        world::warnings_changed(self);
    }
    /// Sets `use_physics_rays` (the configuration warnings follow).
    #[func]
    fn set_use_physics_rays(&mut self, v: bool) {
        self.use_physics_rays = v;
        world::warnings_changed(self);
    }
    /// Sets how team `observer` regards team `other` (one direction): 0 hostile, 1 neutral,
    /// 2 friendly. By default a team is friendly to itself and hostile to every other team.
    #[func]
    pub fn set_attitude(&mut self, observer: i64, other: i64, attitude: i64) -> bool {
        world::set_attitude(self, observer, other, attitude)
    }
    /// Every percept of the last step, in the core's order (agents in creation order; per
    /// agent, sounds in emission order, then sights in target order), as Dictionaries:
    /// `sensor` (the vision sensor), `kind` ("sight" or "sound"), `target` (the seen target or
    /// the sound's source target; null for other sources), `position`, `strength` (sight:
    /// visible fraction; sound: 1 − distance / radius), `time`.
    #[func]
    pub fn get_last_percepts(&self) -> Array<VarDictionary> {
        self.core.hub.last_percepts()
    }
    /// Where should someone at `self_position` hide from `threats` (vision sensors, or
    /// Dictionaries with `position`, `forward` and, in 3D, `eye`; a 2D eye is the
    /// position)? Tests each of `candidates` with rays from every threat's eye (Argus's
    /// occluders, or the physics space with `use_physics_rays`, on `obstacle_mask`),
    /// scores hidden spots by danger × 10 (layer 0 of `danger_map`, if given) + travel
    /// distance, and returns the best `top_k`, best first, as Dictionaries (`position`,
    /// `score` (lower is better), `candidate_index`, `hidden_from`). Empty when no spot
    /// qualifies (the lesson then stays put). `hidden_from_most` ranks spots hidden from
    /// most threats first instead of requiring all.
    #[func]
    #[allow(clippy::too_many_arguments)]
    pub fn find_cover(
        &mut self,
        self_position: Vector2,
        threats: VarArray,
        candidates: PackedVector2Array,
        top_k: i64,
        hidden_from_most: bool,
        danger_map: Option<Gd<crate::influence::InfluenceMap>>,
        obstacle_mask: i64,
    ) -> Array<VarDictionary> {
        let c = candidates.as_slice();
        world_queries::find_cover(self, self_position, threats, c, top_k, hidden_from_most, danger_map, obstacle_mask)
    }
    /// From where can `threat` (a vision sensor, or a Dictionary with `position` and
    /// `forward`) be approached outside its forward cone? Keeps candidates whose direction from
    /// the threat has a dot product with its facing of at most 0.3, scores them −facing − danger
    /// (layer 0 of `danger_map`, if given; higher is better) and returns the best `top_k` as
    /// Dictionaries like `find_cover`. Empty when none qualifies.
    #[func]
    pub fn find_flank(
        &mut self,
        threat: Variant,
        candidates: PackedVector2Array,
        top_k: i64,
        danger_map: Option<Gd<crate::influence::InfluenceMap>>,
    ) -> Array<VarDictionary> {
        world_queries::find_flank(self, threat, candidates.as_slice(), top_k, danger_map)
    }
    /// Number of registered occluders.
    #[func]
    pub fn get_occluder_count(&self) -> i64 {
        self.core.occluders.iter().filter(|id| !id.is_null()).count() as i64
    }
    /// Number of registered guards (vision sensors).
    #[func]
    pub fn get_agent_count(&self) -> i64 {
        self.core.hub.agents.len() as i64
    }
    /// Number of registered perception targets.
    #[func]
    pub fn get_target_count(&self) -> i64 {
        self.core.hub.targets.len() as i64
    }
    /// Microseconds the last `step` spent inside the Argus core (the sweep and its conclusions).
    #[func]
    pub fn get_last_core_step_usec(&self) -> f64 {
        self.core.hub.core_usec
    }
    /// Microseconds the last `step` spent reading the sensors' and targets' poses.
    #[func]
    pub fn get_last_sync_usec(&self) -> f64 {
        self.core.hub.sync_usec
    }
    /// Microseconds of `get_last_sync_usec` spent reading node transforms from the engine (the rest hands them to the core).
    #[func]
    pub fn get_last_read_usec(&self) -> f64 {
        self.core.hub.read_usec
    }
    /// Microseconds the last `step` spent turning the core's events into signals and emitting them.
    #[func]
    pub fn get_last_signal_usec(&self) -> f64 {
        self.core.hub.events_usec + self.core.emit_usec
    }
    /// Microseconds the last `step` took in all: reading node poses, the core step, and signals.
    #[func]
    pub fn get_last_frame_usec(&self) -> f64 {
        self.core.frame_usec
    }
    /// Seconds of perception simulated so far.
    #[func]
    pub fn get_time(&self) -> f64 {
        self.core.hub.world_ref().map(|w| w.time()).unwrap_or(0.0)
    }
    /// The current picture as line segments (pairs of points), from the core's debug-draw
    /// buffer: cones, sight rays (green seen, red blocked), occluders, memory, sounds, move
    /// targets, the walk graph (`DEBUG_WALK_GRAPH`) and the belief search heat maps
    /// (`DEBUG_BELIEFS`). `flags` = 0 draws everything; `agent` limits it to one sensor. Colours of the
    /// last call: `get_debug_line_colors()` (one per segment).
    #[func]
    pub fn get_debug_lines(&mut self, flags: i64, agent: Option<Gd<Node>>) -> PackedVector2Array {
        world_queries::debug_lines(self, flags, agent).into_iter().collect()
    }
    /// Colours of the segments of the last `get_debug_lines` call.
    #[func]
    pub fn get_debug_line_colors(&self) -> PackedColorArray {
        self.core.debug_colors.clone()
    }
    /// Starts recording this world (starting it if needed): its state now, then every input
    /// and every step's outputs until `stop_recording`. `focus`: the vision sensors whose
    /// memory and "why" of each sight decision are recorded (`[]`: every agent; the argument
    /// is required, gdext allows no default array of nodes). Returns false (and reports why,
    /// changing nothing) when already recording or when a focus entry is not a vision sensor
    /// registered in this world.
    #[func]
    pub fn start_recording(&mut self, focus: godot::builtin::AnyArray) -> bool {
        recording::start_recording(self, &focus)
    }
    /// Starts recording this world (starting it if needed) straight to the file at `path`
    /// (`user://`, `res://` — in the editor only — or a file path; created or replaced; its
    /// folder must exist), written as it is made by a thread of the recording's own, so memory
    /// stays bounded however long it runs; `stop_recording("")` makes the file whole. `focus`
    /// as `start_recording`. Returns false (and reports why, changing nothing and creating no
    /// file) as `start_recording` does, and when the file cannot be created.
    #[func]
    pub fn start_recording_to_file(&mut self, path: GString, focus: godot::builtin::AnyArray) -> bool {
        recording::start_recording_to_file(self, &path, &focus)
    }
    /// Starts the flight recorder (starting the world if needed): the world records as
    /// `start_recording` does but keeps only about the last `flight_recorder_seconds`, in
    /// bounded memory, until `save_flight_recording` writes them. `focus` as
    /// `start_recording`. Returns false (and reports why, changing nothing) as
    /// `start_recording` does, and for `flight_recorder_seconds` out of (0, 86400].
    #[func]
    pub fn start_flight_recorder(&mut self, focus: godot::builtin::AnyArray) -> bool {
        recording::start_flight_recorder(self, &focus)
    }
    /// True between a start (`start_recording`, `start_recording_to_file`,
    /// `start_flight_recorder`, or `record_on_ready` / `flight_recorder` at `_ready`) and
    /// `stop_recording`.
    #[func]
    pub fn is_recording(&self) -> bool {
        recording::is_recording(self)
    }
    /// True while the flight recorder runs (`flight_recorder`, or `start_flight_recorder`).
    #[func]
    pub fn is_flight_recording(&self) -> bool {
        recording::is_flight_recording(self)
    }
    /// Writes the flight recorder's window — about the last `flight_recorder_seconds`, from
    /// the key frame at or before them — to `path` as a recording of its own, which
    /// `verify_recording` replays and the inspector opens alone. `path` "" is
    /// `flight_recording_path`; `{time}` in either becomes the local date and time. The flight
    /// recorder goes on: save as often as wanted. OK (the path and size are printed), or
    /// ERR_UNCONFIGURED when the flight recorder is not running; the open or write error
    /// otherwise (a file partly written is removed). Each error is reported too.
    #[func]
    pub fn save_flight_recording(&mut self, path: GString) -> godot::global::Error {
        recording::save_flight_recording(self, &path)
    }
    /// Ends the recording and writes it to `path` (`user://`, `res://` or a file path; open it
    /// in `tools/inspector/argus-inspector.html`). In memory: written to `path` ("" =
    /// `recording_path`). The flight recorder: its window is saved to `path` ("" =
    /// `flight_recording_path`), then it stops. Streamed to a file: it ends in its own file, and
    /// `path` must be "" or that file. OK, or: ERR_UNCONFIGURED when not recording;
    /// ERR_INVALID_PARAMETER for another file than the streamed one's (it goes on); the open
    /// error when `path` cannot be opened (the world then keeps recording: try another path,
    /// or `stop_recording_bytes()`); the write error when writing fails (the recording is then
    /// stopped and the file incomplete). Each error is reported too.
    #[func]
    pub fn stop_recording(&mut self, path: GString) -> godot::global::Error {
        recording::stop_recording(self, &path)
    }
    /// Ends the recording and returns it as bytes (empty, with an error, when not recording):
    /// the flight recorder's window, then it stops. A recording streamed to a file is refused
    /// (empty, with an error; it goes on): `stop_recording("")` ends it in its file.
    #[func]
    pub fn stop_recording_bytes(&mut self) -> PackedByteArray {
        recording::stop_recording_bytes(self)
    }
    /// Replays the recording in `path` and checks that every step gives the recorded outputs.
    /// Returns the number of steps replayed, or -1 (reporting the file and what is wrong: not
    /// a recording, truncated, damaged, or a step that differs).
    #[func]
    pub fn verify_recording(path: GString) -> i64 {
        recording::verify_recording::<D2>(&path)
    }
    /// The names a recording holds: replays the recording in `path` for its first `steps`
    /// steps (-1: all of them) and returns the labels its world then has, as
    /// `{"agents": PackedStringArray, "targets": ..., "occluders": ...}`, each in id order
    /// (things without a name left out). A world names each sensor, target and wall after its
    /// node (`Node.name`) when it registers it, and again when the node is renamed; a wall made
    /// from a collision shape after its body (`Body/Shape` when the body holds several shapes).
    /// An empty dictionary (reporting the file and what is wrong) when the file cannot be read
    /// or replayed, or holds fewer steps.
    #[func]
    pub fn recording_labels(path: GString, steps: i64) -> VarDictionary {
        crate::labels::recording_labels::<D2>(&path, steps)
    }
}
