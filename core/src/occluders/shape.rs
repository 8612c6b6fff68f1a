//! Occluder shapes and definitions, and their parry3d geometry.

use parry3d::bounding_volume::Aabb;
use parry3d::math::Pose;
use parry3d::query::{PointQuery, Ray, RayCast};
use parry3d::shape::{Ball, Capsule, Cuboid, TriMesh};

use super::upright::{UprightBox, Verdict};
use crate::error::{Result, invalid};
use crate::id::Pool;
use crate::math::{Quat, Vec3, check_finite, check_positive};

/// Largest vertex or triangle count accepted for one mesh occluder.
pub const MAX_MESH_ELEMENTS: usize = 1 << 24;

/// The geometry of an occluder, in its local frame (centred on its position).
#[derive(Clone, Debug, PartialEq)]
pub enum OccluderShape {
    /// An oriented box.
    Box {
        /// Half the size along each local axis.
        half_extents: Vec3,
    },
    /// A sphere.
    Sphere {
        /// Radius in metres.
        radius: f32,
    },
    /// A capsule along the local Y axis (a standing pillar or character).
    Capsule {
        /// Half the length of the segment between the two cap centres.
        half_height: f32,
        /// Radius of the caps and the cylinder.
        radius: f32,
    },
    /// A triangle mesh (a surface: it blocks where rays cross its triangles).
    Mesh {
        /// Vertex positions in the local frame.
        vertices: Vec<Vec3>,
        /// Triangles as indices into `vertices`.
        indices: Vec<[u32; 3]>,
    },
}

/// Everything needed to create an occluder; the world copies it.
#[derive(Clone, Debug, PartialEq)]
pub struct OccluderDef {
    /// Geometry in the local frame.
    pub shape: OccluderShape,
    /// World position of the local origin.
    pub position: Vec3,
    /// World rotation (normalised on input).
    pub rotation: Quat,
    /// Layer bits; an agent's obstacle masks pick which layers block its sight or hearing.
    pub layers: u32,
    /// A hint that this occluder moves (doors, vehicles); static ones may move too.
    pub movable: bool,
    /// The fraction of a sound's reach kept by sound passing straight through it, in [0, 1]
    /// (a door 0.5, a thin wall 0.3, 0 blocks). `None` (default): the world's sound occlusion
    /// factor with straight-line hearing (1, no muffling, by default: the lesson), and blocking
    /// with walk hearing, where sound goes around it.
    pub sound_transmission: Option<f32>,
}

impl Default for OccluderDef {
    fn default() -> Self {
        OccluderDef {
            shape: OccluderShape::Box { half_extents: Vec3::splat(0.5) },
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            layers: 1,
            movable: false,
            sound_transmission: None,
        }
    }
}

impl OccluderDef {
    /// An axis-aligned box centred at `center`.
    pub fn cuboid(center: Vec3, half_extents: Vec3) -> Self {
        OccluderDef { shape: OccluderShape::Box { half_extents }, position: center, ..Default::default() }
    }

    /// A sphere centred at `center`.
    pub fn sphere(center: Vec3, radius: f32) -> Self {
        OccluderDef { shape: OccluderShape::Sphere { radius }, position: center, ..Default::default() }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Geometry {
    Cuboid(Cuboid),
    Ball(Ball),
    Capsule(Capsule),
    Mesh(Box<TriMesh>),
}

impl Geometry {
    pub(crate) fn build(shape: &OccluderShape) -> Result<Geometry> {
        Ok(match shape {
            OccluderShape::Box { half_extents } => {
                let h = check_finite(*half_extents, "box half extents")?;
                if h.min_element() <= 0.0 {
                    return Err(invalid(format!("box half extents must all be > 0, got {h}")));
                }
                Geometry::Cuboid(Cuboid::new(h))
            }
            OccluderShape::Sphere { radius } => Geometry::Ball(Ball::new(check_positive(*radius, "sphere radius")?)),
            OccluderShape::Capsule { half_height, radius } => {
                let r = check_positive(*radius, "capsule radius")?;
                let h = crate::math::check_non_negative(*half_height, "capsule half height")?;
                Geometry::Capsule(Capsule::new_y(h, r))
            }
            OccluderShape::Mesh { vertices, indices } => {
                if vertices.len() < 3 || vertices.len() > MAX_MESH_ELEMENTS {
                    return Err(invalid(format!(
                        "mesh needs 3 to {MAX_MESH_ELEMENTS} vertices, got {}",
                        vertices.len()
                    )));
                }
                if indices.is_empty() || indices.len() > MAX_MESH_ELEMENTS {
                    return Err(invalid(format!(
                        "mesh needs 1 to {MAX_MESH_ELEMENTS} triangles, got {}",
                        indices.len()
                    )));
                }
                for v in vertices {
                    check_finite(*v, "mesh vertex")?;
                }
                let n = vertices.len() as u32;
                if let Some(bad) = indices.iter().flatten().find(|&&i| i >= n) {
                    return Err(invalid(format!("mesh index {bad} is out of range ({n} vertices)")));
                }
                // parry3d's build allocates about ten times the mesh's bytes and cannot fail
                // gracefully: make sure that much is available first (OutOfMemory if not).
                crate::headroom::ensure_available(
                    crate::headroom::mesh_build_bytes(vertices.len(), indices.len()),
                    "a mesh occluder",
                )?;
                let mesh = TriMesh::new(vertices.clone(), indices.clone())
                    .map_err(|e| invalid(format!("mesh rejected: {e:?}")))?;
                Geometry::Mesh(Box::new(mesh))
            }
        })
    }

    pub(crate) fn aabb(&self, pose: &Pose) -> Aabb {
        use parry3d::bounding_volume::BoundingVolume;
        let aabb = match self {
            Geometry::Cuboid(s) => s.aabb(pose),
            Geometry::Ball(s) => s.aabb(pose),
            Geometry::Capsule(s) => s.aabb(pose),
            Geometry::Mesh(s) => s.aabb(pose),
        };
        // A hair of margin so rays grazing a face still reach the exact shape test.
        aabb.loosened(1e-4)
    }

    pub(crate) fn cast_ray(&self, pose: &Pose, ray: &Ray, max_toi: f32) -> Option<f32> {
        match self {
            Geometry::Cuboid(s) => s.cast_ray(pose, ray, max_toi, true),
            Geometry::Ball(s) => s.cast_ray(pose, ray, max_toi, true),
            Geometry::Capsule(s) => s.cast_ray(pose, ray, max_toi, true),
            Geometry::Mesh(s) => s.cast_ray(pose, ray, max_toi, true),
        }
    }

    /// The copy the sweep's grid keeps for the exact test (none for a mesh: too big to copy).
    pub(crate) fn exact_copy(&self, pose: &Pose, slot: u32) -> ExactShape {
        match self {
            Geometry::Cuboid(s) => match UprightBox::of(s, pose) {
                Some(upright) => ExactShape::Upright(upright, *s, *pose),
                None => ExactShape::Cuboid(*s, *pose),
            },
            Geometry::Ball(s) => ExactShape::Ball(*s, *pose),
            Geometry::Capsule(s) => ExactShape::Capsule(*s, *pose),
            Geometry::Mesh(_) => ExactShape::InPool(slot),
        }
    }

    /// True if the shape meets the axis-aligned box `mins..maxs` (for a mesh: its triangles do).
    pub(crate) fn overlaps_box(&self, pose: &Pose, mins: Vec3, maxs: Vec3) -> bool {
        let cell = Cuboid::new((maxs - mins) * 0.5);
        let at = Pose::from_translation((mins + maxs) * 0.5);
        let shape: &dyn parry3d::shape::Shape = match self {
            Geometry::Cuboid(s) => s,
            Geometry::Ball(s) => s,
            Geometry::Capsule(s) => s,
            Geometry::Mesh(s) => s.as_ref(),
        };
        // Every pair of these shapes is supported by parry3d's dispatcher.
        parry3d::query::intersection_test(&at, &cell, pose, shape).is_ok_and(|i| i.intersecting)
    }

    pub(crate) fn contains_point(&self, pose: &Pose, p: Vec3) -> bool {
        match self {
            Geometry::Cuboid(s) => s.contains_point(pose, p),
            Geometry::Ball(s) => s.contains_point(pose, p),
            Geometry::Capsule(s) => s.contains_point(pose, p),
            // A mesh is a surface, so nothing is inside it.
            Geometry::Mesh(_) => false,
        }
    }
}

/// An occluder's exact-test data copied next to its neighbours' (the pool keeps occluders in
/// creation order, which a big level scatters over memory). The same parry3d calls as
/// [`Geometry::cast_ray`] on the same values, so the same answers.
#[derive(Copy, Clone, Debug)]
pub(crate) enum ExactShape {
    /// A box turned only about the vertical: a quick verdict first, parry3d only when unsure.
    Upright(UprightBox, Cuboid, Pose),
    Cuboid(Cuboid, Pose),
    Ball(Ball, Pose),
    Capsule(Capsule, Pose),
    /// A mesh, tested where it lives (its pool slot).
    InPool(u32),
}

impl ExactShape {
    /// Does the shape block the unit `ray` within `max_toi` (a hit after its origin)?
    #[inline]
    pub(crate) fn blocks(&self, pool: &Pool<Occluder>, ray: &Ray, max_toi: f32) -> bool {
        if let ExactShape::Upright(upright, ..) = self {
            match upright.verdict(ray.origin, ray.dir, max_toi) {
                Verdict::Blocked => return true,
                Verdict::Clear => return false,
                Verdict::Unsure => {}
            }
        }
        self.cast_ray(pool, ray, max_toi).is_some_and(|toi| toi > 0.0)
    }

    /// [`ExactShape::blocks`] with where the ray meets the shape (a recording's Why): the same
    /// answer, the distance found on the way (an upright box's quick verdict, or parry3d's).
    #[inline]
    pub(crate) fn blocking_stop(&self, pool: &Pool<Occluder>, ray: &Ray, max_toi: f32) -> Option<f32> {
        if let ExactShape::Upright(upright, ..) = self {
            match upright.verdict_at(ray.origin, ray.dir, max_toi) {
                (Verdict::Blocked, enter) => return Some(enter),
                (Verdict::Clear, _) => return None,
                (Verdict::Unsure, _) => {}
            }
        }
        self.cast_ray(pool, ray, max_toi).filter(|&toi| toi > 0.0)
    }

    fn cast_ray(&self, pool: &Pool<Occluder>, ray: &Ray, max_toi: f32) -> Option<f32> {
        match self {
            ExactShape::Upright(_, s, pose) | ExactShape::Cuboid(s, pose) => s.cast_ray(pose, ray, max_toi, true),
            ExactShape::Ball(s, pose) => s.cast_ray(pose, ray, max_toi, true),
            ExactShape::Capsule(s, pose) => s.cast_ray(pose, ray, max_toi, true),
            ExactShape::InPool(slot) => pool.at(*slot).and_then(|o| o.geometry.cast_ray(&o.pose, ray, max_toi)),
        }
    }
}

/// One occluder as stored by a world.
#[derive(Clone, Debug)]
pub struct Occluder {
    pub(crate) def: OccluderDef,
    pub(crate) geometry: Geometry,
    pub(crate) pose: Pose,
    pub(crate) aabb: Aabb,
}

impl Occluder {
    /// The definition, with the current pose.
    pub fn def(&self) -> &OccluderDef {
        &self.def
    }

    /// World-space bounds (slightly loosened).
    pub fn bounds(&self) -> (Vec3, Vec3) {
        (self.aabb.mins, self.aabb.maxs)
    }

    /// True if this occluder meets the axis-aligned box `(mins, maxs)`.
    pub fn overlaps_box(&self, (mins, maxs): (Vec3, Vec3)) -> bool {
        self.geometry.overlaps_box(&self.pose, mins, maxs)
    }

    /// True if `p` is inside this occluder's volume (never for meshes).
    pub fn contains(&self, p: Vec3) -> bool {
        self.geometry.contains_point(&self.pose, p)
    }

    /// Distance along a unit ray to this occluder's surface, `None` if missed or if the ray
    /// starts inside (a ray leaving a volume is not blocked by it, as `Physics.Raycast`).
    pub fn ray_distance(&self, origin: Vec3, dir: Vec3, max_distance: f32) -> Option<f32> {
        let toi = self.geometry.cast_ray(&self.pose, &Ray::new(origin, dir), max_distance)?;
        (toi > 0.0).then_some(toi)
    }
}
