//! `PerceptionWorld3D`: owns the Argus world of a 3D scene and steps it every physics frame. The
//! node itself is written by `perception_world!` (shared with 2D); this file holds what is 3D only.

use argus_core::{OccluderDef, OccluderShape, RayHit, RayQuery};
use godot::classes::{
    CollisionObject3D, CollisionPolygon3D, CollisionShape3D, ConcavePolygonShape3D, CsgShape3D, Geometry2D, INode3D,
    Mesh, Node3D, PhysicsDirectSpaceState3D, PhysicsRayQueryParameters3D, StaticBody3D,
};
use godot::prelude::*;

use crate::convert::{from_core, to_core, triangle_soup};
use crate::occluder_sources::Kinds;

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

/// What the 3D world counts as what (see `occluder_sources`).
const KINDS: Kinds = Kinds {
    is_shape: is_occluder_shape,
    is_extra: |n| n.is_class("CSGShape3D") || n.is_class("CollisionPolygon3D"),
    static_layer: |n| n.clone().try_cast::<StaticBody3D>().ok().map(|b| b.get_collision_layer()),
};

/// Static occluders of the other 3D collision sources: a root CSG shape (its collision mesh, on
/// its collision layers) and a `CollisionPolygon3D` (its extruded prism, on its body's layers);
/// `None` for anything else. Made where they are at `register_occluders` (they do not follow).
fn extra_occluders(node: &Gd<Node>) -> Option<Result<Vec<OccluderDef>, String>> {
    if let Ok(csg) = node.clone().try_cast::<CsgShape3D>() {
        return Some(csg_occluder(&csg));
    }
    let polygon = node.clone().try_cast::<CollisionPolygon3D>().ok()?;
    Some(polygon_occluder(&polygon))
}

/// A world-space triangle soup as one static occluder.
fn soup(faces: impl Iterator<Item = Vector3>, t: &Transform3D, layers: u32) -> Result<Vec<OccluderDef>, String> {
    let world: Vec<argus_core::Vec3> = faces.map(|p| to_core(*t * p)).collect();
    let (vertices, indices) = triangle_soup(&world).ok_or("its mesh has no triangle")?;
    Ok(vec![OccluderDef { shape: OccluderShape::Mesh { vertices, indices }, layers, ..Default::default() }])
}

fn csg_occluder(csg: &Gd<CsgShape3D>) -> Result<Vec<OccluderDef>, String> {
    if !csg.is_root_shape() {
        return Err("a CSG shape inside another CSG shape: put the root CSG shape in the group".into());
    }
    // A CSG shape builds its mesh deferred, after it entered the tree: build it now.
    if csg.has_method("_update_shape") {
        csg.clone().call("_update_shape", &[]);
    }
    let faces = if csg.has_method("bake_collision_shape") {
        csg.clone()
            .call("bake_collision_shape", &[])
            .try_to::<Gd<ConcavePolygonShape3D>>()
            .map(|s| s.get_faces())
            .map_err(|_| "its CSG mesh is empty")?
    } else {
        csg.get_meshes()
            .get(1)
            .and_then(|m| m.try_to::<Gd<Mesh>>().ok())
            .map(|m| m.get_faces())
            .ok_or("its CSG mesh is not built yet (call register_occluders() a frame later)")?
    };
    soup(faces.as_slice().iter().copied(), &csg.get_global_transform(), csg.get_collision_layer())
}

fn polygon_occluder(node: &Gd<CollisionPolygon3D>) -> Result<Vec<OccluderDef>, String> {
    if node.is_disabled() {
        return Ok(Vec::new());
    }
    let polygon = node.get_polygon();
    let points = polygon.as_slice();
    if points.len() < 3 {
        return Err("the polygon has fewer than 3 points".into());
    }
    // Godot extrudes the polygon (local XY) along Z, centred on the node.
    let h = node.get_depth() * 0.5;
    let at = |p: Vector2, z: f32| Vector3::new(p.x, p.y, z);
    let mut faces = Vec::new();
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        faces.extend([at(a, -h), at(b, -h), at(b, h), at(a, -h), at(b, h), at(a, h)]);
    }
    let caps = Geometry2D::singleton().triangulate_polygon(&polygon);
    for tri in caps.as_slice().chunks_exact(3) {
        for z in [-h, h] {
            faces.extend(tri.iter().map(|&k| at(points[k as usize], z)));
        }
    }
    let layers = node
        .get_parent()
        .and_then(|p| p.try_cast::<CollisionObject3D>().ok())
        .map(|b| b.get_collision_layer())
        .unwrap_or(1);
    soup(faces.into_iter(), &node.get_global_transform(), layers)
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

/// A shape's rigid pose and scale in core terms, to move its occluder; `None` once disabled.
fn shape_rigid(shape: &Gd<CollisionShape3D>) -> Option<crate::world::Rigid> {
    let t = shape.get_global_transform();
    (!shape.is_disabled()).then(|| crate::world::Rigid {
        position: to_core(t.origin),
        rotation: crate::convert::rotation_of(&t.basis),
        scale: to_core(t.basis.get_scale()),
    })
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
