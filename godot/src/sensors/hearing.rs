//! `HearingSensor3D` / `HearingSensor2D`: ears for the parent vision sensor. The logic is written
//! once over `Dim`; the two classes are shells holding the exported properties.

use argus_core::{HearingConfig, HearingPath};
use godot::obj::WithBaseField;
use godot::prelude::*;

use crate::dim::{D2, D3, Dim};

/// What the generic code needs of a hearing sensor class.
pub trait HearingShell: WithBaseField + Inherits<Node> {
    type D: Dim;
    /// The node properties as the core's hearing config.
    fn config(&self) -> HearingConfig;
}

/// Configuration warnings (also callable from scripts): a parent that is not a vision sensor.
fn configuration_warnings<S: HearingShell>(this: &S) -> PackedStringArray {
    let mut out = PackedStringArray::new();
    let parent = this.to_gd().upcast::<Node>().get_parent();
    if parent.is_some_and(|p| p.try_cast::<<S::D as Dim>::Vision>().is_err()) {
        out.push(&format!("Its parent is not a {}: these ears belong to no guard.", <S::D as Dim>::VISION_CLASS));
    }
    out
}

/// Pushes the parent sensor's settings again (`leaving`: without this node).
fn notify_parent<S: HearingShell>(this: &mut S, leaving: Option<InstanceId>) -> Result<(), String> {
    let parent = this.to_gd().upcast::<Node>().get_parent();
    if let Some(mut p) = parent.and_then(|p| p.try_cast::<<S::D as Dim>::Vision>().ok()) {
        // The parent reads this node's settings back: release our own borrow first.
        let _guard = this.base_mut();
        return super::vision::push_settings(&mut *p.bind_mut(), leaving);
    }
    Ok(())
}

/// `_exit_tree`: the guard goes deaf (the child is still listed while it leaves).
fn exit_tree<S: HearingShell>(this: &mut S) {
    let me = this.to_gd().upcast::<Node>();
    let _ = notify_parent(this, Some(me.instance_id()));
}

/// Sets one property: kept only when the core accepts it (alone, and in the parent sensor's
/// settings), else the last accepted value stays and the error names the node and the property.
fn set_checked<S: HearingShell, T: Clone + std::fmt::Debug>(
    this: &mut S,
    field: fn(&mut S) -> &mut T,
    name: &str,
    v: T,
) {
    let old = std::mem::replace(field(this), v.clone());
    let alone = argus_core::AgentDef { hearing: this.config(), ..Default::default() };
    let result = super::check_agent_def(&alone).and_then(|()| notify_parent(this, None));
    if let Err(e) = result {
        *field(this) = old.clone();
        let label = super::node_label(&this.to_gd().upcast());
        godot_error!("{label}: {name} = {v:?} refused ({e}); keeping {old:?}");
    }
}

/// The core's hearing path of the `hearing_path` property (the enum's numbers are the core's).
fn path_of(v: i64) -> HearingPath {
    u32::try_from(v).ok().and_then(HearingPath::from_u32).unwrap_or(HearingPath::World)
}

/// Sets `hearing_path`: 0 (World), 1 (Straight) or 2 (Walk); anything else is refused, naming
/// the node, and the last value stays.
fn set_path<S: HearingShell>(this: &mut S, field: fn(&mut S) -> &mut i64, v: i64) {
    if u32::try_from(v).ok().and_then(HearingPath::from_u32).is_none() {
        let label = super::node_label(&this.to_gd().upcast());
        let old = *field(this);
        godot_error!("{label}: hearing_path = {v} refused (0 World, 1 Straight or 2 Walk); keeping {old}");
        return;
    }
    set_checked(this, field, "hearing_path", v);
}

/// Ears for the parent VisionSensor3D.
///
/// A sound from `emit_sound` is heard when the guard is within loudness ×
/// hearing_sensitivity of it (the lesson's rule; walls do not muffle it unless the
/// world's sound_occlusion is below 1, or a wall's `argus_sound_transmission` metadata says
/// so). With walk hearing (`hearing_path`, or the world's) a sound goes around walls along the
/// world's walk graph, and straight through walls that transmit sound.
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct HearingSensor3D {
    /// Multiplier on every sound's loudness radius (1 = normal hearing).
    #[export(range = (0.0, 10.0, or_greater))]
    #[var(set)]
    hearing_sensitivity: f32,
    /// Layers of sounds this guard listens to.
    #[export(flags_3d_physics)]
    #[var(set)]
    sound_mask: u32,
    /// Hearing is tested at all.
    #[export]
    #[var(set)]
    hearing_enabled: bool,
    /// Physics layers whose occluders muffle sounds, when the world's sound_occlusion is below 1.
    #[export(flags_3d_physics)]
    #[var(set)]
    muffle_mask: u32,
    /// Which way sounds travel to this guard: as the world says (World, default), the straight
    /// line (Straight, the lesson), or around walls along the world's walk graph (Walk).
    #[export(enum = (World = 0, Straight = 1, Walk = 2))]
    #[var(set)]
    hearing_path: i64,
    base: Base<Node>,
}

impl HearingShell for HearingSensor3D {
    type D = D3;
    fn config(&self) -> HearingConfig {
        HearingConfig {
            enabled: self.hearing_enabled,
            sensitivity: self.hearing_sensitivity,
            sound_mask: self.sound_mask,
            obstacle_mask: self.muffle_mask,
            path: path_of(self.hearing_path),
        }
    }
}

#[godot_api]
impl INode for HearingSensor3D {
    fn init(base: Base<Node>) -> Self {
        let h = HearingConfig::default();
        Self {
            hearing_sensitivity: h.sensitivity,
            sound_mask: h.sound_mask,
            hearing_enabled: true,
            muffle_mask: h.obstacle_mask,
            hearing_path: h.path as u32 as i64,
            base,
        }
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        configuration_warnings(self)
    }
    fn enter_tree(&mut self) {
        let _ = notify_parent(self, None);
    }
    fn exit_tree(&mut self) {
        exit_tree(self);
    }
}

#[godot_api]
impl HearingSensor3D {
    /// Configuration warnings (also callable from scripts): a parent that is not a vision sensor.
    #[func]
    pub fn configuration_warnings(&self) -> PackedStringArray {
        configuration_warnings(self)
    }

    /// The guard heard a sound: where, its loudness radius, and the node that made it (null if anonymous).
    #[signal]
    fn sound_heard(position: Vector3, loudness: f32, source: Gd<Node>);
    /// `sound_heard` with the metres (2D: pixels) the sound travelled to the guard: the straight
    /// line, or the walk with walk hearing (`position` is then where it seems to come from).
    #[signal]
    fn sound_heard_ex(position: Vector3, loudness: f32, source: Gd<Node>, distance: f32);

    #[func]
    fn set_hearing_sensitivity(&mut self, v: f32) {
        set_checked(self, |s| &mut s.hearing_sensitivity, "hearing_sensitivity", v);
    }
    #[func]
    fn set_sound_mask(&mut self, v: u32) {
        set_checked(self, |s| &mut s.sound_mask, "sound_mask", v);
    }
    #[func]
    fn set_hearing_enabled(&mut self, v: bool) {
        set_checked(self, |s| &mut s.hearing_enabled, "hearing_enabled", v);
    }
    #[func]
    fn set_muffle_mask(&mut self, v: u32) {
        set_checked(self, |s| &mut s.muffle_mask, "muffle_mask", v);
    }
    #[func]
    fn set_hearing_path(&mut self, v: i64) {
        set_path(self, |s| &mut s.hearing_path, v);
    }
}

/// Ears for the parent VisionSensor2D.
///
/// A sound from `emit_sound` is heard when the guard is within loudness ×
/// hearing_sensitivity of it (the lesson's rule; walls do not muffle it unless the
/// world's sound_occlusion is below 1, or a wall's `argus_sound_transmission` metadata says
/// so). With walk hearing (`hearing_path`, or the world's) a sound goes around walls along the
/// world's walk graph, and straight through walls that transmit sound.
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct HearingSensor2D {
    /// Multiplier on every sound's loudness radius (1 = normal hearing).
    #[export(range = (0.0, 10.0, or_greater))]
    #[var(set)]
    hearing_sensitivity: f32,
    /// Layers of sounds this guard listens to.
    #[export(flags_2d_physics)]
    #[var(set)]
    sound_mask: u32,
    /// Hearing is tested at all.
    #[export]
    #[var(set)]
    hearing_enabled: bool,
    /// Physics layers whose occluders muffle sounds, when the world's sound_occlusion is below 1.
    #[export(flags_2d_physics)]
    #[var(set)]
    muffle_mask: u32,
    /// Which way sounds travel to this guard: as the world says (World, default), the straight
    /// line (Straight, the lesson), or around walls along the world's walk graph (Walk).
    #[export(enum = (World = 0, Straight = 1, Walk = 2))]
    #[var(set)]
    hearing_path: i64,
    base: Base<Node>,
}

impl HearingShell for HearingSensor2D {
    type D = D2;
    fn config(&self) -> HearingConfig {
        HearingConfig {
            enabled: self.hearing_enabled,
            sensitivity: self.hearing_sensitivity,
            sound_mask: self.sound_mask,
            obstacle_mask: self.muffle_mask,
            path: path_of(self.hearing_path),
        }
    }
}

#[godot_api]
impl INode for HearingSensor2D {
    fn init(base: Base<Node>) -> Self {
        let h = HearingConfig::default();
        Self {
            hearing_sensitivity: h.sensitivity,
            sound_mask: h.sound_mask,
            hearing_enabled: true,
            muffle_mask: h.obstacle_mask,
            hearing_path: h.path as u32 as i64,
            base,
        }
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        configuration_warnings(self)
    }
    fn enter_tree(&mut self) {
        let _ = notify_parent(self, None);
    }
    fn exit_tree(&mut self) {
        exit_tree(self);
    }
}

#[godot_api]
impl HearingSensor2D {
    /// Configuration warnings (also callable from scripts): a parent that is not a vision sensor.
    #[func]
    pub fn configuration_warnings(&self) -> PackedStringArray {
        configuration_warnings(self)
    }

    /// The guard heard a sound: where, its loudness radius, and the node that made it (null if anonymous).
    #[signal]
    fn sound_heard(position: Vector2, loudness: f32, source: Gd<Node>);
    /// `sound_heard` with the metres (2D: pixels) the sound travelled to the guard: the straight
    /// line, or the walk with walk hearing (`position` is then where it seems to come from).
    #[signal]
    fn sound_heard_ex(position: Vector2, loudness: f32, source: Gd<Node>, distance: f32);

    #[func]
    fn set_hearing_sensitivity(&mut self, v: f32) {
        set_checked(self, |s| &mut s.hearing_sensitivity, "hearing_sensitivity", v);
    }
    #[func]
    fn set_sound_mask(&mut self, v: u32) {
        set_checked(self, |s| &mut s.sound_mask, "sound_mask", v);
    }
    #[func]
    fn set_hearing_enabled(&mut self, v: bool) {
        set_checked(self, |s| &mut s.hearing_enabled, "hearing_enabled", v);
    }
    #[func]
    fn set_muffle_mask(&mut self, v: u32) {
        set_checked(self, |s| &mut s.muffle_mask, "muffle_mask", v);
    }
    #[func]
    fn set_hearing_path(&mut self, v: i64) {
        set_path(self, |s| &mut s.hearing_path, v);
    }
}
