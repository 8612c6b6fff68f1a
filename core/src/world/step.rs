//! One step of a world. With built-in line of sight and no sight-tick budget: one pass over the
//! agent store, each agent swept (broadphase → range → cone → rays) and concluded (hearing,
//! percepts, memory, awareness, brain) at once (`one_pass`; a big world's store is kept in
//! spatial order, see `order`). Otherwise in two stages: the sight sweep of every due agent in
//! a spatial visiting order (all rays out before any is answered, for an engine's batch, which
//! lists them agent by agent in id order, see `batch`; every due agent known before the budget
//! is shared out), then the conclusion in store order. With
//! worker threads each phase is split into contiguous blocks shared between them (see
//! `shares`). Events come out in id order; results never depend on the thread count, the path
//! or the store's order.

use crate::agent::Agent;
use crate::blockers::RememberedBlockers;
use crate::broadphase::{GridBounds, GridTarget, TargetGrid};
use crate::error::{Error, Result, invalid};
use crate::hearing::{Heard, StepSounds, WalkInput};
use crate::id::{AgentId, Entry, Pool};
use crate::percept::StepEvents;
use crate::prefetch::prefetch;
use crate::rays::{RayHit, RayQuery, Rays};
use crate::target::Target;

use super::World;
use super::conclude::{ConcludeInput, SOUND_GRID_MIN, Sighting, conclude};
use super::due::{DueAgents, number};
use super::shares::{block_count, cut, cut_mut, run_blocks};
use super::sweep::{Candidate, SweepChunk, SweepInput, SweepTuning, Swept, count_visible, sweep};
use super::team::Team;
use super::trace::{TRACE_OFF, TRACE_TICKS, TRACE_WHY};
use crate::record::{AgentCapture, CaptureInput};

mod one_pass;

/// The sweep's instance that keeps what a recording needs (`trace` levels).
type SweepFn = fn(
    &SweepInput,
    &[Entry<Agent>],
    &DueAgents,
    &[u64],
    u32,
    (&mut [Swept], &mut [RememberedBlockers]),
    &mut SweepChunk,
);

fn sweep_of_level(trace: u8) -> SweepFn {
    match trace {
        TRACE_OFF => sweep::<TRACE_OFF>,
        TRACE_TICKS => sweep::<TRACE_TICKS>,
        _ => sweep::<TRACE_WHY>,
    }
}
mod batch;
use batch::EngineBatch;
mod order;
use order::AgentOrder;
pub use order::SORTED_STORE_MIN_AGENTS;
mod phases;
use phases::PhaseClock;
mod room;
#[cfg(any(test, feature = "testing"))]
pub use phases::StepPhases;
use room::Checked;

/// Buffers reused from step to step, so a steady-state step does not allocate.
#[derive(Default)]
pub(crate) struct StepScratch {
    pub step_in_progress: bool,
    pub(super) dt: f32,
    /// The clock value the step in progress will commit.
    time: f64,
    /// What the sweep reads of each due agent.
    due: DueAgents,
    /// Due agents as entries of `DueAgents::visiting_entries` (spatial key, number in due),
    /// sorted: the sweep's visiting order.
    order: Vec<u64>,
    order_scratch: Vec<u64>,
    /// Each due agent's place in `order`, by its number in `due`.
    rank: Vec<u32>,
    grid: TargetGrid,
    grid_input: Vec<GridTarget>,
    /// Every tuning as the sweep reads it, at its `index` (see `SweepTuning`), as of the tuning
    /// table's `tunings_version`: remade only when tunings come or go, so a world whose agents
    /// all have settings of their own does not pay for them every step.
    tunings: Vec<SweepTuning>,
    tunings_version: u64,
    max_target_reach: f32,
    sweeps: Vec<SweepChunk>,
    /// Where the results of each of `order` are.
    swept: Vec<Swept>,
    /// The new blockers of each of `order` whose blockers changed (see `Swept::new_blockers`).
    fresh_blockers: Vec<RememberedBlockers>,
    concludes: Vec<ConcludeChunk>,
    rays: Vec<RayQuery>,
    /// Where `rays` came from in the chunks: the engine's batch is in the agents' id order.
    engine_batch: EngineBatch,
    hits: Vec<RayHit>,
    /// The step's sounds by position, for hearing (see `SOUND_GRID_MIN`).
    sound_grid: TargetGrid,
    sound_input: Vec<GridTarget>,
    /// The plane of the targets' grid this step (see `GridBounds::plane_axes`).
    axes: [usize; 2],
    agent_order: AgentOrder,
    /// How big a world the room the step cannot reserve was last checked for (see `room`).
    checked: Checked,
    /// The one pass's phases timed (a benchmark hook, see `phases`).
    phases: PhaseClock,
}

#[derive(Default)]
#[repr(align(128))] // alone in its cache lines, as `shares::Padded`: each is a different worker's
struct ConcludeChunk {
    heard: Vec<Heard>,
    nearby: Vec<u32>,
    events: StepEvents,
    /// This chunk's agents' sweep candidates copied into store order (see `conclude_range`).
    candidates: Vec<Candidate>,
    /// Where this chunk's swept agents' results are, with their blockers, in store order, copied
    /// with them.
    swept: Vec<(Swept, RememberedBlockers)>,
    /// Out-of-order pairs of agents the one pass sampled in this chunk (see `order`).
    descents: usize,
    /// This chunk's agents' records for a recording's frame (see `record::capture`).
    capture: AgentCapture,
}

impl World {
    /// Advances the world by `dt` seconds, with line of sight against the built-in occluders.
    /// An engine-ray world refuses this: use [`World::step_with`] or `begin_step`/`finish_step`.
    #[doc(alias = "Update")]
    pub fn step(&mut self, dt: f32) -> Result<()> {
        self.step_with(dt, Rays::World)
    }

    /// Advances the world by `dt` seconds with `rays` answering line of sight: an engine
    /// source answers every ray of the step in one batch; [`Rays::World`] is [`World::step`].
    pub fn step_with(&mut self, dt: f32, rays: Rays) -> Result<()> {
        self.check_step_args(dt)?;
        let Some(source) = rays.resolve(self.def.ray_backend)? else {
            // Room for the step first (see `room`): refused, it changed nothing.
            let one_pass = self.one_pass_suits();
            self.make_room(one_pass)?;
            // A recording keeps the sweep's decisions: its own instances of the step.
            let trace = self.trace_level();
            match (one_pass, trace) {
                (true, TRACE_OFF) => self.on_workers(|world, team| world.step_one_pass::<TRACE_OFF>(dt, team))?,
                (true, TRACE_TICKS) => self.on_workers(|world, team| world.step_one_pass::<TRACE_TICKS>(dt, team))?,
                (true, _) => self.on_workers(|world, team| world.step_one_pass::<TRACE_WHY>(dt, team))?,
                (false, _) => self.on_workers(|world, team| {
                    world.prepare(dt, team, true)?;
                    world.run_sweep(true, trace, team);
                    world.run_conclude(team);
                    world.commit();
                    Ok(())
                })?,
            }
            self.record_step(dt, &[]);
            return Ok(());
        };
        self.begin_step(dt)?;
        let scratch = &mut self.scratch;
        scratch.hits.clear();
        scratch.hits.resize(scratch.rays.len(), RayHit::default());
        // Nothing is mutated before the rays are answered (`begin_step`): a source that fails
        // cancels the step and the world is exactly as before the call.
        if let Err(e) = source.cast_rays(&scratch.rays, &mut scratch.hits) {
            self.cancel_step();
            return Err(e);
        }
        let hits = std::mem::take(&mut self.scratch.hits);
        let result = self.finish_step(&hits);
        self.scratch.hits = hits;
        if result.is_err() {
            self.cancel_step();
        }
        result
    }

    /// Runs `f` with the world's workers gathered around this thread when it has them (see
    /// `team`), else alone.
    fn on_workers<R>(&mut self, f: impl FnOnce(&mut World, Option<&Team>) -> R) -> R {
        match self.workers.clone() {
            Some(workers) => workers.gather(|team| f(self, Some(team))),
            None => f(self, None),
        }
    }

    /// Abandons a step begun by [`World::begin_step`]: the world is exactly as before it.
    pub fn cancel_step(&mut self) {
        self.scratch.step_in_progress = false;
    }

    /// First half of a step: senses everything up to line of sight and returns every ray the
    /// step needs. Answer them with [`World::finish_step`] (or [`World::cancel_step`]); until
    /// then the world refuses changes. Nothing observable changes before `finish_step`.
    pub fn begin_step(&mut self, dt: f32) -> Result<&[RayQuery]> {
        self.check_step_args(dt)?;
        self.make_room(false)?;
        let trace = self.trace_level();
        self.on_workers(|world, team| {
            world.prepare(dt, team, true)?;
            world.run_sweep(false, trace, team);
            Ok(())
        })?;
        self.scratch.reserve_rays()?;
        let scratch = &mut self.scratch;
        scratch.engine_batch.gather(&scratch.sweeps, &mut scratch.rays);
        scratch.step_in_progress = true;
        Ok(&self.scratch.rays)
    }

    /// The rays of the step begun by [`World::begin_step`] (empty otherwise).
    pub fn pending_rays(&self) -> &[RayQuery] {
        if self.scratch.step_in_progress { &self.scratch.rays } else { &[] }
    }

    /// Second half of a step: `hits[i]` answers ray `i` of `begin_step`.
    pub fn finish_step(&mut self, hits: &[RayHit]) -> Result<()> {
        if !self.scratch.step_in_progress {
            return Err(Error::NoStepInProgress);
        }
        if hits.len() != self.scratch.rays.len() {
            return Err(invalid(format!("{} ray results given for {} rays", hits.len(), self.scratch.rays.len())));
        }
        super::query::check_hits(&self.scratch.rays, hits)?;
        let why = self.trace_level() == TRACE_WHY;
        self.scratch.engine_batch.scatter(hits, &mut self.scratch.sweeps);
        for chunk in &mut self.scratch.sweeps {
            count_visible(&mut chunk.candidates, &chunk.hits);
            if why {
                chunk.trace.resolve_engine(&chunk.hits);
            }
        }
        self.scratch.step_in_progress = false;
        self.on_workers(|world, team| {
            world.run_conclude(team);
            world.commit();
        });
        self.record_step(self.scratch.dt, hits);
        Ok(())
    }

    /// The agents' frame records taken in the last step, chunk by chunk (only while recording).
    pub(crate) fn last_step_captures(&self) -> impl Iterator<Item = &AgentCapture> + Clone {
        self.scratch.concludes.iter().map(|c| &c.capture)
    }

    /// The sweep's decisions in the last step, chunk by chunk (filled only while recording).
    pub(crate) fn last_step_traces(&self) -> impl Iterator<Item = &super::trace::SightTrace> {
        self.scratch.sweeps.iter().map(|c| &c.trace)
    }

    /// Applies the answers to the sweep's own rays to the last step's traces (see
    /// `SightTrace::resolve_cast`).
    pub(crate) fn resolve_traces(&mut self) {
        self.scratch.sweeps.iter_mut().for_each(|c| c.trace.resolve_cast());
    }

    /// Swaps the last step's traces with `traces` (emptied ones, one per sweep chunk).
    pub(crate) fn swap_traces(&mut self, traces: &mut Vec<super::trace::SightTrace>) {
        let sweeps = &mut self.scratch.sweeps;
        traces.resize_with(sweeps.len(), Default::default);
        for (chunk, trace) in sweeps.iter_mut().zip(traces) {
            std::mem::swap(&mut chunk.trace, trace);
        }
    }

    /// Swaps the memory records captured in the last step with `memory` (emptied ones, one per
    /// conclusion chunk).
    pub(crate) fn swap_captured_memory(&mut self, memory: &mut Vec<crate::record::CapturedMemory>) {
        let concludes = &mut self.scratch.concludes;
        memory.resize_with(concludes.len(), Default::default);
        for (chunk, m) in concludes.iter_mut().zip(memory) {
            std::mem::swap(&mut chunk.capture.memory, m);
        }
    }

    fn check_step_args(&self, dt: f32) -> Result<()> {
        if self.scratch.step_in_progress {
            return Err(Error::StepInProgress);
        }
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(invalid(format!("dt must be finite and >= 0, got {dt}")));
        }
        // Refused rather than clamped: a clamped step would silently desynchronise the host's clock.
        if self.time + dt as f64 > super::MAX_WORLD_TIME {
            return Err(invalid(format!(
                "a step of {dt} s would take the world past its maximum time of {} s (now {} s)",
                super::MAX_WORLD_TIME,
                self.time
            )));
        }
        Ok(())
    }

    /// Schedule, broadphase and (`visiting`) the due agents in the sweep's order. Changes
    /// nothing observable: the clock, sounds and events are committed by `commit` once the step
    /// completes. Refused (`OutOfMemory`) when room for the due agents cannot be had (see `room`).
    fn prepare(&mut self, dt: f32, team: Option<&Team>, visiting: bool) -> Result<()> {
        let counts = visiting.then(|| self.step_counts());
        self.occluders.maintain();
        let scratch = &mut self.scratch;
        scratch.dt = dt;
        scratch.time = self.time + dt as f64;
        let time = scratch.time;
        let agents = self.agents.entries();
        let cell = if self.def.broadphase_cell_size > 0.0 {
            self.def.broadphase_cell_size
        } else {
            // Half the mean reach: a query then scans ~1.7× its disc's area instead of ~3×.
            self.tunings.mean_reach().map_or(1.0, |reach| (0.5 * reach).max(1.0))
        };
        // The grid's plane (from the targets' bounds) is also the plane of the sweep's order.
        scratch.max_target_reach = grid_input(&self.targets, &mut scratch.grid_input);
        let table = &self.tunings;
        if scratch.tunings_version != table.version() {
            scratch.tunings.clear();
            let made = table.by_index().iter().map(|t| t.as_deref().map(SweepTuning::of).unwrap_or_default());
            scratch.tunings.extend(made);
            scratch.tunings_version = table.version();
        }
        let bounds = GridBounds::of(&scratch.grid_input);
        let axes = bounds.plane_axes();
        scratch.axes = axes;
        let chunks = block_count(team);
        scratch.sweeps.resize_with(chunks, SweepChunk::default);
        scratch.concludes.resize_with(chunks, ConcludeChunk::default);
        for chunk in &mut scratch.sweeps {
            chunk.clear();
            chunk.trace.clear();
        }
        for chunk in &mut scratch.concludes {
            chunk.capture.clear();
        }
        let Some(counts) = counts else {
            scratch.grid.rebuild_within(cell, &scratch.grid_input, &bounds);
            return Ok(());
        };
        // Who is due: one pass through every agent, in blocks of the store (see `due`); then room
        // for everything made of them, before any of it is (see `room`).
        let budget = self.def.max_sight_ticks_per_step as usize;
        scratch.due.collect(agents, time, axes, team).map_err(|_| room::refused(&counts))?;
        scratch.reserve_due(&counts, budget)?;
        let StepScratch { grid, grid_input, due, order, order_scratch, rank, .. } = scratch;
        // The targets' grid and the visiting order need each other's inputs only: with workers
        // they are made side by side (two blocks), else one after the other.
        let mut make_grid = || grid.rebuild_within(cell, grid_input, &bounds);
        let mut make_order = || {
            let lowest = due.finish(budget, agents);
            due.visiting_entries(lowest, order);
            // Ties (one cell) keep store order: the numbers follow the store.
            crate::radix::sort_by_key(order, order_scratch);
            rank.resize(order.len(), 0);
            for (k, &entry) in order.iter().enumerate() {
                rank[number(entry) as usize] = k as u32;
            }
        };
        match team {
            Some(team) => {
                let parts: [&mut (dyn FnMut() + Send); 2] = [&mut make_grid, &mut make_order];
                run_blocks(team, parts, |make| make());
            }
            None => {
                make_grid();
                make_order();
            }
        }
        Ok(())
    }

    /// The sight sweep over the due agents in spatial order, split between the threads.
    /// `trace`: what the sweep keeps for a recording (see `trace`).
    fn run_sweep(&mut self, cast_now: bool, trace: u8, team: Option<&Team>) {
        let StepScratch { grid, max_target_reach, tunings, due, order, sweeps: chunks, swept, fresh_blockers, .. } =
            &mut self.scratch;
        let input = SweepInput {
            targets: &self.targets,
            grid,
            max_target_reach: *max_target_reach,
            attitudes: &self.attitudes,
            occluders: &self.occluders,
            tunings,
            cast_now,
            explained: self.recorder.as_deref().map_or(&[], |r| &r.focus_slots[..]),
        };
        // Every `swept` is written by the sweep (and a fresh blocker read only where it wrote
        // one): only growth needs filling.
        let agents = self.agents.entries();
        swept.resize(order.len(), Swept::default());
        fresh_blockers.resize(order.len(), RememberedBlockers::default());
        match (team, chunks.len()) {
            (Some(team), n) if n > 1 => {
                let threads = team.threads();
                let outs = cut_mut(swept, n, threads).zip(cut_mut(fresh_blockers, n, threads));
                let parts = cut(order, n, threads).zip(outs).zip(chunks.iter_mut());
                let parts = parts
                    .enumerate()
                    .map(|(c, (((_, part), ((_, out), (_, fresh))), chunk))| (c as u32, part, (out, fresh), chunk));
                let sweep = sweep_of_level(trace);
                run_blocks(team, parts, |(c, part, out, chunk)| sweep(&input, agents, due, part, c, out, chunk))
            }
            _ => sweep_of_level(trace)(&input, agents, due, order, 0, (swept, fresh_blockers), &mut chunks[0]),
        }
    }

    /// Per agent in store order: hearing, percepts, memory, awareness, brain.
    fn run_conclude(&mut self, team: Option<&Team>) {
        let (loudest, use_grid) = self.prepare_sounds();
        let StepScratch { sweeps, swept, fresh_blockers, rank, due, concludes, sound_grid, grid, time, dt, .. } =
            &mut self.scratch;
        let input = ConcludeInput {
            time: *time,
            previous_time: self.time,
            dt: *dt,
            targets: &self.targets,
            grid,
            attitudes: &self.attitudes,
            occluders: &self.occluders,
            sounds: StepSounds { sounds: &self.pending_sounds, grid: use_grid.then_some(&*sound_grid), loudest },
            sound_occlusion: self.def.sound_occlusion,
            hearing_path: (self.def.hearing_path, self.walk.is_some()),
            walk_heard: &self.walk_hearing,
        };
        let shared = Shared { sweeps, swept, fresh_blockers, rank, due };
        // A recording takes each agent's frame records as it is concluded (see `record::capture`).
        let capture = self.recorder.as_deref().map(|r| r.capture_input(*time));
        let capture = capture.as_ref();
        let store = self.agents.entries_mut();
        let chunks = concludes;
        for chunk in chunks.iter_mut() {
            chunk.events.clear();
        }
        let Some(team) = team.filter(|_| chunks.len() > 1) else {
            conclude_range(&input, &shared, (0, 0), store, capture, &mut chunks[0]);
            return;
        };
        let blocks = cut_mut(store, chunks.len(), team.threads()).zip(chunks.iter_mut()).enumerate();
        run_blocks(team, blocks, |(k, ((start, part), chunk))| {
            conclude_range(&input, &shared, (k, start as u32), part, capture, chunk)
        });
    }

    /// Readies the step's sounds for hearing: returns the loudest's loudness, and whether they
    /// are many enough to be found through the sound grid (then rebuilt).
    fn prepare_sounds(&mut self) -> (f32, bool) {
        let sounds = &self.pending_sounds;
        let loudest = sounds.iter().map(|s| s.loudness).fold(0.0, f32::max);
        let use_grid = sounds.len() >= SOUND_GRID_MIN;
        if use_grid {
            let scratch = &mut self.scratch;
            scratch.sound_input.clear();
            scratch.sound_input.extend(sounds.iter().enumerate().map(|(i, s)| GridTarget {
                position: s.position,
                target: i as u32,
                ..Default::default()
            }));
            scratch.sound_grid.rebuild(loudest.max(1.0), &scratch.sound_input);
        }
        match &self.walk {
            Some(graph) if !sounds.is_empty() => self.walk_hearing.resolve(&WalkInput {
                agents: &self.agents,
                world_path: self.def.hearing_path,
                graph,
                sounds: StepSounds { sounds, grid: use_grid.then_some(&self.scratch.sound_grid), loudest },
                attitudes: &self.attitudes,
                occluders: &self.occluders,
            }),
            _ => self.walk_hearing.clear(),
        }
        (loudest, use_grid)
    }

    /// The last step's sounds as its hearing looked them up (with the grid it built of them).
    pub(crate) fn last_step_sounds(&self) -> StepSounds<'_> {
        let sounds = &self.last_sounds;
        let loudest = sounds.iter().map(|s| s.loudness).fold(0.0, f32::max);
        let grid = (sounds.len() >= SOUND_GRID_MIN).then_some(&self.scratch.sound_grid);
        StepSounds { sounds, grid, loudest }
    }

    /// The step completed: advance the clock, publish its events, retire its sounds.
    fn commit(&mut self) {
        self.time = self.scratch.time;
        // The first chunk's events become the step's by a swap, the others follow in store order:
        // copying every event once more cost ~6% of a 100k-agent step's cache misses. The chunk
        // takes the old buffers, cleared when the next conclusion starts.
        let mut chunks = self.scratch.concludes.iter_mut();
        if let Some(first) = chunks.next() {
            std::mem::swap(&mut self.events, &mut first.events);
        }
        for chunk in chunks {
            self.events.append(&mut chunk.events);
        }
        std::mem::swap(&mut self.last_sounds, &mut self.pending_sounds);
        self.pending_sounds.clear();
        self.events_into_id_order();
        self.update_beliefs();
        self.scratch.check_held();
    }
}

/// Fills the broadphase's input with the enabled targets; returns the largest reach of any
/// target, found in the same pass.
fn grid_input(targets: &Pool<Target>, input: &mut Vec<GridTarget>) -> f32 {
    input.clear();
    let mut max_reach = 0.0f32;
    for (i, slot) in targets.slots().iter().enumerate() {
        let Some(t) = &slot.value else { continue };
        max_reach = max_reach.max(t.reach());
        if t.enabled {
            input.push(GridTarget {
                position: t.position,
                point: t.world_points().next().unwrap_or(t.position),
                target: i as u32,
                generation: slot.generation,
                layers: t.layers,
                team: t.team,
                point_count: t.point_count,
            });
        }
    }
    max_reach
}

/// The sweep's results, read by every conclude chunk.
struct Shared<'a> {
    sweeps: &'a [SweepChunk],
    /// Where the results of each agent are, by its place in the visiting order.
    swept: &'a [Swept],
    /// New blockers by place in the visiting order (see `Swept::new_blockers`).
    fresh_blockers: &'a [RememberedBlockers],
    /// Each of `due`'s place in the visiting order.
    rank: &'a [u32],
    /// The agents swept this step.
    due: &'a DueAgents,
}

/// How many agents ahead the conclusions prefetch.
const LOOKAHEAD: usize = 4;

/// Concludes `entries`, the `block`th block of the store (whose first is at place `base`);
/// with `capture`, takes each agent's records for a recording's frame.
fn conclude_range(
    input: &ConcludeInput,
    shared: &Shared,
    (block, base): (usize, u32),
    entries: &mut [Entry<Agent>],
    capture: Option<&CaptureInput>,
    chunk: &mut ConcludeChunk,
) {
    // The sweep left each agent's candidates and where they are in visiting (spatial) order; one
    // tight copying pass brings this range's into store order, so the loop below reads them front
    // to back (in a big world, reading them in place would wait for memory at every agent).
    // The due agents collected from these places (`collect` cut the store as the caller did).
    let (first_due, due) = shared.due.block(block);
    let places = base..base + entries.len() as u32;
    debug_assert!(due.iter().all(|a| places.contains(&a.place)), "block {block}'s due agents are its places'");
    let place = |k: usize| shared.rank[first_due as usize + k] as usize;
    let swept = |k: usize| &shared.swept[place(k)];
    chunk.candidates.clear();
    chunk.swept.clear();
    let of =
        |s: &Swept| &shared.sweeps[s.chunk as usize].candidates[s.first_candidate as usize..s.end_candidate as usize];
    // The results' places, then (once those are in) the candidates they point at, are asked
    // for ahead.
    for k in 0..due.len() {
        if k + 2 * LOOKAHEAD < due.len() {
            prefetch(swept(k + 2 * LOOKAHEAD));
        }
        if let Some(ahead) = (k + LOOKAHEAD < due.len()).then(|| swept(k + LOOKAHEAD))
            && ahead.first_candidate < ahead.end_candidate
        {
            prefetch(&of(ahead)[0]);
        }
        let at = place(k);
        let s = &shared.swept[at];
        if s.first_candidate < s.end_candidate {
            chunk.candidates.extend_from_slice(of(s));
        }
        // Unchanged, they are the due record's (copied from the agent).
        let blockers = if s.new_blockers { shared.fresh_blockers[at] } else { due[k].blockers };
        chunk.swept.push((*s, blockers));
    }
    let (mut next_candidate, mut next_due) = (0usize, 0usize);
    for offset in 0..entries.len() {
        // Each agent's memory records live in their own heap block: ask for the next ones early.
        if let Some(first) = entries.get(offset + LOOKAHEAD).and_then(|e| e.value.records.first()) {
            prefetch(first);
        }
        let entry = &mut entries[offset];
        let place = base + offset as u32;
        let id = AgentId { index: entry.index, generation: entry.generation };
        let sighting = due.get(next_due).is_some_and(|a| a.place == place).then(|| {
            let (s, blockers) = &chunk.swept[next_due];
            next_due += 1;
            let sweep = &shared.sweeps[s.chunk as usize];
            let first = next_candidate;
            next_candidate += (s.end_candidate - s.first_candidate) as usize;
            let candidates = &chunk.candidates[first..next_candidate];
            (Sighting { candidates, rays: &sweep.rays, hits: &sweep.hits }, *blockers)
        });
        let agent = &mut entry.value;
        let sighting = sighting.map(|(sighting, blockers)| {
            agent.blockers = blockers;
            sighting
        });
        let ticked = sighting.is_some();
        conclude(input, id, agent, sighting, &mut chunk.heard, &mut chunk.nearby, &mut chunk.events);
        if let Some(capture) = capture {
            chunk.capture.take(capture, id, agent, ticked);
        }
    }
}
