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
    /// Fills `hits[i]` for `rays[i]`; `hits.len() == rays.len()`. An `Err` (conventionally
    /// [`Error::RaySourceFailed`](crate::Error::RaySourceFailed)) says the engine could not
    /// answer: the call that asked (a step, a sight or cover query, a debug draw) ends with that
    /// error and changes nothing; `hits` is then never read.
    fn cast_rays(&mut self, rays: &[RayQuery], hits: &mut [RayHit]) -> crate::error::Result<()>;
}

/// A closure that cannot fail is a ray source.
impl<F: FnMut(&[RayQuery], &mut [RayHit])> RaySource for F {
    fn cast_rays(&mut self, rays: &[RayQuery], hits: &mut [RayHit]) -> crate::error::Result<()> {
        self(rays, hits);
        Ok(())
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

/// Who answers the line-of-sight rays of one call — the one rule every surface (Rust, the C
/// ABI, the Godot add-on) follows, so none decides it again:
///
/// * [`Rays::Engine`]: the engine's source answers every ray of the call, whatever the
///   world's [`RayBackend`] (a step or a sight query: one batch; a cover query: one batch per
///   call too, see [`World::find_cover`](crate::World::find_cover)).
/// * [`Rays::World`] (the default): the world's own backend. A [`RayBackend::Builtin`] world
///   answers with its occluders; a [`RayBackend::Engine`] world has nobody to ask and refuses
///   with [`Error::NoRayBackend`](crate::Error::NoRayBackend) (debug drawing, which never
///   refuses, then draws no sight rays).
///
/// An engine that casts its rays itself in one batch (Unity's `RaycastCommand`) uses the
/// two-phase calls instead: `begin_step` / `finish_step`, `begin_cover` / `finish_cover`.
#[derive(Default)]
pub enum Rays<'a> {
    /// The world's own backend.
    #[default]
    World,
    /// The engine's source answers every ray.
    Engine(&'a mut dyn RaySource),
}

impl<'a> From<Option<&'a mut dyn RaySource>> for Rays<'a> {
    /// `Some(source)` → [`Rays::Engine`], `None` → [`Rays::World`]: what a binding holding an
    /// optional engine callback passes.
    fn from(source: Option<&'a mut dyn RaySource>) -> Self {
        match source {
            Some(source) => Rays::Engine(source),
            None => Rays::World,
        }
    }
}

impl std::fmt::Debug for Rays<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Rays::World => "Rays::World",
            Rays::Engine(_) => "Rays::Engine(..)",
        })
    }
}

impl<'a> Rays<'a> {
    /// The engine source to use, `None` for the built-in occluders, or `NoRayBackend`.
    pub(crate) fn resolve(self, backend: RayBackend) -> crate::error::Result<Option<&'a mut dyn RaySource>> {
        match (self, backend) {
            (Rays::Engine(source), _) => Ok(Some(source)),
            (Rays::World, RayBackend::Builtin) => Ok(None),
            (Rays::World, RayBackend::Engine) => Err(crate::error::Error::NoRayBackend),
        }
    }
}
