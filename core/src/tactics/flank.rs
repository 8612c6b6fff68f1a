//! Flanking (lesson §11): a spot is a flank when it lies outside the threat's forward cone,
//! `dot(forward, unit(spot − threat)) ≤ 0.3`; score = −facing − danger, higher wins; a spot's danger
//! is the map's value there plus the query's own per-candidate danger, when given.

use super::{
    Candidates, TacticalAnswer, TacticalResult, TacticalScratch, Threat, candidate_danger_lookup, check_threat,
    check_top_k, check_weight, danger_lookup, sort_ranked,
};
use crate::error::Result;
use crate::influence::InfluenceMap;
use crate::math::{Vec3, unit_direction};

/// Score weights: `score = −facing · facing_weight − danger · danger_weight`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FlankWeights {
    /// Weight of the facing dot product (default 1): rewards spots further behind.
    pub facing: f32,
    /// Weight of the map's value at the spot (default 1).
    pub danger: f32,
}

impl Default for FlankWeights {
    fn default() -> Self {
        FlankWeights { facing: 1.0, danger: 1.0 }
    }
}

/// A flank query: from where can the threat be approached outside its forward cone?
#[derive(Copy, Clone, Debug)]
pub struct FlankQuery<'a> {
    /// The threat; directions are measured from its `position` and compared with its
    /// `forward` (normalised here), and its position is the fallback answer.
    pub threat: Threat,
    /// The spots to consider.
    pub candidates: Candidates<'a>,
    /// Danger layer read at each spot (cell value, 0 off the grid); `None` = danger 0.
    pub map: Option<(&'a InfluenceMap, usize)>,
    /// Extra danger per candidate, indexed like the candidates (the generated ones for a grid),
    /// added to the map's value; `None` = 0. One finite value within ±`MAX_MAGNITUDE` per
    /// candidate, or the query is refused.
    pub candidate_danger: Option<&'a [f32]>,
    /// Score weights.
    pub weights: FlankWeights,
    /// Spots whose facing dot product exceeds this are in front of the threat and skipped
    /// (default 0.3, the lesson's).
    pub max_facing_dot: f32,
    /// Number of results wanted, best first (≥ 1, default 1).
    pub top_k: usize,
}

impl Default for FlankQuery<'_> {
    fn default() -> Self {
        FlankQuery {
            threat: Threat::standing(Vec3::ZERO, Vec3::Z, 1.6),
            candidates: Candidates::default(),
            map: None,
            candidate_danger: None,
            weights: FlankWeights::default(),
            max_facing_dot: 0.3,
            top_k: 1,
        }
    }
}

/// Runs a flank query; results go to `out` (cleared first, untouched on error), best first.
#[doc(alias = "FindFlankPosition", alias = "IsBehindTarget")]
pub fn find_flank(query: &FlankQuery, out: &mut Vec<TacticalResult>) -> Result<TacticalAnswer> {
    find_flank_with_scratch(query, &mut TacticalScratch::default(), out)
}

/// [`find_flank`] reusing `scratch`'s buffers between calls.
pub fn find_flank_with_scratch(
    query: &FlankQuery,
    scratch: &mut TacticalScratch,
    out: &mut Vec<TacticalResult>,
) -> Result<TacticalAnswer> {
    let q = query;
    check_threat(&q.threat)?;
    let forward = unit_direction(q.threat.forward, "threat forward")?;
    let facing_weight = check_weight(q.weights.facing, "flank facing")?;
    let danger_weight = check_weight(q.weights.danger, "flank danger")?;
    crate::math::check_magnitude(q.max_facing_dot, "max facing dot")?;
    let top_k = check_top_k(q.top_k)?;
    let danger = danger_lookup(q.map)?;
    let TacticalScratch { points, ranked } = scratch;
    let candidates = q.candidates.resolve(points)?;
    let extra = candidate_danger_lookup(q.candidate_danger, candidates.len())?;

    ranked.clear();
    for (index, &spot) in candidates.iter().enumerate() {
        // A spot on the threat itself has no direction: facing 0, as Unity's `normalized`.
        let facing = forward.dot((spot - q.threat.position).normalize_or_zero());
        if facing > q.max_facing_dot {
            continue; // still inside the forward cone
        }
        let score = -(facing * facing_weight) - (danger(spot) + extra(index)) * danger_weight;
        if !score.is_nan() {
            ranked.push((score, index as u32));
        }
    }
    sort_ranked(ranked, true);

    out.clear();
    out.extend(ranked.iter().take(top_k).map(|&(score, index)| TacticalResult {
        position: candidates[index as usize],
        score,
        candidate_index: index,
        hidden_from: 0,
    }));
    let position = out.first().map_or(q.threat.position, |r| r.position);
    Ok(TacticalAnswer { position, found: out.len(), rays_cast: 0 })
}
