//! The agents whose sight ticked in the step just made, in slot order: the sweep's traces list
//! them in its visiting order, chunk by chunk (see `world::trace`).

use crate::world::{SightTrace, World};

/// Where each ticked agent's trace is, by the agent's slot.
#[derive(Default)]
pub(crate) struct Ticks {
    /// By slot: `chunk << 32 | index` of its `TracedAgent`, or `NONE`.
    by_slot: Vec<u64>,
}

const NONE: u64 = u64::MAX;

impl Ticks {
    /// Collects the last step's ticks from `world`'s sweep traces.
    pub fn collect(&mut self, world: &World) -> &Ticks {
        self.by_slot.clear();
        for (c, trace) in world.last_step_traces().enumerate() {
            for (k, a) in trace.agents.iter().enumerate() {
                let slot = a.slot as usize;
                if self.by_slot.len() <= slot {
                    self.by_slot.resize(slot + 1, NONE);
                }
                self.by_slot[slot] = (c as u64) << 32 | k as u64;
            }
        }
        self
    }

    /// Slots up to the last that ticked.
    pub fn slots(&self) -> usize {
        self.by_slot.len()
    }

    /// Calls `f(slot, (chunk, index))` for each agent that ticked, in slot order.
    pub fn each(&self, mut f: impl FnMut(u32, (usize, usize))) {
        for (slot, &at) in self.by_slot.iter().enumerate() {
            if at != NONE {
                f(slot as u32, ((at >> 32) as usize, at as u32 as usize));
            }
        }
    }

    /// The trace of the agent at `(chunk, index)` as `each` gives it.
    pub fn trace(world: &World, chunk: usize) -> Option<&SightTrace> {
        world.last_step_traces().nth(chunk)
    }
}
