//! Argus: game-AI perception. What an enemy sees, hears and remembers, and where it should go
//! next — vision cones with line of sight, hearing by loudness radius, one percept shape for
//! every sense, memory with decaying confidence, the Idle / Investigating / Chasing / Searching
//! brain, influence maps and tactical queries.
//!
//! This crate is the Rust API and owns every rule; the `argus` crate (the repository's top level)
//! wraps it in a C ABI for Unity, Godot and C/C++ engines, and the Godot add-on links it directly.
//!
//! ```
//! use argus_core::*;
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let guard = world.create_agent(&AgentDef::default()).unwrap();
//! let player = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 5.0), ..Default::default() }).unwrap();
//! assert!(world.can_see(guard, player).unwrap().seen);
//! ```

#![deny(missing_docs)]
#![deny(unsafe_code)] // two audited exceptions: the cache hint in `prefetch`, the phase job in `world::team`

pub mod agent;
pub mod awareness;
pub mod belief;
mod bits;
mod blockers;
pub mod brain;
mod broadphase;
pub mod debug_draw;
pub mod error;
mod headroom;
pub mod hearing;
pub mod id;
pub mod influence;
pub mod math;
pub mod memory;
pub mod occluders;
pub mod percept;
mod prefetch;
mod radix;
pub mod rays;
pub mod record;
pub mod settings;
pub mod sight;
pub mod snapshot;
pub mod tactics;
pub mod target;
pub mod team;
#[cfg(test)]
mod test_rng;
pub mod walk;
pub mod world;

pub use agent::{Agent, AgentDef, HearingConfig, SightConfig};
pub use awareness::{AwarenessConfig, AwarenessStage};
pub use belief::{Belief, BeliefDef, SearchPoint};
pub use brain::{Brain, BrainConfig, BrainState, SearchKind};
pub use debug_draw::{DebugDraw, DebugDrawOptions, DebugLine, DebugPoint, PointStyle};
pub use error::{Error, Result};
pub use hearing::{HearingPath, Sound, SoundDef};
pub use id::{AgentId, InfluenceMapId, OccluderId, TargetId};
pub use influence::{InfluenceMap, InfluenceMapDef, Plane};
pub use math::{Quat, Vec3};
pub use memory::{MemoryConfig, MemoryRecord};
pub use occluders::{Occluder, OccluderDef, OccluderShape};
pub use percept::{AwarenessEvent, BrainEvent, ForgetEvent, Percept, PerceptKind, SightChange, StepEvents};
pub use rays::{RayBackend, RayHit, RayQuery, RaySource, Rays};
pub use record::{
    MAX_FLIGHT_SECONDS, PointExplanation, RecordOptions, RecordTo, Replay, SightExplanation, SightFilterReason,
};
pub use sight::{PointSight, PointStatus, SightResult};
pub use tactics::{Candidates, CoverQuery, FlankQuery, TacticalAnswer, TacticalResult, Threat};
pub use target::{Target, TargetDef};
pub use team::{Attitude, MAX_TEAMS};
pub use walk::{WalkEdge, WalkGraph, WalkGraphKind, WalkGridDef, WalkPath};
/// A benchmark hook, not API (see `World::last_step_phases`).
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub use world::StepPhases;
pub use world::{BeliefOwner, Labelled, MAX_LABEL_BYTES, World, WorldDef};

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// Crate version, as `major.minor.patch`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
