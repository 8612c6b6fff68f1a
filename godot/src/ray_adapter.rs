//! The core's `RaySource` answered by the engine's physics space, one ray at a time, skipping
//! the guard's and target's own colliders.

use argus_core::{AgentId, RayHit, RayQuery, RaySource, TargetId};
use godot::prelude::*;

use crate::id_table::IdTable;
use crate::slots::{AgentSlot, TargetSlot};

/// Casts one ray against the engine's physics, given the colliders to skip.
pub type CastFn<'a> = dyn FnMut(&RayQuery, &Array<Rid>) -> RayHit + 'a;

/// Answers rays with a closure per ray (a physics space), skipping the agent's and target's
/// own colliders: the core's `RaySource` contract.
pub struct PerRay<'a, F: FnMut(&RayQuery, &Array<Rid>) -> RayHit> {
    pub agents: &'a IdTable<AgentId, AgentSlot>,
    pub targets: &'a IdTable<TargetId, TargetSlot>,
    pub cast: F,
}

impl<F: FnMut(&RayQuery, &Array<Rid>) -> RayHit> RaySource for PerRay<'_, F> {
    fn cast_rays(&mut self, rays: &[RayQuery], hits: &mut [RayHit]) -> argus_core::Result<()> {
        let mut exclude = Array::new();
        for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
            exclude.clear();
            if let Some(a) = self.agents.get(&ray.agent) {
                exclude.extend_array(&a.exclude);
            }
            if let Some(t) = self.targets.get(&ray.target) {
                exclude.extend_array(&t.exclude);
            }
            *hit = (self.cast)(ray, &exclude);
        }
        Ok(())
    }
}
