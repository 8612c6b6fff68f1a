//! Tactical queries through the C ABI: where to take cover from threats, and where to flank a
//! threat from, scored with an optional influence-map layer. Results go into a caller buffer,
//! best first; the answer carries the lesson's return value (best spot or fallback). The
//! structs they take and return are in `tactics_query.rs`.

use super::boundary::{FfiResult, check_cookie, fill, input, output, slice, with_world};
use super::enums::ArgusCandidateKind;
use super::influence::plane_from_c;
use super::tactics_query::*;
use super::types::*;
use super::world::ArgusWorld;
use argus_core::influence::InfluenceMap;
use argus_core::math::Vec3;
use argus_core::tactics::{
    Candidates, CoverMode, CoverQuery, CoverWeights, FlankQuery, FlankWeights, MAX_CANDIDATES, TacticalAnswer,
    TacticalResult, Threat,
};
use argus_core::world::World;
/// The core's candidates; caller points are copied into `points`.
pub(crate) fn candidates_from_c<'a>(c: &ArgusCandidates, points: &'a mut Vec<Vec3>) -> FfiResult<Candidates<'a>> {
    Ok(match c.kind.get()? {
        ArgusCandidateKind::Points => {
            let raw = slice(c.points, c.point_count, MAX_CANDIDATES, "candidates.points")?;
            points.extend(raw.iter().map(|&p| Vec3::from(p)));
            Candidates::Points(points)
        }
        ArgusCandidateKind::Grid => Candidates::Grid {
            center: c.center.into(),
            spacing: c.spacing,
            half_count: c.half_count,
            plane: plane_from_c(c.plane)?,
        },
        ArgusCandidateKind::Ring => Candidates::Ring {
            center: c.center.into(),
            inner_radius: c.inner_radius,
            outer_radius: c.outer_radius,
            rings: c.rings,
            per_ring: c.per_ring,
            plane: plane_from_c(c.plane)?,
        },
    })
}

/// The danger layer of a query: none for the null id, else a live map and the layer.
pub(crate) fn danger_map(
    world: &World,
    tag: u16,
    map: ArgusInfluenceMapId,
    layer: u32,
) -> FfiResult<Option<(&InfluenceMap, usize)>> {
    if map == ArgusInfluenceMapId::default() {
        return Ok(None);
    }
    Ok(Some((world.influence_map(map.core(tag)?)?, layer as usize)))
}

/// Copies the results out (or reports the needed count) and then writes the answer.
pub(crate) fn deliver(
    results: &[TacticalResult],
    answer: TacticalAnswer,
    buffer: *mut ArgusTacticalResult,
    capacity: u32,
    out_count: *mut u32,
    out_answer: &mut ArgusTacticalAnswer,
) -> FfiResult {
    let converted: Vec<ArgusTacticalResult> = results
        .iter()
        .map(|r| ArgusTacticalResult {
            position: r.position.into(),
            score: r.score,
            candidate_index: r.candidate_index,
            hidden_from: r.hidden_from,
        })
        .collect();
    fill(&converted, buffer, capacity, out_count)?;
    *out_answer = ArgusTacticalAnswer {
        position: answer.position.into(),
        found: answer.found as u32,
        rays_cast: answer.rays_cast,
    };
    Ok(())
}

/// The core's cover query from the C one; `threats` and `points` hold the copied arrays.
pub(crate) fn cover_from_c<'a>(
    world: &'a World,
    tag: u16,
    c: &ArgusCoverQuery,
    threats: &'a mut Vec<Threat>,
    points: &'a mut Vec<Vec3>,
) -> FfiResult<CoverQuery<'a>> {
    check_cookie(c.internal_cookie, "cover_query")?;
    let raw_threats = slice(c.threats, c.threat_count, ARGUS_MAX_THREATS as usize, "threats")?;
    threats.extend(raw_threats.iter().map(threat_from_c));
    let mode: CoverMode = c.mode.get()?.into();
    Ok(CoverQuery {
        self_position: c.self_position.into(),
        threats,
        candidates: candidates_from_c(&c.candidates, points)?,
        map: danger_map(world, tag, c.map, c.map_layer)?,
        obstacle_mask: c.obstacle_mask,
        weights: CoverWeights { danger: c.danger_weight, distance: c.distance_weight },
        mode,
        top_k: c.top_k as usize,
        max_travel: c.max_travel,
        probe_offset: c.probe_offset.into(),
        candidate_danger: candidate_danger_from_c(c.candidate_danger, c.candidate_danger_count)?,
    })
}

/// The core's flank query from the C one; `points` holds the copied candidate points.
pub(crate) fn flank_from_c<'a>(
    world: &'a World,
    tag: u16,
    c: &ArgusFlankQuery,
    points: &'a mut Vec<Vec3>,
) -> FfiResult<FlankQuery<'a>> {
    check_cookie(c.internal_cookie, "flank_query")?;
    Ok(FlankQuery {
        threat: threat_from_c(&c.threat),
        candidates: candidates_from_c(&c.candidates, points)?,
        map: danger_map(world, tag, c.map, c.map_layer)?,
        weights: FlankWeights { facing: c.facing_weight, danger: c.danger_weight },
        max_facing_dot: c.max_facing_dot,
        top_k: c.top_k as usize,
        candidate_danger: candidate_danger_from_c(c.candidate_danger, c.candidate_danger_count)?,
    })
}

/// The optional per-candidate danger array, borrowed for the call; a count of 0 means none.
fn candidate_danger_from_c<'a>(ptr: *const f32, count: u32) -> FfiResult<Option<&'a [f32]>> {
    if count == 0 {
        return Ok(None);
    }
    Ok(Some(slice(ptr, count, MAX_CANDIDATES, "candidate_danger")?))
}

/// Finds cover (lesson §11): spots whose ray from every threat's eye is blocked, best (lowest
/// score) first, at most `top_k`, copied into `results`; their number goes to `*out_count`
/// (capacity too small → `BUFFER_TOO_SMALL` with the needed number, nothing else written) and the
/// summary to `*out_answer`. No spot → `ARGUS_RESULT_OK`, count 0, answer = `self_position`.
///
/// Line of sight: the ray callback when one is set, called once with every ray the query could
/// need (null agent and target ids, `max_distance` the full distance to the spot; the rays of
/// `argus_world_find_cover_begin`), else the world's occluders (casting only the rays its early
/// exit needs); an engine-ray world without a callback → `NO_RAY_BACKEND`. The query and its
/// arrays are read during the call only.
///
/// # Safety
/// `world` NULL or live; `query` NULL or readable (with its arrays); `results` `capacity`
/// writable items (NULL if 0); `out_count`, `out_answer` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_find_cover(
    world: *mut ArgusWorld,
    query: *const ArgusCoverQuery,
    results: *mut ArgusTacticalResult,
    capacity: u32,
    out_count: *mut u32,
    out_answer: *mut ArgusTacticalAnswer,
) -> ArgusResult {
    with_world(world, |w| {
        output(out_count, "out_count")?;
        let out_answer = output(out_answer, "out_answer")?;
        let c = input(query, "query")?;
        let (mut threats, mut points, mut out) = (Vec::new(), Vec::new(), Vec::new());
        let w_tag = w.tag;
        // The query borrows the world's map, so it is built inside the callback scope.
        let answer = w.with_rays(|world, rays| -> FfiResult<TacticalAnswer> {
            let q = cover_from_c(world, w_tag, c, &mut threats, &mut points)?;
            Ok(world.find_cover(&q, rays, &mut out)?)
        })?;
        deliver(&out, answer, results, capacity, out_count, out_answer)
    })
}

/// Finds flanking spots (lesson §11): spots outside the threat's forward cone, best (highest
/// score) first, at most `top_k`, into `results` / `*out_count` / `*out_answer` exactly as
/// `argus_world_find_cover`. No spot → `ARGUS_RESULT_OK`, count 0, answer = the threat's
/// position. Casts no rays, so it works in an engine-ray world without a callback, and has no
/// two-phase (`_begin` / `_finish`) form: an engine that batches the rays of its cover queries
/// calls this directly in the same loop.
///
/// # Safety
/// `world` NULL or live; `query` NULL or readable (with its points); `results` `capacity`
/// writable items (NULL if 0); `out_count`, `out_answer` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_find_flank(
    world: *mut ArgusWorld,
    query: *const ArgusFlankQuery,
    results: *mut ArgusTacticalResult,
    capacity: u32,
    out_count: *mut u32,
    out_answer: *mut ArgusTacticalAnswer,
) -> ArgusResult {
    with_world(world, |w| {
        output(out_count, "out_count")?;
        let out_answer = output(out_answer, "out_answer")?;
        let c = input(query, "query")?;
        let mut points = Vec::new();
        let q = flank_from_c(&w.world, w.tag, c, &mut points)?;
        let mut out = Vec::new();
        let answer = w.world.find_flank(&q, &mut out)?;
        deliver(&out, answer, results, capacity, out_count, out_answer)
    })
}
