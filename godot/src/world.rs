//! What `PerceptionWorld3D` and `PerceptionWorld2D` do, written once over `WorldDim` (the classes
//! in `world3d.rs` / `world2d.rs` are shells holding the exported properties): creating the core
//! world, stepping it and emitting the signals, sounds, attitudes, tactics and the debug picture.
//! Queries (line of sight for sensors, cover, flank, the debug picture) are in `world_queries.rs`,
//! registering occluders in `world_occluders.rs`; what differs per dimension (shapes, the
//! physics space) is the `WorldDim` trait, implemented in `world3d.rs` / `world2d.rs`.

use std::cell::Cell;
use std::collections::HashSet;
use std::rc::Rc;

use argus_core::{AgentId, OccluderDef, OccluderId, RayHit, RayQuery, SightResult, TargetId};
use godot::obj::WithBaseField;
use godot::prelude::*;

use crate::dim::Dim;
use crate::occluder_sources::Kinds;
use crate::sensors::{WorldNode, in_editor, node_label};
use crate::world_occluders::{MovingOccluder, Rigid};

/// What the world node needs of a dimension beyond `Dim`: its occluder sources and physics space.
pub trait WorldDim: Dim {
    /// The collision-shape node an occluder is made from (`CollisionShape3D`; in 2D `Node`: a
    /// `CollisionShape2D` or a `CollisionPolygon2D`).
    type Shape: GodotClass + Inherits<Node>;
    /// The direct physics space (`PhysicsDirectSpaceState3D`/`2D`).
    type Space: GodotClass;
    /// What `occluder_sources::gather` counts as what.
    const KINDS: Kinds;
    /// Static occluders of the other collision sources (CSG, polygons, tile layers); `None` for
    /// a node that is none.
    fn extra_occluders(node: &Gd<Node>) -> Option<Result<Vec<OccluderDef>, String>>;
    /// The occluder of one shape on `layers`; `None` when the shape is disabled.
    fn occluder_def(shape: &Gd<Self::Shape>, layers: u32) -> Option<Result<OccluderDef, String>>;
    /// The shape's body: its collision layer, and whether it can move (not a plain static body).
    fn shape_body(shape: &Gd<Self::Shape>) -> Option<(u32, bool)>;
    /// A shape's global transform, to tell when a moving occluder moved; `None` once disabled.
    fn shape_pose(shape: &Gd<Self::Shape>) -> Option<[f32; 12]>;
    /// A shape's rigid pose and scale in core terms; `None` once disabled.
    fn shape_rigid(shape: &Gd<Self::Shape>) -> Option<Rigid>;
    /// The physics space of the world node `node`.
    fn space(node: &Gd<Node>) -> Option<Gd<Self::Space>>;
    /// One line-of-sight ray through the physics space.
    fn physics_ray(space: &mut Gd<Self::Space>, ray: &RayQuery, exclude: &Array<Rid>) -> RayHit;
    /// The vertices (core space) and polygons of a navigation region or its navigation data
    /// (see `navigation.rs`), or why there are none.
    fn navigation_polygons(region: &Variant) -> Result<crate::navigation::Polygons, String>;
}

/// The exported properties of a world node, as plain values.
pub struct WorldProps {
    pub occluder_collision_mask: u32,
    pub use_physics_rays: bool,
    pub worker_threads: u32,
    pub sound_occlusion: f32,
    pub auto_step: bool,
    pub pose_sync: i64,
    /// `hearing_path`: 1 straight, 2 walk (the core's numbers).
    pub hearing_path: i64,
    /// The `walk_grid_*` properties.
    pub walk_grid: crate::world_walk::GridProps,
}

/// A world node's state besides its properties.
pub struct WorldCore<D: WorldDim> {
    pub hub: crate::hub::Hub,
    pub occluders: Vec<OccluderId>,
    /// The occluders whose bodies can move (see `MovingOccluder`).
    pub moving: Vec<MovingOccluder<D::Shape>>,
    pub frame_usec: f64,
    pub emit_usec: f64,
    pub debug_colors: PackedColorArray,
    /// Nodes already warned about (see `warn_once`).
    pub warned: HashSet<InstanceId>,
    /// Set when a node of the occluder group (or a child of one) entered the tree after the
    /// walls were registered: they are registered again before the next step or query.
    pub walls_added: Rc<Cell<bool>>,
    /// The `SceneTree.node_added` handler that sets `walls_added` (disconnected at exit).
    pub watcher: Option<Callable>,
    /// Where the recording under way goes (see `world_recording`).
    pub recording: crate::world_recording::Recording,
    /// The nodes walls are named after, and the rename watcher (see `labels`).
    pub names: crate::labels::WallNames,
}

impl<D: WorldDim> Default for WorldCore<D> {
    fn default() -> Self {
        WorldCore {
            hub: crate::hub::Hub::new(D::D2),
            occluders: Vec::new(),
            moving: Vec::new(),
            frame_usec: 0.0,
            emit_usec: 0.0,
            debug_colors: PackedColorArray::new(),
            warned: HashSet::new(),
            walls_added: Rc::new(Cell::new(false)),
            watcher: None,
            recording: Default::default(),
            names: Default::default(),
        }
    }
}

/// What the generic code needs of a world node class.
pub trait WorldShell: WithBaseField + Inherits<Node> {
    type D: WorldDim;
    fn props(&self) -> WorldProps;
    fn occluder_group(&self) -> StringName;
    fn core(&mut self) -> &mut WorldCore<Self::D>;
    fn core_ref(&self) -> &WorldCore<Self::D>;
    /// `record_on_ready`, `recording_path`, `flight_recorder` and the other recording
    /// properties (see `world_recording`).
    fn recording_props(&self) -> crate::world_recording::RecordingProps;
}

pub(crate) fn node<S: WorldShell>(this: &S) -> Gd<Node> {
    this.to_gd().upcast()
}

/// Creates the core world with the current settings (first call only).
pub fn start<S: WorldShell>(this: &mut S) {
    if this.core_ref().hub.started() {
        return;
    }
    let p = this.props();
    let owner = node_label(&node(this));
    let hub = &mut this.core().hub;
    hub.def = argus_core::WorldDef {
        ray_backend: if p.use_physics_rays { argus_core::RayBackend::Engine } else { argus_core::RayBackend::Builtin },
        // Passed as set: a value the core refuses is reported (naming this node) rather than
        // quietly clamped.
        worker_threads: p.worker_threads,
        sound_occlusion: p.sound_occlusion,
        // Anything but 1 or 2 is `World`, which the core refuses for a world: reported.
        hearing_path: u32::try_from(p.hearing_path)
            .ok()
            .and_then(argus_core::HearingPath::from_u32)
            .unwrap_or(argus_core::HearingPath::World),
        ..Default::default()
    };
    hub.owner = owner;
    hub.world();
}

/// `_ready`: steps after the scripts that move things, registers the walls, and registers the
/// sensors and targets that were ready before this node.
pub fn ready<S: WorldShell>(this: &mut S) {
    if in_editor() {
        return;
    }
    // Run after the scripts that move guards and players this frame.
    node(this).set_physics_process_priority(1000);
    start(this);
    crate::world_occluders::register_occluders(this);
    watch_walls(this);
    crate::labels::watch_renames(this);
    crate::world_walk::ready(this);
    let tree = node(this).get_tree();
    let groups = [<S::D as Dim>::AGENTS_GROUP, <S::D as Dim>::TARGETS_GROUP];
    let pending: Vec<Gd<Node>> =
        groups.iter().flat_map(|g| tree.get_nodes_in_group(*g).iter_shared().collect::<Vec<_>>()).collect();
    // They bind this world, so release our own borrow while they register.
    {
        let _guard = this.base_mut();
        for mut node in pending {
            node.call("register", &[]);
        }
    }
    // After them, so that the recording's first snapshot holds them.
    crate::world_recording::ready(this);
}

/// Watches the tree for walls added later (a grouped wall, or a shape added under one, entering
/// after `_ready`, as a level streamed in or built by script does): they are registered before
/// the next step or query, without a `register_occluders()` call.
fn watch_walls<S: WorldShell>(this: &mut S) {
    let (flag, group) = (this.core().walls_added.clone(), this.occluder_group());
    if group.is_empty() || this.core_ref().watcher.is_some() {
        return;
    }
    let watcher = Callable::from_fn("argus_wall_added", move |args| {
        let node = args.first().and_then(|a| a.try_to::<Gd<Node>>().ok());
        if node.is_some_and(|n| n.is_in_group(&group) || n.get_parent().is_some_and(|p| p.is_in_group(&group))) {
            flag.set(true);
        }
    });
    node(this).get_tree().connect("node_added", &watcher);
    this.core().watcher = Some(watcher);
}

/// `_enter_tree`: a world that comes back into the tree (reparented, or removed and added again)
/// watches for walls again; the first time, `_ready` starts watching once the walls are in.
pub fn enter_tree<S: WorldShell>(this: &mut S) {
    if this.core_ref().hub.started() && !in_editor() {
        watch_walls(this);
        crate::labels::watch_renames(this);
        // Walls may have come and gone while it was out.
        this.core().walls_added.set(true);
    }
}

/// `_exit_tree`: stops watching for walls (see `watch_walls`) and ends a `record_on_ready`
/// recording.
pub fn exit_tree<S: WorldShell>(this: &mut S) {
    if let Some(watcher) = this.core().watcher.take() {
        let mut tree = node(this).get_tree();
        if tree.is_connected("node_added", &watcher) {
            tree.disconnect("node_added", &watcher);
        }
    }
    crate::labels::unwatch_renames(this);
    crate::world_recording::exit_tree(this);
}

/// Registers the walls again when one was added since (see `watch_walls`); names them again
/// when one was renamed (see `labels`).
pub fn walls_added<S: WorldShell>(this: &mut S) {
    if this.core_ref().walls_added.get() {
        crate::world_occluders::register_occluders(this);
    }
    crate::labels::walls_renamed(this);
}

/// A property the configuration warnings read changed: the editor shows them again.
pub fn warnings_changed<S: WorldShell>(this: &mut S) {
    node(this).update_configuration_warnings();
}

/// `_physics_process`.
pub fn physics_process<S: WorldShell>(this: &mut S, delta: f64) {
    if this.props().auto_step && !in_editor() {
        step(this, delta);
    }
}

/// Advances perception by `delta` seconds and emits the resulting signals.
pub fn step<S: WorldShell>(this: &mut S, delta: f64) -> bool {
    let started = std::time::Instant::now();
    start(this);
    walls_added(this);
    crate::world_occluders::follow_moving_occluders(this);
    let p = this.props();
    let only_moved = p.pose_sync == 1;
    let space = if p.use_physics_rays { Some(<S::D as WorldDim>::space(&node(this))) } else { None };
    let core = this.core();
    let result = match space {
        Some(Some(mut space)) => {
            let mut cast =
                |ray: &RayQuery, exclude: &Array<Rid>| <S::D as WorldDim>::physics_ray(&mut space, ray, exclude);
            let cast: &mut crate::hub::CastFn = &mut cast;
            core.hub.step(delta as f32, only_moved, Some(cast))
        }
        Some(None) => Err("no physics space (is the world in the scene tree?)".to_string()),
        None => core.hub.step(delta as f32, only_moved, None),
    };
    let ok = match result {
        Ok(()) => {
            let emitting = std::time::Instant::now();
            let (mut emissions, signals) = this.core().hub.take_emissions();
            // Handlers may call back into this world: release our borrow while they run (taking
            // the guard costs ~10 µs, so only when there is something).
            if !emissions.is_empty() {
                let _guard = this.base_mut();
                crate::signals::emit_all(&mut emissions, &signals);
            }
            let core = this.core();
            core.hub.recycle_emissions(emissions);
            core.emit_usec = emitting.elapsed().as_secs_f64() * 1e6;
            true
        }
        Err(e) => {
            godot_error!("{}.step: {e}", <S::D as Dim>::WORLD_CLASS);
            false
        }
    };
    this.core().frame_usec = started.elapsed().as_secs_f64() * 1e6;
    ok
}

/// `emit_sound` / `emit_sound_ex` (`method` names it in errors).
pub fn emit_sound<S: WorldShell>(
    this: &mut S,
    method: &str,
    position: <S::D as Dim>::Vector,
    loudness: f32,
    source: Option<Gd<Node>>,
    team_and_layers: Option<(u32, u32)>,
) {
    start(this);
    let at = <S::D as Dim>::to_core(position);
    if let Err(e) = this.core().hub.emit_sound(at, loudness, source, team_and_layers) {
        godot_error!("{}.{method}: {e}", <S::D as Dim>::WORLD_CLASS);
    }
}

/// Sets how team `observer` regards team `other`.
pub fn set_attitude<S: WorldShell>(this: &mut S, observer: i64, other: i64, attitude: i64) -> bool {
    let parsed = u32::try_from(attitude)
        .map_err(|_| "negative attitude".to_string())
        .and_then(|a| argus_core::team::Attitude::from_u32(a).map_err(|e| e.to_string()));
    let (Ok(observer), Ok(other)) = (u32::try_from(observer), u32::try_from(other)) else {
        godot_error!("{}.set_attitude: negative team", <S::D as Dim>::WORLD_CLASS);
        return false;
    };
    start(this);
    let world = this.core().hub.world();
    match parsed.and_then(|a| world.set_attitude(observer, other, a).map_err(|e| e.to_string())) {
        Ok(()) => true,
        Err(e) => {
            godot_error!("{}.set_attitude: {e}", <S::D as Dim>::WORLD_CLASS);
            false
        }
    }
}

/// The world's configuration warnings: no occluders while physics rays are off.
pub fn configuration_warnings<S: WorldShell>(this: &S) -> PackedStringArray {
    let mut out = PackedStringArray::new();
    let node = node(this);
    if this.props().use_physics_rays || !node.is_inside_tree() {
        return out;
    }
    let (group, mask) = (this.occluder_group(), this.props().occluder_collision_mask);
    let found = crate::occluder_sources::gather(&node.get_tree(), &group, mask, &<S::D as WorldDim>::KINDS);
    if this.core_ref().occluders.is_empty() && found.shapes.is_empty() && found.others.is_empty() {
        out.push("No occluders: no node in occluder_group, occluder_collision_mask finds no static body, and use_physics_rays is off, so guards see through every wall.");
    }
    out
}

impl<S: WorldShell> WorldNode for S {
    fn hub_mut(&mut self) -> &mut crate::hub::Hub {
        start(self);
        &mut self.core().hub
    }

    fn query_can_see(&mut self, agent: AgentId, target: TargetId) -> Option<SightResult> {
        start(self);
        walls_added(self);
        crate::world_occluders::follow_moving_occluders(self);
        self.core().hub.sync_for_query(agent, Some(target));
        crate::world_queries::with_rays(self, |w, rays| w.can_see_with(agent, target, rays)).ok()
    }

    fn query_visible(&mut self, agent: AgentId) -> Vec<TargetId> {
        start(self);
        walls_added(self);
        crate::world_occluders::follow_moving_occluders(self);
        self.core().hub.sync_for_query(agent, None);
        let mut out = Vec::new();
        let _ = crate::world_queries::with_rays(self, |w, rays| w.visible_targets_with(agent, rays, &mut out));
        out
    }
}
