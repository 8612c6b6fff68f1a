//! Cover (lesson §11): a spot is cover when the ray from a threat's eye to it is blocked.
//! Score = danger · 10 + travel distance, lower wins; a spot's danger is the map's value there
//! plus the query's own per-candidate danger, when given.
//!
//! Everything but the rays is cheap, so the whole score is computed first, candidates are
//! visited best score first, and rays are cast only while a candidate can still enter the top
//! K: the answer is the same as casting every ray, usually for far fewer rays.

use super::{
    Candidates, LineBlocker, TacticalAnswer, TacticalResult, TacticalScratch, Threat, candidate_danger_lookup,
    check_threat, check_top_k, check_weight, danger_lookup, sort_ranked,
};
use crate::error::{Result, invalid};
use crate::influence::InfluenceMap;
use crate::math::{Vec3, check_finite};

/// How several threats combine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CoverMode {
    /// Cover must be hidden from every threat (the lesson's rule with one threat).
    #[default]
    HiddenFromAll,
    /// Rank first by how many threats cannot see the spot (more is better, at least one), then
    /// by score: the best available when no spot hides from everyone.
    HiddenFromMost,
}

/// Score weights: `score = danger · danger_weight + travel distance · distance_weight`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CoverWeights {
    /// Weight of the map's value at the spot (default 10, the lesson's).
    pub danger: f32,
    /// Weight of the straight-line distance from the agent to the spot, per metre (default 1).
    pub distance: f32,
}

impl Default for CoverWeights {
    fn default() -> Self {
        CoverWeights { danger: 10.0, distance: 1.0 }
    }
}

/// A cover query: where should the agent at `self_position` hide from `threats`?
#[derive(Copy, Clone, Debug)]
pub struct CoverQuery<'a> {
    /// The agent looking for cover; travel distance is measured from here, and it is the
    /// answer's fallback position when no spot qualifies.
    pub self_position: Vec3,
    /// Who to hide from (at least one); rays start at each threat's `eye`.
    pub threats: &'a [Threat],
    /// The spots to consider.
    pub candidates: Candidates<'a>,
    /// Danger layer read at each spot (cell value, 0 off the grid); `None` = danger 0.
    pub map: Option<(&'a InfluenceMap, usize)>,
    /// Extra danger per candidate, indexed like the candidates (the generated ones for a grid),
    /// added to the map's value; `None` = 0. One finite value within ±`MAX_MAGNITUDE` per
    /// candidate, or the query is refused.
    pub candidate_danger: Option<&'a [f32]>,
    /// Occluder layers that block the threats' sight (default all).
    pub obstacle_mask: u32,
    /// Score weights.
    pub weights: CoverWeights,
    /// How several threats combine.
    pub mode: CoverMode,
    /// Number of results wanted, best first (≥ 1, default 1).
    pub top_k: usize,
    /// Spots farther than this from `self_position` are skipped, in metres; 0 = no limit (default).
    pub max_travel: f32,
    /// Added to each spot before the ray test, e.g. `(0, 1, 0)` to hide a crouching head rather
    /// than the feet (default zero: the spot itself, as the lesson).
    pub probe_offset: Vec3,
}

impl Default for CoverQuery<'_> {
    fn default() -> Self {
        CoverQuery {
            self_position: Vec3::ZERO,
            threats: &[],
            candidates: Candidates::default(),
            map: None,
            candidate_danger: None,
            obstacle_mask: u32::MAX,
            weights: CoverWeights::default(),
            mode: CoverMode::default(),
            top_k: 1,
            max_travel: 0.0,
            probe_offset: Vec3::ZERO,
        }
    }
}

/// Runs a cover query with `blocker` answering the rays; results go to `out` (cleared first,
/// untouched on error), best first.
#[doc(alias = "FindBestCover")]
pub fn find_cover<B: LineBlocker + ?Sized>(
    query: &CoverQuery,
    blocker: &B,
    out: &mut Vec<TacticalResult>,
) -> Result<TacticalAnswer> {
    find_cover_with_scratch(query, blocker, &mut TacticalScratch::default(), out)
}

/// [`find_cover`] reusing `scratch`'s buffers between calls.
pub fn find_cover_with_scratch<B: LineBlocker + ?Sized>(
    query: &CoverQuery,
    blocker: &B,
    scratch: &mut TacticalScratch,
    out: &mut Vec<TacticalResult>,
) -> Result<TacticalAnswer> {
    let q = query;
    let top_k = check_cover(q)?;
    let TacticalScratch { points, ranked } = scratch;
    let candidates = rank_cover(q, points, ranked)?;
    let mut rays_cast = 0u32;
    let position = select_cover(q, top_k, candidates, ranked, out, |_, threat, probe| {
        rays_cast += 1;
        ray_blocked(blocker, q.threats[threat].eye, probe, q.obstacle_mask)
    });
    Ok(TacticalAnswer { position, found: out.len(), rays_cast })
}

/// Checks everything but the candidates; returns `top_k`.
pub(super) fn check_cover(q: &CoverQuery) -> Result<usize> {
    check_finite(q.self_position, "cover self position")?;
    if q.threats.is_empty() {
        return Err(invalid("a cover query needs at least one threat"));
    }
    q.threats.iter().try_for_each(check_threat)?;
    check_weight(q.weights.danger, "cover danger")?;
    check_weight(q.weights.distance, "cover distance")?;
    let top_k = check_top_k(q.top_k)?;
    crate::math::check_non_negative(q.max_travel, "max travel (metres)")?;
    check_finite(q.probe_offset, "cover probe offset")?;
    Ok(top_k)
}

/// The cheap part, which needs no ray: every candidate within reach with its whole score, into
/// `ranked` best first. Returns the candidates (the caller's, or generated into `points`).
pub(super) fn rank_cover<'s>(
    q: &CoverQuery<'s>,
    points: &'s mut Vec<Vec3>,
    ranked: &mut Vec<(f32, u32)>,
) -> Result<&'s [Vec3]> {
    let danger = danger_lookup(q.map)?;
    let candidates = q.candidates.resolve(points)?;
    let extra = candidate_danger_lookup(q.candidate_danger, candidates.len())?;
    ranked.clear();
    for (index, &spot) in candidates.iter().enumerate() {
        let travel = q.self_position.distance(spot);
        if q.max_travel > 0.0 && travel > q.max_travel {
            continue;
        }
        let score = (danger(spot) + extra(index)) * q.weights.danger + travel * q.weights.distance;
        if !score.is_nan() {
            ranked.push((score, index as u32));
        }
    }
    sort_ranked(ranked, false);
    Ok(candidates)
}

/// Visits `ranked` best first and keeps the top K hidden spots; `blocked(rank, threat, probe)`
/// answers one ray, asked only while the candidate can still enter the top K. Both the one-call
/// query and the two-phase one ([`super::PendingCover`]) select here, so they answer alike.
/// Returns the answer's position (the best spot, or the agent's own position).
pub(super) fn select_cover(
    q: &CoverQuery,
    top_k: usize,
    candidates: &[Vec3],
    ranked: &[(f32, u32)],
    out: &mut Vec<TacticalResult>,
    mut blocked: impl FnMut(usize, usize, Vec3) -> bool,
) -> Vec3 {
    out.clear();
    let threat_count = q.threats.len() as u32;
    for (rank, &(score, index)) in ranked.iter().enumerate() {
        let full = out.len() == top_k;
        // Later candidates lose ties, so once the K-th is hidden from every threat (always
        // the case in HiddenFromAll) nothing later can enter.
        if full && (q.mode == CoverMode::HiddenFromAll || out[top_k - 1].hidden_from == threat_count) {
            break;
        }
        let required = match q.mode {
            CoverMode::HiddenFromAll => threat_count,
            CoverMode::HiddenFromMost if full => out[top_k - 1].hidden_from + 1,
            CoverMode::HiddenFromMost => 1,
        };
        let spot = candidates[index as usize];
        let probe = spot + q.probe_offset;
        let mut hidden_from = 0u32;
        for checked in 0..q.threats.len() {
            if hidden_from + (threat_count - checked as u32) < required {
                break; // even hiding from every remaining threat would not be enough
            }
            if blocked(rank, checked, probe) {
                hidden_from += 1;
            }
        }
        if hidden_from < required {
            continue;
        }
        let at = out.iter().position(|r| r.hidden_from < hidden_from).unwrap_or(out.len());
        out.insert(at, TacticalResult { position: spot, score, candidate_index: index, hidden_from });
        out.truncate(top_k);
    }
    out.first().map_or(q.self_position, |r| r.position)
}

/// The lesson's cover ray from `eye` towards `spot`: unit direction and the full distance to
/// it; `None` when there is no ray to cast (a zero-length ray hits nothing, as
/// `Physics.Raycast`; an overflowing one is not cast either).
pub(super) fn cover_ray(eye: Vec3, spot: Vec3) -> Option<(Vec3, f32)> {
    let to_spot = spot - eye;
    let distance = to_spot.length();
    (distance > 0.0 && distance.is_finite()).then(|| (to_spot / distance, distance))
}

fn ray_blocked<B: LineBlocker + ?Sized>(blocker: &B, eye: Vec3, spot: Vec3, mask: u32) -> bool {
    cover_ray(eye, spot).is_some_and(|(direction, distance)| blocker.blocks(eye, direction, distance, mask))
}
