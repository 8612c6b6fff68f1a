//! A step in one pass over the agent store, each agent swept and then concluded at once. The
//! two-stage step's bookkeeping (copying the due agents out, sorting them into a spatial
//! visiting order, bringing their results back into store order) cost a fifth of a step's
//! instructions on the Godot bench's level; the one pass needs none of it. A small world's grids
//! stay in cache whatever order the agents come in; a big world's store is kept in spatial order
//! (see `order`), so the pass visits neighbours in space one after another. With workers, each
//! takes blocks of the store as in the conclusion. The answers and events are the same, in the
//! same order: an agent's sweep reads only what no conclusion changes (targets, grids,
//! occluders, tunings, its own state).

use super::super::World;
use super::super::conclude::{ConcludeInput, Sighting, conclude};
use super::super::due::is_due;
use super::super::shares::{cut_mut, run_blocks};
use super::super::sweep::{SweepAgent, SweepChunk, SweepInput, sweep_one};
use super::super::team::Team;
use super::super::trace::TRACE_TICKS;
use super::order::SAMPLE;
use super::phases::Phase;
use super::{ConcludeChunk, LOOKAHEAD, StepScratch};
use crate::agent::Agent;
use crate::error::Result;
use crate::hearing::StepSounds;
use crate::id::{AgentId, Entry};
use crate::prefetch::prefetch;

impl World {
    /// No budget of sight ticks to share out, which needs every due agent first.
    pub(super) fn one_pass_suits(&self) -> bool {
        self.def.max_sight_ticks_per_step == 0
    }

    /// A whole step with built-in line of sight, in one pass (see the module's comment), its
    /// blocks of the store shared between `team`'s threads as the conclusion's are.
    /// `TRACE`: keep the sweep's decisions for a recording (see `trace`).
    pub(super) fn step_one_pass<const TRACE: u8>(&mut self, dt: f32, team: Option<&Team>) -> Result<()> {
        self.scratch.phases.start();
        self.prepare(dt, team, false)?;
        let frame = self.keep_agents_in_order(self.scratch.axes);
        let (loudest, use_grid) = self.prepare_sounds();
        let StepScratch { grid, max_target_reach, tunings, sweeps, concludes, sound_grid, time, dt, phases, .. } =
            &mut self.scratch;
        let sweep_input = SweepInput {
            targets: &self.targets,
            grid,
            max_target_reach: *max_target_reach,
            attitudes: &self.attitudes,
            occluders: &self.occluders,
            tunings,
            cast_now: true,
            explained: self.recorder.as_deref().map_or(&[], |r| &r.focus_slots[..]),
        };
        // A recording takes each agent's frame records as it is concluded (see `record::capture`).
        let capture = self.recorder.as_deref().filter(|_| TRACE >= TRACE_TICKS).map(|r| r.capture_input(*time));
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
        let time = *time;
        let pass = |(base, entries): (usize, &mut [Entry<Agent>]), chunk: &mut SweepChunk, out: &mut ConcludeChunk| {
            chunk.make_room(&sweep_input);
            out.events.clear();
            let (mut descents, mut last_key) = (0, 0);
            for offset in 0..entries.len() {
                // The last two of every `SAMPLE` agents of a sorted store: still in its order?
                let phase = offset % SAMPLE;
                if let Some(frame) = frame.filter(|_| phase >= SAMPLE - 2) {
                    let key = frame.key(entries[offset].value.position);
                    descents += (phase == SAMPLE - 1 && key < last_key) as usize;
                    last_key = key;
                }
                // Each agent's memory records live in their own heap block: ask for the next ones early.
                if let Some(first) = entries.get(offset + LOOKAHEAD).and_then(|e| e.value.records.first()) {
                    prefetch(first);
                }
                let entry = &mut entries[offset];
                let id = AgentId { index: entry.index, generation: entry.generation };
                let sweeper = is_due(&entry.value, time).then(|| SweepAgent::of(entry, (base + offset) as u32, None));
                let agent = &mut entry.value;
                let sighting = sweeper.map(|sweeper| {
                    chunk.clear();
                    agent.blockers = sweep_one::<TRACE>(&sweep_input, &sweeper, || Some(&*agent), chunk);
                    Sighting { candidates: &chunk.candidates, rays: &chunk.rays, hits: &chunk.hits }
                });
                let ticked = sighting.is_some();
                conclude(&input, id, agent, sighting, &mut out.heard, &mut out.nearby, &mut out.events);
                if TRACE >= TRACE_TICKS
                    && let Some(capture) = &capture
                {
                    out.capture.take(capture, id, agent, ticked);
                }
            }
            out.descents = descents;
        };
        let store = self.agents.entries_mut();
        phases.lap(Phase::Prepare);
        match team.filter(|_| sweeps.len() > 1) {
            Some(team) => {
                let blocks =
                    cut_mut(store, sweeps.len(), team.threads()).zip(sweeps.iter_mut().zip(concludes.iter_mut()));
                run_blocks(team, blocks, |(block, (chunk, out))| pass(block, chunk, out));
            }
            None => pass((0, store), &mut sweeps[0], &mut concludes[0]),
        }
        phases.lap(Phase::Pass);
        self.scratch.agent_order.sampled_descents = self.scratch.concludes.iter().map(|c| c.descents).sum();
        self.commit();
        self.scratch.phases.lap(Phase::Commit);
        Ok(())
    }
}
