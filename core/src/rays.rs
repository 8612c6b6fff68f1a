//! Engine rays: the world can hand every line-of-sight ray of a step to the engine in one batch
//! (Unity's `RaycastCommand`, Godot's physics space, a C++ engine's own BVH) and take the hits back.

use crate::id::{AgentId, TargetId};
use crate::math::Vec3;

/// One line-of-sight ray. The engine casts it against its own geometry on `layer_mask` and
/// reports the first hit within `max_distance`, ignoring colliders that contain `origin`
/// (as `Physics.Raycast` does) and the agent's and target's own colliders.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RayQuery {
    /// The agent's eye.
    pub origin: Vec3,
    /// Unit direction towards the check point.
    pub direction: Vec3,
    /// Distance to the check point minus 0.01, so the target's own surface never blocks.
    pub max_distance: f32,
    /// The agent's sight obstacle mask.
    pub layer_mask: u32,
    /// The looking agent, so the engine can skip its collider.
    pub agent: AgentId,
    /// The looked-at target, so the engine can skip its collider.
    pub target: TargetId,
}

/// The engine's answer to one [`RayQuery`].
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct RayHit {
    /// Something blocked the ray.
    pub hit: bool,
    /// Distance from the origin to the hit (ignored when `hit` is false).
    pub distance: f32,
}

/// Anything that can answer a batch of rays: one call per step with every ray of that step.
pub trait RaySource {
    /// Fills `hits[i]` for `rays[i]`; `hits.len() == rays.len()`.
    fn cast_rays(&mut self, rays: &[RayQuery], hits: &mut [RayHit]);
}

impl<F: FnMut(&[RayQuery], &mut [RayHit])> RaySource for F {
    fn cast_rays(&mut self, rays: &[RayQuery], hits: &mut [RayHit]) {
        self(rays, hits)
    }
}

/// Where a world's line-of-sight rays are answered.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum RayBackend {
    /// parry3d's BVH over the world's own occluders (default).
    #[default]
    Builtin,
    /// The engine answers every ray (a ray source, or `begin_step` / `finish_step`).
    Engine,
}
