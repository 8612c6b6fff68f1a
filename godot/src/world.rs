//! `PerceptionWorld3D` and `PerceptionWorld2D` written once: one macro holds every exported
//! property and `#[func]` method, so a rule has one home; `world3d.rs` and `world2d.rs` keep only
//! what differs (occluder shapes, the physics space, the ray through it).

macro_rules! perception_world {
    (
        doc = $doc:tt,
        class = $World:ident, base = $Base:ident, ibase = $IBase:ident, d2 = $d2:literal,
        vector = $Vector:ident, packed = $Packed:ident, to_core = $to_core:path, from_core = $from_core:path,
        mask_flags = $mask_flags:ident, static_body = $StaticBody:ident, collision_object = $CollisionObject:ident,
        shape = $Shape:ty, sensor = $Sensor:ident, space = $Space:ident, get_world = $get_world:ident,
        world_group = $world_group:literal, agents_group = $agents_group:literal, targets_group = $targets_group:literal,
    ) => {
        #[doc = $doc]
        #[derive(GodotClass)]
        #[class(base = $Base, tool)]
        pub struct $World {
            /// Nodes in this group (static bodies or collision shapes) become occluders at `_ready`.
            #[export]
            occluder_group: StringName,
            /// Every static body on one of these physics layers becomes an occluder at `_ready` (0 = none).
            #[export($mask_flags)]
            occluder_collision_mask: u32,
            /// Answer line of sight with the physics space (`intersect_ray`) instead of Argus's occluders. Fixed once the world has started.
            #[export]
            use_physics_rays: bool,
            /// Worker threads a step splits its work between (1 = the main thread only). Fixed once started.
            #[export(range = (1.0, 64.0))]
            worker_threads: u32,
            /// Each muffling occluder between a sound and a guard multiplies its radius by this (1 = off, the lesson's rule). Fixed once started.
            #[export(range = (0.0, 1.0))]
            sound_occlusion: f32,
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
            hub: crate::hub::Hub,
            occluders: Vec<argus_core::OccluderId>,
            /// The occluders whose bodies can move (see `MovingOccluder`).
            moving: Vec<crate::world::MovingOccluder<$Shape>>,
            frame_usec: f64,
            emit_usec: f64,
            debug_colors: PackedColorArray,
            /// Nodes already warned about (see `warn_once`).
            warned: std::collections::HashSet<InstanceId>,
            base: Base<$Base>,
        }

        #[godot_api]
        impl $IBase for $World {
            fn init(base: Base<$Base>) -> Self {
                Self {
                    occluder_group: "argus_occluders".into(),
                    occluder_collision_mask: 0,
                    use_physics_rays: false,
                    worker_threads: 1,
                    sound_occlusion: 1.0,
                    auto_step: true,
                    pose_sync: 0,
                    hub: crate::hub::Hub::new($d2),
                    occluders: Vec::new(),
                    moving: Vec::new(),
                    frame_usec: 0.0,
                    emit_usec: 0.0,
                    debug_colors: PackedColorArray::new(),
                    warned: Default::default(),
                    base,
                }
            }

            fn enter_tree(&mut self) {
                self.base_mut().add_to_group($world_group);
            }

            fn ready(&mut self) {
                if crate::sensors::in_editor() {
                    return;
                }
                // Run after the scripts that move guards and players this frame.
                self.base_mut().set_physics_process_priority(1000);
                self.start();
                self.register_occluders();
                let tree = self.base().get_tree();
                // Sensors and targets that were ready before this node register now; they bind
                // this world, so release our own borrow while they do.
                let pending: Vec<Gd<Node>> = [$agents_group, $targets_group]
                    .iter()
                    .flat_map(|g| tree.get_nodes_in_group(*g).iter_shared().collect::<Vec<_>>())
                    .collect();
                let _guard = self.base_mut();
                for mut node in pending {
                    node.call("register", &[]);
                }
            }

            fn get_configuration_warnings(&self) -> PackedStringArray {
                self.configuration_warnings()
            }

            fn physics_process(&mut self, delta: f64) {
                if self.auto_step && !crate::sensors::in_editor() {
                    self.step(delta);
                }
            }
        }

        #[godot_api]
        impl $World {
            /// Advances perception by `delta` seconds and emits the resulting signals. Called every
            /// physics frame when `auto_step` is on. Returns false (and reports why) on error.
            #[func]
            pub fn step(&mut self, delta: f64) -> bool {
                let started = std::time::Instant::now();
                self.start();
                self.follow_moving_occluders();
                let only_moved = self.pose_sync == 1;
                let result = if self.use_physics_rays {
                    match self.space() {
                        Some(mut space) => {
                            let mut cast = |ray: &argus_core::RayQuery, exclude: &Array<Rid>| {
                                physics_ray(&mut space, ray, exclude)
                            };
                            let cast: &mut crate::hub::CastFn = &mut cast;
                            self.hub.step(delta as f32, only_moved, Some(cast))
                        }
                        None => Err("no physics space (is the world in the scene tree?)".to_string()),
                    }
                } else {
                    self.hub.step(delta as f32, only_moved, None)
                };
                let ok = match result {
                    Ok(()) => {
                        let emitting = std::time::Instant::now();
                        let (mut emissions, signals) = self.hub.take_emissions();
                        // Handlers may call back into this world: release our borrow while they
                        // run (taking the guard costs ~10 µs, so only when there is something).
                        if !emissions.is_empty() {
                            let _guard = self.base_mut();
                            crate::signals::emit_all(&mut emissions, &signals);
                        }
                        self.hub.recycle_emissions(emissions);
                        self.emit_usec = emitting.elapsed().as_secs_f64() * 1e6;
                        true
                    }
                    Err(e) => {
                        godot_error!("{}.step: {e}", stringify!($World));
                        false
                    }
                };
                self.frame_usec = started.elapsed().as_secs_f64() * 1e6;
                ok
            }

            /// Broadcasts a sound heard at the next step by every guard within `loudness` (metres
            /// in 3D, pixels in 2D) times its hearing sensitivity. `source` may be a perception
            /// target (its memory is refreshed), any other node (passed back in `sound_heard`),
            /// or null.
            #[func]
            pub fn emit_sound(&mut self, position: $Vector, loudness: f32, source: Option<Gd<Node>>) {
                self.start();
                if let Err(e) = self.hub.emit_sound($to_core(position), loudness, source, None) {
                    godot_error!("{}.emit_sound: {e}", stringify!($World));
                }
            }

            /// `emit_sound` with the sound's `team` (for the attitude rule; default 1, like targets)
            /// and `layers` (matched against each hearing sensor's `sound_mask`; default 1).
            #[func]
            pub fn emit_sound_ex(
                &mut self,
                position: $Vector,
                loudness: f32,
                source: Option<Gd<Node>>,
                team: i64,
                layers: i64,
            ) {
                self.start();
                let team_and_layers = Some((team.clamp(0, u32::MAX as i64) as u32, layers as u32));
                if let Err(e) = self.hub.emit_sound($to_core(position), loudness, source, team_and_layers) {
                    godot_error!("{}.emit_sound_ex: {e}", stringify!($World));
                }
            }

            /// Removes every occluder and registers them again from the group and the collision
            /// mask (call after adding or removing walls, or moving a static body's; occluders of
            /// animatable, character and rigid bodies follow their shapes by themselves). Returns
            /// how many were registered.
            #[func]
            pub fn register_occluders(&mut self) -> i64 {
                self.start();
                self.moving.clear();
                for id in self.occluders.drain(..) {
                    let _ = self.hub.world().remove_occluder(id);
                }
                if !self.base().is_inside_tree() {
                    return 0;
                }
                let tree = self.base().get_tree();
                let found = crate::occluder_sources::gather(&tree, &self.occluder_group, self.occluder_collision_mask, &KINDS);
                let mut count = 0;
                for shape in found.shapes {
                    if let Ok(shape) = shape.try_cast::<$Shape>()
                        && self.add_occluder_shape(shape)
                    {
                        count += 1;
                    }
                }
                for node in found.others {
                    let defs = extra_occluders(&node).unwrap_or_else(|| {
                        Err("gives no occluder: it is not a collision shape, a static collision source, or a body holding one".into())
                    });
                    match defs.and_then(|defs| self.add_occluder_defs(&defs)) {
                        Ok(n) => count += n,
                        Err(e) => self.warn_once(&node, &e),
                    }
                }
                if !self.use_physics_rays {
                    self.warn_ignored(found.ignored);
                }
                count
            }

            /// Registers one collision shape (3D: `CollisionShape3D`; 2D: `CollisionShape2D` or
            /// `CollisionPolygon2D`) as an occluder on its body's collision layers; on an animatable,
            /// character or rigid body it follows the shape as it moves. Returns false (and
            /// reports why) for a disabled or unsupported shape.
            #[func]
            pub fn add_occluder_shape(&mut self, shape: Gd<$Shape>) -> bool {
                let body = shape.get_parent().and_then(|p| p.try_cast::<$CollisionObject>().ok());
                let moves = body.as_ref().is_some_and(|b| {
                    b.clone().try_cast::<$StaticBody>().is_err()
                        || b.is_class("AnimatableBody3D")
                        || b.is_class("AnimatableBody2D")
                });
                match self.make_occluder(&shape, moves) {
                    Ok(Some((id, def_pose))) => {
                        if moves
                            && let (Some(pose), Some(made)) = (shape_pose(&shape), shape_rigid(&shape))
                        {
                            let slot = self.occluders.len();
                            self.moving.push(crate::world::MovingOccluder { slot, shape, pose, made, def_pose });
                        }
                        self.occluders.push(id);
                        true
                    }
                    Ok(None) => false,
                    Err(e) => {
                        self.warn_once(&shape.clone().upcast(), &e);
                        false
                    }
                }
            }

            /// What the editor shows as this node's configuration warnings (also callable from
            /// scripts): no occluders while physics rays are off.
            #[func]
            pub fn configuration_warnings(&self) -> PackedStringArray {
                let mut out = PackedStringArray::new();
                if self.use_physics_rays || !self.base().is_inside_tree() {
                    return out;
                }
                let tree = self.base().get_tree();
                let found = crate::occluder_sources::gather(&tree, &self.occluder_group, self.occluder_collision_mask, &KINDS);
                if self.occluders.is_empty() && found.shapes.is_empty() && found.others.is_empty() {
                    out.push("No occluders: no node in occluder_group, occluder_collision_mask finds no static body, and use_physics_rays is off, so guards see through every wall.");
                }
                out
            }

            /// Sets how team `observer` regards team `other` (one direction): 0 hostile, 1 neutral,
            /// 2 friendly. By default a team is friendly to itself and hostile to every other team.
            #[func]
            pub fn set_attitude(&mut self, observer: i64, other: i64, attitude: i64) -> bool {
                let parsed = u32::try_from(attitude)
                    .map_err(|_| "negative attitude".to_string())
                    .and_then(|a| argus_core::team::Attitude::from_u32(a).map_err(|e| e.to_string()));
                let (Ok(observer), Ok(other)) = (u32::try_from(observer), u32::try_from(other)) else {
                    godot_error!("{}.set_attitude: negative team", stringify!($World));
                    return false;
                };
                self.start();
                let world = self.hub.world();
                match parsed.and_then(|a| world.set_attitude(observer, other, a).map_err(|e| e.to_string())) {
                    Ok(()) => true,
                    Err(e) => {
                        godot_error!("{}.set_attitude: {e}", stringify!($World));
                        false
                    }
                }
            }

            /// Every percept of the last step, in the core's order (agents in creation order; per
            /// agent, sounds in emission order, then sights in target order), as Dictionaries:
            /// `sensor` (the vision sensor), `kind` ("sight" or "sound"), `target` (the seen target or
            /// the sound's source target; null for other sources), `position`, `strength` (sight:
            /// visible fraction; sound: 1 − distance / radius), `time`.
            #[func]
            pub fn get_last_percepts(&self) -> Array<VarDictionary> {
                self.hub.last_percepts()
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
                self_position: $Vector,
                threats: VarArray,
                candidates: $Packed,
                top_k: i64,
                hidden_from_most: bool,
                danger_map: Option<Gd<crate::influence::InfluenceMap>>,
                obstacle_mask: i64,
            ) -> Array<VarDictionary> {
                self.start();
                let to_core = |v: &Variant| v.try_to::<$Vector>().ok().map($to_core);
                let threats: Vec<_> =
                    threats.iter_shared().filter_map(|v| crate::tactics::threat_of(&self.hub, &v, to_core)).collect();
                let points: Vec<_> = candidates.as_slice().iter().map(|p| $to_core(*p)).collect();
                let args = crate::tactics::CoverArgs {
                    self_position: $to_core(self_position),
                    threats: &threats,
                    candidates: &points,
                    top_k,
                    hidden_from_most,
                    map: danger_map,
                    obstacle_mask: obstacle_mask as u32,
                };
                match self.with_rays(|w, rays| crate::tactics::cover(args, w, rays)) {
                    Ok(out) => crate::tactics::results($d2, &out),
                    Err(e) => {
                        godot_error!("{}.find_cover: {e}", stringify!($World));
                        Array::new()
                    }
                }
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
                candidates: $Packed,
                top_k: i64,
                danger_map: Option<Gd<crate::influence::InfluenceMap>>,
            ) -> Array<VarDictionary> {
                self.start();
                let to_core = |v: &Variant| v.try_to::<$Vector>().ok().map($to_core);
                let Some(threat) = crate::tactics::threat_of(&self.hub, &threat, to_core) else {
                    godot_error!(
                        "{}.find_flank: the threat is neither a vision sensor nor a Dictionary",
                        stringify!($World)
                    );
                    return Array::new();
                };
                let points: Vec<_> = candidates.as_slice().iter().map(|p| $to_core(*p)).collect();
                match crate::tactics::flank(threat, &points, top_k, danger_map) {
                    Ok(out) => crate::tactics::results($d2, &out),
                    Err(e) => {
                        godot_error!("{}.find_flank: {e}", stringify!($World));
                        Array::new()
                    }
                }
            }

            /// Number of registered occluders.
            #[func]
            pub fn get_occluder_count(&self) -> i64 {
                self.occluders.iter().filter(|id| !id.is_null()).count() as i64
            }

            /// Number of registered guards (vision sensors).
            #[func]
            pub fn get_agent_count(&self) -> i64 {
                self.hub.agents.len() as i64
            }

            /// Number of registered perception targets.
            #[func]
            pub fn get_target_count(&self) -> i64 {
                self.hub.targets.len() as i64
            }

            /// Microseconds the last `step` spent inside the Argus core (the sweep and its conclusions).
            #[func]
            pub fn get_last_core_step_usec(&self) -> f64 {
                self.hub.core_usec
            }

            /// Microseconds the last `step` spent reading the sensors' and targets' poses.
            #[func]
            pub fn get_last_sync_usec(&self) -> f64 {
                self.hub.sync_usec
            }

            /// Microseconds of `get_last_sync_usec` spent reading node transforms from the engine (the rest hands them to the core).
            #[func]
            pub fn get_last_read_usec(&self) -> f64 {
                self.hub.read_usec
            }

            /// Microseconds the last `step` spent turning the core's events into signals and emitting them.
            #[func]
            pub fn get_last_signal_usec(&self) -> f64 {
                self.hub.events_usec + self.emit_usec
            }

            /// Microseconds the last `step` took in all: reading node poses, the core step, and signals.
            #[func]
            pub fn get_last_frame_usec(&self) -> f64 {
                self.frame_usec
            }

            /// Seconds of perception simulated so far.
            #[func]
            pub fn get_time(&self) -> f64 {
                self.hub.world_ref().map(|w| w.time()).unwrap_or(0.0)
            }

            /// The current picture as line segments (pairs of points), from the core's debug-draw
            /// buffer: cones, sight rays (green seen, red blocked), occluders, memory, sounds, move
            /// targets. `flags` = 0 draws everything; `agent` limits it to one sensor. Colours of the
            /// last call: `get_debug_line_colors()` (one per segment).
            #[func]
            pub fn get_debug_lines(&mut self, flags: i64, agent: Option<Gd<Node>>) -> $Packed {
                let agent = agent.map(|a| self.agent_of(&a)).unwrap_or(argus_core::AgentId::NULL);
                let options = argus_core::DebugDrawOptions {
                    flags: if flags == 0 { argus_core::debug_draw::flags::ALL } else { flags as u32 },
                    agent,
                    ..Default::default()
                };
                let mut draw = argus_core::DebugDraw::default();
                if let Err(e) = self.with_rays(|w, rays| w.debug_draw_with(&options, &mut draw, rays)) {
                    godot_error!("{}.get_debug_lines: {e}", stringify!($World));
                }
                self.debug_colors = draw.lines.iter().map(|l| crate::convert::color_of(l.color)).collect();
                draw.lines.iter().flat_map(|l| [$from_core(l.a), $from_core(l.b)]).collect()
            }

            /// Colours of the segments of the last `get_debug_lines` call.
            #[func]
            pub fn get_debug_line_colors(&self) -> PackedColorArray {
                self.debug_colors.clone()
            }
        }

        impl $World {
            /// Creates the core world with the current settings (first call only).
            fn start(&mut self) {
                if !self.hub.started() {
                    self.hub.def = argus_core::WorldDef {
                        ray_backend: if self.use_physics_rays {
                            argus_core::RayBackend::Engine
                        } else {
                            argus_core::RayBackend::Builtin
                        },
                        // Passed as set: a value the core refuses is reported (naming this
                        // node) rather than quietly clamped.
                        worker_threads: self.worker_threads,
                        sound_occlusion: self.sound_occlusion,
                        ..Default::default()
                    };
                    self.hub.owner = crate::sensors::node_label(&self.to_gd().upcast());
                    self.hub.world();
                }
            }

            /// Adds static occluders; how many.
            fn add_occluder_defs(&mut self, defs: &[argus_core::OccluderDef]) -> Result<i64, String> {
                for def in defs {
                    let id = self.hub.world().add_occluder(def).map_err(|e| e.to_string())?;
                    self.occluders.push(id);
                }
                Ok(defs.len() as i64)
            }

            /// One `push_warning` for the static bodies not warned about yet that are neither in the
            /// occluder group nor on the mask (a level may hold many on purpose: one line, naming
            /// the first few).
            fn warn_ignored(&mut self, bodies: Vec<Gd<Node>>) {
                let new: Vec<Gd<Node>> = bodies.into_iter().filter(|b| self.warned.insert(b.instance_id())).collect();
                if new.is_empty() {
                    return;
                }
                let names: Vec<String> = new.iter().take(3).map(crate::sensors::node_label).collect();
                let more = if new.len() > 3 { format!(" and {} more", new.len() - 3) } else { String::new() };
                godot_warn!(
                    "{}: {} static bodies ({}{more}) are neither in the group '{}' nor on occluder_collision_mask: sight passes through them (physics rays would stop). Add them if they are walls.",
                    stringify!($World),
                    new.len(),
                    names.join(", "),
                    self.occluder_group
                );
            }

            /// A `push_warning` naming `node`, once per node for this world.
            fn warn_once(&mut self, node: &Gd<Node>, why: &str) {
                if self.warned.insert(node.instance_id()) {
                    godot_warn!("{}: {}: {why}", stringify!($World), crate::sensors::node_label(node));
                }
            }

            /// The occluder of `shape` on its body's collision layers; `None` when it is disabled.
            fn make_occluder(
                &mut self,
                shape: &Gd<$Shape>,
                movable: bool,
            ) -> Result<Option<(argus_core::OccluderId, (argus_core::Vec3, argus_core::Quat))>, String> {
                let layers = shape
                    .get_parent()
                    .and_then(|p| p.try_cast::<$CollisionObject>().ok())
                    .map(|b| b.get_collision_layer())
                    .unwrap_or(1);
                match occluder_def(shape, layers) {
                    None => Ok(None),
                    Some(def) => {
                        let def = argus_core::OccluderDef { movable, ..def? };
                        let id = self.hub.world().add_occluder(&def).map_err(|e| e.to_string())?;
                        Ok(Some((id, (def.position, def.rotation))))
                    }
                }
            }

            /// Moves the occluder of every moving shape whose global transform changed (the core's
            /// `set_occluder_pose`, by the rigid motion since it was made); makes it again when
            /// its scale changed; drops those whose shape was freed or disabled.
            fn follow_moving_occluders(&mut self) {
                let mut moving = std::mem::take(&mut self.moving);
                moving.retain_mut(|m| {
                    let pose = m.shape.is_instance_valid().then(|| shape_pose(&m.shape)).flatten();
                    if pose == Some(m.pose) {
                        return true;
                    }
                    let id = self.occluders[m.slot];
                    let now = pose.and_then(|_| shape_rigid(&m.shape));
                    if let (Some(pose), Some((position, rotation))) = (pose, now.and_then(|n| m.moved_pose(&n)))
                        && self.hub.world().set_occluder_pose(id, position, rotation).is_ok()
                    {
                        m.pose = pose;
                        return true;
                    }
                    let _ = self.hub.world().remove_occluder(id);
                    let made = pose.and_then(|_| self.make_occluder(&m.shape, true).ok().flatten());
                    // A dropped occluder keeps its slot with a dead id, so the others' slots stay.
                    self.occluders[m.slot] = made.map(|(id, _)| id).unwrap_or(argus_core::OccluderId::NULL);
                    if let (Some((_, def_pose)), Some(made_at)) = (made, now) {
                        (m.pose, m.made, m.def_pose) = (pose.unwrap_or(m.pose), made_at, def_pose);
                    }
                    made.is_some()
                });
                self.moving = moving;
            }

            fn space(&self) -> Option<Gd<$Space>> {
                self.base().$get_world()?.get_direct_space_state()
            }

            fn agent_of(&self, node: &Gd<Node>) -> argus_core::AgentId {
                node.clone()
                    .try_cast::<crate::sensors::$Sensor>()
                    .map(|v| v.bind().agent_id())
                    .unwrap_or(argus_core::AgentId::NULL)
            }

            /// Runs `f` with the rays the world's steps use: the physics space with
            /// `use_physics_rays`, else Argus's occluders.
            fn with_rays<R>(&mut self, f: impl FnOnce(&argus_core::World, argus_core::Rays) -> R) -> R {
                self.start();
                let space = if self.use_physics_rays { self.space() } else { None };
                match space {
                    Some(mut space) => {
                        let mut cast =
                            |ray: &argus_core::RayQuery, exclude: &Array<Rid>| physics_ray(&mut space, ray, exclude);
                        let cast: &mut crate::hub::CastFn = &mut cast;
                        self.hub.query(Some(cast), f)
                    }
                    None => self.hub.query(None, f),
                }
            }
        }

        impl crate::sensors::WorldNode for $World {
            fn hub_mut(&mut self) -> &mut crate::hub::Hub {
                self.start();
                &mut self.hub
            }

            fn query_can_see(
                &mut self,
                agent: argus_core::AgentId,
                target: argus_core::TargetId,
            ) -> Option<argus_core::SightResult> {
                self.start();
                self.follow_moving_occluders();
                self.hub.sync_for_query(agent, Some(target));
                self.with_rays(|w, rays| w.can_see_with(agent, target, rays)).ok()
            }

            fn query_visible(&mut self, agent: argus_core::AgentId) -> Vec<argus_core::TargetId> {
                self.start();
                self.follow_moving_occluders();
                self.hub.sync_for_query(agent, None);
                let mut out = Vec::new();
                let _ = self.with_rays(|w, rays| w.visible_targets_with(agent, rays, &mut out));
                out
            }
        }
    };
}

pub(crate) use perception_world;

/// An occluder made from a shape whose body can move (an animatable, character or rigid body):
/// moved with the core's `set_occluder_pose` whenever the shape's global transform changes.
pub struct MovingOccluder<S: godot::prelude::GodotClass> {
    /// Its place in the world node's occluder list.
    pub slot: usize,
    pub shape: godot::prelude::Gd<S>,
    /// The shape's global transform last followed (see `shape_pose`).
    pub pose: [f32; 12],
    /// The shape's rigid pose and scale when its occluder was made.
    pub made: Rigid,
    /// The occluder's position and rotation when it was made.
    pub def_pose: (Vec3, Quat),
}

/// A node's global pose in core terms, split into a rigid part and a scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rigid {
    pub position: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl<S: godot::prelude::GodotClass> MovingOccluder<S> {
    /// The occluder pose for the shape now at `now`: the rigid motion since the occluder was made,
    /// applied to its pose then (composed from the original, so moves do not drift); `None`
    /// when the scale changed (the occluder must be made again).
    pub fn moved_pose(&self, now: &Rigid) -> Option<(Vec3, Quat)> {
        moved_pose(&self.made, self.def_pose, now)
    }
}

/// See `MovingOccluder::moved_pose`.
pub fn moved_pose(made: &Rigid, def_pose: (Vec3, Quat), now: &Rigid) -> Option<(Vec3, Quat)> {
    if (now.scale - made.scale).abs().max_element() > 1e-5 {
        return None;
    }
    let turn = now.rotation * made.rotation.inverse();
    let shift = now.position - turn * made.position;
    Some((turn * def_pose.0 + shift, (turn * def_pose.1).normalize()))
}

use argus_core::{Quat, Vec3};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_occluder_follows_the_rigid_motion_of_its_shape() {
        let made = Rigid { position: Vec3::new(1.0, 0.0, 0.0), rotation: Quat::IDENTITY, scale: Vec3::ONE };
        // A mesh made in world space (pose zero), its shape turned 90° about Y around the origin.
        let now =
            Rigid { position: Vec3::new(0.0, 0.0, -1.0), rotation: Quat::from_rotation_y(1.5707964), scale: Vec3::ONE };
        let (p, q) = moved_pose(&made, (Vec3::ZERO, Quat::IDENTITY), &now).expect("same scale");
        let vertex = Vec3::new(1.0, 0.0, 0.0); // the shape's origin, as made
        assert!(((q * vertex + p) - now.position).length() < 1e-5);
        let scaled = Rigid { scale: Vec3::splat(2.0), ..now };
        assert!(moved_pose(&made, (Vec3::ZERO, Quat::IDENTITY), &scaled).is_none());
    }
}
