//! The lesson-literal reference ("oracle"): the lesson's loops ported as plainly as possible —
//! every agent scans every target, every ray is tested against every occluder in turn, no
//! broadphase, no BVH, no caches, no threads. It is the oracle for `tests/differential.rs` and the
//! baseline the benchmarks report ratios against. It is test/bench support code, never shipped.
//!
//! Use it from `tests/*.rs` with `#[path = "support/reference.rs"] mod reference;` (or
//! `mod support;` and `support::reference`), and from `benches/*.rs` with
//! `#[path = "../tests/support/reference.rs"] mod reference;`. It depends on `glam` and
//! `parry3d` only, never on `argus` itself.
//!
//! - [`RefWorld`]: agents ([`RefAgentDef`]), targets ([`RefTarget`], ids [`RefId`] in LIFO-reused
//!   slots), occluders ([`RefShape`]), attitudes, sounds ([`RefSound`]); `step(dt)` returns
//!   [`RefEvents`] (percepts, brain changes, forgotten records); with `note_boundaries` set it
//!   leaves the decisions that fell near a float boundary in `near`.
//! - Sight: [`see_point`] (range → cone → line of sight for one point; [`see_point_noting`] also
//!   records near-boundary decisions), [`cos_half`], [`unit`]; hearing: [`hear`] / [`hear_noting`]; rays: [`raycast`] over any list of [`RefOccluder`].
//! - Memory and brain: [`decay`], [`refresh`], [`think`] with [`RefBrain`] / [`RefState`].
//! - Influence and tactics over plain data: [`RefGrid`] with [`add_influence`], [`blur`],
//!   [`get_value`], [`world_to_cell`], [`clear`]; [`find_best_cover`], [`find_flank_position`].
#![allow(dead_code, unused_imports)]

#[path = "reference_geometry.rs"]
mod geometry;
#[path = "reference_influence.rs"]
mod influence;
#[path = "reference_mind.rs"]
mod mind;
#[path = "reference_sight.rs"]
mod sight;
#[path = "reference_world.rs"]
mod world;

pub use geometry::{RefOccluder, RefShape, normalized_or_zero, raycast, unit_direction, unit_rotation};
pub use influence::{
    RefGrid, add_influence, blur, clear, find_best_cover, find_flank_position, get_value, world_to_cell,
};
pub use mind::{Heard, RefBrain, RefBrainConfig, RefId, RefRecord, RefState, decay, record, refresh, think};
pub use sight::{
    About, BOUNDARY_SLACK, CONE_BAND, HEARING_BAND, Near, ON_EYE_SQ, PointSight, RANGE_BAND, RAY_BAND, STOP_SHORT,
    Viewer, cos_half, hear, hear_noting, see_point, see_point_noting, unit,
};
pub use world::{
    RefAgent, RefAgentDef, RefAttitude, RefEvents, RefPercept, RefSense, RefSound, RefTarget, RefWorld, SEE_HOSTILE,
};
