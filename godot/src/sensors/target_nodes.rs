//! The `PerceptionTarget3D` and `PerceptionTarget2D` classes: shells holding the exported
//! properties and forwarding to `target.rs` (the logic, written once).

use argus_core::TargetId;
use godot::classes::notify::{CanvasItemNotification, Node3DNotification};
use godot::classes::{INode2D, INode3D};
use godot::prelude::*;

use super::link::{Link, enter_tree};
use super::target::{self, TargetSettings, TargetShell};
use crate::dim::{D2, D3, Dim};

/// Something 3D guards can perceive (the player, a dropped body).
///
/// Its position and facing follow this node; sight rays aim at its check points.
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct PerceptionTarget3D {
    /// Team (0..63); guards (team 0) perceive team 1 by default.
    #[export(range = (0.0, 63.0))]
    #[var(set)]
    team: u32,
    /// Layer bits matched against each guard's `target_mask`.
    #[export(flags_3d_physics)]
    #[var(set)]
    layers: u32,
    /// Check points as offsets from this node (1 to 8; empty = one at chest height in 3D, at the node in 2D).
    #[export]
    #[var(set)]
    check_points: Array<Vector3>,
    /// Visible to guards at all (sounds it makes are still heard).
    #[export]
    #[var(set)]
    perceivable: bool,
    /// How fast guards searching by belief assume it can move once they lose it: how fast their belief of where it can be spreads over the walk graph (metres per second; pixels in 2D: default 1.4 m/s, 89.6 px/s in 2D; 0 to 1000).
    #[export(range = (0.0, 1000.0, or_greater))]
    #[var(set)]
    top_speed: f32,
    link: Link<D3, TargetId>,
    base: Base<Node3D>,
}

impl TargetShell for PerceptionTarget3D {
    type D = D3;
    fn link(&mut self) -> &mut Link<D3, TargetId> {
        &mut self.link
    }
    fn settings(&self) -> TargetSettings {
        TargetSettings {
            team: self.team,
            layers: self.layers,
            check_points: self.check_points.iter_shared().map(D3::to_core).collect(),
            perceivable: self.perceivable,
            top_speed: self.top_speed,
        }
    }
}

#[godot_api]
impl INode3D for PerceptionTarget3D {
    fn init(base: Base<Node3D>) -> Self {
        Self {
            team: 1,
            layers: 1,
            check_points: Array::new(),
            perceivable: true,
            top_speed: target::default_top_speed::<D3>(),
            link: Link::default(),
            base,
        }
    }
    fn enter_tree(&mut self) {
        enter_tree::<Self, D3>(self, D3::TARGETS_GROUP);
    }
    fn on_notification(&mut self, what: Node3DNotification) {
        if what == Node3DNotification::TRANSFORM_CHANGED {
            self.link.on_moved();
        } else if what == Node3DNotification::PATH_RENAMED {
            let node = self.to_gd().upcast();
            self.link.renamed(&node);
        }
    }
    fn ready(&mut self) {
        target::register(self);
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        target::configuration_warnings(self)
    }
    fn exit_tree(&mut self) {
        target::exit_tree(self);
    }
}

#[godot_api]
impl PerceptionTarget3D {
    /// Registers with the world if not yet (the world calls this for targets ready before it).
    #[func]
    pub fn register(&mut self) {
        target::register(self)
    }
    /// What the editor shows as this node's configuration warnings (also callable from
    /// scripts): no world in reach, or `layers` outside every guard's `target_mask`.
    #[func]
    pub fn configuration_warnings(&self) -> PackedStringArray {
        target::configuration_warnings(self)
    }
    /// True once registered with a perception world.
    #[func]
    pub fn is_registered(&self) -> bool {
        self.link.is_registered()
    }
    /// Makes a sound at this target (a footstep): heard by guards within `loudness` metres.
    #[func]
    pub fn make_sound(&mut self, loudness: f32) {
        target::make_sound(self, loudness)
    }

    #[func]
    fn set_team(&mut self, v: u32) {
        target::set_checked(self, |s| &mut s.team, "team", v);
    }
    #[func]
    fn set_layers(&mut self, v: u32) {
        target::set_checked(self, |s| &mut s.layers, "layers", v);
    }
    #[func]
    fn set_check_points(&mut self, v: Array<Vector3>) {
        target::set_checked(self, |s| &mut s.check_points, "check_points", v);
    }
    #[func]
    fn set_perceivable(&mut self, v: bool) {
        target::set_checked(self, |s| &mut s.perceivable, "perceivable", v);
    }
    #[func]
    fn set_top_speed(&mut self, v: f32) {
        target::set_checked(self, |s| &mut s.top_speed, "top_speed", v);
    }
}

impl PerceptionTarget3D {
    /// The core id (null until registered).
    pub fn target_id(&self) -> TargetId {
        self.link.id
    }
}

/// Something 2D guards can perceive (the player, a dropped body).
///
/// Its position and facing follow this node; sight rays aim at its check points.
#[derive(GodotClass)]
#[class(base = Node2D, tool)]
pub struct PerceptionTarget2D {
    /// Team (0..63); guards (team 0) perceive team 1 by default.
    #[export(range = (0.0, 63.0))]
    #[var(set)]
    team: u32,
    /// Layer bits matched against each guard's `target_mask`.
    #[export(flags_2d_physics)]
    #[var(set)]
    layers: u32,
    /// Check points as offsets from this node (1 to 8; empty = one at chest height in 3D, at the node in 2D).
    #[export]
    #[var(set)]
    check_points: Array<Vector2>,
    /// Visible to guards at all (sounds it makes are still heard).
    #[export]
    #[var(set)]
    perceivable: bool,
    /// How fast guards searching by belief assume it can move once they lose it: how fast their belief of where it can be spreads over the walk graph (metres per second; pixels in 2D: default 1.4 m/s, 89.6 px/s in 2D; 0 to 1000).
    #[export(range = (0.0, 1000.0, or_greater))]
    #[var(set)]
    top_speed: f32,
    link: Link<D2, TargetId>,
    base: Base<Node2D>,
}

impl TargetShell for PerceptionTarget2D {
    type D = D2;
    fn link(&mut self) -> &mut Link<D2, TargetId> {
        &mut self.link
    }
    fn settings(&self) -> TargetSettings {
        TargetSettings {
            team: self.team,
            layers: self.layers,
            check_points: self.check_points.iter_shared().map(D2::to_core).collect(),
            perceivable: self.perceivable,
            top_speed: self.top_speed,
        }
    }
}

#[godot_api]
impl INode2D for PerceptionTarget2D {
    fn init(base: Base<Node2D>) -> Self {
        Self {
            team: 1,
            layers: 1,
            check_points: Array::new(),
            perceivable: true,
            top_speed: target::default_top_speed::<D2>(),
            link: Link::default(),
            base,
        }
    }
    fn enter_tree(&mut self) {
        enter_tree::<Self, D2>(self, D2::TARGETS_GROUP);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        if what == CanvasItemNotification::TRANSFORM_CHANGED {
            self.link.on_moved();
        } else if what == CanvasItemNotification::PATH_RENAMED {
            let node = self.to_gd().upcast();
            self.link.renamed(&node);
        }
    }
    fn ready(&mut self) {
        target::register(self);
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        target::configuration_warnings(self)
    }
    fn exit_tree(&mut self) {
        target::exit_tree(self);
    }
}

#[godot_api]
impl PerceptionTarget2D {
    /// Registers with the world if not yet (the world calls this for targets ready before it).
    #[func]
    pub fn register(&mut self) {
        target::register(self)
    }
    /// What the editor shows as this node's configuration warnings (also callable from
    /// scripts): no world in reach, or `layers` outside every guard's `target_mask`.
    #[func]
    pub fn configuration_warnings(&self) -> PackedStringArray {
        target::configuration_warnings(self)
    }
    /// True once registered with a perception world.
    #[func]
    pub fn is_registered(&self) -> bool {
        self.link.is_registered()
    }
    /// Makes a sound at this target (a footstep): heard by guards within `loudness` metres.
    #[func]
    pub fn make_sound(&mut self, loudness: f32) {
        target::make_sound(self, loudness)
    }

    #[func]
    fn set_team(&mut self, v: u32) {
        target::set_checked(self, |s| &mut s.team, "team", v);
    }
    #[func]
    fn set_layers(&mut self, v: u32) {
        target::set_checked(self, |s| &mut s.layers, "layers", v);
    }
    #[func]
    fn set_check_points(&mut self, v: Array<Vector2>) {
        target::set_checked(self, |s| &mut s.check_points, "check_points", v);
    }
    #[func]
    fn set_perceivable(&mut self, v: bool) {
        target::set_checked(self, |s| &mut s.perceivable, "perceivable", v);
    }
    #[func]
    fn set_top_speed(&mut self, v: f32) {
        target::set_checked(self, |s| &mut s.top_speed, "top_speed", v);
    }
}

impl PerceptionTarget2D {
    /// The core id (null until registered).
    pub fn target_id(&self) -> TargetId {
        self.link.id
    }
}
