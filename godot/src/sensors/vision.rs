//! `VisionSensor3D` / `VisionSensor2D`: the agent (sight, memory, awareness). One macro writes
//! both classes, so they cannot drift apart; only the base node, vector type and world differ.

use std::rc::Rc;

use argus_core::{AgentDef, AgentId, AwarenessConfig, MemoryConfig, SightConfig, Vec3};
use godot::classes::notify::{CanvasItemNotification, Node3DNotification};
use godot::prelude::*;

use super::hearing::{HearingSensor2D, HearingSensor3D};
use super::{SensorSettings, WorldNode, agent_def, find_world};
use crate::brain::EnemyBrain;

macro_rules! vision_sensor {
    (
        vision_doc = $vision_doc:tt, hearing_doc = $hearing_doc:tt, target_doc = $target_doc:tt,
        base = $Base:ident, ibase = $IBase:ident, vector = $Vector:ident, notification = $Notification:ident,
        world = $World:ident, world_group = $world_group:literal,
        vision = $Vision:ident, hearing = $Hearing:ident, target = $Target:ident,
        body = $body:path, to_core = $to_core:path, from_core = $from_core:path,
        eye_height = $eye:literal, check_height = $check:literal,
        agents_group = $agents_group:literal, targets_group = $targets_group:literal,
        mask_flags = $mask_flags:ident, distance_scale = $scale:literal,
    ) => {
        #[doc = $vision_doc]
        ///
        /// It tests sight (range, cone, line of sight), remembers what it perceived (last known
        /// position and a decaying confidence) and optionally fills awareness meters. Add a
        /// hearing sensor and an [EnemyBrain] as children to give it ears and the Idle /
        /// Investigating / Chasing / Searching brain. Signals come from the world's step, never
        /// from polling.
        #[derive(GodotClass)]
        #[class(base = $Base, tool)]
        pub struct $Vision {
            /// Maximum sight distance in metres (pixels in 2D: default 640, 10 m at 64 px per metre).
            #[export(range = (0.0, 1000.0, or_greater))]
            #[var(set)]
            view_radius: f32,
            /// Full width of the view cone in degrees; 360 sees all around.
            #[export(range = (0.0, 360.0))]
            #[var(set)]
            view_angle: f32,
            /// Height of the eye above this node (0 in 2D).
            #[export]
            #[var(set)]
            eye_height: f32,
            /// Once seen, a target stays in range until it is farther than this (0 = off; else at least view_radius).
            #[export(range = (0.0, 1000.0, or_greater))]
            #[var(set)]
            lose_sight_radius: f32,
            /// Radius of a wider, shorter peripheral cone (0 = off).
            #[export(range = (0.0, 1000.0, or_greater))]
            #[var(set)]
            peripheral_radius: f32,
            /// Full width of the peripheral cone in degrees.
            #[export(range = (0.0, 360.0))]
            #[var(set)]
            peripheral_angle: f32,
            /// Layers of targets this sensor sees (a target's `layers`).
            #[export($mask_flags)]
            #[var(set)]
            target_mask: u32,
            /// Physics layers whose occluders block sight (the occluding bodies' collision layers).
            #[export($mask_flags)]
            #[var(set)]
            obstacle_mask: u32,
            /// Sight ticks per second (0 = every physics frame); guards are staggered evenly.
            #[export(range = (0.0, 60.0, or_greater))]
            #[var(set)]
            sense_rate_hz: f32,
            /// Sight is tested at all.
            #[export]
            #[var(set)]
            sight_enabled: bool,
            /// Team of this guard (0..63); with the default attitudes team 0 perceives team 1.
            #[export(range = (0.0, 63.0))]
            #[var(set)]
            team: u32,
            /// Memory: confidence lost per second while the target is not perceived.
            #[export(range = (0.0, 10.0, or_greater))]
            #[var(set)]
            decay_per_second: f32,
            /// Memory: below this confidence the target is forgotten (`target_forgotten`).
            #[export(range = (0.0, 1.0))]
            #[var(set)]
            forget_threshold: f32,
            /// Awareness meters (off: the brain reacts to the first sighting, as in the lesson).
            #[export]
            #[var(set)]
            awareness_enabled: bool,
            /// Awareness gained per second for a fully visible target, dead ahead, at zero distance.
            #[export(range = (0.0, 10.0, or_greater))]
            #[var(set)]
            awareness_rise_per_second: f32,
            /// Awareness lost per second while the target is not seen.
            #[export(range = (0.0, 10.0, or_greater))]
            #[var(set)]
            awareness_fall_per_second: f32,
            /// Awareness gain multiplier at the edge of the view radius (1 at the eye).
            #[export(range = (0.0, 1.0))]
            #[var(set)]
            awareness_far_factor: f32,
            /// Awareness gain multiplier at the edge of the cone (1 straight ahead).
            #[export(range = (0.0, 1.0))]
            #[var(set)]
            awareness_edge_factor: f32,
            /// Awareness level where the guard becomes suspicious (stage 1).
            #[export(range = (0.0, 1.0))]
            #[var(set)]
            suspicious_threshold: f32,
            /// Awareness level where the guard becomes alert (stage 2).
            #[export(range = (0.0, 1.0))]
            #[var(set)]
            alert_threshold: f32,
            /// Awareness level where the guard is aware (stage 3); the brain chases from here.
            #[export(range = (0.0, 1.0))]
            #[var(set)]
            aware_threshold: f32,
            /// Which attitudes of other teams this guard perceives (bit 0 hostile, 1 neutral, 2 friendly).
            #[export(flags = (Hostile = 1, Neutral = 2, Friendly = 4))]
            #[var(set)]
            detect_attitudes: u32,
            id: AgentId,
            world: Option<Gd<crate::$World>>,
            /// Where this node reports transform changes once registered.
            moved: Option<Rc<crate::hub::MovedQueue>>,
            base: Base<$Base>,
        }

        #[godot_api]
        impl $IBase for $Vision {
            fn init(base: Base<$Base>) -> Self {
                let (s, m, a) = (SightConfig::default(), MemoryConfig::default(), AwarenessConfig::default());
                Self {
                    view_radius: s.view_radius * $scale,
                    view_angle: s.view_angle,
                    eye_height: $eye,
                    lose_sight_radius: s.lose_sight_radius,
                    peripheral_radius: s.peripheral_radius,
                    peripheral_angle: s.peripheral_angle,
                    target_mask: s.target_mask,
                    obstacle_mask: s.obstacle_mask,
                    sense_rate_hz: s.rate_hz,
                    sight_enabled: true,
                    team: 0,
                    decay_per_second: m.decay_per_second,
                    forget_threshold: m.forget_threshold,
                    awareness_enabled: a.enabled,
                    awareness_rise_per_second: a.rise_per_second,
                    awareness_fall_per_second: a.fall_per_second,
                    awareness_far_factor: a.far_factor,
                    awareness_edge_factor: a.edge_factor,
                    suspicious_threshold: a.suspicious_threshold,
                    alert_threshold: a.alert_threshold,
                    aware_threshold: a.aware_threshold,
                    detect_attitudes: AgentDef::default().detect,
                    id: AgentId::NULL,
                    world: None,
                    moved: None,
                    base,
                }
            }

            fn enter_tree(&mut self) {
                self.base_mut().add_to_group($agents_group);
                self.base_mut().set_notify_transform(true);
            }

            fn on_notification(&mut self, what: $Notification) {
                if what == $Notification::TRANSFORM_CHANGED
                    && let Some(queue) = &self.moved
                {
                    queue.agent_moved(self.id);
                }
            }

            fn ready(&mut self) {
                self.register();
            }

            fn get_configuration_warnings(&self) -> PackedStringArray {
                self.configuration_warnings()
            }

            fn exit_tree(&mut self) {
                // `_ready` runs once per node: without this, a node moved to another parent (or
                // taken out of the tree and put back) would stay unregistered.
                self.base_mut().request_ready();
                if let Some(mut w) = self.world.take().filter(|w| w.is_instance_valid()) {
                    w.bind_mut().hub_mut().remove_agent(self.id);
                }
                self.moved = None;
                self.id = AgentId::NULL;
            }
        }

        #[godot_api]
        impl $Vision {
            /// A target came into sight (at a sight tick).
            #[signal]
            fn target_seen(target: Gd<Node>);
            /// A target seen at the previous sight tick is not seen at this one.
            #[signal]
            fn target_lost(target: Gd<Node>);
            /// Memory of a target decayed below `forget_threshold`; its last known position is no longer trusted.
            #[signal]
            fn target_forgotten(target: Gd<Node>, last_known_position: $Vector);
            /// An awareness meter crossed a stage (0 unaware, 1 suspicious, 2 alert, 3 aware).
            #[signal]
            fn awareness_changed(target: Gd<Node>, from: i64, to: i64, level: f32);

            /// Can this guard see `target` (a perception target node) right now? Poses are read
            /// from the nodes first. Does not change memory or the brain.
            #[func]
            pub fn can_see(&mut self, target: Option<Gd<Node>>) -> bool {
                let Some(target) = self.non_null(target, "can_see") else { return false };
                let Some((id, mut w)) = self.live_world() else { return false };
                let mut w = w.bind_mut();
                let Some(t) = w.hub_mut().target_id_of(&target) else { return false };
                w.query_can_see(id, t).is_some_and(|r| r.seen)
            }

            /// The full answer of `can_see` as a Dictionary: `seen`, `perceivable` (false when
            /// filtered out before any geometry: sight off, target not perceivable, layers,
            /// attitude), `fraction` (visible share of its check points) and `points`, one
            /// Dictionary per check point with `status` ("out_of_range", "outside_cone",
            /// "blocked", "visible", or "filtered": not a target this agent perceives), `point`
            /// and `hit` (where a blocked ray hit).
            #[func]
            pub fn check_sight(&mut self, target: Option<Gd<Node>>) -> VarDictionary {
                let mut d = VarDictionary::new();
                let Some(target) = self.non_null(target, "check_sight") else { return d };
                let Some((id, mut w)) = self.live_world() else { return d };
                let mut w = w.bind_mut();
                let Some(t) = w.hub_mut().target_id_of(&target) else { return d };
                let Some(r) = w.query_can_see(id, t) else { return d };
                d.set("seen", r.seen);
                d.set("perceivable", r.perceivable);
                d.set("fraction", r.fraction);
                let points: Array<VarDictionary> = r
                    .points()
                    .iter()
                    .map(|p| {
                        let mut e = VarDictionary::new();
                        let status = match p.status {
                            argus_core::PointStatus::OutOfRange => "out_of_range",
                            argus_core::PointStatus::OutsideCone => "outside_cone",
                            argus_core::PointStatus::Blocked => "blocked",
                            argus_core::PointStatus::Visible => "visible",
                            argus_core::PointStatus::Filtered => "filtered",
                        };
                        e.set("status", status);
                        e.set("point", $from_core(p.point));
                        e.set("hit", $from_core(p.hit));
                        e
                    })
                    .collect();
                d.set("points", &points);
                d
            }

            /// Every target this guard can see right now (poses read from the nodes first).
            #[func]
            pub fn get_visible_targets(&mut self) -> Array<Gd<Node>> {
                let Some((id, mut w)) = self.live_world() else { return Array::new() };
                let mut w = w.bind_mut();
                let ids = w.query_visible(id);
                ids.into_iter().filter_map(|t| w.hub_mut().target_node(t)).collect()
            }

            /// The targets seen at this guard's latest sight tick (what `target_seen`/`target_lost` track).
            #[func]
            pub fn get_seen_targets(&mut self) -> Array<Gd<Node>> {
                let Some((id, mut w)) = self.live_world() else { return Array::new() };
                let mut w = w.bind_mut();
                let hub = w.hub_mut();
                hub.seen_targets(id).iter().filter_map(|t| hub.target_node(*t)).collect()
            }

            /// True while this guard has a memory record of `target` with confidence above 0.
            #[func]
            pub fn remembers(&mut self, target: Option<Gd<Node>>) -> bool {
                self.record(target, "remembers").is_some_and(|r| r.confidence > 0.0)
            }

            /// Memory confidence of `target`, 1 = just perceived, 0 = forgotten or never perceived.
            #[func]
            pub fn get_confidence(&mut self, target: Option<Gd<Node>>) -> f32 {
                self.record(target, "get_confidence").map(|r| r.confidence).unwrap_or(0.0)
            }

            /// Where `target` was last perceived (null when never perceived).
            #[func]
            pub fn get_last_known_position(&mut self, target: Option<Gd<Node>>) -> Variant {
                match self.record(target, "get_last_known_position") {
                    Some(r) => $from_core(r.last_known_position).to_variant(),
                    None => Variant::nil(),
                }
            }

            /// This guard's memory record of `target` as a Dictionary: `confidence`,
            /// `last_known_position`, `seen` (at the latest sight tick), `visibility` (visible
            /// fraction of its check points), `awareness`, `stage`; empty when there is no record.
            #[func]
            pub fn get_memory(&mut self, target: Option<Gd<Node>>) -> VarDictionary {
                let mut d = VarDictionary::new();
                if let Some(r) = self.record(target, "get_memory") {
                    d.set("confidence", r.confidence);
                    d.set("last_known_position", $from_core(r.last_known_position));
                    d.set("seen", r.seen);
                    d.set("visibility", r.visibility);
                    d.set("awareness", r.awareness);
                    d.set("stage", r.stage as u8 as i64);
                }
                d
            }

            /// Awareness meter of `target`, 0..1 (0 unless awareness is enabled).
            #[func]
            pub fn get_awareness(&mut self, target: Option<Gd<Node>>) -> f32 {
                self.record(target, "get_awareness").map(|r| r.awareness).unwrap_or(0.0)
            }

            /// Sets a memory record by hand (a radio call): `confidence` in 0..1.
            #[func]
            pub fn remember(&mut self, target: Option<Gd<Node>>, position: $Vector, confidence: f32) -> bool {
                let Some(target) = self.non_null(target, "remember") else { return false };
                let Some((id, mut w)) = self.live_world() else { return false };
                let mut w = w.bind_mut();
                let hub = w.hub_mut();
                let Some(t) = hub.target_id_of(&target) else { return false };
                hub.world().remember(id, t, $to_core(position), confidence.clamp(0.0, 1.0)).is_ok()
            }

            /// Brain state (see [EnemyBrain] constants); 0 (idle) without a brain child.
            #[func]
            pub fn get_brain_state(&mut self) -> i64 {
                self.with_agent(|a| crate::hub::state_index(a.brain().state)).unwrap_or(0)
            }

            /// Seconds left Searching or Investigating (0 otherwise).
            #[func]
            pub fn get_brain_timer(&mut self) -> f32 {
                self.with_agent(|a| match a.brain().state {
                    argus_core::BrainState::Investigating | argus_core::BrainState::Searching => {
                        a.brain().timer.max(0.0)
                    }
                    _ => 0.0,
                })
                .unwrap_or(0.0)
            }

            /// Where the brain wants to go (null while idle or without a brain child).
            #[func]
            pub fn get_move_target(&mut self) -> Variant {
                let Some((id, mut w)) = self.live_world() else { return Variant::nil() };
                let mut w = w.bind_mut();
                match w.hub_mut().world().move_target(id) {
                    Ok(Some(p)) => $from_core(p).to_variant(),
                    _ => Variant::nil(),
                }
            }

            /// The target the brain is chasing or searching for (null when none).
            #[func]
            pub fn get_focus_target(&mut self) -> Option<Gd<Node>> {
                let (id, mut w) = self.live_world()?;
                let mut w = w.bind_mut();
                let hub = w.hub_mut();
                let focus = hub.world().agent(id).ok()?.brain().focus;
                hub.target_node(focus)
            }

            /// Tells the brain the guard reached the position it is investigating.
            #[func]
            pub fn report_arrived(&mut self) {
                let Some((id, mut w)) = self.live_world() else { return };
                let _ = w.bind_mut().hub_mut().world().report_arrived(id);
            }

            /// What the editor shows as this node's configuration warnings (also callable from
            /// scripts): no world in reach, no target in the scene, an eye height in 2D.
            #[func]
            pub fn configuration_warnings(&self) -> PackedStringArray {
                let mut out = PackedStringArray::new();
                let node = self.to_gd().upcast::<Node>();
                if !node.is_inside_tree() {
                    return out;
                }
                if find_world::<crate::$World>(&node, $world_group).is_none() {
                    out.push(concat!("No ", stringify!($World), " above this node or in the scene: it perceives nothing until one is added."));
                }
                if node.get_tree().get_nodes_in_group($targets_group).is_empty() {
                    out.push(concat!("No ", stringify!($Target), " in the scene: add one to what this guard should see (the player)."));
                }
                if $eye == 0.0 && self.eye_height != 0.0 {
                    out.push("eye_height is set on a 2D sensor: 2D walls reach 1 unit above the plane, so an eye above that sees over them. Leave it at 0 in 2D.");
                }
                out
            }

            /// True once this sensor is registered with a perception world.
            #[func]
            pub fn is_registered(&self) -> bool {
                !self.id.is_null() && self.world.as_ref().is_some_and(|w| w.is_instance_valid())
            }

            /// Registers with the world if not yet (the world calls this for sensors that were
            /// ready before it). A sensor whose settings the core refuses reports why, naming
            /// itself, and registers once a later change makes them valid.
            #[func]
            pub fn register(&mut self) {
                if crate::sensors::in_editor() || self.live_world().is_some() {
                    return;
                }
                let node = self.to_gd().upcast::<Node>();
                let Some(mut w) = find_world::<crate::$World>(&node, $world_group) else { return };
                let body = $body(self.to_gd().upcast());
                let (hearing, brain) = self.children(None);
                let def = self.def(&body, hearing.as_ref(), brain.as_ref());
                let exclude = body.own_colliders();
                let slot = crate::hub::AgentSlot {
                    node,
                    body,
                    hearing: hearing.map(|h| h.upcast()),
                    brain: brain.map(|b| b.upcast()),
                    exclude,
                    sent: None,
                    watch: Default::default(),
                    bad_pose: false,
                };
                let added = {
                    let mut w = w.bind_mut();
                    let hub = w.hub_mut();
                    hub.add_agent(slot, &def).map(|id| (id, hub.moved_queue()))
                };
                match added {
                    Ok((id, queue)) => {
                        self.id = id;
                        self.moved = Some(queue);
                        self.world = Some(w);
                    }
                    Err(e) => godot_error!(
                        "{}: not registered: its settings are refused ({e}); it registers once they are valid",
                        self.label()
                    ),
                }
            }

            /// Pushes the current settings (this node's and its children's) to the core; false
            /// (and an error naming the node) when the core refuses them, which then changes
            /// nothing. An unregistered sensor tries to register.
            #[func]
            pub fn apply_settings(&mut self) -> bool {
                match self.push_settings(None) {
                    Ok(()) => true,
                    Err(e) => {
                        godot_error!("{}: settings refused ({e})", self.label());
                        false
                    }
                }
            }

            /// A hearing or brain child is leaving: settings without it (the guard goes deaf, or
            /// its brain idle). Called by the children.
            #[func]
            pub fn child_leaving(&mut self, child: Gd<Node>) {
                let _ = self.push_settings(Some(child.instance_id()));
            }

            #[func]
            fn set_view_radius(&mut self, v: f32) {
                self.set_checked(|s| &mut s.view_radius, "view_radius", v);
            }
            #[func]
            fn set_view_angle(&mut self, v: f32) {
                self.set_checked(|s| &mut s.view_angle, "view_angle", v);
            }
            #[func]
            fn set_eye_height(&mut self, v: f32) {
                self.set_checked(|s| &mut s.eye_height, "eye_height", v);
            }
            #[func]
            fn set_lose_sight_radius(&mut self, v: f32) {
                self.set_checked(|s| &mut s.lose_sight_radius, "lose_sight_radius", v);
            }
            #[func]
            fn set_peripheral_radius(&mut self, v: f32) {
                self.set_checked(|s| &mut s.peripheral_radius, "peripheral_radius", v);
            }
            #[func]
            fn set_peripheral_angle(&mut self, v: f32) {
                self.set_checked(|s| &mut s.peripheral_angle, "peripheral_angle", v);
            }
            #[func]
            fn set_target_mask(&mut self, v: u32) {
                self.set_checked(|s| &mut s.target_mask, "target_mask", v);
            }
            #[func]
            fn set_obstacle_mask(&mut self, v: u32) {
                self.set_checked(|s| &mut s.obstacle_mask, "obstacle_mask", v);
            }
            #[func]
            fn set_sense_rate_hz(&mut self, v: f32) {
                self.set_checked(|s| &mut s.sense_rate_hz, "sense_rate_hz", v);
            }
            #[func]
            fn set_sight_enabled(&mut self, v: bool) {
                self.set_checked(|s| &mut s.sight_enabled, "sight_enabled", v);
            }
            #[func]
            fn set_team(&mut self, v: u32) {
                self.set_checked(|s| &mut s.team, "team", v);
            }
            #[func]
            fn set_decay_per_second(&mut self, v: f32) {
                self.set_checked(|s| &mut s.decay_per_second, "decay_per_second", v);
            }
            #[func]
            fn set_forget_threshold(&mut self, v: f32) {
                self.set_checked(|s| &mut s.forget_threshold, "forget_threshold", v);
            }
            #[func]
            fn set_awareness_enabled(&mut self, v: bool) {
                self.set_checked(|s| &mut s.awareness_enabled, "awareness_enabled", v);
            }
            #[func]
            fn set_awareness_rise_per_second(&mut self, v: f32) {
                self.set_checked(|s| &mut s.awareness_rise_per_second, "awareness_rise_per_second", v);
            }
            #[func]
            fn set_awareness_fall_per_second(&mut self, v: f32) {
                self.set_checked(|s| &mut s.awareness_fall_per_second, "awareness_fall_per_second", v);
            }
            #[func]
            fn set_awareness_far_factor(&mut self, v: f32) {
                self.set_checked(|s| &mut s.awareness_far_factor, "awareness_far_factor", v);
            }
            #[func]
            fn set_awareness_edge_factor(&mut self, v: f32) {
                self.set_checked(|s| &mut s.awareness_edge_factor, "awareness_edge_factor", v);
            }
            #[func]
            fn set_suspicious_threshold(&mut self, v: f32) {
                self.set_checked(|s| &mut s.suspicious_threshold, "suspicious_threshold", v);
            }
            #[func]
            fn set_alert_threshold(&mut self, v: f32) {
                self.set_checked(|s| &mut s.alert_threshold, "alert_threshold", v);
            }
            #[func]
            fn set_aware_threshold(&mut self, v: f32) {
                self.set_checked(|s| &mut s.aware_threshold, "aware_threshold", v);
            }
            #[func]
            fn set_detect_attitudes(&mut self, v: u32) {
                self.set_checked(|s| &mut s.detect_attitudes, "detect_attitudes", v);
            }
        }

        impl $Vision {
            /// The world this sensor is registered with. Once that world is freed the sensor
            /// unregisters, reports it once, and waits for the next world (which registers it).
            fn live_world(&mut self) -> Option<(AgentId, Gd<crate::$World>)> {
                match &self.world {
                    Some(w) if w.is_instance_valid() && !self.id.is_null() => Some((self.id, w.clone())),
                    Some(_) => {
                        (self.world, self.moved, self.id) = (None, None, AgentId::NULL);
                        godot_error!(
                            "{}: its perception world was freed; unregistered until another world appears",
                            self.label()
                        );
                        None
                    }
                    None => None,
                }
            }

            fn label(&self) -> String {
                crate::sensors::node_label(&self.to_gd().upcast())
            }

            /// `target`, or an error naming the method when it is null.
            fn non_null(&self, target: Option<Gd<Node>>, method: &str) -> Option<Gd<Node>> {
                if target.is_none() {
                    godot_error!("{}.{method}: target is null (pass a {} node)", self.label(), stringify!($Target));
                }
                target
            }

            /// The settings to the core: `set_agent_def` when registered; else, once ready in the
            /// tree, a check of the def and a registration. `leaving` is a child to leave out.
            pub(crate) fn push_settings(&mut self, leaving: Option<InstanceId>) -> Result<(), String> {
                let world = self.live_world();
                if world.is_none() && !(self.base().is_inside_tree() && self.base().is_node_ready()) {
                    return Ok(()); // checked when it registers at `_ready`
                }
                let body = $body(self.to_gd().upcast());
                let (hearing, brain) = self.children(leaving);
                let def = self.def(&body, hearing.as_ref(), brain.as_ref());
                let Some((id, mut w)) = world else {
                    crate::sensors::check_agent_def(&def)?;
                    self.register();
                    return Ok(());
                };
                let mut w = w.bind_mut();
                let hub = w.hub_mut();
                hub.world().set_agent_def(id, &def).map_err(|e| e.to_string())?;
                if let Some(slot) = hub.agents.get_mut(&id) {
                    slot.hearing = hearing.map(|h| h.upcast());
                    slot.brain = brain.map(|b| b.upcast());
                    slot.sent = None; // the def moved the core's pose
                }
                Ok(())
            }

            /// Sets one property: kept only when the core accepts the settings with it, else the
            /// last accepted value stays and the error names the node and the property. Before
            /// `_ready` (scene loading sets properties one by one) values are kept and checked
            /// when the sensor registers; an unregistered sensor whose settings were already
            /// refused keeps the value and tries again.
            fn set_checked<T: Clone + std::fmt::Debug>(&mut self, field: fn(&mut Self) -> &mut T, name: &str, v: T) {
                let ready = self.base().is_inside_tree() && self.base().is_node_ready();
                let was_valid = !ready || self.live_world().is_some() || self.check_settings().is_ok();
                let old = std::mem::replace(field(self), v.clone());
                if let Err(e) = self.push_settings(None) {
                    if was_valid {
                        *field(self) = old.clone();
                        godot_error!("{}: {name} = {v:?} refused ({e}); keeping {old:?}", self.label());
                    } else {
                        godot_error!("{}: {name} = {v:?} kept, but its settings are still refused ({e})", self.label());
                    }
                }
            }

            fn check_settings(&self) -> Result<(), String> {
                let body = $body(self.to_gd().upcast());
                let (hearing, brain) = self.children(None);
                crate::sensors::check_agent_def(&self.def(&body, hearing.as_ref(), brain.as_ref()))
            }

            /// The node properties as the core's sight, memory and awareness configs.
            fn settings(&self) -> SensorSettings {
                SensorSettings {
                    sight: SightConfig {
                        enabled: self.sight_enabled,
                        eye_offset: Vec3::new(0.0, self.eye_height, 0.0),
                        view_radius: self.view_radius,
                        view_angle: self.view_angle,
                        lose_sight_radius: self.lose_sight_radius,
                        peripheral_radius: self.peripheral_radius,
                        peripheral_angle: self.peripheral_angle,
                        target_mask: self.target_mask,
                        obstacle_mask: self.obstacle_mask,
                        rate_hz: self.sense_rate_hz,
                    },
                    memory: MemoryConfig {
                        decay_per_second: self.decay_per_second,
                        forget_threshold: self.forget_threshold,
                    },
                    awareness: AwarenessConfig {
                        enabled: self.awareness_enabled,
                        rise_per_second: self.awareness_rise_per_second,
                        fall_per_second: self.awareness_fall_per_second,
                        far_factor: self.awareness_far_factor,
                        edge_factor: self.awareness_edge_factor,
                        suspicious_threshold: self.suspicious_threshold,
                        alert_threshold: self.alert_threshold,
                        aware_threshold: self.aware_threshold,
                    },
                    team: self.team,
                    detect: self.detect_attitudes,
                }
            }

            fn children(&self, leaving: Option<InstanceId>) -> (Option<Gd<$Hearing>>, Option<Gd<EnemyBrain>>) {
                let (mut hearing, mut brain) = (None, None);
                for child in self.base().get_children().iter_shared() {
                    if Some(child.instance_id()) == leaving {
                        continue;
                    }
                    if let Ok(h) = child.clone().try_cast::<$Hearing>() {
                        hearing.get_or_insert(h);
                    } else if let Ok(b) = child.try_cast::<EnemyBrain>() {
                        brain.get_or_insert(b);
                    }
                }
                (hearing, brain)
            }

            fn def(
                &self,
                body: &crate::hub::Body,
                hearing: Option<&Gd<$Hearing>>,
                brain: Option<&Gd<EnemyBrain>>,
            ) -> AgentDef {
                let (position, forward) = body.pose();
                let hearing = hearing.map(|h| h.bind().config());
                let brain = brain.map(|b| b.bind().config());
                agent_def(&self.settings(), hearing, brain, position, forward)
            }

            fn record(&mut self, target: Option<Gd<Node>>, method: &str) -> Option<argus_core::MemoryRecord> {
                let target = self.non_null(target, method)?;
                let (id, mut w) = self.live_world()?;
                let mut w = w.bind_mut();
                let hub = w.hub_mut();
                let t = hub.target_id_of(&target)?;
                hub.world().memory_of(id, t).ok().flatten().copied()
            }

            fn with_agent<R>(&mut self, f: impl FnOnce(&argus_core::Agent) -> R) -> Option<R> {
                let (id, mut w) = self.live_world()?;
                let mut w = w.bind_mut();
                w.hub_mut().world().agent(id).ok().map(f)
            }

            /// The core id (null until registered).
            pub fn agent_id(&self) -> AgentId {
                self.id
            }
        }
    };
}

vision_sensor! {
    vision_doc = "A guard's eyes and mind in 3D: an Argus agent whose position and facing follow this node (forward is −Z, what `look_at` faces).",
    hearing_doc = "Ears for the parent VisionSensor3D.",
    target_doc = "Something 3D guards can perceive (the player, a dropped body).",
    base = Node3D, ibase = INode3D, vector = Vector3, notification = Node3DNotification,
    world = PerceptionWorld3D, world_group = "argus_perception_world_3d",
    vision = VisionSensor3D, hearing = HearingSensor3D, target = PerceptionTarget3D,
    body = crate::hub::Body::D3, to_core = crate::convert::to_core, from_core = crate::convert::from_core,
    eye_height = 1.6, check_height = 1.3,
    agents_group = "argus_agents_3d", targets_group = "argus_targets_3d",
    mask_flags = flags_3d_physics, distance_scale = 1.0,
}

vision_sensor! {
    vision_doc = "A guard's eyes and mind in top-down 2D: an Argus agent whose position and facing follow this node (forward is +X; a 2D point (x, y) is the core's ground-plane point (x, 0, y)).",
    hearing_doc = "Ears for the parent VisionSensor2D.",
    target_doc = "Something 2D guards can perceive (the player, a dropped body).",
    base = Node2D, ibase = INode2D, vector = Vector2, notification = CanvasItemNotification,
    world = PerceptionWorld2D, world_group = "argus_perception_world_2d",
    vision = VisionSensor2D, hearing = HearingSensor2D, target = PerceptionTarget2D,
    body = crate::hub::Body::D2, to_core = crate::convert::plane_to_core, from_core = crate::convert::core_to_plane,
    eye_height = 0.0, check_height = 0.0,
    agents_group = "argus_agents_2d", targets_group = "argus_targets_2d",
    mask_flags = flags_2d_physics, distance_scale = 64.0,
}
