//! The sight sweep's first half: for each agent due a sight tick, the broadphase, then range
//! and cone per check point (the two cheap tests), then the line-of-sight rays still needed —
//! cast at once with the built-in occluders, or left for the engine. In a large world (or one
//! stepped in two phases, or with a sight-tick budget) agents are visited in spatial (Morton)
//! order (`spatial`) so consecutive agents reuse the same targets and occluder cells in cache;
//! results are concluded in store order afterwards, so events never show this order (only the
//! order of the rays handed to an engine does). A small world sweeps each agent just before
//! concluding it (`sweep_one`, from `step/one_pass.rs`). A recording's instance of the sweep
//! also keeps what it decided (`trace`).

use crate::agent::{Agent, Tuning};
use crate::blockers::RememberedBlockers;
use crate::broadphase::{LANES, TargetGrid};
use crate::id::{AgentId, Entry, Pool, TargetId};
use crate::math::Vec3;
use crate::occluders::OccluderSet;
use crate::occluders::RayScratch;
use crate::prefetch::prefetch;
use crate::rays::{RayHit, RayQuery};
use crate::sight::{ConeBound, PointStage, SightFilter, View, classify_points};
use crate::target::Target;
use crate::team::{AttitudeTable, TeamSet};

use super::due::DueAgents;
use super::spatial::spatial_cell;
use super::trace::{
    NO_OCCLUDER, OUTSIDE_CONE, SightTrace, TRACE_TICKS, TRACE_WHY, TracedAgent, TracedPair, TracedStop, VISIBLE,
};
use crate::headroom::reserve;
use glam::{UVec4, Vec3A, Vec4};
use std::collections::TryReserveError;

/// A target that passed range and cone for one agent, waiting for its rays.
#[derive(Copy, Clone, Debug)]
pub(super) struct Candidate {
    /// The target's entry in the step's target grid (its id and position are there).
    pub entry: u32,
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
#[repr(align(128))] // alone in its cache lines, as `shares::Padded`: each is a different worker's
pub(super) struct SweepChunk {
    pub candidates: Vec<Candidate>,
    pub rays: Vec<RayQuery>,
    pub hits: Vec<RayHit>,
    /// The grid entries of the targets that passed range and cone for the agent being swept.
    near: Vec<u32>,
    ray_scratch: RayScratch,
    /// This chunk's due agents in visiting order.
    agents: Vec<SweepAgent>,
    /// What the `TRACE` sweep decided, for a recording (cleared when a step begins).
    pub trace: SightTrace,
}

/// Where one swept agent's results are. (16 bytes: the conclusion reads these in visiting order
/// by rank, at random, and the blockers would triple the bytes; they mostly stay as they were.)
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Swept {
    /// The sweep chunk that holds them.
    pub chunk: u32,
    /// Its candidates: `first_candidate..end_candidate` of the chunk's.
    pub first_candidate: u32,
    pub end_candidate: u32,
    /// What stopped its rays this tick differs from what it had: the new blockers are in the
    /// step's `fresh_blockers` at the same place.
    pub new_blockers: bool,
}

impl SweepChunk {
    pub fn clear(&mut self) {
        self.candidates.clear();
        self.rays.clear();
        self.hits.clear();
    }

    /// Room for any agent's scan of `input`'s grid (see `gather`), made once a sweep.
    pub fn make_room(&mut self, input: &SweepInput) {
        self.near.resize(input.grid.len() + LANES, 0);
    }

    /// The capacities of the buffers `reserve` reserves, summed (see `StepScratch::held`).
    #[cfg(debug_assertions)]
    pub fn held(&self) -> usize {
        self.near.capacity() + self.agents.capacity()
    }

    /// Before a step (see `step::room`): room for `make_room` with a grid of up to `targets`, and
    /// for `agents` due agents of the two-stage sweep.
    pub fn reserve(&mut self, targets: usize, agents: usize) -> Result<(), TryReserveError> {
        reserve(&mut self.near, targets + LANES)?;
        reserve(&mut self.agents, agents)
    }
}

/// What the sweep reads (each agent's own state comes with it, see `sweep_one`).
pub(super) struct SweepInput<'a> {
    pub targets: &'a Pool<Target>,
    pub grid: &'a TargetGrid,
    pub max_target_reach: f32,
    pub attitudes: &'a AttitudeTable,
    pub occluders: &'a OccluderSet,
    /// The agents' tunings as the sweep reads them, at each tuning's `index`.
    pub tunings: &'a [SweepTuning],
    /// Answer rays now with the built-in occluders (else the engine answers them later).
    pub cast_now: bool,
    /// For a `TRACE_WHY` sweep: the agents (a bit per slot) whose pairs it keeps; empty = all.
    pub explained: &'a [u64],
}

impl SweepInput<'_> {
    /// Does a `TRACE_WHY` sweep keep the pairs of the agent in `slot`?
    #[inline]
    fn explains(&self, slot: u32) -> bool {
        crate::bits::in_slot_set(self.explained, slot)
    }
}

/// What the sweep reads of one due agent, copied by `prepare` in one pass over the agents: the
/// sweep then reads these compact records instead of jumping between agents' slots (in a big
/// world each jump would wait for memory). Its settings stay in its tuning's `SweepTuning`
/// (a game has a few archetypes): 48 bytes a record instead of 80, fewer cache lines to move,
/// plus the 32 of its remembered blockers.
#[derive(Copy, Clone, Debug)]
pub(super) struct SweepAgent {
    /// Its id's slot index and generation.
    pub slot: u32,
    pub generation: u32,
    /// Its place in the agent store's dense order.
    pub place: u32,
    /// Eye and forward in SIMD lanes, as the sweep reads them: a 12-byte `Vec3` written as 8 + 4
    /// bytes and read back whole as one register made the load wait for the stores to retire
    /// (a store-forwarding stall, ~8% of the Godot bench's step).
    pub eye: Vec3A,
    pub forward: Vec3A,
    /// Its tuning's `index`.
    pub tuning: u32,
    pub team: u8,
    /// The agent's cell of the sweep's visiting order (see `spatial_cell`).
    pub cell: [i32; 2],
    /// What stopped its rays at its last tick.
    pub blockers: RememberedBlockers,
}

impl SweepAgent {
    /// `axes`: the plane of the visiting order, if it has one.
    #[inline]
    pub fn of(entry: &Entry<Agent>, place: u32, axes: Option<[usize; 2]>) -> SweepAgent {
        let agent = &entry.value;
        let eye = agent.eye();
        SweepAgent {
            slot: entry.index,
            generation: entry.generation,
            place,
            eye: eye.into(),
            forward: agent.forward.into(),
            tuning: agent.tuning.index,
            team: agent.team,
            cell: axes.map_or([0; 2], |axes| spatial_cell(eye, axes)),
            blockers: agent.blockers,
        }
    }
}

/// What the sweep reads of a tuning, made once per step for each (the default stands in a
/// free place of the table, which no agent names).
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct SweepTuning {
    /// The view of targets not seen at the last tick (eye and forward are the agent's).
    view: View,
    /// The main cone's squared radius (with slack) for targets seen at the last tick.
    seen_radius_sq: f32,
    /// The filter (team is the agent's).
    filter: SightFilter,
    reach: f32,
    obstacle_mask: u32,
}

impl SweepTuning {
    pub fn of(tuning: &Tuning) -> SweepTuning {
        SweepTuning {
            view: View::looking(Vec3::ZERO, Vec3::Z, tuning, false),
            seen_radius_sq: View::main_radius_sq(tuning, true),
            filter: SightFilter::of_tuning(tuning, 0),
            reach: tuning.cache.reach,
            obstacle_mask: tuning.sight.obstacle_mask,
        }
    }
}

/// Sweeps the agents of `due` listed in `order` (the visiting order, see
/// `DueAgents::visiting_entries`) into `chunk`, number `chunk_index` of the step's; `swept[k]`
/// tells where the results of `order[k]` are, and `fresh_blockers[k]` holds its new blockers
/// when they changed. (Written by visiting order, each chunk into its own runs of the step's
/// arrays, so no thread waits to put them in store order: the conclusion finds them by each
/// agent's rank.)
pub(super) fn sweep<const TRACE: u8>(
    input: &SweepInput,
    store: &[Entry<Agent>],
    due: &DueAgents,
    order: &[u64],
    chunk_index: u32,
    (swept, fresh_blockers): (&mut [Swept], &mut [RememberedBlockers]),
    chunk: &mut SweepChunk,
) {
    // Neighbours in space are scattered through `due` (store order): one tight pass copies them
    // into visiting order first, so the sweep below reads its agents front to back (in a big
    // world, reading them in place would wait for memory at every agent).
    let mut agents = std::mem::take(&mut chunk.agents);
    agents.clear();
    due.gather(order, &mut agents);
    chunk.make_room(input);
    for ((sweeper, out), fresh) in agents.iter().zip(swept).zip(fresh_blockers) {
        let first_candidate = chunk.candidates.len() as u32;
        let blockers =
            sweep_one::<TRACE>(input, sweeper, || store.get(sweeper.place as usize).map(|e| &e.value), chunk);
        let end_candidate = chunk.candidates.len() as u32;
        let new_blockers = blockers.differ_from(&sweeper.blockers);
        if new_blockers {
            *fresh = blockers;
        }
        *out = Swept { chunk: chunk_index, first_candidate, end_candidate, new_blockers };
    }
    chunk.agents = agents;
}

/// One agent's sight tick up to its answered rays: broadphase, range and cone, then its rays,
/// cast at once (`input.cast_now`) or left in `chunk.rays` for the engine. Its candidates and
/// rays are appended to the chunk's. Returns what blocked its rays when cast now (else its
/// blockers as they were, kept for when the engine casts them). `agent` gives the agent's own
/// state, read only by one with a lose-sight radius. The chunk must have room (`make_room`).
/// `TRACE` also keeps what it decided in `chunk.trace` (see `trace`): which agents ticked, and
/// with `TRACE_WHY` the pairs of those `input.explained`.
#[inline(always)]
pub(super) fn sweep_one<'a, const TRACE: u8>(
    input: &SweepInput,
    sweeper: &SweepAgent,
    agent: impl FnOnce() -> Option<&'a Agent>,
    chunk: &mut SweepChunk,
) -> RememberedBlockers {
    let first_candidate = chunk.candidates.len();
    let first_ray = chunk.rays.len();
    let first_pair = chunk.trace.pairs.len() as u32;
    let why = TRACE == TRACE_WHY && input.explains(sweeper.slot);
    gather(input, sweeper, agent, why, chunk);
    // Cast now: what blocks this tick's rays; else kept as they were when the engine casts them.
    let mut blockers = if input.cast_now { RememberedBlockers::default() } else { sweeper.blockers };
    // No rays (most agents of a sparse level): nothing to cast, and each candidate's count is
    // already its free points.
    if input.cast_now && chunk.rays.len() > first_ray {
        // The sweep only needs blocked or not: the early-exit test, no hit point; an explained
        // agent's blocked rays also keep where they stopped, for the recording's Why.
        let (rays, hits, scratch) = (&chunk.rays[first_ray..], &mut chunk.hits, &mut chunk.ray_scratch);
        if why {
            cast::<true>(input.occluders, sweeper, rays, hits, &mut blockers, scratch, &mut chunk.trace.blocked);
        } else {
            cast::<false>(input.occluders, sweeper, rays, hits, &mut blockers, scratch, &mut Vec::new());
        }
        count_visible(&mut chunk.candidates[first_candidate..], &chunk.hits);
    }
    if TRACE >= TRACE_TICKS {
        // Kept for the frame's writer (see `SightTrace::resolve_cast`); an engine's answers
        // come at `finish_step`.
        if why && input.cast_now {
            chunk.trace.cast.extend_from_slice(&chunk.hits[first_ray..]);
        } else if why && chunk.rays.len() > first_ray {
            chunk.trace.explained_rays.push((first_ray as u32, chunk.rays.len() as u32));
        }
        let end_pair = chunk.trace.pairs.len() as u32;
        chunk.trace.agents.push(TracedAgent {
            slot: sweeper.slot,
            generation: sweeper.generation,
            first_pair,
            end_pair,
        });
    }
    blockers
}

/// Casts `rays` at the built-in occluders, each first against the occluder that blocked the
/// agent's ray to the same target at its last tick, appending their answers to `hits` and
/// remembering their blockers. `STOP` also appends, for each blocked ray, where it stopped and at
/// which occluder (the recording's Why); without it `stops` is untouched and no stop is computed.
#[inline(always)]
fn cast<const STOP: bool>(
    occluders: &OccluderSet,
    sweeper: &SweepAgent,
    rays: &[RayQuery],
    hits: &mut Vec<RayHit>,
    blockers: &mut RememberedBlockers,
    scratch: &mut RayScratch,
    stops: &mut Vec<TracedStop>,
) {
    hits.reserve(rays.len());
    for r in rays {
        let remembered = sweeper.blockers.of(r.target.index);
        let (o, d, m, l) = (r.origin, r.direction, r.max_distance, r.layer_mask);
        let hit = occluders.blocks_swept::<STOP>(o, d, m, l, remembered, scratch);
        if let Some(rank) = scratch.blocker.filter(|_| hit) {
            blockers.remember(r.target.index, rank);
        }
        if STOP && hit {
            let (occluder, distance) = scratch.stop.unwrap_or((NO_OCCLUDER, r.max_distance));
            stops.push(TracedStop { distance, occluder });
        }
        hits.push(RayHit { hit, distance: 0.0 });
    }
}

/// Totals each candidate's visible points from its answered rays.
pub(super) fn count_visible(candidates: &mut [Candidate], hits: &[RayHit]) {
    for c in candidates {
        let rays = &hits[c.first_ray as usize..c.first_ray as usize + c.ray_count as usize];
        c.visible = c.free_visible + rays.iter().filter(|h| !h.hit).count() as u8;
    }
}

/// For each mask of a group's passing lanes, those lanes first (the rest are written past what
/// is kept, and overwritten or ignored).
const PASSING_LANES: [[u32; LANES]; 1 << LANES] = {
    let mut table = [[0; LANES]; 1 << LANES];
    let mut mask = 0;
    while mask < 1 << LANES {
        let (mut lane, mut n) = (0, 0);
        while lane < LANES {
            if mask >> lane & 1 == 1 {
                table[mask][n] = lane as u32;
                n += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// How many lanes each mask has (a table: a population count is no single instruction on every
/// x86-64).
const PASSING_COUNT: [u8; 1 << LANES] = {
    let mut counts = [0; 1 << LANES];
    let mut mask = 0;
    while mask < 1 << LANES {
        counts[mask] = (mask as u32).count_ones() as u8;
        mask += 1;
    }
    counts
};

/// Broadphase, range and cone for one agent; the rays still needed go to `chunk.rays`, and
/// with `why` (only ever true in a `TRACE_WHY` sweep) its pairs to `chunk.trace`.
#[inline(always)]
fn gather<'a>(
    input: &SweepInput,
    sweeper: &SweepAgent,
    agent: impl FnOnce() -> Option<&'a Agent>,
    why: bool,
    chunk: &mut SweepChunk,
) {
    let id = AgentId { index: sweeper.slot, generation: sweeper.generation };
    let tuning = &input.tunings[sweeper.tuning as usize];
    let filter = &tuning.filter.with_team(sweeper.team);
    let eye = sweeper.eye;
    let fresh_view = &View { eye: eye.into(), forward: sweeper.forward.into(), ..tuning.view };
    let radius = tuning.reach + input.max_target_reach;
    let radius_sq = radius * radius;
    let cone = ConeBound::new(eye, sweeper.forward, fresh_view, input.max_target_reach, radius);
    // Every entry of the rows is written and kept only if it passes: whether a target is in
    // range and cone is a coin toss, and a branch on it would mispredict half the time. Team,
    // layers and position come from the grid's columns, `LANES` entries at a time in the lanes
    // of one vector (SSE2 or NEON through glam): targets filtered out are never loaded.
    let mut kept = 0;
    let (lo, hi) = cone.bounds(tuning.reach);
    let (grid, perceived) = (input.grid, filter.perceived(input.attitudes));
    let columns = grid.columns();
    // All cut to one length, so that one test a group (below; always true, by the columns'
    // padding) stands for every column's own bounds test.
    let n = columns.x.len();
    let (x, y, z) = (&columns.x[..n], &columns.y[..n], &columns.z[..n]);
    let (layers, team_lo, team_hi) = (&columns.layers[..n], &columns.team_lo[..n], &columns.team_hi[..n]);
    // Sized once per sweep (see `sweep`): an agent keeps each entry at most once, and its
    // last group writes up to `LANES` past what it keeps.
    let near = &mut chunk.near[..];
    let trace = &mut chunk.trace;
    grid.query_runs(lo, hi, |run| {
        // (A plain loop: `step_by` cost a few instructions a group more.)
        let mut first = run.start;
        while first < run.end && first + LANES <= n {
            let group = first..first + LANES;
            let f32s = |column: &[f32]| Vec4::from_slice(&column[group.clone()]);
            let u32s = |column: &[u32]| UVec4::from_slice(&column[group.clone()]);
            let (in_cone, dist_sq) = cone.admits4(f32s(x), f32s(y), f32s(z));
            let in_range = dist_sq.cmple(Vec4::splat(radius_sq)).bitmask();
            let admitted = filter.admits4(perceived, u32s(layers), u32s(team_lo), u32s(team_hi));
            let in_run = (1u32 << (run.end - first).min(LANES)) - 1;
            let pass = (in_range & in_cone & admitted & in_run) as usize;
            // A trace keeps the targets the filter refused too, with why (rare: a branch).
            let refused = in_range & in_cone & !admitted & in_run;
            if why && refused != 0 {
                for lane in PASSING_LANES[refused as usize].iter().take(PASSING_COUNT[refused as usize] as usize) {
                    let e = first + *lane as usize;
                    let team = TeamSet { lo: columns.team_lo[e], hi: columns.team_hi[e] };
                    let grid_entry = grid.entry(e);
                    trace.pairs.push(TracedPair {
                        target: grid_entry.target,
                        first_blocked: 0,
                        blocked: 0,
                        point_count: grid_entry.point_count,
                        flags: filter.refusal(perceived, columns.layers[e], team) << 4,
                        pending: 0,
                        statuses: 0,
                    });
                }
            }
            // The passing lanes' entries, first: one store and one count a group.
            let entries = UVec4::splat(first as u32) + UVec4::from_array(PASSING_LANES[pass]);
            entries.write_to_slice(&mut near[kept..kept + LANES]);
            kept += PASSING_COUNT[pass] as usize;
            first += LANES;
        }
    });
    let near = &chunk.near[..kept];
    // A target with several check points sits wherever it was created in memory: ask for all
    // of them at once (one with a single point is classified from its grid entry).
    let target_slots = input.targets.slots();
    for &e in near {
        let entry = grid.entry(e as usize);
        if entry.point_count > 1
            && let Some(slot) = target_slots.get(entry.target as usize)
        {
            prefetch(slot);
        }
    }
    // Only an agent with a lose-sight radius reads its memory (and so its slot), and only it
    // needs the wider view for targets it saw.
    let widened = match filter.has_hysteresis() {
        true => agent().map(|a| (a, View { radius_sq: tuning.seen_radius_sq, ..*fresh_view })),
        false => None,
    };
    for &e in near {
        let entry = grid.entry(e as usize);
        let tid = TargetId { index: entry.target, generation: entry.generation };
        let traced = |flags: u8, statuses: u16, pending: u8| TracedPair {
            target: entry.target,
            first_blocked: 0,
            blocked: 0,
            point_count: entry.point_count,
            flags,
            pending,
            statuses,
        };
        let seen_view = widened.as_ref().filter(|(agent, _)| filter.previously_seen(agent, tid)).map(|(_, v)| v);
        let view = seen_view.unwrap_or(fresh_view);
        let first_ray = chunk.rays.len() as u32;
        let (ids, mask, rays) = ((id, tid), tuning.obstacle_mask, &mut chunk.rays);
        // Each point's status, for a trace (a no-op the compiler removes otherwise).
        let (mut statuses, mut pending) = (0u16, 0u8);
        let each = |k: usize, stage: PointStage| {
            if why {
                let code = match stage {
                    PointStage::OutOfRange => 0,
                    PointStage::OutsideCone => OUTSIDE_CONE,
                    PointStage::Free => VISIBLE,
                    PointStage::Ray => {
                        pending |= 1 << k;
                        VISIBLE
                    }
                };
                statuses |= code << (2 * k);
            }
        };
        let tally = match entry.point_count {
            1 => classify_points(view, ids, mask, std::iter::once(entry.point), rays, each),
            _ => {
                let Some(target) = input.targets.at(entry.target) else { continue };
                classify_points(view, ids, mask, target.world_points(), rays, each)
            }
        };
        // Only targets with a point in view: a reader tells the others from the geometry.
        if why && tally.in_view > 0 {
            chunk.trace.pairs.push(traced(seen_view.is_some() as u8, statuses, pending));
        }
        if tally.in_view > 0 {
            chunk.candidates.push(Candidate {
                entry: e,
                first_ray,
                ray_count: tally.in_view - tally.free_visible,
                point_count: entry.point_count,
                free_visible: tally.free_visible,
                visible: tally.free_visible,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AgentDef, OccluderDef, OccluderShape, Quat, TargetDef, World, WorldDef};

    #[test]
    fn each_mask_lists_its_passing_lanes_in_order_and_counts_them() {
        for mask in 0..1usize << LANES {
            let lanes: Vec<u32> = (0..LANES as u32).filter(|&k| mask >> k & 1 == 1).collect();
            assert_eq!(PASSING_COUNT[mask] as usize, lanes.len(), "mask {mask:#b}");
            assert_eq!(&PASSING_LANES[mask][..lanes.len()], &lanes[..], "mask {mask:#b}");
        }
    }

    /// What blocked an agent's ray reaches the agent (tried first at its next tick), stays while
    /// it still blocks, and is dropped once nothing blocks: on one thread and on two.
    #[test]
    fn an_agent_remembers_what_blocked_its_ray_while_it_still_does() {
        for threads in [1, 2] {
            let mut world = World::new(&WorldDef { worker_threads: threads, ..Default::default() }).unwrap();
            let wall = OccluderDef {
                shape: OccluderShape::Box { half_extents: Vec3::new(0.2, 2.0, 2.0) },
                position: Vec3::new(5.0, 2.0, 0.0),
                ..Default::default()
            };
            let wall = world.add_occluder(&wall).unwrap();
            let agent = world.create_agent(&AgentDef { forward: Vec3::X, ..Default::default() }).unwrap();
            let target =
                world.create_target(&TargetDef { position: Vec3::new(9.0, 0.0, 0.0), ..Default::default() }).unwrap();
            let remembered = |world: &World| world.agent(agent).unwrap().blockers.of(target.index);
            assert_eq!(remembered(&world), None);
            world.step(0.1).unwrap();
            let first = remembered(&world);
            assert!(first.is_some(), "{threads} threads: the wall was not remembered");
            world.step(0.1).unwrap();
            assert_eq!(remembered(&world), first, "{threads} threads: a wall still in the way was forgotten");
            world.set_occluder_pose(wall, Vec3::new(5.0, 2.0, 50.0), Quat::IDENTITY).unwrap();
            world.step(0.1).unwrap();
            assert_eq!(remembered(&world), None, "{threads} threads: a wall out of the way is still remembered");
            assert!(world.events().percepts.iter().any(|p| p.target == target), "{threads} threads: target not seen");
        }
    }
}
