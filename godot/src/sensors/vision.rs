//! What `VisionSensor3D` and `VisionSensor2D` do, written once over `Dim` (the classes in
//! `vision3d.rs` / `vision2d.rs` are shells that forward here): registration, settings checked
//! by the core, immediate queries and memory reads.

use argus_core::{AgentDef, AgentId};
use godot::obj::WithBaseField;
use godot::prelude::*;

use super::link::{Link, no_world_warning, ready_in_tree, world_in_reach};
pub use super::vision_settings::VisionSettings;
use super::{WorldNode, agent_def, check_agent_def, in_editor, node_label};
use crate::brain::EnemyBrain;
use crate::dim::Dim;
use crate::sensors::hearing::HearingShell;

/// What the generic code needs of a vision sensor class.
pub trait VisionShell: WithBaseField + Inherits<Node> {
    type D: Dim;
    fn link(&mut self) -> &mut Link<Self::D, AgentId>;
    /// The core id (null until registered).
    fn agent_id(&self) -> AgentId;
    /// The exported properties' values.
    fn settings(&self) -> VisionSettings;
}

fn node<S: VisionShell>(this: &S) -> Gd<Node> {
    this.to_gd().upcast()
}

fn label<S: VisionShell>(this: &S) -> String {
    node_label(&node(this))
}

/// The world this sensor is registered with (see `Link::live`).
pub fn live_world<S: VisionShell>(this: &mut S) -> Option<(AgentId, Gd<<S::D as Dim>::World>)> {
    let node = node(this);
    this.link().live(&node)
}

/// The world this sensor is registered with, or an error naming the sensor and `method`.
pub fn world_for<S: VisionShell>(this: &mut S, method: &str) -> Option<(AgentId, Gd<<S::D as Dim>::World>)> {
    let node = node(this);
    this.link().live_for(&node, method)
}

/// The core id of `target` in `hub`; else an error naming this sensor, `method` and the node
/// passed, saying what to pass instead (a body whose target is its child, the usual slip).
fn target_id<S: VisionShell>(
    this: &S,
    hub: &crate::hub::Hub,
    target: &Gd<Node>,
    method: &str,
) -> Option<argus_core::TargetId> {
    if let Some(t) = hub.target_id_of(target) {
        return Some(t);
    }
    let class = <S::D as Dim>::TARGET_CLASS;
    let name = node_label(target);
    let why = if target.is_class(class) {
        format!("{name} is not registered with this guard's world")
    } else if let Some(child) = target.get_children().iter_shared().find(|c| c.is_class(class)) {
        format!("{name} is a {}, not a {class}: pass its child {}", target.get_class(), node_label(&child))
    } else {
        format!("{name} is a {}, not a {class}, and has no {class} child", target.get_class())
    };
    godot_error!("{}.{method}: {why}", label(this));
    None
}

/// `target`, or an error naming the method when it is null.
pub fn non_null<S: VisionShell>(this: &S, target: Option<Gd<Node>>, method: &str) -> Option<Gd<Node>> {
    if target.is_none() {
        godot_error!("{}.{method}: target is null (pass a {} node)", label(this), <S::D as Dim>::TARGET_CLASS);
    }
    target
}

/// A sensor's hearing and brain children.
type Children<D> = (Option<Gd<<D as Dim>::Hearing>>, Option<Gd<EnemyBrain>>);

/// The hearing and brain children (the first of each), leaving out `leaving`.
fn children<S: VisionShell>(this: &S, leaving: Option<InstanceId>) -> Children<S::D> {
    let (mut hearing, mut brain) = (None, None);
    for child in node(this).get_children().iter_shared() {
        if Some(child.instance_id()) == leaving {
            continue;
        }
        if let Ok(h) = child.clone().try_cast::<<S::D as Dim>::Hearing>() {
            hearing.get_or_insert(h);
        } else if let Ok(b) = child.try_cast::<EnemyBrain>() {
            brain.get_or_insert(b);
        }
    }
    (hearing, brain)
}

/// The agent def of the sensor now (pose from `body`, configs from the children).
fn def<S: VisionShell>(
    this: &S,
    body: &crate::hub::Body,
    hearing: Option<&Gd<<S::D as Dim>::Hearing>>,
    brain: Option<&Gd<EnemyBrain>>,
) -> AgentDef {
    let (position, forward) = body.pose();
    let hearing = hearing.map(|h| h.bind().config());
    let brain = brain.map(|b| b.bind().config());
    agent_def(&this.settings().to_core(), hearing, brain, position, forward)
}

fn body<S: VisionShell>(this: &S) -> crate::hub::Body {
    <S::D as Dim>::body(node(this))
}

/// Registers with the world if not yet. A sensor whose settings the core refuses reports why,
/// naming itself, and registers once a later change makes them valid.
pub fn register<S: VisionShell>(this: &mut S) {
    if in_editor() || live_world(this).is_some() {
        return;
    }
    let node = node(this);
    let Some(mut w) = world_in_reach::<S::D>(&node) else { return };
    let body = body(this);
    let (hearing, brain) = children(this, None);
    let def = def(this, &body, hearing.as_ref(), brain.as_ref());
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
        Ok((id, queue)) => this.link().attach(id, queue, w),
        Err(e) => godot_error!(
            "{}: not registered: its settings are refused ({e}); it registers once they are valid",
            label(this)
        ),
    }
}

/// `_exit_tree`: leaves the world (see `link::request_ready`).
pub fn exit_tree<S: VisionShell>(this: &mut S) {
    super::link::request_ready(this);
    if let (Some(mut w), id) = this.link().detach() {
        w.bind_mut().hub_mut().remove_agent(id);
    }
}

/// The settings to the core: `set_agent_def` when registered; else, once ready in the tree, a
/// check of the def and a registration. `leaving` is a child to leave out.
pub fn push_settings<S: VisionShell>(this: &mut S, leaving: Option<InstanceId>) -> Result<(), String> {
    let world = live_world(this);
    if world.is_none() && !ready_in_tree(this) {
        return Ok(()); // checked when it registers at `_ready`
    }
    let body = body(this);
    let (hearing, brain) = children(this, leaving);
    let def = def(this, &body, hearing.as_ref(), brain.as_ref());
    let Some((id, mut w)) = world else {
        check_agent_def(&def)?;
        register(this);
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

/// `apply_settings`: false (and an error naming the node) when the core refuses the settings.
pub fn apply_settings<S: VisionShell>(this: &mut S) -> bool {
    match push_settings(this, None) {
        Ok(()) => true,
        Err(e) => {
            godot_error!("{}: settings refused ({e})", label(this));
            false
        }
    }
}

/// Sets one property: kept only when the core accepts the settings with it, else the last
/// accepted value stays and the error names the node and the property. Before `_ready` (scene
/// loading sets properties one by one) values are kept and checked when the sensor registers;
/// an unregistered sensor whose settings were already refused keeps the value and tries again.
pub fn set_checked<S: VisionShell, T: Clone + std::fmt::Debug>(
    this: &mut S,
    field: fn(&mut S) -> &mut T,
    name: &str,
    v: T,
) {
    let was_valid = !ready_in_tree(this) || live_world(this).is_some() || check_settings(this).is_ok();
    let old = std::mem::replace(field(this), v.clone());
    if let Err(e) = push_settings(this, None) {
        if was_valid {
            *field(this) = old.clone();
            godot_error!("{}: {name} = {v:?} refused ({e}); keeping {old:?}", label(this));
        } else {
            godot_error!("{}: {name} = {v:?} kept, but its settings are still refused ({e})", label(this));
        }
    }
    // The warnings read `eye_height` (2D), and the targets' read every guard's `target_mask`.
    node(this).update_configuration_warnings();
    if name == "target_mask" && node(this).is_inside_tree() {
        for mut t in node(this).get_tree().get_nodes_in_group(<S::D as Dim>::TARGETS_GROUP).iter_shared() {
            t.update_configuration_warnings();
        }
    }
}

fn check_settings<S: VisionShell>(this: &S) -> Result<(), String> {
    let (hearing, brain) = children(this, None);
    check_agent_def(&def(this, &body(this), hearing.as_ref(), brain.as_ref()))
}

/// What the editor shows as the sensor's configuration warnings.
pub fn configuration_warnings<S: VisionShell>(this: &S) -> PackedStringArray {
    let mut out = PackedStringArray::new();
    let node = node(this);
    if !node.is_inside_tree() {
        return out;
    }
    if let Some(w) = no_world_warning::<S::D>(&node, "it perceives nothing until one is added.") {
        out.push(&w);
    }
    if node.get_tree().get_nodes_in_group(<S::D as Dim>::TARGETS_GROUP).is_empty() {
        let target = <S::D as Dim>::TARGET_CLASS;
        out.push(&format!("No {target} in the scene: add one to what this guard should see (the player)."));
    }
    if <S::D as Dim>::EYE_HEIGHT == 0.0 && this.settings().eye_height != 0.0 {
        out.push("eye_height is set on a 2D sensor: 2D walls reach 1 unit above the plane, so an eye above that sees over them. Leave it at 0 in 2D.");
    }
    out
}

/// Runs `f` on the core agent of this sensor (`None` when unregistered).
pub fn with_agent<S: VisionShell, R>(this: &mut S, f: impl FnOnce(&argus_core::Agent) -> R) -> Option<R> {
    let (id, mut w) = live_world(this)?;
    let mut w = w.bind_mut();
    w.hub_mut().world().agent(id).ok().map(f)
}

/// This sensor's memory record of `target` (`method` names the caller in errors).
pub fn record<S: VisionShell>(
    this: &mut S,
    target: Option<Gd<Node>>,
    method: &str,
) -> Option<argus_core::MemoryRecord> {
    let target = non_null(this, target, method)?;
    let (id, mut w) = world_for(this, method)?;
    let mut w = w.bind_mut();
    let hub = w.hub_mut();
    let t = target_id(this, hub, &target, method)?;
    hub.world().memory_of(id, t).ok().flatten().copied()
}

/// Runs `f` with the world node and the ids of this sensor and `target` (`None`: unregistered
/// sensor or target, or a null target, reported naming `method`).
pub fn with_target<S: VisionShell, R>(
    this: &mut S,
    target: Option<Gd<Node>>,
    method: &str,
    f: impl FnOnce(&mut <S::D as Dim>::World, AgentId, argus_core::TargetId) -> Option<R>,
) -> Option<R> {
    let target = non_null(this, target, method)?;
    let (id, mut w) = world_for(this, method)?;
    let mut w = w.bind_mut();
    let t = target_id(this, w.hub_mut(), &target, method)?;
    f(&mut w, id, t)
}

pub use super::vision_queries::*;
