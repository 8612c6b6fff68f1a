//! Level geometry that blocks sight and sound, kept in parry3d's BVH for ray casts.

mod grid;
mod quad;
mod shape;
mod upright;

use parry3d::bounding_volume::Aabb;
use parry3d::math::Pose;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, TraversalAction};
use parry3d::query::Ray;

use glam::Vec3A;

use crate::error::{Error, Result};
use crate::id::{OccluderId, Pool};
use crate::math::{Quat, Vec3, check_finite, check_range, unit_rotation};
pub(crate) use grid::RayScratch;
use grid::{GridOccluder, OccluderGrid};
use quad::SlabRay;
use shape::{ExactShape, Geometry};
pub use shape::{MAX_MESH_ELEMENTS, Occluder, OccluderDef, OccluderShape};

/// All occluders of a world and the BVH over them.
#[derive(Clone, Debug, Default)]
pub struct OccluderSet {
    pool: Pool<Occluder>,
    bvh: Bvh,
    moves_since_rebuild: usize,
    /// For the sweep's short rays; rebuilt by `maintain` after any change.
    grid: OccluderGrid,
    grid_stale: bool,
    grid_input: Vec<GridOccluder>,
    /// Exact-test data by grid rank (see [`ExactShape`]).
    exact: Vec<ExactShape>,
    /// Live occluders with a sound transmission of their own (hearing skips the crossing test
    /// when none has one and the world's factor is 1).
    transmitting: usize,
}

impl OccluderSet {
    /// Validates a definition and adds it; nothing changes on error.
    pub fn add(&mut self, def: &OccluderDef) -> Result<OccluderId> {
        let occluder = Self::make(def)?;
        let aabb = occluder.aabb;
        self.transmitting += occluder.def.sound_transmission.is_some() as usize;
        let (index, generation) = self.pool.insert(occluder);
        self.bvh.insert(aabb, index);
        // Leaves inserted one by one make a poor tree; `maintain` rebuilds after many.
        self.moves_since_rebuild += 1;
        self.grid_stale = true;
        Ok(OccluderId { index, generation })
    }

    fn make(def: &OccluderDef) -> Result<Occluder> {
        let position = check_finite(def.position, "occluder position")?;
        let rotation = unit_rotation(def.rotation, "occluder rotation")?;
        if let Some(t) = def.sound_transmission {
            check_range(t, 0.0, 1.0, "occluder sound transmission")?;
        }
        let geometry = Geometry::build(&def.shape)?;
        let pose = Pose::from_parts(position, rotation);
        let aabb = geometry.aabb(&pose);
        let def = OccluderDef { position, rotation, ..def.clone() };
        Ok(Occluder { def, geometry, pose, aabb })
    }

    /// Removes an occluder.
    pub fn remove(&mut self, id: OccluderId) -> Result<()> {
        let gone = self.pool.remove(id.index, id.generation).ok_or(Error::InvalidId(OccluderId::KIND))?;
        self.transmitting -= gone.def.sound_transmission.is_some() as usize;
        self.bvh.remove(id.index);
        self.grid_stale = true;
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
        self.grid_stale = true;
        Ok(())
    }

    /// Changes an occluder's layer bits.
    pub fn set_layers(&mut self, id: OccluderId, layers: u32) -> Result<()> {
        let occ = self.pool.get_mut(id.index, id.generation).ok_or(Error::InvalidId(OccluderId::KIND))?;
        occ.def.layers = layers;
        self.grid_stale = true;
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
        if self.grid_stale {
            self.grid_input.clear();
            self.grid_input.extend(self.pool.iter().map(|(i, o)| GridOccluder {
                mins: o.aabb.mins,
                maxs: o.aabb.maxs,
                id: i,
                layers: o.def.layers,
            }));
            self.grid.rebuild(&self.grid_input);
            self.exact.clear();
            // One entry per rank, so ranks and copies stay aligned (every input slot is live).
            for &i in &self.grid.order {
                let slot = self.grid_input[i as usize].id;
                self.exact.push(match self.pool.at(slot) {
                    Some(o) => o.geometry.exact_copy(&o.pose, slot),
                    None => ExactShape::InPool(slot),
                });
            }
            self.grid_stale = false;
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
        self.cast_ray_leaf(origin, dir, max_distance, layers).map(|(_, toi)| toi)
    }

    /// The search behind both casts: the leaf of the occluder hit first, and the distance.
    fn cast_ray_leaf(&self, origin: Vec3, dir: Vec3, max_distance: f32, layers: u32) -> Option<(u32, f32)> {
        if max_distance <= 0.0 || layers == 0 {
            return None;
        }
        let ray = Ray::new(origin, dir);
        self.bvh.cast_ray(&ray, max_distance, |leaf, best| {
            let occ = self.pool.at(leaf)?;
            if occ.def.layers & layers == 0 {
                return None;
            }
            let toi = occ.geometry.cast_ray(&occ.pose, &ray, best)?;
            (toi > 0.0).then_some(toi)
        })
    }

    /// [`OccluderSet::cast_ray`] with the occluder hit: the same search, the same answer.
    pub(crate) fn cast_ray_hit(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_distance: f32,
        layers: u32,
    ) -> Option<(OccluderId, f32)> {
        let (leaf, toi) = self.cast_ray_leaf(origin, dir, max_distance, layers)?;
        Some((OccluderId { index: leaf, generation: self.pool.generation_at(leaf) }, toi))
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

    /// [`OccluderSet::blocks`] for the sweep: short rays walk the ground grid (only the cells
    /// they cross), longer ones the BVH. Same answers; only valid after [`OccluderSet::maintain`].
    /// `remembered` is a grid rank worth trying first (the occluder that stopped the same agent's
    /// ray to the same target at its last tick). After a blocked grid ray, `scratch.blocker`
    /// names the occluder that blocked it. `STOP` (a recording's Why) also keeps, after a blocked
    /// ray, which occluder stopped it and how far along: `scratch.stop`.
    pub(crate) fn blocks_swept<const STOP: bool>(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_distance: f32,
        layers: u32,
        remembered: Option<u32>,
        scratch: &mut RayScratch,
    ) -> bool {
        if self.grid_stale || !self.grid.suits(max_distance) {
            scratch.blocker = None;
            let blocked = self.blocks(origin, dir, max_distance, layers);
            if STOP && blocked {
                // The BVH's walk names no blocker: the nearest, for the Why.
                scratch.stop = self.cast_ray_leaf(origin, dir, max_distance, layers);
            }
            return blocked;
        }
        if max_distance <= 0.0 || layers == 0 {
            return false;
        }
        let ray = Ray::new(origin, dir);
        // Occluders worth trying before the walk. Any occluder on the ray's layers that blocks
        // proves the walk's answer, so a rank from an older grid (or another world's) is merely
        // a worse guess, never a wrong answer: both guesses need only be a rank of this grid.
        let in_grid = |rank: &u32| (*rank as usize) < self.exact.len();
        // - The remembered one, first and before any setup: sight is asked again every tick for
        //   the same pairs, and a wall between a guard and a target mostly stays between them.
        //   Its bounds need no test: they hold the shape with a margin (see `Geometry::aabb`),
        //   so an exact hit always meets them.
        let remembered = remembered.filter(in_grid);
        let mut stop = 0.0;
        if let Some(rank) = remembered
            && self.grid.ranked[rank as usize].layers & layers != 0
            && self.exact_blocks::<STOP>(rank, &ray, max_distance, &mut stop)
        {
            self.keep_stop::<STOP>(rank, stop, scratch);
            scratch.blocker = Some(rank);
            scratch.answered_early[0] += 1;
            return true;
        }
        let stamp = scratch.next_ray(self.exact.len());
        if let Some(rank) = remembered {
            scratch.first_visit(rank, stamp);
        }
        let slab = SlabRay::new(origin, dir, max_distance, layers);
        // - The last blocker: the sweep casts rays in spatial order, and a wall that stopped one
        //   ray often stops the next (a guard's targets behind the same house, a neighbour's
        //   view of them). Tested as the walk tests it: bounds, layers, exact shape.
        if let Some(rank) = scratch.blocker.filter(|&rank| Some(rank) != remembered).filter(in_grid)
            && slab.meets_one(&self.grid.ranked[rank as usize])
            && scratch.first_visit(rank, stamp)
            && self.exact_blocks::<STOP>(rank, &ray, max_distance, &mut stop)
        {
            self.keep_stop::<STOP>(rank, stop, scratch);
            scratch.answered_early[1] += 1;
            return true;
        }
        // The grid tests bounds and layers from its own copies, then the exact shape from this
        // set's copies in the same spatial order: the pool is never read for boxes, spheres and
        // capsules, and each occluder is tested once per ray however many cells it spans.
        let mut blocker = None;
        self.grid.any_blocks(&slab, origin, dir, |rank| {
            let blocks =
                scratch.first_visit(rank, stamp) && self.exact_blocks::<STOP>(rank, &ray, max_distance, &mut stop);
            if blocks {
                blocker = Some(rank);
            }
            blocks
        });
        // Only right after a blocked ray: when clear rays come in a row, trying a blocker that
        // no longer applies would cost more than it saves (measured on sparse levels).
        scratch.blocker = blocker;
        if let Some(rank) = blocker {
            self.keep_stop::<STOP>(rank, stop, scratch);
        }
        blocker.is_some()
    }

    /// The exact test of the occluder of grid rank `rank`; with `STOP`, where the ray meets it
    /// goes to `stop`. (Without, the very test `blocks` makes.)
    #[inline(always)]
    fn exact_blocks<const STOP: bool>(&self, rank: u32, ray: &Ray, max_distance: f32, stop: &mut f32) -> bool {
        let exact = &self.exact[rank as usize];
        if !STOP {
            return exact.blocks(&self.pool, ray, max_distance);
        }
        exact.blocking_stop(&self.pool, ray, max_distance).inspect(|&toi| *stop = toi).is_some()
    }

    /// With `STOP`: the occluder of grid rank `rank` stopped the ray at `distance`.
    #[inline(always)]
    fn keep_stop<const STOP: bool>(&self, rank: u32, distance: f32, scratch: &mut RayScratch) {
        if STOP {
            // A rank names the grid's copy; its occluder's slot is the input it was made from.
            scratch.stop = Some((self.grid_input[self.grid.order[rank as usize] as usize].id, distance));
        }
    }

    /// The fraction of a sound's reach kept along the segment `from → to`: the product of the
    /// sound transmission of every occluder on `layers` it crosses (or starts or ends inside),
    /// `unset` for those with none of their own. Order-free: `unset` to the power of their count,
    /// then the others' in slot order.
    pub fn kept_through(&self, from: Vec3, to: Vec3, layers: u32, unset: f32) -> f32 {
        let delta = to - from;
        let length = delta.length();
        if length <= 1e-6 || layers == 0 || self.pool.is_empty() {
            return 1.0;
        }
        let dir = delta / length;
        let ray = Ray::new(from, dir);
        let safe = |d: f32| if d.abs() < f32::EPSILON { f32::EPSILON.copysign(d) } else { d };
        let inv = Vec3A::new(1.0 / safe(dir.x), 1.0 / safe(dir.y), 1.0 / safe(dir.z));
        let o = Vec3A::from(from);
        // Those with a transmission of their own, by slot: on the stack for the first few (a step
        // allocates nothing), on the heap beyond.
        let (mut unset_count, mut own) = (0i32, OwnTransmissions::default());
        // Only the boxes the segment passes through (an end inside an occluder is inside its
        // box too), and no further once an occluder that keeps nothing is crossed.
        self.bvh.traverse(|node| {
            let t1 = (Vec3A::from(node.mins()) - o) * inv;
            let t2 = (Vec3A::from(node.maxs()) - o) * inv;
            if t1.min(t2).max_element().max(0.0) > t1.max(t2).min_element().min(length) {
                return TraversalAction::Prune;
            }
            let Some(leaf) = node.leaf_data() else { return TraversalAction::Continue };
            let Some(occ) = self.pool.at(leaf).filter(|o| o.def.layers & layers != 0) else {
                return TraversalAction::Continue;
            };
            let inside_at_either_end =
                occ.geometry.contains_point(&occ.pose, from) || occ.geometry.contains_point(&occ.pose, to);
            if inside_at_either_end || occ.geometry.cast_ray(&occ.pose, &ray, length).is_some() {
                match occ.def.sound_transmission {
                    Some(t) => own.push(leaf, t),
                    None => unset_count += 1,
                }
                if unset == 0.0 && unset_count > 0 || occ.def.sound_transmission == Some(0.0) {
                    return TraversalAction::EarlyExit;
                }
            }
            TraversalAction::Continue
        });
        unset.powi(unset_count) * own.product_in_slot_order()
    }

    /// Live occluders with a sound transmission of their own.
    pub(crate) fn transmitting(&self) -> usize {
        self.transmitting
    }

    /// True if any occluder on `layers` meets the axis-aligned box `(mins, maxs)`.
    pub fn any_overlaps_box(&self, (mins, maxs): (Vec3, Vec3), layers: u32) -> bool {
        self.bvh
            .intersect_aabb(&Aabb::new(mins, maxs))
            .any(|leaf| self.pool.at(leaf).is_some_and(|o| o.def.layers & layers != 0 && o.overlaps_box((mins, maxs))))
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
        let transmitting = pool.iter().filter(|(_, o)| o.def.sound_transmission.is_some()).count();
        let mut set = OccluderSet { pool, grid_stale: true, transmitting, ..Default::default() };
        set.rebuild();
        set
    }

    pub(crate) fn rebuild_occluder(def: &OccluderDef) -> Result<Occluder> {
        Self::make(def)
    }
}

/// The transmissions of the occluders a sound line crossed, multiplied in slot order so that the
/// product does not depend on the tree's shape.
#[derive(Default)]
struct OwnTransmissions {
    few: [(u32, f32); 8],
    count: usize,
    more: Vec<(u32, f32)>,
}

impl OwnTransmissions {
    fn push(&mut self, slot: u32, t: f32) {
        if self.count < self.few.len() {
            self.few[self.count] = (slot, t);
        } else {
            self.more.push((slot, t));
        }
        self.count += 1;
    }

    fn product_in_slot_order(mut self) -> f32 {
        let n = self.count.min(self.few.len());
        if self.more.is_empty() {
            self.few[..n].sort_unstable_by_key(|&(slot, _)| slot);
            return self.few[..n].iter().map(|&(_, t)| t).product();
        }
        self.more.extend_from_slice(&self.few[..n]);
        self.more.sort_unstable_by_key(|&(slot, _)| slot);
        self.more.iter().map(|&(_, t)| t).product()
    }
}

#[cfg(test)]
mod tests;
