//! A step in one pass over the agents in slot order, each swept and then concluded at once, for
//! a world small enough that the grids the sweep reads stay in cache whatever order it visits
//! them in. The spatial visiting order (see `sweep`) then buys nothing, and its bookkeeping
//! (copying the due agents out, sorting them, bringing their results back into slot order) cost
//! a fifth of a step's instructions on the Godot bench's level. With workers, each takes blocks
//! of slots as in the conclusion. The answers and events are the same, in the same order: an
//! agent's sweep reads only what no conclusion changes (targets, grids, occluders, tunings, its
//! own state).

use super::super::World;
use super::super::conclude::{ConcludeInput, Sighting, conclude};
use super::super::due::is_due;
use super::super::shares::{cut_mut, run_blocks};
use super::super::sweep::{SweepAgent, SweepChunk, SweepInput, sweep_one};
use super::super::team::Team;
use super::{ConcludeChunk, StepScratch};
use crate::agent::Agent;
use crate::id::{AgentId, Slot};

/// Worlds with at most this many agents take the one pass when they can. On the town level
/// (`benches/report`), alternated in one process on this 2-core machine (2 MB of L2 cache a core),
/// the one pass was 3–12% faster up to 16,000 agents, about even at 32,000, and 2–18% slower from
/// 64,000, when the grids outgrow the cache: half of 32,000, for caches smaller than this one's.
pub const ONE_PASS_MAX_AGENTS: usize = 16_384;

impl World {
    /// No budget of sight ticks to share out (which needs every due agent first), and small
    /// enough (see `ONE_PASS_MAX_AGENTS`).
    pub(super) fn one_pass_suits(&self) -> bool {
        self.def.max_sight_ticks_per_step == 0 && self.agents.len() <= ONE_PASS_MAX_AGENTS
    }

    /// A whole step with built-in line of sight, in one pass (see the module's comment), its
    /// blocks of slots shared between `team`'s threads as the conclusion's are.
    pub(super) fn step_one_pass(&mut self, dt: f32, team: Option<&Team>) {
        self.prepare(dt, team, false);
        let (loudest, use_grid) = self.prepare_sounds();
        let StepScratch { grid, max_target_reach, tunings, sweeps, concludes, sound_grid, time, dt, .. } =
            &mut self.scratch;
        let sweep_input = SweepInput {
            targets: &self.targets,
            grid,
            max_target_reach: *max_target_reach,
            attitudes: &self.attitudes,
            occluders: &self.occluders,
            tunings,
            cast_now: true,
        };
        let input = ConcludeInput {
            time: *time,
            dt: *dt,
            targets: &self.targets,
            grid,
            attitudes: &self.attitudes,
            occluders: &self.occluders,
            sounds: &self.pending_sounds,
            sound_grid: use_grid.then_some(&*sound_grid),
            loudest,
            sound_occlusion: self.def.sound_occlusion,
        };
        let time = *time;
        let pass = |(base, slots): (usize, &mut [Slot<Agent>]), chunk: &mut SweepChunk, out: &mut ConcludeChunk| {
            chunk.make_room(&sweep_input);
            out.events.clear();
            for (offset, slot) in slots.iter_mut().enumerate() {
                let Some(agent) = slot.value.as_mut() else { continue };
                let id = AgentId { index: (base + offset) as u32, generation: slot.generation };
                let sighting = is_due(agent, time).then(|| {
                    chunk.clear();
                    let sweeper = SweepAgent::of(agent, id.index, id.generation, None);
                    agent.blockers = sweep_one(&sweep_input, &sweeper, || Some(&*agent), chunk);
                    Sighting { candidates: &chunk.candidates, rays: &chunk.rays, hits: &chunk.hits }
                });
                conclude(&input, id, agent, sighting, &mut out.heard, &mut out.nearby, &mut out.events);
            }
        };
        let slots = self.agents.slots_mut();
        match team.filter(|_| sweeps.len() > 1) {
            Some(team) => {
                let blocks =
                    cut_mut(slots, sweeps.len(), team.threads()).zip(sweeps.iter_mut().zip(concludes.iter_mut()));
                run_blocks(team, blocks, |(block, (chunk, out))| pass(block, chunk, out));
            }
            None => pass((0, slots), &mut sweeps[0], &mut concludes[0]),
        }
        self.commit();
    }
}
