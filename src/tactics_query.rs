//! The plain data of the tactical queries: the query structs engines fill, the candidate
//! generators, the results and the answer, with their defaults. The queries themselves are in
//! `tactics.rs`.

use super::enums::{ArgusCandidateKind, ArgusCoverMode, ArgusPlane, RawCandidateKind, RawCoverMode, RawPlane};
use super::types::*;
use argus_core::tactics::{CoverQuery, FlankQuery, MAX_CANDIDATES, Threat};

/// Most candidates one query may consider (points, or generated).
pub const ARGUS_MAX_CANDIDATES: u32 = 1048576;
/// Most threats one cover query may take.
pub const ARGUS_MAX_THREATS: u32 = 65536;

const _: () = assert!(ARGUS_MAX_CANDIDATES as usize == MAX_CANDIDATES);

/// Someone to hide from or to flank.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusThreat {
    /// Feet position (flank directions are measured from here).
    pub position: ArgusVec3,
    /// Eye position (cover rays start here).
    pub eye: ArgusVec3,
    /// Facing direction (flank only; normalised there, must not be zero).
    pub forward: ArgusVec3,
}

/// Where a query looks. `kind` picks which fields are read.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusCandidates {
    /// `ARGUS_CANDIDATE_KIND_POINTS`: the caller's points, read during the call only.
    pub points: *const ArgusVec3,
    /// `ARGUS_CANDIDATE_KIND_POINTS`: number of points (at most `ARGUS_MAX_CANDIDATES`).
    pub point_count: u32,
    /// Which generator, and so which fields below are read (default `ARGUS_CANDIDATE_KIND_POINTS`).
    pub kind: RawCandidateKind,
    /// Grid / ring: the middle point.
    pub center: ArgusVec3,
    /// Grid: metres between neighbouring points, > 0 (default 1).
    pub spacing: f32,
    /// Grid: points on each side of the centre along each axis (default 4).
    pub half_count: u32,
    /// Ring: inner radius in metres, ≥ 0 (default 2).
    pub inner_radius: f32,
    /// Ring: outer radius in metres, ≥ inner (default 8).
    pub outer_radius: f32,
    /// Ring: number of rings, ≥ 1 (default 3).
    pub rings: u32,
    /// Ring: points per ring, ≥ 1 (default 16).
    pub per_ring: u32,
    /// Grid / ring: the plane the pattern lies in (default `ARGUS_PLANE_XZ`).
    pub plane: RawPlane,
}

/// A cover query: where should the agent at `self_position` hide from the threats?
/// Fill with `argus_default_cover_query()`; read during the call only.
/// Score = danger · `danger_weight` + travel distance · `distance_weight`, lower is better; a
/// spot's danger is `map`'s value there plus `candidate_danger[i]` when given.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusCoverQuery {
    /// The spots to consider.
    pub candidates: ArgusCandidates,
    /// Who to hide from: `threat_count` items (1 to `ARGUS_MAX_THREATS`), read during the call.
    pub threats: *const ArgusThreat,
    /// Number of threats.
    pub threat_count: u32,
    /// The agent: travel is measured from here, and it is the answer when no spot qualifies.
    pub self_position: ArgusVec3,
    /// Danger map read at each spot (cell value, 0 off the grid); null id = no map (danger 0).
    pub map: ArgusInfluenceMapId,
    /// Layer of `map` holding danger.
    pub map_layer: u32,
    /// Occluder layers that block the threats' sight (default all).
    pub obstacle_mask: u32,
    /// Weight of the danger value (default 10, the lesson's).
    pub danger_weight: f32,
    /// Weight of the travel distance per metre (default 1).
    pub distance_weight: f32,
    /// Which spots count as cover (default `ARGUS_COVER_MODE_HIDDEN_FROM_ALL`).
    pub mode: RawCoverMode,
    /// Results wanted, best first, ≥ 1 (default 1).
    pub top_k: u32,
    /// Spots farther than this from `self_position` are skipped, metres; 0 = no limit (default).
    pub max_travel: f32,
    /// Added to each spot before the ray test, e.g. (0, 1, 0) to hide a head (default zero).
    pub probe_offset: ArgusVec3,
    /// Set by `argus_default_cover_query()`; leave it alone.
    pub internal_cookie: u32,
    /// Optional extra danger per candidate, `candidate_danger_count` floats indexed like the
    /// candidates (generation order for grid / ring), added to the map's value at each spot.
    /// NULL / 0 = none (default). Owned by the caller and read during the call only (the
    /// two-phase begin keeps the scores it needs). A count other than the number of candidates,
    /// or a value that is not finite or beyond ±`ARGUS_MAX_MAGNITUDE`, is refused.
    pub candidate_danger: *const f32,
    /// Number of floats at `candidate_danger`: 0 or the number of candidates.
    pub candidate_danger_count: u32,
}

/// A flank query: from where can the threat be approached outside its forward cone
/// (`dot(forward, unit(spot − position)) ≤ max_facing_dot`)? Fill with
/// `argus_default_flank_query()`; read during the call only.
/// Score = −facing · `facing_weight` − danger · `danger_weight`, higher is better; a spot's
/// danger is `map`'s value there plus `candidate_danger[i]` when given.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusFlankQuery {
    /// The spots to consider.
    pub candidates: ArgusCandidates,
    /// The threat; its position is the answer when no spot qualifies (default at the origin
    /// facing +Z, eyes 1.6 m up).
    pub threat: ArgusThreat,
    /// Danger map read at each spot; null id = no map (danger 0).
    pub map: ArgusInfluenceMapId,
    /// Layer of `map` holding danger.
    pub map_layer: u32,
    /// Weight of the facing dot product (default 1).
    pub facing_weight: f32,
    /// Weight of the danger value (default 1).
    pub danger_weight: f32,
    /// Spots with a larger facing dot product are in front and skipped (default 0.3).
    pub max_facing_dot: f32,
    /// Results wanted, best first, ≥ 1 (default 1).
    pub top_k: u32,
    /// Set by `argus_default_flank_query()`; leave it alone.
    pub internal_cookie: u32,
    /// Optional extra danger per candidate, `candidate_danger_count` floats indexed like the
    /// candidates (generation order for grid / ring), added to the map's value at each spot.
    /// NULL / 0 = none (default). Owned by the caller and read during the call only (the
    /// two-phase begin keeps the scores it needs). A count other than the number of candidates,
    /// or a value that is not finite or beyond ±`ARGUS_MAX_MAGNITUDE`, is refused.
    pub candidate_danger: *const f32,
    /// Number of floats at `candidate_danger`: 0 or the number of candidates.
    pub candidate_danger_count: u32,
}

/// One ranked spot.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusTacticalResult {
    /// The spot.
    pub position: ArgusVec3,
    /// Its score (cover: lower is better; flank: higher is better).
    pub score: f32,
    /// Index of the spot among the candidates (generation order for grid / ring); equal
    /// scores are ranked by it, lower first.
    pub candidate_index: u32,
    /// Cover: how many threats cannot see the spot. Flank: 0.
    pub hidden_from: u32,
}

/// Summary of a query.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusTacticalAnswer {
    /// The best spot, or when `found` is 0 the lesson's fallback: the agent's own position for
    /// cover, the threat's position for a flank.
    pub position: ArgusVec3,
    /// Number of spots found (at most `top_k`; 0 = none qualified).
    pub found: u32,
    /// Line-of-sight rays cast (cover only).
    pub rays_cast: u32,
}

fn default_candidates() -> ArgusCandidates {
    ArgusCandidates {
        points: std::ptr::null(),
        point_count: 0,
        kind: ArgusCandidateKind::Points.into(),
        center: ArgusVec3::default(),
        spacing: 1.0,
        half_count: 4,
        inner_radius: 2.0,
        outer_radius: 8.0,
        rings: 3,
        per_ring: 16,
        plane: ArgusPlane::Xz.into(),
    }
}

/// Default cover query: no threats, no candidates, no map, the lesson's weights, top 1.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_cover_query() -> ArgusCoverQuery {
    let d = CoverQuery::default();
    ArgusCoverQuery {
        candidates: default_candidates(),
        threats: std::ptr::null(),
        threat_count: 0,
        self_position: d.self_position.into(),
        map: ArgusInfluenceMapId::default(),
        map_layer: 0,
        obstacle_mask: d.obstacle_mask,
        danger_weight: d.weights.danger,
        distance_weight: d.weights.distance,
        mode: ArgusCoverMode::HiddenFromAll.into(),
        top_k: d.top_k as u32,
        max_travel: d.max_travel,
        probe_offset: d.probe_offset.into(),
        internal_cookie: ARGUS_DEF_COOKIE,
        candidate_danger: std::ptr::null(),
        candidate_danger_count: 0,
    }
}

/// Default flank query: a threat at the origin facing +Z, no candidates, no map, top 1.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_flank_query() -> ArgusFlankQuery {
    let d = FlankQuery::default();
    ArgusFlankQuery {
        candidates: default_candidates(),
        threat: threat_to_c(&d.threat),
        map: ArgusInfluenceMapId::default(),
        map_layer: 0,
        facing_weight: d.weights.facing,
        danger_weight: d.weights.danger,
        max_facing_dot: d.max_facing_dot,
        top_k: d.top_k as u32,
        internal_cookie: ARGUS_DEF_COOKIE,
        candidate_danger: std::ptr::null(),
        candidate_danger_count: 0,
    }
}

pub(crate) fn threat_to_c(t: &Threat) -> ArgusThreat {
    ArgusThreat { position: t.position.into(), eye: t.eye.into(), forward: t.forward.into() }
}

pub(crate) fn threat_from_c(t: &ArgusThreat) -> Threat {
    Threat { position: t.position.into(), eye: t.eye.into(), forward: t.forward.into() }
}

const _: () = assert!(size_of::<ArgusThreat>() == 36);
const _: () = assert!(size_of::<ArgusTacticalResult>() == 24);
const _: () = assert!(size_of::<ArgusTacticalAnswer>() == 20);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusCandidates>() == 56);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusCoverQuery>() == 152);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusFlankQuery>() == 144);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::offset_of!(ArgusCoverQuery, candidate_danger) == 136);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::offset_of!(ArgusCoverQuery, candidate_danger_count) == 144);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::offset_of!(ArgusFlankQuery, candidate_danger) == 128);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::offset_of!(ArgusFlankQuery, candidate_danger_count) == 136);
