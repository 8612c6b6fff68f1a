//! Occluders from real collision shapes: a `CollisionShape3D`/`CollisionShape2D` (or
//! `CollisionPolygon2D`) and its global transform become a core `OccluderDef`. The occluder's
//! layers are the owning body's `collision_layer`, so an agent's obstacle mask means the same
//! physics layers whether the add-on's occluders or the physics space answer line of sight.

use argus_core::{OccluderDef, OccluderShape, Quat, Vec3};
use godot::classes::{
    BoxShape3D, CapsuleShape2D, CapsuleShape3D, CircleShape2D, CollisionPolygon2D, CollisionShape2D, CollisionShape3D,
    ConcavePolygonShape2D, ConcavePolygonShape3D, ConvexPolygonShape2D, ConvexPolygonShape3D, CylinderShape3D,
    HeightMapShape3D, RectangleShape2D, SegmentShape2D, SphereShape3D,
};
use godot::prelude::*;

use crate::convert::{
    convex_hull_mesh, cylinder_mesh, plane_to_core, rotation_2d_to_core, rotation_of, to_core, triangle_soup, walls_2d,
};

/// Segments of the polygon standing in for a cylinder.
const CYLINDER_SEGMENTS: u32 = 24;

fn mesh(parts: (Vec<Vec3>, Vec<[u32; 3]>)) -> OccluderShape {
    OccluderShape::Mesh { vertices: parts.0, indices: parts.1 }
}

/// A 3D collision shape as an occluder; `Err` names why a shape cannot be used.
pub fn occluder_3d(node: &Gd<CollisionShape3D>, layers: u32) -> Result<OccluderDef, String> {
    let shape = node.get_shape().ok_or("the CollisionShape3D has no shape")?;
    let t = node.get_global_transform();
    let scale = to_core(t.basis.get_scale());
    let rotation = rotation_of(&t.basis);
    let position = to_core(t.origin);
    let scaled = |points: Vec<Vec3>| points.into_iter().map(|p| p * scale).collect::<Vec<_>>();
    let shape = if let Ok(b) = shape.clone().try_cast::<BoxShape3D>() {
        OccluderShape::Box { half_extents: to_core(b.get_size()) * 0.5 * scale }
    } else if let Ok(s) = shape.clone().try_cast::<SphereShape3D>() {
        OccluderShape::Sphere { radius: s.get_radius() * scale.max_element() }
    } else if let Ok(c) = shape.clone().try_cast::<CapsuleShape3D>() {
        // Godot's capsule height is the total, caps included; the core's is the segment's half.
        let radius = c.get_radius() * scale.x.max(scale.z);
        let half_height = ((c.get_height() * 0.5 - c.get_radius()) * scale.y).max(0.0);
        OccluderShape::Capsule { half_height, radius }
    } else if let Ok(c) = shape.clone().try_cast::<CylinderShape3D>() {
        let (v, i) = cylinder_mesh(c.get_radius(), c.get_height(), CYLINDER_SEGMENTS);
        mesh((scaled(v), i))
    } else if let Ok(c) = shape.clone().try_cast::<ConvexPolygonShape3D>() {
        let points: Vec<Vec3> = c.get_points().as_slice().iter().map(|p| to_core(*p)).collect();
        mesh(convex_hull_mesh(&scaled(points)).ok_or("the convex polygon is flat or has fewer than 4 points")?)
    } else if let Ok(c) = shape.clone().try_cast::<ConcavePolygonShape3D>() {
        let faces: Vec<Vec3> = c.get_faces().as_slice().iter().map(|p| to_core(*p)).collect();
        mesh(triangle_soup(&scaled(faces)).ok_or("the concave polygon has no triangle")?)
    } else if let Ok(h) = shape.clone().try_cast::<HeightMapShape3D>() {
        mesh(height_map(h.get_map_width(), h.get_map_depth(), h.get_map_data().as_slice(), scale)?)
    } else {
        return Err(format!(
            "{} cannot be an occluder (occluders: box, sphere, capsule, cylinder, convex, concave, height map)",
            shape.get_class()
        ));
    };
    Ok(OccluderDef { shape, position, rotation, layers, ..Default::default() })
}

/// A 2D collision shape on the ground plane; `half_height` is how far the 2D walls reach
/// above and below it (2D sight rays run at height 0).
pub fn occluder_2d(node: &Gd<CollisionShape2D>, layers: u32, half_height: f32) -> Result<OccluderDef, String> {
    let shape = node.get_shape().ok_or("the CollisionShape2D has no shape")?;
    let t = node.get_global_transform();
    let (angle, scale) = (t.rotation(), t.scale());
    let position = plane_to_core(t.origin);
    let rotation = rotation_2d_to_core(angle);
    let global_points = |points: &[Vector2]| points.iter().map(|p| t * *p).collect::<Vec<_>>();
    let walls = |points: Vec<Vector2>, segments: bool| -> Result<OccluderDef, String> {
        let parts = walls_2d(&points, segments, half_height).ok_or("the polygon has no edge")?;
        Ok(OccluderDef { shape: mesh(parts), layers, ..Default::default() })
    };
    let shape = if let Ok(r) = shape.clone().try_cast::<RectangleShape2D>() {
        let size = r.get_size();
        OccluderShape::Box { half_extents: Vec3::new(size.x * scale.x * 0.5, half_height, size.y * scale.y * 0.5) }
    } else if let Ok(c) = shape.clone().try_cast::<CircleShape2D>() {
        // A sphere centred on the plane cuts it in exactly the circle.
        OccluderShape::Sphere { radius: c.get_radius() * scale.x.abs().max(scale.y.abs()) }
    } else if let Ok(c) = shape.clone().try_cast::<CapsuleShape2D>() {
        // Godot 2D capsules run along local Y, which the plane mapping sends to core Z: lay the
        // core's Y capsule down on the plane (its cut through y = 0 is the 2D stadium).
        let radius = c.get_radius() * scale.x.abs();
        let half_height = ((c.get_height() * 0.5 - c.get_radius()) * scale.y.abs()).max(0.0);
        let rotation = rotation * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        return Ok(OccluderDef {
            shape: OccluderShape::Capsule { half_height, radius },
            position,
            rotation,
            layers,
            ..Default::default()
        });
    } else if let Ok(c) = shape.clone().try_cast::<ConvexPolygonShape2D>() {
        return walls(global_points(c.get_points().as_slice()), false);
    } else if let Ok(c) = shape.clone().try_cast::<ConcavePolygonShape2D>() {
        return walls(global_points(c.get_segments().as_slice()), true);
    } else if let Ok(s) = shape.clone().try_cast::<SegmentShape2D>() {
        return walls(global_points(&[s.get_a(), s.get_b()]), true);
    } else {
        return Err(format!(
            "{} is not a 2D occluder shape (rectangle, circle, capsule, polygon, segment)",
            shape.get_class()
        ));
    };
    Ok(OccluderDef { shape, position, rotation, layers, ..Default::default() })
}

/// A `CollisionPolygon2D` as walls along its outline.
pub fn occluder_polygon_2d(
    node: &Gd<CollisionPolygon2D>,
    layers: u32,
    half_height: f32,
) -> Result<OccluderDef, String> {
    let t = node.get_global_transform();
    let points: Vec<Vector2> = node.get_polygon().as_slice().iter().map(|p| t * *p).collect();
    let parts = walls_2d(&points, false, half_height).ok_or("the polygon has fewer than 2 points")?;
    Ok(OccluderDef { shape: mesh(parts), layers, ..Default::default() })
}

/// A height map's grid (centred, one unit between samples, as Godot builds it) as triangles.
pub fn height_map(width: i32, depth: i32, heights: &[f32], scale: Vec3) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), String> {
    let (w, d) = (width.max(0) as usize, depth.max(0) as usize);
    if w < 2 || d < 2 || heights.len() < w * d {
        return Err(format!("the height map has {} heights for a {w}×{d} grid", heights.len()));
    }
    let (cx, cz) = ((w - 1) as f32 * 0.5, (d - 1) as f32 * 0.5);
    let vertices =
        (0..w * d).map(|k| Vec3::new((k % w) as f32 - cx, heights[k], (k / w) as f32 - cz) * scale).collect();
    let mut indices = Vec::with_capacity(2 * (w - 1) * (d - 1));
    for j in 0..d - 1 {
        for i in 0..w - 1 {
            let a = (j * w + i) as u32;
            let (b, c) = (a + 1, a + w as u32);
            indices.push([a, c, b]);
            indices.push([b, c, c + 1]);
        }
    }
    Ok((vertices, indices))
}
