//! The agents due a sight tick this step, as the sweep reads them. They are collected in blocks
//! of the agent store, side by side with workers (the conclusion's blocks, see `shares`), and
//! stay in those blocks: an agent is numbered in store order across them, and the conclusion of
//! a block of the store finds its due agents in the block collected from the same places. (Joined
//! into one list instead, the joining thread pulled half the records from the other core's
//! cache while the target grid was being built beside it, and was the longer of the two.)

use crate::agent::Agent;
use crate::headroom::reserve;
use crate::id::Entry;
use crate::prefetch::prefetch;
use std::collections::TryReserveError;

use super::shares::{Padded, block_count, cut, run_blocks};
use super::spatial::pack_spatial_keys;
use super::sweep::SweepAgent;
use super::team::Team;

/// Slack on the schedule so a tick due at exactly this step's time is not missed by rounding.
const SCHEDULE_EPSILON: f64 = 1e-9;

/// One block of the store' due agents, in store order, with the lowest visiting-order cell among them.
#[derive(Default)]
struct DueBlock {
    agents: Vec<SweepAgent>,
    lowest: [i32; 2],
    /// Due agents left out for want of room in `agents` (see `DueAgents::collect`).
    missed: usize,
}

/// The step's due agents (see the module's comment); buffers are reused from step to step.
#[derive(Default)]
pub(super) struct DueAgents {
    blocks: Vec<Padded<DueBlock>>,
    /// Index of each block's first agent, then the count of all.
    starts: Vec<u32>,
    overdue: Vec<(f64, u32, u32)>,
    kept: Vec<bool>,
}

impl DueAgents {
    /// Collects the agents of `agents` due a tick at `time`, with their visiting-order cells on the
    /// plane `axes`: in `block_count(team)` blocks of the store, side by side on `team`'s threads.
    /// A block's buffer never grows while it is collected (that could not fail gracefully): a
    /// block that ran out of room (at the first step of a world just loaded or grown) counted the
    /// agents it missed, gets room for all of them, fallibly, and is collected again. The error:
    /// that room could not be had (the step is then refused, nothing of the world changed).
    pub fn collect(
        &mut self,
        agents: &[Entry<Agent>],
        time: f64,
        axes: [usize; 2],
        team: Option<&Team>,
    ) -> Result<(), TryReserveError> {
        let blocks = block_count(team);
        reserve(&mut self.blocks, blocks)?;
        self.blocks.resize_with(blocks, Padded::default);
        reserve(&mut self.starts, blocks + 1)?;
        let threads = team.map_or(1, Team::threads);
        match team {
            Some(team) => {
                let parts = cut(agents, blocks, threads).zip(self.blocks.iter_mut());
                run_blocks(team, parts, |((start, part), block)| collect_block(part, start as u32, time, axes, block));
            }
            None => collect_block(agents, 0, time, axes, &mut self.blocks[0]),
        }
        for ((start, part), block) in cut(agents, blocks, threads).zip(self.blocks.iter_mut()) {
            if block.0.missed > 0 {
                let need = block.0.agents.len() + block.0.missed;
                reserve(&mut block.0.agents, need)?;
                collect_block(part, start as u32, time, axes, block);
                debug_assert_eq!(block.0.missed, 0);
            }
        }
        Ok(())
    }

    /// Due agents collected (before `finish` keeps only a budget's worth).
    pub fn collected(&self) -> usize {
        self.blocks.iter().map(|b| b.0.agents.len()).sum()
    }

    /// Due agents collected in block `k`.
    pub fn collected_in(&self, k: usize) -> usize {
        self.blocks.get(k).map_or(0, |b| b.0.agents.len())
    }

    /// The capacities of the buffers `collect` and `reserve_finish` reserve, summed (see
    /// `StepScratch::held`).
    #[cfg(debug_assertions)]
    pub fn held(&self) -> usize {
        let blocks: usize = self.blocks.iter().map(|b| b.0.agents.capacity()).sum();
        blocks + self.blocks.capacity() + self.starts.capacity() + self.overdue.capacity() + self.kept.capacity()
    }

    /// After `collect`: room for `finish` to keep `budget` of them, out of a store of `store`
    /// agents (none needed when they are no more than the budget).
    pub fn reserve_finish(&mut self, budget: usize, store: usize) -> Result<(), TryReserveError> {
        let collected = self.collected();
        if budget > 0 && collected > budget {
            reserve(&mut self.overdue, collected)?;
            reserve(&mut self.kept, store)?;
        }
        Ok(())
    }

    /// After `collect`: keeps only the `budget` most overdue agents when more are due (`budget`
    /// 0: all), numbers them, and returns the lowest cell among them (the visiting order's origin).
    pub fn finish(&mut self, budget: usize, agents: &[Entry<Agent>]) -> [i32; 2] {
        let DueAgents { blocks, starts, overdue, kept } = self;
        let count: usize = blocks.iter().map(|b| b.0.agents.len()).sum();
        if budget > 0 && count > budget {
            overdue.clear();
            // Ties go by id, not by place: which agents wait must not depend on the store's order.
            for a in blocks.iter().flat_map(|b| &b.0.agents) {
                overdue.push((agents[a.place as usize].value.next_sense_time, a.slot, a.place));
            }
            // Unstable (in place, where the stable sort allocates a buffer): no two agents share
            // a slot, so the order is the same.
            overdue.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            kept.clear();
            kept.resize(agents.len(), false);
            for &(_, _, place) in &overdue[..budget] {
                kept[place as usize] = true;
            }
            // The order's origin stays the lowest cell of every agent collected.
            for block in blocks.iter_mut() {
                block.0.agents.retain(|a| kept[a.place as usize]);
            }
        }
        starts.clear();
        starts.push(0);
        let mut lowest = [i32::MAX; 2];
        for block in blocks.iter() {
            starts.push(starts[starts.len() - 1] + block.0.agents.len() as u32);
            lowest = lowest_cell(lowest, block.0.lowest);
        }
        lowest
    }

    /// The due agent numbered `j` (in store order).
    #[inline]
    pub fn get(&self, j: u32) -> &SweepAgent {
        // The last block starting at or before `j`: an empty block starts where the next does.
        let b = self.starts.partition_point(|&s| s <= j) - 1;
        &self.blocks[b].0.agents[(j - self.starts[b]) as usize]
    }

    /// The visiting order's entries, unsorted, into `order`: each agent's spatial key counted
    /// from `lowest` above its number (see `pack_spatial_keys`; the numbers run through the
    /// blocks in order).
    pub fn visiting_entries(&self, lowest: [i32; 2], order: &mut Vec<u64>) {
        pack_spatial_keys(|| self.blocks().flat_map(|(_, agents)| agents.iter().map(|a| a.cell)), lowest, order);
    }

    /// Appends the due agents of `order` (entries of `visiting_entries`) to `out`, in that order,
    /// asking for each a few ahead (they are scattered through the blocks).
    pub fn gather(&self, order: &[u64], out: &mut Vec<SweepAgent>) {
        match &self.blocks[..] {
            [only] => gather_from(order, out, |j| &only.0.agents[j as usize]),
            _ => gather_from(order, out, |j| self.get(j)),
        }
    }

    /// Each block's due agents in store order, with the number of its first.
    pub fn blocks(&self) -> impl Iterator<Item = (u32, &[SweepAgent])> {
        self.starts.iter().zip(&self.blocks).map(|(&start, b)| (start, &b.0.agents[..]))
    }

    /// Block `k`'s due agents (those of the `k`th block of the store), with the number of its first.
    pub fn block(&self, k: usize) -> (u32, &[SweepAgent]) {
        (self.starts[k], &self.blocks[k].0.agents)
    }
}

/// How many agents ahead `gather` asks for the records it copies.
const LOOKAHEAD: usize = 4;

/// `DueAgents::gather` with `at` finding an agent by its number (monomorphised, so that with a
/// single block the copy is a plain indexed one).
fn gather_from<'a>(order: &[u64], out: &mut Vec<SweepAgent>, at: impl Fn(u32) -> &'a SweepAgent) {
    out.extend(order.iter().enumerate().map(|(k, &entry)| {
        if let Some(&ahead) = order.get(k + LOOKAHEAD) {
            prefetch(at(number(ahead)));
        }
        *at(number(entry))
    }));
}

/// The agent's number in a visiting-order entry (see `DueAgents::visiting_entries`).
#[inline]
pub(super) fn number(entry: u64) -> u32 {
    entry as u32
}

/// The due agents among `entries` (places from `base`) into `block`, in store order.
/// Never grows `block`'s buffer: the due agents past its capacity are only counted (`missed`).
fn collect_block(entries: &[Entry<Agent>], base: u32, time: f64, axes: [usize; 2], block: &mut Padded<DueBlock>) {
    let DueBlock { agents, lowest, missed } = &mut block.0;
    agents.clear();
    *lowest = [i32::MAX; 2];
    *missed = 0;
    for (i, entry) in entries.iter().enumerate() {
        if is_due(&entry.value, time) {
            if agents.len() == agents.capacity() {
                *missed += 1;
                continue;
            }
            let agent = SweepAgent::of(entry, base + i as u32, Some(axes));
            *lowest = lowest_cell(*lowest, agent.cell);
            agents.push(agent);
        }
    }
}

/// Is `agent` due a sight tick at `time`?
#[inline]
pub(super) fn is_due(agent: &Agent, time: f64) -> bool {
    agent.tuning.sight.enabled && time >= agent.next_sense_time - SCHEDULE_EPSILON
}

/// The lowest cell on each axis of `a` and `b` (not a cell of either: the corner below both).
fn lowest_cell(a: [i32; 2], b: [i32; 2]) -> [i32; 2] {
    [a[0].min(b[0]), a[1].min(b[1])]
}

#[cfg(test)]
mod tests {
    use super::super::spatial::spatial_key;
    use super::*;
    use crate::blockers::RememberedBlockers;
    use glam::Vec3A;

    fn agent(slot: u32) -> SweepAgent {
        SweepAgent {
            slot,
            generation: 0,
            place: slot,
            eye: Vec3A::ZERO,
            forward: Vec3A::Z,
            tuning: 0,
            team: 0,
            cell: [slot as i32, 0],
            blockers: RememberedBlockers::default(),
        }
    }

    /// Each entry is its agent's key above its number; agents 2^20 cells apart or more get
    /// their keys' same low bits dropped (so they fit the high half), in the same order.
    #[test]
    fn visiting_entries_pack_key_and_number_and_coarsen_far_apart_agents_alike() {
        for (spread, coarsened) in [(9i32, 0), (1 << 20, 10), (i32::MAX, 30)] {
            let cells = [[3, 1], [0, 0], [spread, 2], [1, spread / 2], [spread / 3, spread], [2, 2]];
            let agents = cells.iter().enumerate().map(|(i, &cell)| SweepAgent { cell, ..agent(i as u32) });
            let mut due = DueAgents::default();
            due.blocks.push(Padded(DueBlock { agents: agents.collect(), lowest: [0, 0], missed: 0 }));
            due.finish(0, &[]);
            let mut order = Vec::new();
            due.visiting_entries([0, 0], &mut order);
            assert_eq!(order.iter().map(|&e| number(e)).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5]);
            let coarse: Vec<u64> = cells.iter().map(|&c| spatial_key(c, [0, 0]) >> coarsened).collect();
            assert!(order.iter().zip(&coarse).all(|(&e, &k)| e >> 32 == k), "spread {spread}: {order:x?}");
            crate::radix::sort_by_key(&mut order, &mut Vec::new());
            let visited: Vec<u64> = order.iter().map(|&e| coarse[number(e) as usize]).collect();
            assert!(visited.windows(2).all(|w| w[0] <= w[1]), "spread {spread}: {visited:?}");
        }
    }

    #[test]
    fn agents_are_numbered_in_slot_order_across_blocks_empty_ones_included() {
        let sizes = [0usize, 3, 0, 0, 2, 0, 4, 0];
        let mut due = DueAgents::default();
        let mut slot = 0;
        for &n in &sizes {
            let agents = (0..n).map(|_| {
                slot += 1;
                agent(slot * 10)
            });
            due.blocks.push(Padded(DueBlock { agents: agents.collect(), lowest: [i32::MAX; 2], missed: 0 }));
        }
        due.finish(0, &[]);
        let all: Vec<u32> = due.blocks().flat_map(|(_, b)| b).map(|a| a.slot).collect();
        assert_eq!(all, (1..=9).map(|s| s * 10).collect::<Vec<_>>());
        for (j, &s) in all.iter().enumerate() {
            assert_eq!(due.get(j as u32).slot, s, "agent number {j}");
        }
        let order: Vec<u64> = [8u64, 0, 5, 3, 7, 1].iter().map(|&j| 1 << 40 | j).collect();
        let mut gathered = Vec::new();
        due.gather(&order, &mut gathered);
        assert_eq!(gathered.iter().map(|a| a.slot).collect::<Vec<_>>(), vec![90, 10, 60, 40, 80, 20]);
        let firsts: Vec<u32> = (0..sizes.len()).map(|k| due.block(k).0).collect();
        assert_eq!(firsts, vec![0, 0, 3, 3, 3, 5, 5, 9]);
        assert_eq!(due.block(6).1.iter().map(|a| a.slot).collect::<Vec<_>>(), vec![60, 70, 80, 90]);
    }
}
