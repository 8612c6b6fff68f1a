//! The agents whose sight ticked in the step just made, in slot order: the sweep's traces list
//! them in its visiting order, chunk by chunk (see `world::trace`).

use super::delta::in_slot_order;
use crate::world::{SightTrace, World};

/// Where each ticked agent's trace is: `(slot, chunk, index of its TracedAgent)`, in slot order.
#[derive(Default)]
pub(crate) struct Ticks {
    order: Vec<(u32, u32, u32)>,
    by_slot: Vec<u64>,
}

impl Ticks {
    /// Collects the last step's ticks from `world`'s sweep traces.
    pub fn collect(&mut self, world: &World) {
        let slots = world.agents.live_indices().last().map_or(0, |i| i as usize + 1);
        let traces = world.last_step_traces().map(|t| t.agents.iter().map(|a| a.slot));
        in_slot_order(traces, slots, &mut self.by_slot, &mut self.order);
    }

    /// Slots up to the last that ticked.
    pub fn slots(&self) -> usize {
        self.order.last().map_or(0, |&(slot, ..)| slot as usize + 1)
    }

    /// Calls `f(slot, (chunk, index))` for each agent that ticked, in slot order.
    pub fn each(&self, mut f: impl FnMut(u32, (usize, usize))) {
        for &(slot, chunk, index) in &self.order {
            f(slot, (chunk as usize, index as usize));
        }
    }

    /// The trace of the agent at `(chunk, index)` as `each` gives it.
    pub fn trace(world: &World, chunk: usize) -> Option<&SightTrace> {
        world.last_step_traces().nth(chunk)
    }
}
