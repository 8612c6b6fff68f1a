//! The agents whose sight ticked in the step just made, in slot order: the sweep's traces list
//! them in its visiting order, chunk by chunk (see `world::trace`).

use super::delta::in_slot_order;
use crate::world::World;

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

    /// `(slot, chunk, index)` for each agent that ticked, in slot order.
    pub fn order(&self) -> &[(u32, u32, u32)] {
        &self.order
    }

    /// Swaps the list with `other` (the recording's thread takes it with the traces).
    pub fn swap_order(&mut self, other: &mut Vec<(u32, u32, u32)>) {
        std::mem::swap(&mut self.order, other);
    }
}
