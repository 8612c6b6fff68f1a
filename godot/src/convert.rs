//! Engine-free glue: Godot vectors and shapes to the core's types and back.
//!
//! gdext's `Vector3` (glam 0.32 inside) and the core's `Vec3` (glam 0.33) are different types:
//! they cross the boundary by components, here and nowhere else. Godot 3D is +Y up with forward
//! = −Z (`-global_basis.z`); the core is +Y up and takes any forward, so 3D positions and
//! directions pass through unchanged. Godot 2D maps onto the core's ground plane: a 2D point
//! (x, y) is the core point (x, 0, y) and back.

use argus_core::{Quat, Vec3};
use godot::builtin::{Basis, Color, Vector2, Vector3};

/// A Godot 3D vector as a core vector.
pub fn to_core(v: Vector3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// A core vector as a Godot 3D vector.
pub fn from_core(v: Vec3) -> Vector3 {
    Vector3::new(v.x, v.y, v.z)
}

/// A Godot 2D point on the core's ground plane: (x, y) → (x, 0, y).
pub fn plane_to_core(v: Vector2) -> Vec3 {
    Vec3::new(v.x, 0.0, v.y)
}

/// A core point projected back to Godot 2D: (x, y, z) → (x, z).
pub fn core_to_plane(v: Vec3) -> Vector2 {
    Vector2::new(v.x, v.z)
}

/// Godot 3D forward of a basis: −Z, what `look_at` faces.
pub fn forward_3d(basis: &Basis) -> Vec3 {
    let z = basis.col_c();
    -to_core(z)
}

/// The rotation of a basis without its scale (shapes take the scale separately).
pub fn rotation_of(basis: &Basis) -> Quat {
    let q = basis.orthonormalized().get_quaternion();
    Quat::from_xyzw(q.x, q.y, q.z, q.w).normalize()
}

/// A 2D rotation (radians, Godot's sense: +angle turns +X towards +Y) as a core rotation: the
/// ground-plane mapping makes it a turn about −Y.
pub fn rotation_2d_to_core(angle: f32) -> Quat {
    Quat::from_rotation_y(-angle)
}

/// A packed `0xRRGGBBAA` debug colour as a Godot colour.
pub fn color_of(rgba: u32) -> Color {
    Color::from_rgba8((rgba >> 24) as u8, (rgba >> 16) as u8, (rgba >> 8) as u8, rgba as u8)
}

/// A vertical closed cylinder (Godot's `CylinderShape3D`, centred, along local Y) as a triangle
/// mesh. The polygon is circumscribed around the circle, so every ray the true cylinder blocks
/// is still blocked (a few grazing rays at the corners are blocked too).
pub fn cylinder_mesh(radius: f32, height: f32, segments: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let n = segments.max(3);
    let r = radius / (std::f32::consts::PI / n as f32).cos();
    let h = height * 0.5;
    let mut vertices = Vec::with_capacity(2 * n as usize + 2);
    for i in 0..n {
        let a = std::f32::consts::TAU * i as f32 / n as f32;
        let (s, c) = a.sin_cos();
        vertices.push(Vec3::new(r * c, -h, r * s));
        vertices.push(Vec3::new(r * c, h, r * s));
    }
    let (bottom, top) = (2 * n, 2 * n + 1);
    vertices.push(Vec3::new(0.0, -h, 0.0));
    vertices.push(Vec3::new(0.0, h, 0.0));
    let mut indices = Vec::with_capacity(4 * n as usize);
    for i in 0..n {
        let j = (i + 1) % n;
        let (b0, t0, b1, t1) = (2 * i, 2 * i + 1, 2 * j, 2 * j + 1);
        indices.push([b0, b1, t1]);
        indices.push([b0, t1, t0]);
        indices.push([bottom, b1, b0]);
        indices.push([top, t0, t1]);
    }
    (vertices, indices)
}

/// The convex hull of a point cloud (Godot's `ConvexPolygonShape3D`) as a triangle mesh;
/// `None` for fewer than four points or a flat cloud.
pub fn convex_hull_mesh(points: &[Vec3]) -> Option<(Vec<Vec3>, Vec<[u32; 3]>)> {
    if points.len() < 4 {
        return None;
    }
    let (vertices, indices) = parry3d::transformation::convex_hull(points);
    (vertices.len() >= 4 && !indices.is_empty()).then_some((vertices, indices))
}

/// A triangle soup (Godot's `ConcavePolygonShape3D` faces: three vertices per triangle) as a
/// mesh; a trailing partial triangle is dropped.
pub fn triangle_soup(faces: &[Vec3]) -> Option<(Vec<Vec3>, Vec<[u32; 3]>)> {
    let count = faces.len() / 3;
    if count == 0 {
        return None;
    }
    let vertices = faces[..count * 3].to_vec();
    let indices = (0..count as u32).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
    Some((vertices, indices))
}

/// A closed 2D outline (a polygon's points in order, or a list of segments as point pairs when
/// `segments` is true) as vertical walls on the core's ground plane, from y = −`half_height`
/// to +`half_height`: 2D sight rays travel at y = 0 and cross these walls exactly where they
/// cross the outline.
pub fn walls_2d(points: &[Vector2], segments: bool, half_height: f32) -> Option<(Vec<Vec3>, Vec<[u32; 3]>)> {
    let edges: Vec<(Vector2, Vector2)> = if segments {
        points.chunks_exact(2).map(|p| (p[0], p[1])).collect()
    } else if points.len() >= 2 {
        (0..points.len()).map(|i| (points[i], points[(i + 1) % points.len()])).collect()
    } else {
        Vec::new()
    };
    if edges.is_empty() {
        return None;
    }
    let mut vertices = Vec::with_capacity(edges.len() * 4);
    let mut indices = Vec::with_capacity(edges.len() * 2);
    for (a, b) in edges {
        let base = vertices.len() as u32;
        let (a, b) = (plane_to_core(a), plane_to_core(b));
        vertices.extend([a.with_y(-half_height), b.with_y(-half_height), b.with_y(half_height), a.with_y(half_height)]);
        indices.push([base, base + 1, base + 2]);
        indices.push([base, base + 2, base + 3]);
    }
    Some((vertices, indices))
}

#[cfg(test)]
mod tests {
    use super::*;
    use argus_core::{AgentDef, OccluderDef, OccluderShape, TargetDef, World};

    #[test]
    fn vectors_cross_by_components() {
        let v = Vector3::new(1.5, -2.0, 3.25);
        assert_eq!(from_core(to_core(v)), v);
        assert_eq!(to_core(v), Vec3::new(1.5, -2.0, 3.25));
    }

    #[test]
    fn godot_2d_maps_onto_the_ground_plane() {
        assert_eq!(plane_to_core(Vector2::new(3.0, -4.0)), Vec3::new(3.0, 0.0, -4.0));
        assert_eq!(core_to_plane(Vec3::new(3.0, 9.0, -4.0)), Vector2::new(3.0, -4.0));
    }

    #[test]
    fn forward_is_minus_z() {
        assert_eq!(forward_3d(&Basis::IDENTITY), Vec3::new(0.0, 0.0, -1.0));
        // Turned 90° about +Y (counter-clockwise seen from above), −Z becomes −X.
        let turned = Basis::from_axis_angle(Vector3::UP, std::f32::consts::FRAC_PI_2);
        assert!((forward_3d(&turned) - Vec3::new(-1.0, 0.0, 0.0)).length() < 1e-5);
    }

    #[test]
    fn rotation_2d_matches_godot_rotated() {
        for angle in [0.3f32, 1.0, -2.0, 3.0] {
            let p = Vector2::new(2.0, 0.5);
            let godot = p.rotated(angle);
            let core = rotation_2d_to_core(angle) * plane_to_core(p);
            assert!((plane_to_core(godot) - core).length() < 1e-5, "angle {angle}");
        }
    }

    #[test]
    fn scaled_basis_gives_a_unit_rotation() {
        // A node's basis is rotation × local scale.
        let b = Basis::from_axis_angle(Vector3::UP, 0.7) * Basis::from_scale(Vector3::new(2.0, 3.0, 4.0));
        let q = rotation_of(&b);
        assert!((q.length() - 1.0).abs() < 1e-5);
        assert!((q.angle_between(Quat::from_rotation_y(0.7))).abs() < 1e-4);
    }

    #[test]
    fn colors_unpack_rgba() {
        let c = color_of(0xFF00_80FF);
        assert_eq!((c.r, c.g, c.a), (1.0, 0.0, 1.0));
        assert!((c.b - 128.0 / 255.0).abs() < 1e-6);
    }

    /// Each mesh helper must block a ray through the shape and let one beside it pass.
    fn blocks(shape: (Vec<Vec3>, Vec<[u32; 3]>), through: (Vec3, Vec3), beside: (Vec3, Vec3)) {
        let mut world = World::default();
        let (vertices, indices) = shape;
        world
            .add_occluder(&OccluderDef { shape: OccluderShape::Mesh { vertices, indices }, ..Default::default() })
            .unwrap();
        let see = |world: &mut World, from: Vec3, to: Vec3| {
            let agent = world
                .create_agent(&AgentDef {
                    position: from,
                    forward: (to - from).normalize(),
                    sight: argus_core::SightConfig { eye_offset: Vec3::ZERO, ..Default::default() },
                    ..Default::default()
                })
                .unwrap();
            let target = world
                .create_target(&TargetDef { position: to, check_points: vec![Vec3::ZERO], ..Default::default() })
                .unwrap();
            world.can_see(agent, target).unwrap().seen
        };
        assert!(!see(&mut world, through.0, through.1), "ray through the shape must be blocked");
        assert!(see(&mut world, beside.0, beside.1), "ray beside the shape must pass");
    }

    #[test]
    fn cylinder_mesh_blocks_like_a_cylinder() {
        blocks(
            cylinder_mesh(1.0, 2.0, 24),
            (Vec3::new(-5.0, 0.5, 0.0), Vec3::new(5.0, 0.5, 0.0)),
            (Vec3::new(-5.0, 0.5, 1.2), Vec3::new(5.0, 0.5, 1.2)),
        );
        blocks(
            cylinder_mesh(1.0, 2.0, 24),
            (Vec3::new(0.0, 5.0, 0.0), Vec3::new(0.0, -5.0, 0.3)),
            (Vec3::new(0.0, 1.2, -5.0), Vec3::new(0.0, 1.2, 5.0)),
        );
    }

    #[test]
    fn convex_hull_mesh_blocks_inside_its_hull() {
        let cube: Vec<Vec3> = (0..8)
            .map(|i| {
                Vec3::new((i & 1) as f32 * 2.0 - 1.0, ((i >> 1) & 1) as f32 * 2.0 - 1.0, (i >> 2) as f32 * 2.0 - 1.0)
            })
            .chain([Vec3::ZERO])
            .collect();
        let hull = convex_hull_mesh(&cube).expect("a cube has a hull");
        blocks(
            hull,
            (Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0)),
            (Vec3::new(-5.0, 1.5, 0.0), Vec3::new(5.0, 1.5, 0.0)),
        );
        assert!(convex_hull_mesh(&cube[..3]).is_none());
    }

    #[test]
    fn triangle_soup_keeps_whole_triangles() {
        let faces = [Vec3::new(0.0, -1.0, -1.0), Vec3::new(0.0, 1.0, -1.0), Vec3::new(0.0, 0.0, 1.0), Vec3::X];
        let (v, i) = triangle_soup(&faces).unwrap();
        assert_eq!((v.len(), i.as_slice()), (3, &[[0, 1, 2]][..]));
        assert!(triangle_soup(&faces[..2]).is_none());
        blocks(
            (v, i),
            (Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0)),
            (Vec3::new(-5.0, 0.0, 2.0), Vec3::new(5.0, 0.0, 2.0)),
        );
    }

    #[test]
    fn walls_2d_block_rays_crossing_the_outline() {
        let square =
            [Vector2::new(-1.0, -1.0), Vector2::new(1.0, -1.0), Vector2::new(1.0, 1.0), Vector2::new(-1.0, 1.0)];
        let walls = walls_2d(&square, false, 1.0).unwrap();
        assert_eq!(walls.1.len(), 8);
        blocks(
            walls.clone(),
            (Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0)),
            (Vec3::new(-5.0, 0.0, 2.0), Vec3::new(5.0, 0.0, 2.0)),
        );
        let segment = [Vector2::new(0.0, -1.0), Vector2::new(0.0, 1.0)];
        let wall = walls_2d(&segment, true, 1.0).unwrap();
        blocks(
            wall,
            (Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0)),
            (Vec3::new(-5.0, 0.0, 1.5), Vec3::new(5.0, 0.0, 1.5)),
        );
        assert!(walls_2d(&segment[..1], false, 1.0).is_none());
    }
}
