//! `PerceptionWorld3D`: owns the Argus world of a 3D scene and steps it every physics frame. The
//! node itself is written by `perception_world!` (shared with 2D); this file holds what is 3D only.

use argus_core::{OccluderDef, RayHit, RayQuery};
use godot::classes::{
    CollisionObject3D, CollisionShape3D, INode3D, Node3D, PhysicsDirectSpaceState3D, PhysicsRayQueryParameters3D,
    StaticBody3D,
};
use godot::prelude::*;

use crate::convert::{from_core, to_core};

crate::world::perception_world! {
    doc = "The perception world of a 3D scene: owns the Argus core world, registers the occluders (walls) from collision shapes, and steps sight, hearing, memory, awareness and brains in `_physics_process` (after your scripts have moved things), then emits every sensor's signals from the step's events.\n\nOccluders come from `StaticBody3D`/`CollisionShape3D` nodes in `occluder_group` and, when `occluder_collision_mask` is set, from every `StaticBody3D` on those physics layers: box, sphere, capsule, cylinder, convex and concave polygon shapes. An occluder's layers are its body's `collision_layer`. A shape on an animatable, character or rigid body is followed as it moves; a `StaticBody3D`'s stays where it was until `register_occluders()`. With `use_physics_rays` the physics space answers line of sight instead (`PhysicsDirectSpaceState3D.intersect_ray`, every ray of a step in one batch), so every collider counts.",
    class = PerceptionWorld3D, base = Node3D, ibase = INode3D, d2 = false,
    vector = Vector3, packed = PackedVector3Array, to_core = to_core, from_core = from_core,
    mask_flags = flags_3d_physics, static_body = StaticBody3D, collision_object = CollisionObject3D,
    shape = CollisionShape3D, sensor = VisionSensor3D, space = PhysicsDirectSpaceState3D, get_world = get_world_3d,
    world_group = "argus_perception_world_3d", agents_group = "argus_agents_3d", targets_group = "argus_targets_3d",
}

/// A node `register_occluders` turns into an occluder.
fn is_occluder_shape(node: &Gd<Node>) -> bool {
    node.is_class("CollisionShape3D")
}

/// The occluder of one collision shape on `layers`; `None` when the shape is disabled.
fn occluder_def(shape: &Gd<CollisionShape3D>, layers: u32) -> Option<Result<OccluderDef, String>> {
    (!shape.is_disabled()).then(|| crate::shapes::occluder_3d(shape, layers))
}

/// A shape's global transform, to tell when a moving occluder moved; `None` once it is disabled.
fn shape_pose(shape: &Gd<CollisionShape3D>) -> Option<[f32; 12]> {
    if shape.is_disabled() {
        return None;
    }
    let t = shape.get_global_transform();
    let (b, o) = (t.basis.rows, t.origin);
    Some([b[0].x, b[0].y, b[0].z, b[1].x, b[1].y, b[1].z, b[2].x, b[2].y, b[2].z, o.x, o.y, o.z])
}

/// One line-of-sight ray through the physics space: hits within `max_distance` on the ray's
/// layer mask, skipping the guard's and target's own bodies and colliders containing the eye.
fn physics_ray(space: &mut Gd<PhysicsDirectSpaceState3D>, ray: &RayQuery, exclude: &Array<Rid>) -> RayHit {
    let from = from_core(ray.origin);
    let to = from_core(ray.origin + ray.direction * ray.max_distance);
    let Some(mut query) = PhysicsRayQueryParameters3D::create(from, to) else { return RayHit::default() };
    query.set_collision_mask(ray.layer_mask);
    query.set_exclude(exclude);
    let hit = space.intersect_ray(&query);
    match hit.get("position").and_then(|p| p.try_to::<Vector3>().ok()) {
        Some(p) => RayHit { hit: true, distance: (p - from).length() },
        None => RayHit::default(),
    }
}
