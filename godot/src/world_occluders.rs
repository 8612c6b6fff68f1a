//! The world node's occluders, written once over `WorldDim`: registered from the occluder group
//! and the collision mask (`occluder_sources` finds them), one collision shape at a time, and
//! followed when their body can move.

use argus_core::{OccluderDef, OccluderId, Quat, Vec3};
use godot::prelude::*;

use crate::dim::Dim;
use crate::occluder_sources::NOT_A_WALL_META;
use crate::sensors::node_label;
use crate::world::{WorldDim, WorldShell, node, start};

/// Removes every occluder and registers them again from the group and the collision mask;
/// how many were registered.
pub fn register_occluders<S: WorldShell>(this: &mut S) -> i64 {
    start(this);
    let core = this.core();
    core.walls_added.set(false);
    core.moving.clear();
    for id in core.occluders.drain(..) {
        let _ = core.hub.world().remove_occluder(id);
    }
    crate::labels::walls_cleared(this);
    let node = node(this);
    if !node.is_inside_tree() {
        return 0;
    }
    let (group, mask) = (this.occluder_group(), this.props().occluder_collision_mask);
    let found = crate::occluder_sources::gather(&node.get_tree(), &group, mask, &<S::D as WorldDim>::KINDS);
    let mut count = 0;
    for shape in found.shapes {
        if let Ok(shape) = shape.try_cast::<<S::D as WorldDim>::Shape>()
            && add_occluder_shape(this, shape)
        {
            count += 1;
        }
    }
    for node in found.others {
        let defs = <S::D as WorldDim>::extra_occluders(&node).unwrap_or_else(|| {
            Err("gives no occluder: it is not a collision shape, a static collision source, or a body holding one"
                .into())
        });
        let transmission = sound_transmission(this, &node);
        let defs = defs.map(|defs| defs.into_iter().map(|d| OccluderDef { sound_transmission: transmission, ..d }));
        match defs.and_then(|defs| add_occluder_defs(this, &defs.collect::<Vec<_>>(), &node)) {
            Ok(n) => count += n,
            Err(e) => warn_once(this, &node, &e),
        }
    }
    if !this.props().use_physics_rays {
        warn_ignored(this, found.ignored);
    }
    count
}

/// Registers one collision shape as an occluder on its body's collision layers; on an
/// animatable, character or rigid body it follows the shape as it moves. False (and a warning
/// saying why) for a disabled or unsupported shape.
pub fn add_occluder_shape<S: WorldShell>(this: &mut S, shape: Gd<<S::D as WorldDim>::Shape>) -> bool {
    let moves = <S::D as WorldDim>::shape_body(&shape).is_some_and(|(_, moves)| moves);
    match make_occluder(this, &shape, moves) {
        Ok(Some((id, def_pose))) => {
            let core = this.core();
            if moves
                && let (Some(pose), Some(made)) =
                    (<S::D as WorldDim>::shape_pose(&shape), <S::D as WorldDim>::shape_rigid(&shape))
            {
                let slot = core.occluders.len();
                core.moving.push(MovingOccluder { slot, shape, pose, made, def_pose });
            }
            core.occluders.push(id);
            true
        }
        Ok(None) => false,
        Err(e) => {
            warn_once(this, &shape.upcast(), &e);
            false
        }
    }
}

/// Adds static occluders made from `source` (named after it); how many.
fn add_occluder_defs<S: WorldShell>(this: &mut S, defs: &[OccluderDef], source: &Gd<Node>) -> Result<i64, String> {
    for def in defs {
        let id = this.core().hub.world().add_occluder(def).map_err(|e| e.to_string())?;
        this.core().occluders.push(id);
        crate::labels::wall_made(this, id, source);
    }
    Ok(defs.len() as i64)
}

/// One `push_warning` for the static sources not warned about yet that are neither in the
/// occluder group nor on the mask (floors and those marked `argus_occluder = false` left out) (a level may hold many on purpose: one line, naming the
/// first few).
fn warn_ignored<S: WorldShell>(this: &mut S, bodies: Vec<Gd<Node>>) {
    let warned = &mut this.core().warned;
    let new: Vec<Gd<Node>> = bodies.into_iter().filter(|b| warned.insert(b.instance_id())).collect();
    if new.is_empty() {
        return;
    }
    let names: Vec<String> = new.iter().take(3).map(node_label).collect();
    let more = if new.len() > 3 { format!(" and {} more", new.len() - 3) } else { String::new() };
    godot_warn!(
        "{}: {} static bodies or other static collision sources ({}{more}) are neither in the group '{}' nor on occluder_collision_mask: sight passes through them (physics rays would stop). Add them if they are walls, or give them the metadata {NOT_A_WALL_META} = false if not.",
        <S::D as Dim>::WORLD_CLASS,
        new.len(),
        names.join(", "),
        this.occluder_group()
    );
}

/// A `push_warning` naming `node`, once per node for this world.
fn warn_once<S: WorldShell>(this: &mut S, node: &Gd<Node>, why: &str) {
    if this.core().warned.insert(node.instance_id()) {
        godot_warn!("{}: {}: {why}", <S::D as Dim>::WORLD_CLASS, node_label(node));
    }
}

/// The metadata that gives a wall a sound transmission (see `sound_transmission`).
pub const SOUND_TRANSMISSION_META: &str = "argus_sound_transmission";

/// A wall's sound transmission: the `argus_sound_transmission` metadata (a number in 0..1: the
/// fraction of a sound's reach kept straight through it) of the source node, else of its parent
/// (the body of a collision shape). `None` when neither has it: the world's `sound_occlusion`
/// with straight hearing, blocking with walk hearing. A value that is not a number in 0..1 is
/// reported once, naming the node, and ignored (the wall then blocks as if it had none).
fn sound_transmission<S: WorldShell>(this: &mut S, node: &Gd<Node>) -> Option<f32> {
    let key = StringName::from(SOUND_TRANSMISSION_META);
    let owner = std::iter::once(node.clone()).chain(node.get_parent()).find(|n| n.has_meta(&key))?;
    let value = owner.get_meta(&key);
    match transmission_value(&value) {
        Ok(t) => Some(t),
        Err(e) => {
            warn_once(
                this,
                &owner,
                &format!("{SOUND_TRANSMISSION_META} = {value} refused ({e}); the wall blocks sound"),
            );
            None
        }
    }
}

/// A metadata value as a sound transmission: a number (int or float) in 0..1.
fn transmission_value(value: &Variant) -> Result<f32, String> {
    let t = value
        .try_to::<f64>()
        .or_else(|_| value.try_to::<i64>().map(|i| i as f64))
        .map_err(|_| format!("a {:?} is not a number", value.get_type()))?;
    if (0.0..=1.0).contains(&t) { Ok(t as f32) } else { Err("it must be from 0 to 1".into()) }
}

/// The occluder of `shape` on its body's collision layers; `None` when it is disabled.
#[allow(clippy::type_complexity)]
fn make_occluder<S: WorldShell>(
    this: &mut S,
    shape: &Gd<<S::D as WorldDim>::Shape>,
    movable: bool,
) -> Result<Option<(OccluderId, (Vec3, Quat))>, String> {
    let layers = <S::D as WorldDim>::shape_body(shape).map(|(layers, _)| layers).unwrap_or(1);
    match <S::D as WorldDim>::occluder_def(shape, layers) {
        None => Ok(None),
        Some(def) => {
            let sound_transmission = sound_transmission(this, &shape.clone().upcast());
            let def = OccluderDef { movable, sound_transmission, ..def? };
            let id = this.core().hub.world().add_occluder(&def).map_err(|e| e.to_string())?;
            crate::labels::wall_made(this, id, &shape.clone().upcast());
            Ok(Some((id, (def.position, def.rotation))))
        }
    }
}

/// Moves the occluder of every moving shape whose global transform changed (the core's
/// `set_occluder_pose`, by the rigid motion since it was made); makes it again when its scale
/// changed; drops those whose shape was freed or disabled.
pub fn follow_moving_occluders<S: WorldShell>(this: &mut S) {
    if this.core_ref().moving.is_empty() {
        return;
    }
    let mut moving = std::mem::take(&mut this.core().moving);
    moving.retain_mut(|m| {
        let pose = m.shape.is_instance_valid().then(|| <S::D as WorldDim>::shape_pose(&m.shape)).flatten();
        if pose == Some(m.pose) {
            return true;
        }
        let id = this.core_ref().occluders[m.slot];
        let now = pose.and_then(|_| <S::D as WorldDim>::shape_rigid(&m.shape));
        if let (Some(pose), Some((position, rotation))) = (pose, now.and_then(|n| m.moved_pose(&n)))
            && this.core().hub.world().set_occluder_pose(id, position, rotation).is_ok()
        {
            m.pose = pose;
            return true;
        }
        let _ = this.core().hub.world().remove_occluder(id);
        crate::labels::wall_removed(this, id);
        let made = pose.and_then(|_| make_occluder(this, &m.shape, true).ok().flatten());
        // A dropped occluder keeps its slot with a dead id, so the others' slots stay.
        this.core().occluders[m.slot] = made.map(|(id, _)| id).unwrap_or(OccluderId::NULL);
        if let (Some((_, def_pose)), Some(made_at)) = (made, now) {
            (m.pose, m.made, m.def_pose) = (pose.unwrap_or(m.pose), made_at, def_pose);
        }
        made.is_some()
    });
    this.core().moving = moving;
}

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
