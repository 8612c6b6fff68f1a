//! What `PerceptionTarget3D` and `PerceptionTarget2D` do, written once over `Dim` (the classes in
//! `target_nodes.rs` are shells that forward here).

use argus_core::{TargetDef, TargetId, Vec3};
use godot::obj::WithBaseField;
use godot::prelude::*;

use super::link::{Link, no_world_warning, ready_in_tree, world_in_reach};
use super::{WorldNode, check_target_def, in_editor, node_label};
use crate::dim::Dim;

/// The exported properties of a target, as plain values (check points in core terms).
pub struct TargetSettings {
    pub team: u32,
    pub layers: u32,
    pub check_points: Vec<Vec3>,
    pub perceivable: bool,
    /// Metres (2D: pixels) per second.
    pub top_speed: f32,
}

/// A new target's `top_speed` in the dimension's unit: the core's walking speed (1.4 m/s;
/// 89.6 px/s in 2D at 64 px per metre).
pub fn default_top_speed<D: Dim>() -> f32 {
    argus_core::TargetDef::default().top_speed * D::DISTANCE_SCALE
}

/// What the generic code needs of a target class.
pub trait TargetShell: WithBaseField + Inherits<Node> {
    type D: Dim;
    fn link(&mut self) -> &mut Link<Self::D, TargetId>;
    fn settings(&self) -> TargetSettings;
}

fn node<S: TargetShell>(this: &S) -> Gd<Node> {
    this.to_gd().upcast()
}

fn body<S: TargetShell>(this: &S) -> crate::hub::Body {
    <S::D as Dim>::body(node(this))
}

/// The node properties as the core's target def (no check point: one at the dimension's
/// default height).
fn def<S: TargetShell>(this: &S, body: &crate::hub::Body) -> TargetDef {
    let (position, forward) = body.pose();
    let s = this.settings();
    let check_points =
        if s.check_points.is_empty() { vec![Vec3::new(0.0, <S::D as Dim>::CHECK_HEIGHT, 0.0)] } else { s.check_points };
    TargetDef {
        position,
        forward: forward.unwrap_or(Vec3::Z),
        team: s.team,
        layers: s.layers,
        check_points,
        enabled: s.perceivable,
        top_speed: s.top_speed,
    }
}

fn live_world<S: TargetShell>(this: &mut S) -> Option<(TargetId, Gd<<S::D as Dim>::World>)> {
    let node = node(this);
    this.link().live(&node)
}

/// Registers with the world if not yet (the world calls this for targets ready before it).
pub fn register<S: TargetShell>(this: &mut S) {
    if in_editor() || live_world(this).is_some() {
        return;
    }
    let node = node(this);
    let Some(mut w) = world_in_reach::<S::D>(&node) else { return };
    let body = body(this);
    let def = def(this, &body);
    let exclude = body.own_colliders();
    let slot = crate::hub::TargetSlot { node, body, exclude, sent: None, watch: Default::default(), bad_pose: false };
    let added = {
        let mut w = w.bind_mut();
        let hub = w.hub_mut();
        hub.add_target(slot, &def).map(|id| (id, hub.moved_queue()))
    };
    match added {
        Ok((id, queue)) => this.link().attach(id, queue, w),
        Err(e) => godot_error!(
            "{}: not registered: its settings are refused ({e}); it registers once they are valid",
            node_label(&this.to_gd().upcast())
        ),
    }
}

/// `_exit_tree`: leaves the world. Guards that saw it lose it, and forget it (the core drops
/// their memory of it): emitted now, while the node is still alive, with no borrow held.
pub fn exit_tree<S: TargetShell>(this: &mut S) {
    super::link::request_ready(this);
    let (world, id) = this.link().detach();
    let gone = world.map(|mut w| w.bind_mut().hub_mut().remove_target(id));
    if let Some((mut emissions, signals)) = gone.filter(|(e, _)| !e.is_empty()) {
        let _guard = this.base_mut();
        crate::signals::emit_all(&mut emissions, &signals);
    }
}

/// What the editor shows as the target's configuration warnings.
pub fn configuration_warnings<S: TargetShell>(this: &S) -> PackedStringArray {
    let mut out = PackedStringArray::new();
    let node = node(this);
    if !node.is_inside_tree() {
        return out;
    }
    if let Some(w) = no_world_warning::<S::D>(&node, "no guard perceives it.") {
        out.push(&w);
    }
    let masks: Vec<u32> = node
        .get_tree()
        .get_nodes_in_group(<S::D as Dim>::AGENTS_GROUP)
        .iter_shared()
        .filter_map(|n| n.get("target_mask").try_to::<u32>().ok())
        .collect();
    let layers = this.settings().layers;
    if !masks.is_empty() && masks.iter().all(|m| m & layers == 0) {
        out.push("Its layers are outside every guard's target_mask: no guard can see it.");
    }
    out
}

/// Makes a sound at this target (a footstep).
pub fn make_sound<S: TargetShell>(this: &mut S, loudness: f32) {
    let me = node(this);
    let Some((_, mut w)) = this.link().live_for(&me, "make_sound") else { return };
    let (position, _) = body(this).pose();
    if let Err(e) = w.bind_mut().hub_mut().emit_sound(position, loudness, Some(node(this)), None) {
        godot_error!("{}: {e}", <S::D as Dim>::TARGET_CLASS);
    }
}

/// The settings to the core (`set_target_def` when registered; else, once ready in the tree, a
/// check of the def and a registration).
fn push_settings<S: TargetShell>(this: &mut S) -> Result<(), String> {
    let world = live_world(this);
    if world.is_none() && !ready_in_tree(this) {
        return Ok(()); // checked when it registers at `_ready`
    }
    let def = def(this, &body(this));
    let Some((id, mut w)) = world else {
        check_target_def(&def)?;
        register(this);
        return Ok(());
    };
    let mut w = w.bind_mut();
    let hub = w.hub_mut();
    hub.world().set_target_def(id, &def).map_err(|e| e.to_string())?;
    if let Some(slot) = hub.targets.get_mut(&id) {
        slot.sent = None; // the def moved the core's pose
    }
    Ok(())
}

/// Sets one property: kept only when the core accepts it, else the last accepted value stays
/// and the error names the node and the property (see the vision sensor's).
pub fn set_checked<S: TargetShell, T: Clone + std::fmt::Debug>(
    this: &mut S,
    field: fn(&mut S) -> &mut T,
    name: &str,
    v: T,
) {
    let was_valid =
        !ready_in_tree(this) || live_world(this).is_some() || check_target_def(&def(this, &body(this))).is_ok();
    let old = std::mem::replace(field(this), v.clone());
    if let Err(e) = push_settings(this) {
        let label = node_label(&node(this));
        if was_valid {
            *field(this) = old.clone();
            godot_error!("{label}: {name} = {v:?} refused ({e}); keeping {old:?}");
        } else {
            godot_error!("{label}: {name} = {v:?} kept, but its settings are still refused ({e})");
        }
    }
    // `layers` decides this target's configuration warning (outside every guard's mask).
    node(this).update_configuration_warnings();
}
