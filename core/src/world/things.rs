//! Targets, occluders and the pose plumbing they share with agents.

use super::World;
use crate::agent::Agent;
use crate::error::{Error, Result, invalid};
use crate::id::{DensePool, OccluderId, Pool, TargetId};
use crate::math::{Quat, Vec3, check_finite, unit_direction};
use crate::occluders::{Occluder, OccluderDef, OccluderSet};
use crate::record::call;
use crate::target::{Target, TargetDef, check_points};

/// Something with a pose that bulk updates can move.
pub(super) trait Posed {
    fn set_pose(&mut self, position: Vec3, forward: Option<Vec3>);
}

impl Posed for Agent {
    fn set_pose(&mut self, position: Vec3, forward: Option<Vec3>) {
        self.position = position;
        if let Some(f) = forward {
            self.forward = f;
        }
    }
}

impl Posed for Target {
    fn set_pose(&mut self, position: Vec3, forward: Option<Vec3>) {
        self.position = position;
        if let Some(f) = forward {
            self.forward = f;
        }
    }
}

/// Where bulk updates find things by id: a pool, dense or not.
pub(super) trait Lookup<T> {
    fn find(&self, index: u32, generation: u32) -> Option<&T>;
    fn find_mut(&mut self, index: u32, generation: u32) -> Option<&mut T>;
}

impl<T> Lookup<T> for Pool<T> {
    fn find(&self, index: u32, generation: u32) -> Option<&T> {
        self.get(index, generation)
    }
    fn find_mut(&mut self, index: u32, generation: u32) -> Option<&mut T> {
        self.get_mut(index, generation)
    }
}

impl<T> Lookup<T> for DensePool<T> {
    fn find(&self, index: u32, generation: u32) -> Option<&T> {
        self.get(index, generation)
    }
    fn find_mut(&mut self, index: u32, generation: u32) -> Option<&mut T> {
        self.get_mut(index, generation)
    }
}

pub(super) fn check_lengths(ids: usize, positions: usize, forwards: Option<usize>) -> Result<()> {
    if positions != ids || forwards.is_some_and(|f| f != ids) {
        return Err(invalid("ids, positions and forwards must have the same length"));
    }
    Ok(())
}

/// Two passes: check every entry, then apply them all, so a bad entry changes nothing.
pub(super) fn set_poses<T: Posed>(
    pool: &mut impl Lookup<T>,
    kind: &'static str,
    count: usize,
    pose: impl Fn(usize) -> ((u32, u32), Vec3, Option<Vec3>),
) -> Result<()> {
    for i in 0..count {
        let ((index, generation), position, forward) = pose(i);
        pool.find(index, generation).ok_or(Error::InvalidId(kind))?;
        check_finite(position, "position")?;
        if let Some(f) = forward {
            unit_direction(f, "forward")?;
        }
    }
    for i in 0..count {
        let ((index, generation), position, forward) = pose(i);
        let forward = forward.map(|f| unit_direction(f, "forward").expect("checked"));
        pool.find_mut(index, generation).expect("checked").set_pose(position, forward);
    }
    Ok(())
}

impl World {
    /// Adds a target.
    pub fn create_target(&mut self, def: &TargetDef) -> Result<TargetId> {
        self.check_idle()?;
        let target = Target::from_def(def)?;
        let (index, generation) = self.targets.insert(target);
        self.record_kept(call::CREATE_TARGET, |world, w| {
            w.target_def(&world.targets.get(index, generation).expect("just made").def());
            w.id(index, generation);
        });
        self.record_target_touched(index);
        Ok(TargetId { index, generation })
    }

    /// Removes a target. Every agent's memory record of it is removed at once (no forget event:
    /// the target is gone, not forgotten), and every brain focused on it (Investigating,
    /// Chasing or Searching) gives up at the next step: it goes Idle, with a brain event
    /// reporting the change, even if its investigation or search timer has time left (unless
    /// that step's percepts gave it another target to chase).
    pub fn destroy_target(&mut self, id: TargetId) -> Result<()> {
        self.check_idle()?;
        self.targets.remove(id.index, id.generation).ok_or(Error::InvalidId(TargetId::KIND))?;
        for agent in self.agents.entries_mut().iter_mut().map(|e| &mut e.value) {
            agent.records.retain(|r| r.target != id);
        }
        self.drop_beliefs_about(id);
        self.labels.forget(super::Labelled::Target(id));
        self.record_input(call::DESTROY_TARGET, |w| w.id(id.index, id.generation));
        self.record_target_touched(id.index);
        Ok(())
    }

    /// The target behind an id.
    pub fn target(&self, id: TargetId) -> Result<&Target> {
        self.targets.get(id.index, id.generation).ok_or(Error::InvalidId(TargetId::KIND))
    }

    fn target_mut(&mut self, id: TargetId) -> Result<&mut Target> {
        self.targets.get_mut(id.index, id.generation).ok_or(Error::InvalidId(TargetId::KIND))
    }

    /// True if the id names a live target.
    pub fn is_target_valid(&self, id: TargetId) -> bool {
        self.targets.get(id.index, id.generation).is_some()
    }

    /// Live targets in slot order.
    pub fn targets(&self) -> impl Iterator<Item = (TargetId, &Target)> {
        self.targets.iter().map(|(i, t)| (TargetId { index: i, generation: self.targets.generation_at(i) }, t))
    }

    /// Number of live targets.
    pub fn target_count(&self) -> usize {
        self.targets.len()
    }

    /// Replaces a target's settings and pose.
    pub fn set_target_def(&mut self, id: TargetId, def: &TargetDef) -> Result<()> {
        self.check_idle()?;
        let target = Target::from_def(def)?;
        *self.target_mut(id)? = target;
        self.record_kept(call::SET_TARGET_DEF, |world, w| {
            w.id(id.index, id.generation);
            w.target_def(&world.targets.get(id.index, id.generation).expect("just set").def());
        });
        self.record_target_touched(id.index);
        Ok(())
    }

    /// Moves and turns one target.
    pub fn set_target_pose(&mut self, id: TargetId, position: Vec3, forward: Vec3) -> Result<()> {
        self.check_idle()?;
        let position = check_finite(position, "target position")?;
        let forward = unit_direction(forward, "target forward")?;
        let target = self.target_mut(id)?;
        target.position = position;
        target.forward = forward;
        self.record_input(call::SET_TARGET_POSE, |w| {
            w.id(id.index, id.generation);
            w.vec3(position);
            w.vec3(forward);
        });
        self.record_target_touched(id.index);
        Ok(())
    }

    /// Moves many targets at once; `forwards` may be `None`. All checked before any change.
    pub fn set_target_poses(&mut self, ids: &[TargetId], positions: &[Vec3], forwards: Option<&[Vec3]>) -> Result<()> {
        check_lengths(ids.len(), positions.len(), forwards.map(<[Vec3]>::len))?;
        self.set_target_poses_by(ids.len(), |i| (ids[i], positions[i], forwards.map(|f| f[i])))
    }

    /// Moves `count` targets at once from `pose(i)`; see [`World::set_agent_poses_by`].
    pub fn set_target_poses_by(
        &mut self,
        count: usize,
        pose: impl Fn(usize) -> (TargetId, Vec3, Option<Vec3>),
    ) -> Result<()> {
        self.check_idle()?;
        set_poses(&mut self.targets, TargetId::KIND, count, |i| {
            let (id, p, f) = pose(i);
            ((id.index, id.generation), p, f)
        })?;
        self.record_input(call::SET_TARGET_POSES, |w| {
            w.u32(count as u32);
            for i in 0..count {
                let (id, p, f) = pose(i);
                w.pose((id.index, id.generation), p, f.map(|f| unit_direction(f, "forward").expect("checked")));
            }
        });
        if self.is_recording() {
            (0..count).for_each(|i| self.record_target_touched(pose(i).0.index));
        }
        Ok(())
    }

    /// Shows or hides a target from every agent's sight (sounds it makes are still heard).
    pub fn set_target_enabled(&mut self, id: TargetId, enabled: bool) -> Result<()> {
        self.check_idle()?;
        self.target_mut(id)?.enabled = enabled;
        self.record_input(call::SET_TARGET_ENABLED, |w| {
            w.id(id.index, id.generation);
            w.u8(enabled as u8);
        });
        self.record_target_touched(id.index);
        Ok(())
    }

    /// Replaces a target's check points (1 to 8 offsets).
    pub fn set_target_check_points(&mut self, id: TargetId, offsets: &[Vec3]) -> Result<()> {
        self.check_idle()?;
        let (points, count) = check_points(offsets)?;
        let target = self.target_mut(id)?;
        target.points = points;
        target.point_count = count;
        self.record_input(call::SET_TARGET_CHECK_POINTS, |w| {
            w.id(id.index, id.generation);
            w.u32(offsets.len() as u32);
            offsets.iter().for_each(|&p| w.vec3(p));
        });
        self.record_target_touched(id.index);
        Ok(())
    }

    /// Adds an occluder.
    pub fn add_occluder(&mut self, def: &OccluderDef) -> Result<OccluderId> {
        self.check_idle()?;
        let id = self.occluders.add(def)?;
        self.walk_follow_occluder(id, None);
        self.record_kept(call::ADD_OCCLUDER, |world, w| {
            w.occluder_def(world.occluders.get(id).expect("just added").def());
            w.id(id.index, id.generation);
        });
        self.record_scene_changed();
        Ok(id)
    }

    /// Removes an occluder.
    pub fn remove_occluder(&mut self, id: OccluderId) -> Result<()> {
        self.check_idle()?;
        let before = self.occluders.get(id).map(|o| o.bounds());
        self.occluders.remove(id)?;
        self.walk_follow_occluder(id, before);
        self.labels.forget(super::Labelled::Occluder(id));
        self.record_input(call::REMOVE_OCCLUDER, |w| w.id(id.index, id.generation));
        self.record_scene_changed();
        Ok(())
    }

    /// Moves an occluder (a door, a vehicle).
    pub fn set_occluder_pose(&mut self, id: OccluderId, position: Vec3, rotation: Quat) -> Result<()> {
        self.check_idle()?;
        let before = self.occluders.get(id).map(|o| o.bounds());
        self.occluders.set_pose(id, position, rotation)?;
        self.walk_follow_occluder(id, before);
        self.record_kept(call::SET_OCCLUDER_POSE, |world, w| {
            let kept = world.occluders.get(id).expect("just moved").def();
            w.id(id.index, id.generation);
            w.vec3(kept.position);
            w.quat(kept.rotation);
        });
        self.record_scene_changed();
        Ok(())
    }

    /// Changes an occluder's layers (a bush that stops hiding once burnt).
    pub fn set_occluder_layers(&mut self, id: OccluderId, layers: u32) -> Result<()> {
        self.check_idle()?;
        self.occluders.set_layers(id, layers)?;
        self.walk_follow_occluder(id, None);
        self.record_input(call::SET_OCCLUDER_LAYERS, |w| {
            w.id(id.index, id.generation);
            w.u32(layers);
        });
        self.record_scene_changed();
        Ok(())
    }

    /// The occluder behind an id.
    pub fn occluder(&self, id: OccluderId) -> Result<&Occluder> {
        self.occluders.get(id).ok_or(Error::InvalidId(OccluderId::KIND))
    }

    /// True if the id names a live occluder.
    pub fn is_occluder_valid(&self, id: OccluderId) -> bool {
        self.occluders.get(id).is_some()
    }

    /// All occluders, for queries (ray casts, containment).
    pub fn occluders(&self) -> &OccluderSet {
        &self.occluders
    }
}
