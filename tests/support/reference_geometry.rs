//! Occluders for the reference: parry3d shapes used one at a time, no BVH. A ray is tested against
//! every occluder in turn, the way a naive `Physics.Raycast` over a list of colliders would be.

use glam::{Quat, Vec3};
use parry3d::math::Pose;
use parry3d::query::{Ray, RayCast};
use parry3d::shape::{Ball, Capsule, Cuboid, TriMesh};

/// The shape of an occluder in its local frame (centred on its position).
#[derive(Clone, Debug, PartialEq)]
pub enum RefShape {
    /// An oriented box given by its half extents.
    Box { half_extents: Vec3 },
    /// A sphere.
    Sphere { radius: f32 },
    /// A capsule along the local Y axis.
    Capsule { half_height: f32, radius: f32 },
    /// A triangle mesh (a surface, e.g. a thin quad wall).
    Mesh { vertices: Vec<Vec3>, indices: Vec<[u32; 3]> },
}

#[derive(Clone)]
enum Solid {
    Cuboid(Cuboid),
    Ball(Ball),
    Capsule(Capsule),
    Mesh(Box<TriMesh>),
}

/// One occluder: a parry3d shape, its pose and its layer bits.
#[derive(Clone)]
pub struct RefOccluder {
    pub shape: RefShape,
    pub position: Vec3,
    /// Unit rotation.
    pub rotation: Quat,
    pub layers: u32,
    solid: Solid,
    pose: Pose,
}

impl std::fmt::Debug for RefOccluder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefOccluder")
            .field("shape", &self.shape)
            .field("position", &self.position)
            .field("rotation", &self.rotation)
            .field("layers", &self.layers)
            .finish()
    }
}

/// An input rotation made unit, the way argus accepts inputs: a quaternion already unit to within
/// 1e-6 in squared length is kept bit for bit (so normalising twice changes nothing), any other
/// is divided by its length.
pub fn unit_rotation(q: Quat) -> Quat {
    let len_sq = q.length_squared();
    if (len_sq - 1.0).abs() <= 1e-6 { q } else { q / len_sq.sqrt() }
}

/// An input direction (a facing) made unit, by the same rule as [`unit_rotation`].
pub fn unit_direction(v: Vec3) -> Vec3 {
    let len_sq = v.length_squared();
    if (len_sq - 1.0).abs() <= 1e-6 { v } else { v / len_sq.sqrt() }
}

impl RefOccluder {
    /// Builds an occluder; the rotation is normalised. Panics on a shape parry rejects.
    pub fn new(shape: RefShape, position: Vec3, rotation: Quat, layers: u32) -> RefOccluder {
        let solid = match &shape {
            RefShape::Box { half_extents } => Solid::Cuboid(Cuboid::new(*half_extents)),
            RefShape::Sphere { radius } => Solid::Ball(Ball::new(*radius)),
            RefShape::Capsule { half_height, radius } => Solid::Capsule(Capsule::new_y(*half_height, *radius)),
            RefShape::Mesh { vertices, indices } => {
                Solid::Mesh(Box::new(TriMesh::new(vertices.clone(), indices.clone()).expect("reference mesh is valid")))
            }
        };
        let rotation = unit_rotation(rotation);
        RefOccluder { shape, position, rotation, layers, solid, pose: Pose::from_parts(position, rotation) }
    }

    /// Moves and turns the occluder (the rotation is normalised).
    pub fn set_pose(&mut self, position: Vec3, rotation: Quat) {
        self.position = position;
        self.rotation = unit_rotation(rotation);
        self.pose = Pose::from_parts(self.position, self.rotation);
    }

    /// parry's answer for this one shape: time of impact along the ray, `Some(0)` when the origin
    /// is inside a solid shape.
    pub fn time_of_impact(&self, ray: &Ray, max_distance: f32) -> Option<f32> {
        let pose = &self.pose;
        match &self.solid {
            Solid::Cuboid(s) => s.cast_ray(pose, ray, max_distance, true),
            Solid::Ball(s) => s.cast_ray(pose, ray, max_distance, true),
            Solid::Capsule(s) => s.cast_ray(pose, ray, max_distance, true),
            Solid::Mesh(s) => s.cast_ray(pose, ray, max_distance, true),
        }
    }
}

/// `Physics.Raycast(origin, dir, maxDistance, mask)` over a plain list: every occluder whose
/// layers meet `mask` is tested in turn and the nearest hit is returned. A hit at distance 0 means
/// the origin is inside that occluder; like `Physics.Raycast`, such a collider is ignored (a guard
/// standing in a bush sees out of it). `dir` must be a unit vector.
pub fn raycast<'a>(
    occluders: impl IntoIterator<Item = &'a RefOccluder>,
    origin: Vec3,
    dir: Vec3,
    max_distance: f32,
    mask: u32,
) -> Option<f32> {
    if mask == 0 || max_distance.is_nan() || max_distance <= 0.0 {
        return None;
    }
    let ray = Ray::new(origin, dir);
    let mut nearest: Option<f32> = None;
    for occ in occluders {
        if occ.layers & mask == 0 {
            continue;
        }
        if let Some(toi) = occ.time_of_impact(&ray, max_distance)
            && toi > 0.0
            && nearest.is_none_or(|n| toi < n)
        {
            nearest = Some(toi);
        }
    }
    nearest
}

/// Unity's `Vector3.normalized`: `v / |v|`, or zero when `|v|` is at most 1e-5.
pub fn normalized_or_zero(v: Vec3) -> Vec3 {
    let length = v.length();
    if length > 1e-5 { v / length } else { Vec3::ZERO }
}
