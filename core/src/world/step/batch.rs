//! The engine's batch of rays, in the agents' id order. The sweep leaves each agent's rays
//! together in its chunk, in visiting order, which follows where the agents sit in the store: the
//! order they came and went in a live world, id order in one just loaded. A recording keeps the
//! engine's answers by their place in the batch and its replay starts from a loaded world, so the
//! batch must not follow the store: it lists the agents' runs of rays by agent id (each agent is
//! swept once a step, so ids do not repeat), and the answers go back the same way.

use crate::rays::{RayHit, RayQuery};
use std::collections::TryReserveError;

use super::super::sweep::SweepChunk;
use crate::headroom::reserve;

/// One agent's run of rays in a sweep chunk.
#[derive(Copy, Clone, Debug)]
struct Run {
    agent: u32,
    chunk: u32,
    start: u32,
    end: u32,
}

/// The batch's runs, in the order the engine sees them; reused from step to step.
#[derive(Default)]
pub(in crate::world) struct EngineBatch {
    runs: Vec<Run>,
}

impl EngineBatch {
    /// Room for the runs of `rays` rays (at most one run a ray), fallibly.
    pub fn reserve(&mut self, rays: usize) -> Result<(), TryReserveError> {
        reserve(&mut self.runs, rays)
    }

    /// Fills `batch` with the chunks' rays, agent by agent in id order. Needs the room of
    /// `reserve` (`batch` for every ray): it allocates nothing.
    pub fn gather(&mut self, sweeps: &[SweepChunk], batch: &mut Vec<RayQuery>) {
        self.runs.clear();
        for (chunk, sweep) in sweeps.iter().enumerate() {
            let mut start = 0;
            for (k, ray) in sweep.rays.iter().enumerate() {
                let next = sweep.rays.get(k + 1);
                if next.is_none_or(|n| n.agent.index != ray.agent.index) {
                    let run = Run { agent: ray.agent.index, chunk: chunk as u32, start, end: k as u32 + 1 };
                    self.runs.push(run);
                    start = k as u32 + 1;
                }
            }
        }
        self.runs.sort_unstable_by_key(|r| r.agent);
        batch.clear();
        for r in &self.runs {
            batch.extend_from_slice(&sweeps[r.chunk as usize].rays[r.start as usize..r.end as usize]);
        }
    }

    /// Hands each chunk its rays' answers from `hits`, the answers to the batch `gather` made.
    /// Needs room in each chunk's `hits` for its rays.
    pub fn scatter(&self, hits: &[RayHit], sweeps: &mut [SweepChunk]) {
        for sweep in sweeps.iter_mut() {
            sweep.hits.clear();
            sweep.hits.resize(sweep.rays.len(), RayHit::default());
        }
        let mut at = 0;
        for r in &self.runs {
            let n = (r.end - r.start) as usize;
            sweeps[r.chunk as usize].hits[r.start as usize..r.end as usize].copy_from_slice(&hits[at..at + n]);
            at += n;
        }
    }
}
