//! Level geometry that blocks sight and sound, kept in parry3d's BVH for ray casts.

use parry3d::bounding_volume::Aabb;
use parry3d::math::Pose;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, TraversalAction};
use parry3d::query::{PointQuery, Ray, RayCast};
use parry3d::shape::{Ball, Capsule, Cuboid, TriMesh};

use crate::error::{Error, Result, invalid};
use crate::id::{OccluderId, Pool};
use crate::math::{Quat, Vec3, check_finite, check_positive, unit_rotation};
use glam::Vec3A;

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
}

impl Default for OccluderDef {
    fn default() -> Self {
        OccluderDef {
            shape: OccluderShape::Box { half_extents: Vec3::splat(0.5) },
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            layers: 1,
            movable: false,
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
enum Geometry {
    Cuboid(Cuboid),
    Ball(Ball),
    Capsule(Capsule),
    Mesh(Box<TriMesh>),
}

impl Geometry {
    fn build(shape: &OccluderShape) -> Result<Geometry> {
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
                let mesh = TriMesh::new(vertices.clone(), indices.clone())
                    .map_err(|e| invalid(format!("mesh rejected: {e:?}")))?;
                Geometry::Mesh(Box::new(mesh))
            }
        })
    }

    fn aabb(&self, pose: &Pose) -> Aabb {
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

    fn cast_ray(&self, pose: &Pose, ray: &Ray, max_toi: f32) -> Option<f32> {
        match self {
            Geometry::Cuboid(s) => s.cast_ray(pose, ray, max_toi, true),
            Geometry::Ball(s) => s.cast_ray(pose, ray, max_toi, true),
            Geometry::Capsule(s) => s.cast_ray(pose, ray, max_toi, true),
            Geometry::Mesh(s) => s.cast_ray(pose, ray, max_toi, true),
        }
    }

    fn contains_point(&self, pose: &Pose, p: Vec3) -> bool {
        match self {
            Geometry::Cuboid(s) => s.contains_point(pose, p),
            Geometry::Ball(s) => s.contains_point(pose, p),
            Geometry::Capsule(s) => s.contains_point(pose, p),
            // A mesh is a surface, so nothing is inside it.
            Geometry::Mesh(_) => false,
        }
    }
}

/// One occluder as stored by a world.
#[derive(Clone, Debug)]
pub struct Occluder {
    def: OccluderDef,
    geometry: Geometry,
    pose: Pose,
    aabb: Aabb,
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

/// All occluders of a world and the BVH over them.
#[derive(Clone, Debug, Default)]
pub struct OccluderSet {
    pool: Pool<Occluder>,
    bvh: Bvh,
    moves_since_rebuild: usize,
}

impl OccluderSet {
    /// Validates a definition and adds it; nothing changes on error.
    pub fn add(&mut self, def: &OccluderDef) -> Result<OccluderId> {
        let occluder = Self::make(def)?;
        let aabb = occluder.aabb;
        let (index, generation) = self.pool.insert(occluder);
        self.bvh.insert(aabb, index);
        // Leaves inserted one by one make a poor tree; `maintain` rebuilds after many.
        self.moves_since_rebuild += 1;
        Ok(OccluderId { index, generation })
    }

    fn make(def: &OccluderDef) -> Result<Occluder> {
        let position = check_finite(def.position, "occluder position")?;
        let rotation = unit_rotation(def.rotation, "occluder rotation")?;
        let geometry = Geometry::build(&def.shape)?;
        let pose = Pose::from_parts(position, rotation);
        let aabb = geometry.aabb(&pose);
        let def = OccluderDef { position, rotation, ..def.clone() };
        Ok(Occluder { def, geometry, pose, aabb })
    }

    /// Removes an occluder.
    pub fn remove(&mut self, id: OccluderId) -> Result<()> {
        self.pool.remove(id.index, id.generation).ok_or(Error::InvalidId(OccluderId::KIND))?;
        self.bvh.remove(id.index);
        Ok(())
    }

    /// Moves an occluder.
    pub fn set_pose(&mut self, id: OccluderId, position: Vec3, rotation: Quat) -> Result<()> {
        let position = check_finite(position, "occluder position")?;
        let rotation = unit_rotation(rotation, "occluder rotation")?;
        let occ = self.pool.get_mut(id.index, id.generation).ok_or(Error::InvalidId(OccluderId::KIND))?;
        occ.def.position = position;
        occ.def.rotation = rotation;
        occ.pose = Pose::from_parts(position, rotation);
        occ.aabb = occ.geometry.aabb(&occ.pose);
        // Keeps every ancestor enclosing the leaf, so queries stay exact; `maintain` restores
        // tree quality after many moves.
        self.bvh.insert(occ.aabb, id.index);
        self.moves_since_rebuild += 1;
        Ok(())
    }

    /// Changes an occluder's layer bits.
    pub fn set_layers(&mut self, id: OccluderId, layers: u32) -> Result<()> {
        let occ = self.pool.get_mut(id.index, id.generation).ok_or(Error::InvalidId(OccluderId::KIND))?;
        occ.def.layers = layers;
        Ok(())
    }

    /// The occluder behind an id.
    pub fn get(&self, id: OccluderId) -> Option<&Occluder> {
        self.pool.get(id.index, id.generation)
    }

    /// Live occluders with their ids, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (OccluderId, &Occluder)> {
        self.pool.iter().map(|(index, o)| (OccluderId { index, generation: self.pool.generation_at(index) }, o))
    }

    /// Number of live occluders.
    pub fn len(&self) -> usize {
        self.pool.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.pool.is_empty()
    }

    /// Rebuilds the BVH when insertions and moves have loosened it; called once per step.
    pub fn maintain(&mut self) {
        if self.moves_since_rebuild > 16.max(self.pool.len() / 4) {
            self.rebuild();
        }
    }

    fn rebuild(&mut self) {
        // parry3d 0.31's `Bvh::from_iter` assumes leaf ids 0 and 1 when given one or two leaves
        // (it panics on others, e.g. after slot 0 was freed), so small sets are inserted instead.
        if self.pool.len() <= 2 {
            self.bvh = Bvh::new();
            for (i, o) in self.pool.iter() {
                self.bvh.insert(o.aabb, i);
            }
        } else {
            let leaves = self.pool.iter().map(|(i, o)| (i as usize, o.aabb));
            self.bvh = Bvh::from_iter(BvhBuildStrategy::Binned, leaves);
        }
        self.moves_since_rebuild = 0;
    }

    /// Distance to the first occluder on `layers` hit by the unit ray, within `max_distance`.
    /// Occluders that contain the origin are ignored (a guard standing in a bush sees out).
    pub fn cast_ray(&self, origin: Vec3, dir: Vec3, max_distance: f32, layers: u32) -> Option<f32> {
        if max_distance <= 0.0 || layers == 0 {
            return None;
        }
        let ray = Ray::new(origin, dir);
        let hit = self.bvh.cast_ray(&ray, max_distance, |leaf, best| {
            let occ = self.pool.at(leaf)?;
            if occ.def.layers & layers == 0 {
                return None;
            }
            let toi = occ.geometry.cast_ray(&occ.pose, &ray, best)?;
            (toi > 0.0).then_some(toi)
        });
        hit.map(|(_, toi)| toi)
    }

    /// True if any occluder on `layers` blocks the unit ray within `max_distance`: the same
    /// answer as `cast_ray(..).is_some()`, but the traversal stops at the first blocker found
    /// instead of searching for the nearest (line of sight needs no hit point).
    pub fn blocks(&self, origin: Vec3, dir: Vec3, max_distance: f32, layers: u32) -> bool {
        if max_distance <= 0.0 || layers == 0 || self.pool.is_empty() {
            return false;
        }
        let safe = |d: f32| if d.abs() < f32::EPSILON { f32::EPSILON.copysign(d) } else { d };
        // The slab test in SIMD lanes (Vec3A): this closure is the hottest code of a sweep.
        let inv = Vec3A::new(1.0 / safe(dir.x), 1.0 / safe(dir.y), 1.0 / safe(dir.z));
        let o = Vec3A::from(origin);
        let ray = Ray::new(origin, dir);
        let mut blocked = false;
        self.bvh.traverse(|node| {
            let t1 = (Vec3A::from(node.mins()) - o) * inv;
            let t2 = (Vec3A::from(node.maxs()) - o) * inv;
            let enter = t1.min(t2).max_element().max(0.0);
            let exit = t1.max(t2).min_element().min(max_distance);
            if enter > exit {
                return TraversalAction::Prune;
            }
            if let Some(leaf) = node.leaf_data() {
                let hit = self.pool.at(leaf).is_some_and(|occ| {
                    occ.def.layers & layers != 0
                        && occ.geometry.cast_ray(&occ.pose, &ray, max_distance).is_some_and(|toi| toi > 0.0)
                });
                if hit {
                    blocked = true;
                    return TraversalAction::EarlyExit;
                }
            }
            TraversalAction::Continue
        });
        blocked
    }

    /// How many distinct occluders on `layers` the segment `from → to` crosses (for sound).
    pub fn count_crossed(&self, from: Vec3, to: Vec3, layers: u32) -> u32 {
        let delta = to - from;
        let length = delta.length();
        if length <= 1e-6 || layers == 0 {
            return 0;
        }
        let dir = delta / length;
        let seg = Aabb::new(from.min(to), from.max(to));
        let mut crossed = 0;
        for leaf in self.bvh.intersect_aabb(&seg) {
            let Some(occ) = self.pool.at(leaf) else { continue };
            if occ.def.layers & layers == 0 {
                continue;
            }
            let inside_at_either_end =
                occ.geometry.contains_point(&occ.pose, from) || occ.geometry.contains_point(&occ.pose, to);
            if inside_at_either_end || occ.geometry.cast_ray(&occ.pose, &Ray::new(from, dir), length).is_some() {
                crossed += 1;
            }
        }
        crossed
    }

    /// True if `p` lies inside any occluder volume on `layers`.
    pub fn contains_point(&self, p: Vec3, layers: u32) -> bool {
        let query = Aabb::new(p, p);
        self.bvh.intersect_aabb(&query).any(|leaf| {
            self.pool.at(leaf).is_some_and(|o| o.def.layers & layers != 0 && o.geometry.contains_point(&o.pose, p))
        })
    }

    pub(crate) fn slots(&self) -> &Pool<Occluder> {
        &self.pool
    }

    pub(crate) fn from_pool(pool: Pool<Occluder>) -> Self {
        let mut set = OccluderSet { pool, bvh: Bvh::new(), moves_since_rebuild: 0 };
        set.rebuild();
        set
    }

    pub(crate) fn rebuild_occluder(def: &OccluderDef) -> Result<Occluder> {
        Self::make(def)
    }
}
