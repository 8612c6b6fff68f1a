//! Tactical queries (lesson §11): where to hide from threats (cover) and where to attack from
//! outside a threat's forward cone (flank), scored with an optional influence-map layer.
//!
//! Queries are plain structs ([`CoverQuery`], [`FlankQuery`]) that write their best results,
//! best first, into a caller's `Vec<TacticalResult>` and return a [`TacticalAnswer`] whose
//! `position` is what the lesson's functions return: the best spot, or the fallback (the agent's
//! own position for cover, the threat's for a flank) when nothing qualifies.
//!
//! ```
//! use argus_core::tactics::{Candidates, CoverQuery, Threat, find_cover};
//! use argus_core::{OccluderDef, Vec3, World};
//! let mut world = World::default();
//! world.add_occluder(&OccluderDef::cuboid(Vec3::new(0.0, 1.0, 5.0), Vec3::new(2.0, 1.0, 0.2))).unwrap();
//! let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, 1.6)];
//! let spots = [Vec3::new(0.0, 0.5, 6.0), Vec3::new(4.0, 0.5, 6.0)];
//! let query = CoverQuery {
//!     self_position: Vec3::new(3.0, 0.0, 8.0),
//!     threats: &threats,
//!     candidates: Candidates::Points(&spots),
//!     ..Default::default()
//! };
//! let mut results = Vec::new();
//! let answer = find_cover(&query, world.occluders(), &mut results).unwrap();
//! assert_eq!(answer.position, spots[0]); // behind the wall
//! ```

mod candidates;
mod cover;
mod flank;
mod pending;

pub use candidates::{Candidates, MAX_CANDIDATES};
pub use cover::{CoverMode, CoverQuery, CoverWeights, find_cover, find_cover_with_scratch};
pub use flank::{FlankQuery, FlankWeights, find_flank, find_flank_with_scratch};
pub use pending::{MAX_COVER_RAYS, PendingCover, PendingFlank, begin_cover, begin_flank};

use std::cell::{Cell, RefCell};

use crate::agent::Agent;
use crate::error::{Error, Result, invalid};
use crate::id::{AgentId, TargetId};
use crate::influence::InfluenceMap;
use crate::math::{UP, Vec3, check_finite};
use crate::occluders::OccluderSet;
use crate::rays::{RayHit, RayQuery, RaySource};

/// Someone to hide from or to flank.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Threat {
    /// Feet position (the flank test measures directions from here, as the lesson's `enemyPos`).
    pub position: Vec3,
    /// Eye position (cover rays start here, as the lesson's `threatEyePos`).
    pub eye: Vec3,
    /// Facing direction; normalised by the flank query, unused by cover.
    pub forward: Vec3,
}

impl Threat {
    /// A threat standing at `position` with its eyes `eye_height` metres above it (+Y).
    pub fn standing(position: Vec3, forward: Vec3, eye_height: f32) -> Threat {
        Threat { position, eye: position + UP * eye_height, forward }
    }

    /// A world's agent as a threat (its position, eye and facing).
    pub fn from_agent(agent: &Agent) -> Threat {
        Threat { position: agent.position(), eye: agent.eye(), forward: agent.forward() }
    }
}

/// One ranked spot.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TacticalResult {
    /// The candidate position.
    pub position: Vec3,
    /// Its score: lower is better for cover, higher for a flank.
    pub score: f32,
    /// Index of the candidate in the query's candidate list (generation order for generated
    /// candidates); equal scores are ranked by it, lower first.
    pub candidate_index: u32,
    /// Cover: how many threats cannot see this spot. Flank: 0.
    pub hidden_from: u32,
}

/// Summary of one query.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TacticalAnswer {
    /// The best spot, or the fallback when `found == 0` (cover: the agent's own position;
    /// flank: the threat's position), as the lesson's functions return.
    pub position: Vec3,
    /// Number of results written (at most the query's `top_k`).
    pub found: usize,
    /// Line-of-sight rays cast (cover only), to see what the early exit saved.
    pub rays_cast: u32,
}

/// Answers "is the segment from `origin` along unit `direction` for `distance` metres blocked
/// by something on `layers`?", with `Physics.Raycast` semantics (geometry containing `origin`
/// does not count). [`OccluderSet`] implements it; so does any matching closure, so an engine
/// can answer with its own physics.
pub trait LineBlocker {
    /// True if the segment is blocked.
    fn blocks(&self, origin: Vec3, direction: Vec3, distance: f32, layers: u32) -> bool;
}

impl LineBlocker for OccluderSet {
    fn blocks(&self, origin: Vec3, direction: Vec3, distance: f32, layers: u32) -> bool {
        self.cast_ray(origin, direction, distance, layers).is_some()
    }
}

impl<F: Fn(Vec3, Vec3, f32, u32) -> bool> LineBlocker for F {
    fn blocks(&self, origin: Vec3, direction: Vec3, distance: f32, layers: u32) -> bool {
        self(origin, direction, distance, layers)
    }
}

/// A [`RaySource`] (an engine's batch ray caster) answering [`LineBlocker`] questions, one ray
/// per call: cover casts its rays one at a time because it stops as soon as the answer is
/// known. Each ray's `max_distance` is the full segment length and its `agent` / `target` are
/// null (no collider to skip). A hit must carry a finite distance ≥ 0, as for sight: call
/// [`RaySourceBlocker::check`] after the query and discard its answer if that fails.
pub struct RaySourceBlocker<'a> {
    source: RefCell<&'a mut dyn RaySource>,
    /// (ray number, distance) of the first hit with an unusable distance.
    bad_hit: Cell<Option<(u32, f32)>>,
    /// The source's first failure (every ray after it counts as blocked, unasked).
    failed: RefCell<Option<Error>>,
    rays: Cell<u32>,
}

impl<'a> RaySourceBlocker<'a> {
    /// Wraps `source` for the duration of a query.
    pub fn new(source: &'a mut dyn RaySource) -> Self {
        RaySourceBlocker {
            source: RefCell::new(source),
            bad_hit: Cell::new(None),
            failed: RefCell::new(None),
            rays: Cell::new(0),
        }
    }

    /// The source's error if it failed (then every ray from that one on counted as blocking,
    /// and the source was not asked again), else `Err(InvalidArgument)` if the source answered
    /// any ray with a hit whose distance was not finite and ≥ 0 (such a hit still counted as
    /// blocking during the query).
    pub fn check(&self) -> Result<()> {
        if let Some(e) = self.failed.borrow().clone() {
            return Err(e);
        }
        match self.bad_hit.get() {
            Some((ray, distance)) => {
                Err(invalid(format!("ray result {ray} is a hit with an invalid distance {distance}")))
            }
            None => Ok(()),
        }
    }
}

impl LineBlocker for RaySourceBlocker<'_> {
    fn blocks(&self, origin: Vec3, direction: Vec3, distance: f32, layers: u32) -> bool {
        let ray = RayQuery {
            origin,
            direction,
            max_distance: distance,
            layer_mask: layers,
            agent: AgentId::default(),
            target: TargetId::default(),
        };
        if self.failed.borrow().is_some() {
            return true;
        }
        let mut hit = [RayHit::default()];
        if let Err(e) = self.source.borrow_mut().cast_rays(&[ray], &mut hit) {
            *self.failed.borrow_mut() = Some(e);
            return true;
        }
        let number = self.rays.get();
        self.rays.set(number.wrapping_add(1));
        let [RayHit { hit, distance }] = hit;
        if hit && !crate::world::hit_distance_ok(distance, ray.max_distance) && self.bad_hit.get().is_none() {
            self.bad_hit.set(Some((number, distance)));
        }
        hit
    }
}

/// Buffers a query reuses, so repeated queries do not allocate.
#[derive(Clone, Debug, Default)]
pub struct TacticalScratch {
    points: Vec<Vec3>,
    /// (cheap score, candidate index) of candidates that passed the cheap tests.
    ranked: Vec<(f32, u32)>,
}

/// Checks the optional map layer and returns a danger lookup (0 everywhere without a map).
fn danger_lookup<'a>(map: Option<(&'a InfluenceMap, usize)>) -> Result<impl Fn(Vec3) -> f32 + 'a> {
    if let Some((m, layer)) = map {
        m.check_layer(layer)?;
    }
    Ok(move |p: Vec3| map.map_or(0.0, |(m, layer)| m.value_unchecked(layer, p)))
}

/// Checks the optional per-candidate danger (one finite value within ±`MAX_MAGNITUDE` per
/// candidate) and returns a lookup by candidate index (0 everywhere without the array).
fn candidate_danger_lookup<'a>(extra: Option<&'a [f32]>, count: usize) -> Result<impl Fn(usize) -> f32 + 'a> {
    if let Some(values) = extra {
        if values.len() != count {
            return Err(invalid(format!("{} candidate danger values given for {count} candidates", values.len())));
        }
        for (i, &v) in values.iter().enumerate() {
            crate::math::check_magnitude(v, &format!("candidate danger [{i}]"))?;
        }
    }
    Ok(move |i: usize| extra.map_or(0.0, |values| values[i]))
}

fn check_weight(w: f32, what: &str) -> Result<f32> {
    crate::math::check_magnitude(w, &format!("{what} weight"))
}

fn check_top_k(k: usize) -> Result<usize> {
    if k == 0 { Err(invalid("top_k must be at least 1")) } else { Ok(k) }
}

/// Sorts by score (`descending` for flanks), then by candidate index. NaN scores were dropped
/// before; `partial_cmp` (not `total_cmp`) so that −0 and +0 tie, as `<` in the lesson does.
fn sort_ranked(ranked: &mut [(f32, u32)], descending: bool) {
    ranked.sort_unstable_by(|a, b| {
        let (x, y) = if descending { (b.0, a.0) } else { (a.0, b.0) };
        x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1))
    });
}

fn check_threat(t: &Threat) -> Result<()> {
    check_finite(t.position, "threat position")?;
    check_finite(t.eye, "threat eye")?;
    check_finite(t.forward, "threat forward")?;
    Ok(())
}
