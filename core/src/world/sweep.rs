//! The sight sweep's first half: for each agent due a sight tick, the broadphase, then range
//! and cone per check point (the two cheap tests), then the line-of-sight rays still needed —
//! cast at once with the built-in occluders, or left for the engine. Agents are visited in
//! spatial (Morton) order so consecutive agents reuse the same targets and occluder cells in
//! cache; results are concluded in slot order afterwards, so events never show this order (only
//! the order of the rays handed to an engine does).

use crate::agent::Agent;
use crate::broadphase::TargetGrid;
use crate::id::{AgentId, Pool, TargetId};
use crate::math::Vec3;
use crate::occluders::OccluderSet;
use crate::occluders::RayScratch;
use crate::rays::{RayHit, RayQuery};
use crate::sight::{View, admits, classify_target, previously_seen};
use crate::target::Target;
use crate::team::AttitudeTable;

/// A target that passed range and cone for one agent, waiting for its rays.
#[derive(Copy, Clone, Debug)]
pub(super) struct Candidate {
    pub target: TargetId,
    /// Index of its first ray in the chunk's `rays` / `hits`.
    pub first_ray: u32,
    pub ray_count: u8,
    pub point_count: u8,
    /// Points seen without a ray (on the eye, or nothing can block them).
    pub free_visible: u8,
    /// Visible points once the rays are answered (free ones included), so concluding the agent
    /// reads only its candidates.
    pub visible: u8,
}

/// One thread's share of the sweep; buffers are reused from step to step.
#[derive(Default)]
pub(super) struct SweepChunk {
    pub candidates: Vec<Candidate>,
    pub rays: Vec<RayQuery>,
    pub hits: Vec<RayHit>,
    near: Vec<u32>,
    ray_scratch: RayScratch,
    /// `(agent slot, first candidate, end)` for every agent this chunk swept.
    pub swept: Vec<(u32, u32, u32)>,
}

impl SweepChunk {
    pub fn clear(&mut self) {
        self.candidates.clear();
        self.rays.clear();
        self.hits.clear();
        self.swept.clear();
    }
}

/// What the sweep reads.
pub(super) struct SweepInput<'a> {
    pub agents: &'a Pool<Agent>,
    pub targets: &'a Pool<Target>,
    pub grid: &'a TargetGrid,
    pub max_target_reach: f32,
    pub attitudes: &'a AttitudeTable,
    pub occluders: &'a OccluderSet,
    /// Answer rays now with the built-in occluders (else the engine answers them later).
    pub cast_now: bool,
}

/// Sweeps the agents in `order` (slot indices) into `chunk`.
pub(super) fn sweep(input: &SweepInput, order: &[u32], chunk: &mut SweepChunk) {
    for &index in order {
        let Some(agent) = input.agents.at(index) else { continue };
        let id = AgentId { index, generation: input.agents.generation_at(index) };
        let first_candidate = chunk.candidates.len() as u32;
        let first_ray = chunk.rays.len();
        gather(input, id, agent, chunk);
        if input.cast_now {
            // The sweep only needs blocked or not: the early-exit test, no hit point.
            let occluders = input.occluders;
            let scratch = &mut chunk.ray_scratch;
            chunk.hits.extend(chunk.rays[first_ray..].iter().map(|r| RayHit {
                hit: occluders.blocks_swept(r.origin, r.direction, r.max_distance, r.layer_mask, scratch),
                distance: 0.0,
            }));
        }
        if input.cast_now {
            count_visible(&mut chunk.candidates[first_candidate as usize..], &chunk.hits);
        }
        chunk.swept.push((index, first_candidate, chunk.candidates.len() as u32));
    }
}

/// Totals each candidate's visible points from its answered rays.
pub(super) fn count_visible(candidates: &mut [Candidate], hits: &[RayHit]) {
    for c in candidates {
        let rays = &hits[c.first_ray as usize..c.first_ray as usize + c.ray_count as usize];
        c.visible = c.free_visible + rays.iter().filter(|h| !h.hit).count() as u8;
    }
}

/// Broadphase, range and cone for one agent; the rays still needed go to `chunk.rays`.
fn gather(input: &SweepInput, id: AgentId, agent: &Agent, chunk: &mut SweepChunk) {
    let tuning = &*agent.tuning;
    chunk.near.clear();
    // Team and layers come with the grid entry: targets filtered out are never loaded.
    input.grid.query(agent.eye(), tuning.cache.reach + input.max_target_reach, |t| {
        if admits(agent, input.attitudes, t.layers, t.team) {
            chunk.near.push(t.target);
        }
    });
    // Both views computed once; the lose-sight one only matters when it is wider.
    let (fresh_view, seen_view) = (View::of(agent, false), View::of(agent, true));
    for &ti in &chunk.near {
        let Some(target) = input.targets.at(ti) else { continue };
        let tid = TargetId { index: ti, generation: input.targets.generation_at(ti) };
        let view = if previously_seen(agent, tid) { &seen_view } else { &fresh_view };
        let first_ray = chunk.rays.len() as u32;
        let tally = classify_target(view, (id, tid), tuning.sight.obstacle_mask, target, &mut chunk.rays, |_, _| {});
        if tally.in_view > 0 {
            chunk.candidates.push(Candidate {
                target: tid,
                first_ray,
                ray_count: tally.in_view - tally.free_visible,
                point_count: target.point_count,
                free_visible: tally.free_visible,
                visible: tally.free_visible,
            });
        }
    }
}

/// Morton (Z-order) key of a position's 8 m cell on the plane of `axes`.
pub(super) fn spatial_key(p: Vec3, axes: [usize; 2]) -> u64 {
    let p = p.to_array();
    let cell = |v: f32| ((v / 8.0).floor() as i32 as u32) ^ 0x8000_0000;
    spread(cell(p[axes[0]])) | spread(cell(p[axes[1]])) << 1
}

/// Spaces the 32 bits of `v` out to the even bits of a u64.
fn spread(v: u32) -> u64 {
    let mut x = v as u64;
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}
