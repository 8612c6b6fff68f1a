//! Room for a step, made before the step changes anything: a world loaded (or grown) near the
//! memory limit refuses a step (`Error::OutOfMemory`, the world unchanged) instead of aborting the
//! process when one of the step's buffers cannot grow.
//!
//! - Buffers sized by the world's counts (targets, sounds, tunings, agents and their slots, the
//!   step's blocks) are reserved for real, fallibly, before the step (`World::make_room`); a
//!   two-stage step's buffers sized by its due agents are reserved once those are counted, still
//!   before anything is made of them (`StepScratch::reserve_due`). Only a buffer whose capacity is
//!   short is touched: a steady-state step finds every capacity held and allocates nothing.
//! - What cannot be reserved from here is checked available (`headroom`) instead, once, when the
//!   world has grown past the size it was last checked for: the grids of the targets and sounds
//!   (their buffers are the broadphase's own), the occluders' grid (rebuilt by the step after a
//!   load), and what grows with what the step finds (events, candidates and rays, memory records,
//!   hearing).

use super::super::World;
use super::super::conclude::SOUND_GRID_MIN;
use super::super::shares::{block_len, blocks_for};
use super::StepScratch;
use crate::broadphase::{GridTarget, LANES};
use crate::error::{Error, Result};
use crate::headroom::{ensure_available, out_of_memory, reserve};
use std::collections::TryReserveError;

/// Room checked available, when a world has grown by an agent, for what its steps grow by with
/// what they find: events (in three buffers: the step's, a chunk's and the one they are put into
/// id order with), candidates and rays, memory records. Measured after loading the benchmark's
/// town (targets walking, footsteps; 10,000 and 100,000 agents): 124 and 181 bytes an agent at
/// the first step, 158 and 278 over the first sight period. A denser world (every agent seeing
/// ten targets or more) grows by more than this in its first steps, and is not covered.
const FOUND_BYTES_PER_AGENT: usize = 256;

/// Room checked available per occluder, when there are more than last checked, for the
/// occluders' grid the step rebuilds (first after a load) and the sweep's ray stamps: measured at
/// 430–510 bytes an occluder at the first step's peak for boxes apart; boxes that overlap
/// register in more cells (2,700 bytes an occluder where they pile up), which is not covered.
const OCCLUDER_GRID_BYTES: usize = 512;

/// How big a world the room that is checked rather than reserved was last checked for.
#[derive(Default)]
pub(crate) struct Checked {
    agents: usize,
    targets: usize,
    sounds: usize,
    occluders: usize,
    /// `StepScratch::held` once the step in progress had its room (a debug check).
    #[cfg(debug_assertions)]
    held: usize,
}

/// What a step's room depends on, read from the world before it.
pub(super) struct Counts {
    agents: usize,
    slots: usize,
    targets: usize,
    sounds: usize,
    occluders: usize,
    tunings: usize,
    /// The step's blocks (see `shares`) and the threads that share them.
    chunks: usize,
    threads: usize,
}

impl World {
    pub(super) fn step_counts(&self) -> Counts {
        let threads = self.workers.as_ref().map_or(1, |w| w.threads());
        Counts {
            agents: self.agents.len(),
            slots: self.agents.slots().len(),
            targets: self.targets.len(),
            sounds: self.pending_sounds.len(),
            occluders: self.occluders.len(),
            tunings: self.tunings.by_index().len(),
            chunks: if self.workers.is_some() { blocks_for(threads) } else { 1 },
            threads,
        }
    }

    /// Before a step (`one_pass`: the one-pass step, else the two-stage one): reserves what it
    /// will fill that the world's counts size, and for a one pass checks the rest (the two-stage
    /// step does once its due agents are reserved, see `prepare`).
    pub(super) fn make_room(&mut self, one_pass: bool) -> Result<()> {
        let counts = self.step_counts();
        self.scratch.reserve(&counts, one_pass).map_err(|_| refused(&counts))?;
        if one_pass {
            self.scratch.check_headroom(&counts)?;
        }
        #[cfg(debug_assertions)]
        {
            self.scratch.checked.held = self.scratch.held();
        }
        Ok(())
    }
}

impl StepScratch {
    fn reserve(&mut self, c: &Counts, one_pass: bool) -> std::result::Result<(), TryReserveError> {
        reserve(&mut self.sweeps, c.chunks)?;
        self.sweeps.resize_with(c.chunks, Default::default);
        reserve(&mut self.concludes, c.chunks)?;
        self.concludes.resize_with(c.chunks, Default::default);
        reserve(&mut self.grid_input, c.targets)?;
        reserve(&mut self.tunings, c.tunings)?;
        for chunk in &mut self.sweeps {
            // The due agents' share, if any, comes with them (`reserve_due`).
            chunk.reserve(c.targets, 0)?;
        }
        if c.sounds >= SOUND_GRID_MIN {
            reserve(&mut self.sound_input, c.sounds)?;
        }
        self.agent_order.reserve(c.agents, c.slots, one_pass)
    }

    /// After a two-stage step collected its due agents (`DueAgents::collect`): room for
    /// everything made of them, `budget` of them at most when it is not 0. Then the rest is
    /// checked (`check_headroom`).
    pub(super) fn reserve_due(&mut self, c: &Counts, budget: usize) -> Result<()> {
        self.reserve_due_buffers(c, budget).map_err(|_| refused(c))?;
        self.check_headroom(c)?;
        #[cfg(debug_assertions)]
        {
            self.checked.held = self.held();
        }
        Ok(())
    }

    /// After a two-stage sweep left its rays for the engine (`begin_step`): room for them in one
    /// batch, for their answers, and for each chunk's share of the answers (`finish_step`).
    pub(super) fn reserve_rays(&mut self) -> Result<()> {
        let rays: usize = self.sweeps.iter().map(|c| c.rays.len()).sum();
        let reserved = (|| {
            reserve(&mut self.rays, rays)?;
            reserve(&mut self.hits, rays)?;
            self.engine_batch.reserve(rays)?;
            self.sweeps.iter_mut().try_for_each(|c| reserve(&mut c.hits, c.rays.len()))
        })();
        reserved.map_err(|_| out_of_memory(format_args!("room for the step's {rays} rays cannot be had")))?;
        #[cfg(debug_assertions)]
        {
            self.checked.held = self.held();
        }
        Ok(())
    }

    /// The capacities of every buffer this module reserves, summed: a step that grew none of them
    /// (capacities never shrink) leaves the sum as it was when its room was made.
    #[cfg(debug_assertions)]
    fn held(&self) -> usize {
        let chunks: usize = self.sweeps.iter().map(|c| c.held()).sum::<usize>()
            + self.concludes.iter().map(|c| c.swept.capacity()).sum::<usize>();
        let vectors = [
            self.sweeps.capacity(),
            self.concludes.capacity(),
            self.grid_input.capacity(),
            self.tunings.capacity(),
            self.sound_input.capacity(),
            self.order.capacity(),
            self.order_scratch.capacity(),
            self.rank.capacity(),
            self.swept.capacity(),
            self.fresh_blockers.capacity(),
            // (Not `hits`: `step_with` lends it out while the step finishes.)
            self.rays.capacity(),
        ];
        chunks + vectors.iter().sum::<usize>() + self.due.held() + self.agent_order.held()
    }

    /// At the end of a step: debug builds check that the room made for it held everything the
    /// step put in the buffers reserved (none grew, which could not have failed gracefully).
    #[inline]
    pub(super) fn check_held(&self) {
        #[cfg(debug_assertions)]
        debug_assert_eq!(self.held(), self.checked.held, "a buffer reserved for the step grew in it");
    }

    fn reserve_due_buffers(&mut self, c: &Counts, budget: usize) -> std::result::Result<(), TryReserveError> {
        self.due.reserve_finish(budget, c.agents)?;
        let collected = self.due.collected();
        let due = if budget > 0 { collected.min(budget) } else { collected };
        for v in [&mut self.order, &mut self.order_scratch] {
            reserve(v, due)?;
        }
        reserve(&mut self.rank, due)?;
        reserve(&mut self.swept, due)?;
        reserve(&mut self.fresh_blockers, due)?;
        // The sweep cuts the visiting order into its chunks, the conclusion the store (as the
        // due agents were collected): see `run_sweep` and `run_conclude`.
        let chunks = self.sweeps.len();
        for (k, chunk) in self.sweeps.iter_mut().enumerate() {
            let share = if chunks > 1 { block_len(due, chunks, c.threads, k) } else { due };
            chunk.reserve(c.targets, share)?;
        }
        for (k, chunk) in self.concludes.iter_mut().enumerate() {
            reserve(&mut chunk.swept, self.due.collected_in(k))?;
        }
        Ok(())
    }

    /// Checks that what the step cannot reserve can be had, when the world has grown past the
    /// size it was last checked for (never in a steady state); refused with `OutOfMemory`.
    pub(super) fn check_headroom(&mut self, c: &Counts) -> Result<()> {
        let checked = &mut self.checked;
        let sounds = if c.sounds >= SOUND_GRID_MIN { c.sounds } else { 0 };
        if c.agents <= checked.agents
            && c.targets <= checked.targets
            && sounds <= checked.sounds
            && c.occluders <= checked.occluders
        {
            return Ok(());
        }
        let mut bytes = c.agents.saturating_sub(checked.agents).saturating_mul(FOUND_BYTES_PER_AGENT);
        bytes = bytes.saturating_add(c.occluders.saturating_sub(checked.occluders).saturating_mul(OCCLUDER_GRID_BYTES));
        if c.targets > checked.targets {
            bytes = bytes.saturating_add(grid_bytes(c.targets, checked.targets > 0));
        }
        if sounds > checked.sounds {
            bytes = bytes.saturating_add(grid_bytes(sounds, checked.sounds > 0));
        }
        ensure_available(bytes, "the step")?;
        checked.agents = checked.agents.max(c.agents);
        checked.targets = checked.targets.max(c.targets);
        checked.sounds = checked.sounds.max(sounds);
        checked.occluders = checked.occluders.max(c.occluders);
        Ok(())
    }
}

/// The most a `TargetGrid` of `n` entries allocates when rebuilt (see `rebuild_within`): its cell
/// starts (at most `max(4n, 64)` cells), entries and the copy of its input, columns and cell
/// numbers; twice that when it grows from a smaller grid (a vector at least doubles).
fn grid_bytes(n: usize, grows: bool) -> usize {
    let cells = (4 * n).max(64) + 1;
    let bytes = cells * 4 + n * (2 * size_of::<GridTarget>() + 4) + 6 * (n + LANES - 1) * 4;
    if grows { 2 * bytes } else { bytes }
}

pub(super) fn refused(c: &Counts) -> Error {
    out_of_memory(format_args!(
        "the step's buffers for {} agents, {} targets and {} sounds cannot be had",
        c.agents, c.targets, c.sounds
    ))
}

#[cfg(test)]
mod tests {
    use crate::error::Result;
    use crate::rays::{RayHit, RayQuery, RaySource, Rays};
    use crate::test_rng::Xorshift;
    use crate::{AgentDef, AgentId, RayBackend, SoundDef, TargetDef, TargetId, Vec3, World, WorldDef};

    fn spot(rng: &mut Xorshift) -> Vec3 {
        Vec3::new(rng.range(0.0, 60.0), 0.0, rng.range(0.0, 60.0))
    }

    /// Answers every third ray blocked.
    struct Thirds;

    impl RaySource for Thirds {
        fn cast_rays(&mut self, _: &[RayQuery], hits: &mut [RayHit]) -> Result<()> {
            hits.iter_mut().enumerate().for_each(|(i, h)| *h = RayHit { hit: i % 3 == 0, distance: 0.0 });
            Ok(())
        }
    }

    /// Every path of the step (one pass, a store kept in spatial order, two stages with and
    /// without a budget, an engine's batch, one to three threads), in worlds that change between
    /// steps (agents and targets come and go, targets are switched off, sounds are few or many):
    /// no buffer the step reserved grew in it (`StepScratch::check_held`, checked here too), and
    /// steps after the first find their room made.
    #[test]
    fn the_room_made_for_a_step_holds_what_it_fills_on_every_path() {
        let mut rng = Xorshift(0x0DDB_1A5E_5EED_5EED);
        for threads in [1, 2, 3] {
            for (budget, backend, sorted) in [
                (0, RayBackend::Builtin, false),
                (0, RayBackend::Builtin, true),
                (40, RayBackend::Builtin, false),
                (0, RayBackend::Engine, false),
                (25, RayBackend::Engine, false),
            ] {
                let def = WorldDef {
                    worker_threads: threads,
                    max_sight_ticks_per_step: budget,
                    ray_backend: backend,
                    ..Default::default()
                };
                let mut world = World::new(&def).unwrap();
                if sorted {
                    world.scratch.agent_order.min_agents = 60;
                }
                let (mut agents, mut targets): (Vec<AgentId>, Vec<TargetId>) = (Vec::new(), Vec::new());
                for step in 0..40 {
                    for _ in 0..[30, 3, 0, 12][step % 4] {
                        agents.push(
                            world.create_agent(&AgentDef { position: spot(&mut rng), ..Default::default() }).unwrap(),
                        );
                        targets.push(
                            world.create_target(&TargetDef { position: spot(&mut rng), ..Default::default() }).unwrap(),
                        );
                    }
                    for _ in 0..[0, 2, 9, 1][step % 4] {
                        let k = rng.next_u64() as usize % agents.len();
                        world.destroy_agent(agents.swap_remove(k)).unwrap();
                        let k = rng.next_u64() as usize % targets.len();
                        world.destroy_target(targets.swap_remove(k)).unwrap();
                    }
                    let k = rng.next_u64() as usize % targets.len();
                    world.set_target_enabled(targets[k], step % 3 != 0).unwrap();
                    for _ in 0..[0, 5, 30, 9][step % 4] {
                        world
                            .emit_sound(&SoundDef { position: spot(&mut rng), loudness: 8.0, ..Default::default() })
                            .unwrap();
                    }
                    match (backend, step % 2) {
                        (RayBackend::Engine, 0) => world.step_with(0.05, Rays::Engine(&mut Thirds)).unwrap(),
                        (RayBackend::Engine, _) => {
                            let n = world.begin_step(0.05).unwrap().len();
                            let hits: Vec<RayHit> = (0..n).map(|i| RayHit { hit: i % 2 == 0, distance: 0.0 }).collect();
                            world.finish_step(&hits).unwrap();
                        }
                        _ => world.step(0.05).unwrap(),
                    }
                    #[cfg(debug_assertions)]
                    assert_eq!(world.scratch.held(), world.scratch.checked.held, "{threads} threads, step {step}");
                }
                assert!(world.events().percepts.len() + world.last_sounds().len() > 0, "the world senses");
                if sorted {
                    assert!(world.scratch.agent_order.sorts > 0, "the store was sorted");
                }
            }
        }
    }
}
