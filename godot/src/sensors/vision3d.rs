//! The `VisionSensor3D` class: a shell over `vision.rs` (the logic, shared with 2D). It holds
//! the exported properties and forwards (its queries: `vision3d_queries.rs`); `vision2d.rs`
//! is the same file for 2D (a test keeps them in step).

use argus_core::AgentId;
use godot::classes::INode3D;
use godot::classes::notify::Node3DNotification as Notification;
use godot::prelude::*;

use super::link::{Link, enter_tree};
use super::vision::{self, VisionSettings, VisionShell};
use crate::dim::{D3 as D, Dim};

/// A guard's eyes and mind in 3D: an Argus agent whose position and facing follow this node (forward is −Z, what `look_at` faces).
///
/// It tests sight (range, cone, line of sight), remembers what it perceived (last known
/// position and a decaying confidence) and optionally fills awareness meters. Add a
/// hearing sensor and an [EnemyBrain] as children to give it ears and the Idle /
/// Investigating / Chasing / Searching brain. Signals come from the world's step, never
/// from polling.
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct VisionSensor3D {
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
    /// Radius of a wider, shorter peripheral cone (0 = off). Default: the near sense, 1.5 m (96 px in 2D) all around, so a guard notices someone right next to it.
    #[export(range = (0.0, 1000.0, or_greater))]
    #[var(set)]
    peripheral_radius: f32,
    /// Full width of the peripheral cone in degrees (default 360: the near sense).
    #[export(range = (0.0, 360.0))]
    #[var(set)]
    peripheral_angle: f32,
    /// Layers of targets this sensor sees (a target's `layers`).
    #[export(flags_3d_physics)]
    #[var(set)]
    target_mask: u32,
    /// Physics layers whose occluders block sight (the occluding bodies' collision layers).
    #[export(flags_3d_physics)]
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
    link: Link<D, AgentId>,
    base: Base<Node3D>,
}

impl VisionShell for VisionSensor3D {
    type D = D;
    fn link(&mut self) -> &mut Link<D, AgentId> {
        &mut self.link
    }
    fn agent_id(&self) -> AgentId {
        self.link.id
    }
    fn settings(&self) -> VisionSettings {
        VisionSettings {
            view_radius: self.view_radius,
            view_angle: self.view_angle,
            eye_height: self.eye_height,
            lose_sight_radius: self.lose_sight_radius,
            peripheral_radius: self.peripheral_radius,
            peripheral_angle: self.peripheral_angle,
            target_mask: self.target_mask,
            obstacle_mask: self.obstacle_mask,
            sense_rate_hz: self.sense_rate_hz,
            sight_enabled: self.sight_enabled,
            team: self.team,
            decay_per_second: self.decay_per_second,
            forget_threshold: self.forget_threshold,
            awareness_enabled: self.awareness_enabled,
            awareness_rise_per_second: self.awareness_rise_per_second,
            awareness_fall_per_second: self.awareness_fall_per_second,
            awareness_far_factor: self.awareness_far_factor,
            awareness_edge_factor: self.awareness_edge_factor,
            suspicious_threshold: self.suspicious_threshold,
            alert_threshold: self.alert_threshold,
            aware_threshold: self.aware_threshold,
            detect_attitudes: self.detect_attitudes,
        }
    }
}

#[godot_api]
impl INode3D for VisionSensor3D {
    fn init(base: Base<Node3D>) -> Self {
        let s = VisionSettings::defaults::<D>();
        Self {
            view_radius: s.view_radius,
            view_angle: s.view_angle,
            eye_height: s.eye_height,
            lose_sight_radius: s.lose_sight_radius,
            peripheral_radius: s.peripheral_radius,
            peripheral_angle: s.peripheral_angle,
            target_mask: s.target_mask,
            obstacle_mask: s.obstacle_mask,
            sense_rate_hz: s.sense_rate_hz,
            sight_enabled: s.sight_enabled,
            team: s.team,
            decay_per_second: s.decay_per_second,
            forget_threshold: s.forget_threshold,
            awareness_enabled: s.awareness_enabled,
            awareness_rise_per_second: s.awareness_rise_per_second,
            awareness_fall_per_second: s.awareness_fall_per_second,
            awareness_far_factor: s.awareness_far_factor,
            awareness_edge_factor: s.awareness_edge_factor,
            suspicious_threshold: s.suspicious_threshold,
            alert_threshold: s.alert_threshold,
            aware_threshold: s.aware_threshold,
            detect_attitudes: s.detect_attitudes,
            link: Link::default(),
            base,
        }
    }
    fn enter_tree(&mut self) {
        enter_tree::<Self, D>(self, D::AGENTS_GROUP);
    }
    fn on_notification(&mut self, what: Notification) {
        if what == Notification::TRANSFORM_CHANGED {
            self.link.on_moved();
        } else if what == Notification::PATH_RENAMED {
            let node = self.to_gd().upcast();
            self.link.renamed(&node);
        }
    }
    fn ready(&mut self) {
        vision::register(self);
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        vision::configuration_warnings(self)
    }
    fn exit_tree(&mut self) {
        vision::exit_tree(self);
    }
}

#[godot_api]
impl VisionSensor3D {
    /// A target came into sight (at a sight tick).
    #[signal]
    fn target_seen(target: Gd<Node>);
    /// A target seen at the previous sight tick is not seen at this one.
    #[signal]
    fn target_lost(target: Gd<Node>);
    /// Memory of a target decayed below `forget_threshold`; its last known position is no longer trusted.
    #[signal]
    fn target_forgotten(target: Gd<Node>, last_known_position: Vector3);
    /// An awareness meter crossed a stage (0 unaware, 1 suspicious, 2 alert, 3 aware).
    #[signal]
    fn awareness_changed(target: Gd<Node>, from: i64, to: i64, level: f32);

    // The queries (`can_see`, memory, the brain) are in vision3d_queries.rs.

    /// What the editor shows as this node's configuration warnings (also callable from
    /// scripts): no world in reach, no target in the scene, an eye height in 2D.
    #[func]
    pub fn configuration_warnings(&self) -> PackedStringArray {
        vision::configuration_warnings(self)
    }
    /// True once this sensor is registered with a perception world.
    #[func]
    pub fn is_registered(&self) -> bool {
        self.link.is_registered()
    }
    /// Registers with the world if not yet (the world calls this for sensors that were
    /// ready before it). A sensor whose settings the core refuses reports why, naming
    /// itself, and registers once a later change makes them valid.
    #[func]
    pub fn register(&mut self) {
        vision::register(self)
    }
    /// Pushes the current settings (this node's and its children's) to the core; false
    /// (and an error naming the node) when the core refuses them, which then changes
    /// nothing. An unregistered sensor tries to register.
    #[func]
    pub fn apply_settings(&mut self) -> bool {
        vision::apply_settings(self)
    }
    /// A hearing or brain child is leaving: settings without it (the guard goes deaf, or
    /// its brain idle). Called by the children.
    #[func]
    pub fn child_leaving(&mut self, child: Gd<Node>) {
        let _ = vision::push_settings(self, Some(child.instance_id()));
    }

    #[func]
    fn set_view_radius(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.view_radius, "view_radius", v);
    }
    #[func]
    fn set_view_angle(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.view_angle, "view_angle", v);
    }
    #[func]
    fn set_eye_height(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.eye_height, "eye_height", v);
    }
    #[func]
    fn set_lose_sight_radius(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.lose_sight_radius, "lose_sight_radius", v);
    }
    #[func]
    fn set_peripheral_radius(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.peripheral_radius, "peripheral_radius", v);
    }
    #[func]
    fn set_peripheral_angle(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.peripheral_angle, "peripheral_angle", v);
    }
    #[func]
    fn set_target_mask(&mut self, v: u32) {
        vision::set_checked(self, |s| &mut s.target_mask, "target_mask", v);
    }
    #[func]
    fn set_obstacle_mask(&mut self, v: u32) {
        vision::set_checked(self, |s| &mut s.obstacle_mask, "obstacle_mask", v);
    }
    #[func]
    fn set_sense_rate_hz(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.sense_rate_hz, "sense_rate_hz", v);
    }
    #[func]
    fn set_sight_enabled(&mut self, v: bool) {
        vision::set_checked(self, |s| &mut s.sight_enabled, "sight_enabled", v);
    }
    #[func]
    fn set_team(&mut self, v: u32) {
        vision::set_checked(self, |s| &mut s.team, "team", v);
    }
    #[func]
    fn set_decay_per_second(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.decay_per_second, "decay_per_second", v);
    }
    #[func]
    fn set_forget_threshold(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.forget_threshold, "forget_threshold", v);
    }
    #[func]
    fn set_awareness_enabled(&mut self, v: bool) {
        vision::set_checked(self, |s| &mut s.awareness_enabled, "awareness_enabled", v);
    }
    #[func]
    fn set_awareness_rise_per_second(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.awareness_rise_per_second, "awareness_rise_per_second", v);
    }
    #[func]
    fn set_awareness_fall_per_second(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.awareness_fall_per_second, "awareness_fall_per_second", v);
    }
    #[func]
    fn set_awareness_far_factor(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.awareness_far_factor, "awareness_far_factor", v);
    }
    #[func]
    fn set_awareness_edge_factor(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.awareness_edge_factor, "awareness_edge_factor", v);
    }
    #[func]
    fn set_suspicious_threshold(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.suspicious_threshold, "suspicious_threshold", v);
    }
    #[func]
    fn set_alert_threshold(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.alert_threshold, "alert_threshold", v);
    }
    #[func]
    fn set_aware_threshold(&mut self, v: f32) {
        vision::set_checked(self, |s| &mut s.aware_threshold, "aware_threshold", v);
    }
    #[func]
    fn set_detect_attitudes(&mut self, v: u32) {
        vision::set_checked(self, |s| &mut s.detect_attitudes, "detect_attitudes", v);
    }
}
