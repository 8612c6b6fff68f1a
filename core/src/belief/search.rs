//! Search points: where a searching owner of a belief walks next. The walk graph is cut into
//! square tiles (a side of 8 search units, see `Belief::unit`: 4 m for the lesson's 15 m view,
//! as many pixels in a 2D level whose view is in pixels); a tile's worth is the probability it holds per metre of walking to its most
//! probable node. Owners of one belief choose in turn (by agent id), each passing over the tiles
//! near the points the others walk to, so a squad spreads out.

use super::Belief;
use crate::id::AgentId;
use crate::math::{MAX_MAGNITUDE, Vec3};
use crate::walk::{FloodScratch, WalkGraph};

/// Side of a search tile in search units (a thirtieth of a view radius): 4 m for a 15 m view, a
/// room or a stretch of corridor, well inside a view.
const TILE: f32 = 8.0;

/// How many of the most probable tiles are weighed by their walk (the rest hold less).
const CANDIDATES: usize = 8;

/// Teammates' search points are at least this far apart across the floor while there are
/// places enough (two tiles: one guard's view covers its own tile's neighbours).
const APART: f32 = 2.0 * TILE;

/// A walk shorter than this (units) counts as this long: a tile underfoot is not worth
/// infinitely more.
const MIN_WALK: f32 = 2.0;

/// An owner keeps walking to its point until it is this close (units, across the floor)...
const ARRIVED: f32 = 2.0;

/// ...or the point's node keeps less than this share of what it held when chosen (the owner or
/// another saw there), or this many seconds have passed (the belief moved on).
const KEPT_SHARE: f32 = 0.5;
const REPLAN_SECONDS: f64 = 2.0;

/// The search point one owner walks to.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Claim {
    pub agent: AgentId,
    pub node: u32,
    pub tile: u32,
    /// The node's probability when chosen.
    pub mass: f32,
    /// World time when chosen.
    pub time: f64,
    /// Why it was chosen (what the recording's Beliefs section and the inspector tell).
    pub reason: ClaimReason,
}

/// Why a search point was chosen, with what was weighed then.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum ClaimReason {
    /// Not known: chosen before the world was saved in snapshot format 4, which kept no reason.
    Unknown,
    /// Of the most probable tiles clear of the other owners' points, its tile held the most
    /// probability per metre of walking: `tile` the tile's probability, `walk` the metres of
    /// the walk to its node along the walk graph (weighed as at least `MIN_WALK` units).
    PerMetre { tile: f32, walk: f32 },
    /// Every probable tile was near another owner's point: of the nodes holding probability,
    /// the one farthest from those points (`tile`: its tile's probability).
    Farthest { tile: f32 },
}

impl ClaimReason {
    /// Its code in saves and recordings: 0 unknown, 1 per metre, 2 farthest.
    pub(crate) fn code(self) -> u8 {
        match self {
            ClaimReason::Unknown => 0,
            ClaimReason::PerMetre { .. } => 1,
            ClaimReason::Farthest { .. } => 2,
        }
    }

    /// The tile's probability and the walk in metres (0 where the reason has none).
    pub(crate) fn values(self) -> (f32, f32) {
        match self {
            ClaimReason::Unknown => (0.0, 0.0),
            ClaimReason::PerMetre { tile, walk } => (tile, walk),
            ClaimReason::Farthest { tile } => (tile, 0.0),
        }
    }

    /// The reason of a code and values; `None` for an unknown code, or a value the reason has not
    /// that is not 0 (+0: what `values` gives, so a save loaded saves the same bytes).
    pub(crate) fn of(code: u8, tile: f32, walk: f32) -> Option<ClaimReason> {
        let zero = |v: f32| v.to_bits() == 0;
        match code {
            0 if zero(tile) && zero(walk) => Some(ClaimReason::Unknown),
            1 => Some(ClaimReason::PerMetre { tile, walk }),
            2 if zero(walk) => Some(ClaimReason::Farthest { tile }),
            _ => None,
        }
    }
}

/// A place worth searching: a tile's most probable node and the probability the tile holds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchPoint {
    /// The tile's most probable node's position.
    pub position: Vec3,
    /// The probability held by the tile around it.
    pub probability: f32,
}

/// The tiles of a graph: `cols × rows` squares from the nodes' smallest x and z.
struct Tiles {
    size: f32,
    origin: (f32, f32),
    cols: u32,
    rows: u32,
}

impl Tiles {
    fn of(graph: &WalkGraph, size: f32) -> Tiles {
        let (mut lo, mut hi) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
        for n in 0..graph.node_count() as u32 {
            let p = graph.position(n);
            lo = (lo.0.min(p.x), lo.1.min(p.z));
            hi = (hi.0.max(p.x), hi.1.max(p.z));
        }
        if lo.0 > hi.0 {
            return Tiles { size, origin: (0.0, 0.0), cols: 1, rows: 1 };
        }
        // Clamped before the cast: a span of more than 4,096 tiles (a tiny unit, a far node)
        // would saturate at u32::MAX, and one more overflowed (found by the snapshot fuzzer).
        let span = |a: f32, b: f32| ((b - a) / size).min(4095.0) as u32 + 1;
        Tiles { size, origin: lo, cols: span(lo.0, hi.0), rows: span(lo.1, hi.1) }
    }

    fn of_point(&self, p: Vec3) -> u32 {
        let cell = |v: f32, o: f32, n: u32| (((v - o) / self.size).max(0.0) as u32).min(n - 1);
        cell(p.z, self.origin.1, self.rows) * self.cols + cell(p.x, self.origin.0, self.cols)
    }
}

impl Belief {
    /// The most probable places to search, best first: for each tile of the graph holding
    /// probability, its most probable node and the tile's probability (at most `count`).
    pub fn search_points(&self, graph: &WalkGraph, count: usize) -> Vec<SearchPoint> {
        let (tiles, mass, best) = self.tile_masses(graph);
        let order = best_tiles(&mass, count.min(tiles.cols as usize * tiles.rows as usize), |_| true);
        order.iter().map(|&t| SearchPoint { position: graph.position(best[t]), probability: mass[t] as f32 }).collect()
    }

    /// Each tile's probability and its most probable node.
    fn tile_masses(&self, graph: &WalkGraph) -> (Tiles, Vec<f64>, Vec<u32>) {
        let tiles = Tiles::of(graph, TILE * self.unit);
        let count = tiles.cols as usize * tiles.rows as usize;
        let (mut mass, mut best) = (vec![0.0f64; count], vec![u32::MAX; count]);
        for (n, &m) in self.mass.iter().enumerate() {
            if m <= 0.0 {
                continue;
            }
            let t = tiles.of_point(graph.position(n as u32)) as usize;
            mass[t] += m as f64;
            if best[t] == u32::MAX || self.mass[best[t] as usize] < m {
                best[t] = n as u32;
            }
        }
        (tiles, mass, best)
    }

    /// Side of its search tiles in metres (`TILE` search units).
    pub(crate) fn tile_side(&self) -> f32 {
        TILE * self.unit
    }

    /// Does `agent` (at `position`, at world `time`) need a new search point?
    pub(crate) fn needs_point(&self, graph: &WalkGraph, agent: AgentId, position: Vec3, time: f64) -> bool {
        let Some(claim) = self.claims.iter().find(|c| c.agent == agent) else { return true };
        across(graph.position(claim.node), position) <= ARRIVED * self.unit
            || self.mass[claim.node as usize] < KEPT_SHARE * claim.mass
            || time - claim.time >= REPLAN_SECONDS
    }

    /// Chooses `agent`'s next search point from `position`: of the most probable tiles whose
    /// point lies two tiles or more from where another owner walks, the one holding the most probability per metre of walking
    /// there (ties: the lower tile). Returns its position; `None` when no tile holds any, or
    /// none can be walked to.
    pub(crate) fn choose_point(
        &mut self,
        graph: &WalkGraph,
        flood: &mut FloodScratch,
        agent: AgentId,
        position: Vec3,
        time: f64,
    ) -> Option<Vec3> {
        self.claims.retain(|c| c.agent != agent);
        let (_, mass, best) = self.tile_masses(graph);
        // A teammate's point and the tiles around it are its to search.
        let taken: Vec<Vec3> = self.claims.iter().map(|c| graph.position(c.node)).collect();
        let apart = APART * self.unit;
        let free = |t: usize| taken.iter().all(|p| across(*p, graph.position(best[t])) > apart);
        let order = best_tiles(&mass, CANDIDATES, free);
        if order.is_empty() {
            // Every probable tile is near a teammate's point: of the nodes holding probability,
            // the one farthest from them (ties: the more probable, then the lower node).
            let nearest = |p: Vec3| taken.iter().map(|q| across(*q, p)).fold(f32::MAX, f32::min);
            let node = (0..self.mass.len() as u32).filter(|&n| self.mass[n as usize] > 0.0).max_by(|&a, &b| {
                let (da, db) = (nearest(graph.position(a)), nearest(graph.position(b)));
                da.total_cmp(&db).then(self.mass[a as usize].total_cmp(&self.mass[b as usize])).then(b.cmp(&a))
            })?;
            let tile = Tiles::of(graph, TILE * self.unit).of_point(graph.position(node));
            let reason = ClaimReason::Farthest { tile: mass[tile as usize] as f32 };
            self.claims.push(Claim { agent, node, tile, mass: self.mass[node as usize], time, reason });
            return Some(graph.position(node));
        }
        let (source, start) = graph.nearest_node(position)?;
        let targets: Vec<(u32, Vec3)> = order.iter().map(|&t| (best[t], graph.position(best[t]))).collect();
        let walks = flood.search(graph, (source, start), MAX_MAGNITUDE, &targets);
        let mut chosen: Option<(f64, usize, f32)> = None;
        for &t in &order {
            let Some(walk) = walks.distance(best[t]) else { continue };
            let worth = mass[t] / walk.max(MIN_WALK * self.unit) as f64;
            if chosen.is_none_or(|(w, ..)| worth > w) {
                chosen = Some((worth, t, walk));
            }
        }
        let (_, t, walk) = chosen?;
        let node = best[t];
        let reason = ClaimReason::PerMetre { tile: mass[t] as f32, walk };
        self.claims.push(Claim { agent, node, tile: t as u32, mass: self.mass[node as usize], time, reason });
        Some(graph.position(node))
    }

    /// Forgets `agent`'s search point (it stopped searching, or left the belief).
    pub(crate) fn release(&mut self, agent: AgentId) {
        self.claims.retain(|c| c.agent != agent);
    }
}

/// Metres between two points across the floor (heights aside).
fn across(a: Vec3, b: Vec3) -> f32 {
    Vec3::new(a.x - b.x, 0.0, a.z - b.z).length()
}

/// Up to `count` tiles holding probability that `keep` accepts, most probable first (ties: the
/// lower tile).
fn best_tiles(mass: &[f64], count: usize, keep: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..mass.len()).filter(|&t| mass[t] > 0.0 && keep(t)).collect();
    order.sort_by(|&a, &b| mass[b].total_cmp(&mass[a]).then(a.cmp(&b)));
    order.truncate(count);
    order
}
