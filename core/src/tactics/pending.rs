//! Cover and flank in two phases, like the step's `begin_step` / `finish_step`: `begin` returns
//! every ray the query needs in one batch, the engine casts them all at once (Unity's
//! `RaycastCommand`, Godot's physics space), `finish` answers. The answer equals the one-call
//! query's with the same ray answers; only `rays_cast` differs (the batch size, not the rays
//! the one-call query's early exit needed).
//!
//! ```
//! use argus_core::tactics::{Candidates, CoverQuery, Threat, begin_cover};
//! use argus_core::{RayHit, Vec3};
//! let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, 1.6)];
//! let spots = [Vec3::new(0.0, 0.5, 6.0), Vec3::new(4.0, 0.5, 6.0)];
//! let query = CoverQuery { threats: &threats, candidates: Candidates::Points(&spots), ..Default::default() };
//! let pending = begin_cover(&query).unwrap();
//! // The engine casts `pending.rays()`; here a wall blocks only the first spot.
//! let hits: Vec<RayHit> = pending.rays().iter().map(|r| RayHit { hit: r.direction.x.abs() < 0.1, distance: 5.0 }).collect();
//! let mut results = Vec::new();
//! let answer = pending.finish(&hits, &mut results).unwrap();
//! assert_eq!(answer.position, spots[0]);
//! ```

use super::cover::{check_cover, cover_ray, rank_cover, select_cover};
use super::{CoverMode, CoverQuery, FlankQuery, TacticalAnswer, TacticalResult, TacticalScratch, Threat};
use crate::error::{Result, invalid};
use crate::id::{AgentId, TargetId};
use crate::math::Vec3;
use crate::rays::{RayHit, RayQuery};

/// Most rays one two-phase cover query may hand out (ranked candidates × threats).
pub const MAX_COVER_RAYS: usize = 1 << 20;

/// No ray was needed for this (candidate, threat) pair: the spot counts as seen from there.
const NO_RAY: u32 = u32::MAX;

/// A cover query waiting for its rays. It owns everything it needs, so the world may change
/// (or the query's arrays go away) before [`PendingCover::finish`]; dropping it cancels it.
#[derive(Clone, Debug)]
#[doc(alias = "FindBestCover")]
pub struct PendingCover {
    self_position: Vec3,
    threats: Vec<Threat>,
    mode: CoverMode,
    top_k: usize,
    probe_offset: Vec3,
    candidates: Vec<Vec3>,
    ranked: Vec<(f32, u32)>,
    rays: Vec<RayQuery>,
    /// Per (rank, threat), row by rank: the index of its ray in `rays`, or `NO_RAY`.
    ray_of: Vec<u32>,
}

/// First phase of a cover query: validates it as [`super::find_cover`] does and collects every
/// line-of-sight ray the query could need — from each threat's eye to each candidate within
/// reach, best-scored candidates first, threats in order — for the engine to cast in one
/// batch. Rays carry null agent and target ids and the full distance to the spot. More than
/// [`MAX_COVER_RAYS`] rays is refused (use fewer candidates or threats, or `max_travel`).
pub fn begin_cover(query: &CoverQuery) -> Result<PendingCover> {
    let q = query;
    let top_k = check_cover(q)?;
    let mut scratch = TacticalScratch::default();
    let candidates = rank_cover(q, &mut scratch.points, &mut scratch.ranked)?.to_vec();
    let ranked = scratch.ranked;
    let needed = ranked.len() as u64 * q.threats.len() as u64;
    if needed > MAX_COVER_RAYS as u64 {
        return Err(invalid(format!(
            "this cover query needs {needed} rays; a two-phase query may hand out at most {MAX_COVER_RAYS}"
        )));
    }
    let mut rays = Vec::new();
    let mut ray_of = Vec::with_capacity(needed as usize);
    for &(_, index) in &ranked {
        let probe = candidates[index as usize] + q.probe_offset;
        for threat in q.threats {
            ray_of.push(match cover_ray(threat.eye, probe) {
                Some((direction, max_distance)) => {
                    rays.push(RayQuery {
                        origin: threat.eye,
                        direction,
                        max_distance,
                        layer_mask: q.obstacle_mask,
                        agent: AgentId::default(),
                        target: TargetId::default(),
                    });
                    rays.len() as u32 - 1
                }
                None => NO_RAY,
            });
        }
    }
    Ok(PendingCover {
        self_position: q.self_position,
        threats: q.threats.to_vec(),
        mode: q.mode,
        top_k,
        probe_offset: q.probe_offset,
        candidates,
        ranked,
        rays,
        ray_of,
    })
}

impl PendingCover {
    /// Every ray the query needs, for the engine to cast in one batch.
    pub fn rays(&self) -> &[RayQuery] {
        &self.rays
    }

    /// Second phase: `hits[i]` answers `rays()[i]` (only `hit` matters; a hit still needs a
    /// finite distance ≥ 0, as for the step). Results go to `out` (cleared first, untouched on
    /// error) exactly as the one-call query writes them; `rays_cast` is the batch size. A wrong
    /// count or a bad hit is refused and `self` is kept, so the caller may answer again.
    pub fn finish_ref(&self, hits: &[RayHit], out: &mut Vec<TacticalResult>) -> Result<TacticalAnswer> {
        if hits.len() != self.rays.len() {
            return Err(invalid(format!("{} ray results given for {} rays", hits.len(), self.rays.len())));
        }
        crate::world::check_hits(hits)?;
        let query = CoverQuery {
            self_position: self.self_position,
            threats: &self.threats,
            mode: self.mode,
            top_k: self.top_k,
            probe_offset: self.probe_offset,
            ..CoverQuery::default()
        };
        let threats = self.threats.len();
        let position = select_cover(&query, self.top_k, &self.candidates, &self.ranked, out, |rank, threat, _| {
            let ray = self.ray_of[rank * threats + threat];
            ray != NO_RAY && hits[ray as usize].hit
        });
        Ok(TacticalAnswer { position, found: out.len(), rays_cast: self.rays.len() as u32 })
    }

    /// [`PendingCover::finish_ref`], consuming the pending query.
    pub fn finish(self, hits: &[RayHit], out: &mut Vec<TacticalResult>) -> Result<TacticalAnswer> {
        self.finish_ref(hits, out)
    }
}

/// A flank query in two phases. A flank casts no rays (the lesson's test is the threat's facing
/// alone), so [`PendingFlank::rays`] is always empty; it exists so an engine drives cover and
/// flank through the same begin / cast / finish loop.
#[derive(Clone, Debug)]
#[doc(alias = "FindFlankPosition")]
pub struct PendingFlank {
    results: Vec<TacticalResult>,
    answer: TacticalAnswer,
}

/// First phase of a flank query: validates and answers it (see [`super::find_flank`]).
pub fn begin_flank(query: &FlankQuery) -> Result<PendingFlank> {
    let mut results = Vec::new();
    let answer = super::find_flank(query, &mut results)?;
    Ok(PendingFlank { results, answer })
}

impl PendingFlank {
    /// The rays the query needs: none.
    pub fn rays(&self) -> &[RayQuery] {
        &[]
    }

    /// Second phase: `hits` must be empty; the results go to `out` (cleared first).
    pub fn finish_ref(&self, hits: &[RayHit], out: &mut Vec<TacticalResult>) -> Result<TacticalAnswer> {
        if !hits.is_empty() {
            return Err(invalid(format!("{} ray results given for 0 rays", hits.len())));
        }
        out.clear();
        out.extend_from_slice(&self.results);
        Ok(self.answer)
    }

    /// [`PendingFlank::finish_ref`], consuming the pending query.
    pub fn finish(self, hits: &[RayHit], out: &mut Vec<TacticalResult>) -> Result<TacticalAnswer> {
        self.finish_ref(hits, out)
    }
}
