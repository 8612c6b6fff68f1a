//! What the 2D world node does differently (`WorldDim` for `D2`): which nodes become occluders
//! and how (collision shapes and polygons, a `TileMapLayer`'s tiles, extruded above and below
//! the plane), following moving shapes, and line of sight through the 2D physics space.

use argus_core::{OccluderDef, OccluderShape, RayHit, RayQuery};
use godot::classes::{
    CollisionObject2D, CollisionPolygon2D, CollisionShape2D, Node2D, PhysicsDirectSpaceState2D,
    PhysicsRayQueryParameters2D, StaticBody2D, TileMapLayer, TileSetAtlasSource,
};
use godot::prelude::*;

use crate::convert::{core_to_plane, plane_to_core, walls_2d};
use crate::dim::D2;
use crate::occluder_sources::Kinds;
use crate::world::WorldDim;
use crate::world_occluders::Rigid;

impl WorldDim for D2 {
    type Shape = Node;
    type Space = PhysicsDirectSpaceState2D;
    const KINDS: Kinds = Kinds {
        is_shape: is_occluder_shape,
        is_extra: |n| n.is_class("TileMapLayer"),
        static_layer,
        // Top-down 2D has no floor: every static body in the plane is a wall.
        is_floor: |_| false,
    };
    fn extra_occluders(node: &Gd<Node>) -> Option<Result<Vec<OccluderDef>, String>> {
        extra_occluders(node)
    }
    fn occluder_def(shape: &Gd<Node>, layers: u32) -> Option<Result<OccluderDef, String>> {
        occluder_def(shape, layers)
    }
    fn shape_body(shape: &Gd<Node>) -> Option<(u32, bool)> {
        let body = shape.get_parent()?.try_cast::<CollisionObject2D>().ok()?;
        let moves = body.clone().try_cast::<StaticBody2D>().is_err() || body.is_class("AnimatableBody2D");
        Some((body.get_collision_layer(), moves))
    }
    fn shape_pose(shape: &Gd<Node>) -> Option<[f32; 12]> {
        shape_pose(shape)
    }
    fn shape_rigid(shape: &Gd<Node>) -> Option<Rigid> {
        shape_rigid(shape)
    }
    fn space(node: &Gd<Node>) -> Option<Gd<PhysicsDirectSpaceState2D>> {
        node.clone().cast::<Node2D>().get_world_2d()?.get_direct_space_state()
    }
    fn physics_ray(space: &mut Gd<PhysicsDirectSpaceState2D>, ray: &RayQuery, exclude: &Array<Rid>) -> RayHit {
        physics_ray(space, ray, exclude)
    }
    fn navigation_polygons(region: &Variant) -> Result<crate::navigation::Polygons, String> {
        crate::navigation::polygons_2d(region)
    }
}

/// A static body's collision layer, or a tile layer's: every layer of its TileSet's physics
/// layers (Godot's rays hit its tiles on those), while its collision is enabled.
fn static_layer(node: &Gd<Node>) -> Option<u32> {
    if let Ok(body) = node.clone().try_cast::<StaticBody2D>() {
        return Some(body.get_collision_layer());
    }
    let layer = node.clone().try_cast::<TileMapLayer>().ok().filter(|l| l.is_collision_enabled())?;
    let set = layer.get_tile_set()?;
    Some((0..set.get_physics_layers_count()).fold(0, |m, pl| m | set.get_physics_layer_collision_layer(pl)))
}

/// How far 2D walls reach above and below the ground plane; 2D rays run at height 0.
const WALL_HALF_HEIGHT: f32 = 1.0;

/// A node `register_occluders` turns into an occluder.
fn is_occluder_shape(node: &Gd<Node>) -> bool {
    node.is_class("CollisionShape2D") || node.is_class("CollisionPolygon2D")
}

/// Static occluders of a `TileMapLayer`: every collision polygon of every used tile, on its
/// TileSet physics layer's collision layers; `None` for anything else. Made where the tiles are
/// at `register_occluders`; a flipped or transposed cell's polygons are flipped and transposed
/// as Godot's physics builds them (`tile_point`).
fn extra_occluders(node: &Gd<Node>) -> Option<Result<Vec<OccluderDef>, String>> {
    let layer = node.clone().try_cast::<TileMapLayer>().ok()?;
    Some(tile_occluders(&layer))
}

fn tile_occluders(layer: &Gd<TileMapLayer>) -> Result<Vec<OccluderDef>, String> {
    let set = layer.get_tile_set().ok_or("the TileMapLayer has no TileSet")?;
    let physics_layers = set.get_physics_layers_count();
    if physics_layers == 0 {
        return Err("its TileSet has no physics layer, so its tiles have no collision polygons".into());
    }
    if !layer.is_collision_enabled() {
        return Ok(Vec::new());
    }
    let t = layer.get_global_transform();
    let mut out = Vec::new();
    for cell in layer.get_used_cells().iter_shared() {
        let Some(data) = layer.get_cell_tile_data(cell) else { continue };
        let centre = layer.map_to_local(cell);
        let alternative = layer.get_cell_alternative_tile(cell);
        for pl in 0..physics_layers {
            let layers = set.get_physics_layer_collision_layer(pl);
            for k in 0..data.get_collision_polygons_count(pl) {
                let points = data.get_collision_polygon_points(pl, k);
                let points: Vec<Vector2> =
                    points.as_slice().iter().map(|p| t * (centre + tile_point(*p, alternative))).collect();
                if let Some((vertices, indices)) = walls_2d(&points, false, WALL_HALF_HEIGHT) {
                    let shape = OccluderShape::Mesh { vertices, indices };
                    out.push(OccluderDef { shape, layers, ..Default::default() });
                }
            }
        }
    }
    Ok(out)
}

/// A tile polygon's point as a cell with this alternative id places it: the cell's
/// `TileSetAtlasSource` `TRANSFORM_*` flags, applied as Godot's `TileData::get_transformed_vertices`
/// does (transpose first, then flip horizontally, then vertically).
fn tile_point(p: Vector2, alternative: i32) -> Vector2 {
    let has = |flag: i32| alternative & flag != 0;
    let mut v = if has(TileSetAtlasSource::TRANSFORM_TRANSPOSE) { Vector2::new(p.y, p.x) } else { p };
    if has(TileSetAtlasSource::TRANSFORM_FLIP_H) {
        v.x = -v.x;
    }
    if has(TileSetAtlasSource::TRANSFORM_FLIP_V) {
        v.y = -v.y;
    }
    v
}

/// The occluder of one `CollisionShape2D` or `CollisionPolygon2D` on `layers`, extruded
/// `WALL_HALF_HEIGHT` above and below the plane; `None` when the shape is disabled.
fn occluder_def(shape: &Gd<Node>, layers: u32) -> Option<Result<OccluderDef, String>> {
    if let Ok(s) = shape.clone().try_cast::<CollisionShape2D>() {
        (!s.is_disabled()).then(|| crate::shapes::occluder_2d(&s, layers, WALL_HALF_HEIGHT))
    } else if let Ok(p) = shape.clone().try_cast::<CollisionPolygon2D>() {
        (!p.is_disabled()).then(|| crate::shapes::occluder_polygon_2d(&p, layers, WALL_HALF_HEIGHT))
    } else {
        Some(Err(format!("{} is neither a CollisionShape2D nor a CollisionPolygon2D", shape.get_class())))
    }
}

/// A shape's global transform, to tell when a moving occluder moved; `None` once it is disabled.
fn shape_pose(shape: &Gd<Node>) -> Option<[f32; 12]> {
    let disabled = shape.get("disabled").try_to::<bool>().unwrap_or(false);
    let node = shape.clone().try_cast::<Node2D>().ok().filter(|_| !disabled)?;
    let t = node.get_global_transform();
    Some([t.a.x, t.a.y, t.b.x, t.b.y, t.origin.x, t.origin.y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
}

/// A shape's rigid pose and scale in core terms, to move its occluder; `None` once disabled.
fn shape_rigid(shape: &Gd<Node>) -> Option<Rigid> {
    shape_pose(shape)?;
    let t = shape.clone().try_cast::<Node2D>().ok()?.get_global_transform();
    Some(Rigid {
        position: plane_to_core(t.origin),
        rotation: crate::convert::rotation_2d_to_core(t.rotation()),
        scale: argus_core::Vec3::new(t.scale().x, 1.0, t.scale().y),
    })
}

/// One line-of-sight ray through the 2D physics space: hits within `max_distance` on the ray's
/// layer mask, skipping the guard's and target's own bodies and colliders containing the eye.
fn physics_ray(space: &mut Gd<PhysicsDirectSpaceState2D>, ray: &RayQuery, exclude: &Array<Rid>) -> RayHit {
    let from = core_to_plane(ray.origin);
    let to = core_to_plane(ray.origin + ray.direction * ray.max_distance);
    let Some(mut query) = PhysicsRayQueryParameters2D::create(from, to) else { return RayHit::default() };
    query.set_collision_mask(ray.layer_mask);
    query.set_exclude(exclude);
    let hit = space.intersect_ray(&query);
    match hit.get("position").and_then(|p| p.try_to::<Vector2>().ok()) {
        Some(p) => RayHit { hit: true, distance: (p - from).length() },
        None => RayHit::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_points_transpose_before_flipping() {
        let p = Vector2::new(1.0, 2.0);
        let (h, v, t) = (
            TileSetAtlasSource::TRANSFORM_FLIP_H,
            TileSetAtlasSource::TRANSFORM_FLIP_V,
            TileSetAtlasSource::TRANSFORM_TRANSPOSE,
        );
        assert_eq!(tile_point(p, 0), p);
        assert_eq!(tile_point(p, 3), p, "the alternative's own id is not a flag");
        assert_eq!(tile_point(p, h), Vector2::new(-1.0, 2.0));
        assert_eq!(tile_point(p, v), Vector2::new(1.0, -2.0));
        assert_eq!(tile_point(p, t), Vector2::new(2.0, 1.0));
        assert_eq!(tile_point(p, t | h), Vector2::new(-2.0, 1.0));
        assert_eq!(tile_point(p, t | v), Vector2::new(2.0, -1.0));
        assert_eq!(tile_point(p, t | h | v), Vector2::new(-2.0, -1.0));
    }
}
