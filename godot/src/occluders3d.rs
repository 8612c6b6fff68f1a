//! What the 3D world node does differently (`WorldDim` for `D3`): which nodes become occluders
//! and how (collision shapes, CSG shapes, `CollisionPolygon3D`), following moving shapes, and
//! line of sight through the 3D physics space.

use argus_core::{OccluderDef, OccluderShape, RayHit, RayQuery};
use godot::classes::{
    CollisionObject3D, CollisionPolygon3D, CollisionShape3D, CsgShape3D, Geometry2D, Node3D, PhysicsDirectSpaceState3D,
    PhysicsRayQueryParameters3D, StaticBody3D,
};
use godot::prelude::*;

use crate::convert::{from_core, to_core, triangle_soup};
use crate::dim::D3;
use crate::occluder_sources::Kinds;
use crate::world::WorldDim;
use crate::world_occluders::Rigid;

impl WorldDim for D3 {
    type Shape = CollisionShape3D;
    type Space = PhysicsDirectSpaceState3D;
    const KINDS: Kinds = Kinds {
        is_shape: is_occluder_shape,
        is_extra: |n| n.is_class("CSGShape3D") || n.is_class("CollisionPolygon3D"),
        static_layer,
        is_floor,
    };
    fn extra_occluders(node: &Gd<Node>) -> Option<Result<Vec<OccluderDef>, String>> {
        extra_occluders(node)
    }
    fn occluder_def(shape: &Gd<CollisionShape3D>, layers: u32) -> Option<Result<OccluderDef, String>> {
        occluder_def(shape, layers)
    }
    fn shape_body(shape: &Gd<CollisionShape3D>) -> Option<(u32, bool)> {
        let body = shape.get_parent()?.try_cast::<CollisionObject3D>().ok()?;
        let moves = body.clone().try_cast::<StaticBody3D>().is_err() || body.is_class("AnimatableBody3D");
        Some((body.get_collision_layer(), moves))
    }
    fn shape_pose(shape: &Gd<CollisionShape3D>) -> Option<[f32; 12]> {
        shape_pose(shape)
    }
    fn shape_rigid(shape: &Gd<CollisionShape3D>) -> Option<Rigid> {
        shape_rigid(shape)
    }
    fn space(node: &Gd<Node>) -> Option<Gd<PhysicsDirectSpaceState3D>> {
        node.clone().cast::<Node3D>().get_world_3d()?.get_direct_space_state()
    }
    fn physics_ray(space: &mut Gd<PhysicsDirectSpaceState3D>, ray: &RayQuery, exclude: &Array<Rid>) -> RayHit {
        physics_ray(space, ray, exclude)
    }
    fn navigation_polygons(region: &Variant) -> Result<crate::navigation::Polygons, String> {
        crate::navigation::polygons_3d(region)
    }
}

/// A static body's collision layer, or a root CSG shape's when it has collision (Godot's rays
/// hit it on those layers; the shapes inside a root CSG shape are part of its one mesh).
fn static_layer(node: &Gd<Node>) -> Option<u32> {
    if let Ok(body) = node.clone().try_cast::<StaticBody3D>() {
        return Some(body.get_collision_layer());
    }
    let csg = node.clone().try_cast::<CsgShape3D>().ok()?;
    (csg.is_root_shape() && csg.is_using_collision()).then(|| csg.get_collision_layer())
}

/// A floor or ceiling, not a wall: a body whose collision shapes together are flat (their height
/// at most a quarter of their smaller horizontal size), or an infinite plane. Sight across a
/// level passes over a floor, so one left out of the occluders is not worth a warning.
fn is_floor(node: &Gd<Node>) -> bool {
    let mut bounds: Option<Aabb> = None;
    for child in node.get_children().iter_shared() {
        let Ok(cs) = child.try_cast::<CollisionShape3D>() else { continue };
        let Some(shape) = cs.get_shape() else { continue };
        if shape.is_class("WorldBoundaryShape3D") {
            return true;
        }
        let Some(mesh) = shape.get_debug_mesh() else { continue };
        let world = cs.get_global_transform() * mesh.get_aabb();
        bounds = Some(bounds.map_or(world, |b| b.merge(world)));
    }
    bounds.is_some_and(|b| b.size.y <= 0.25 * b.size.x.min(b.size.z))
}

/// A node `register_occluders` turns into an occluder.
fn is_occluder_shape(node: &Gd<Node>) -> bool {
    node.is_class("CollisionShape3D")
}

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
    let faces = crate::engine_workarounds::csg_faces(csg)?;
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
fn shape_rigid(shape: &Gd<CollisionShape3D>) -> Option<Rigid> {
    let t = shape.get_global_transform();
    (!shape.is_disabled()).then(|| Rigid {
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
