//! The agents' spatial order. The one pass reads the agent store front to back; with the agents
//! of a big world stored in Morton order of their 8 m cells (as the two-stage sweep visits them),
//! neighbours in space are neighbours in memory, so the grids and occluders one agent reads are
//! still in cache for the next, and each thread gets contiguous regions. A small world's grids
//! stay in cache anyway, and its store stays in creation order, which costs nothing to keep.
//!
//! The pass samples whether agents that moved left the order; when enough did, the next step
//! sorts the store again first (a radix sort of one word an agent, then one permutation in
//! place). The step's events are put back into id order afterwards, so nothing observable depends
//! on the store's order: only where each agent sits in memory.

use super::super::World;
use super::super::spatial::{pack_spatial_keys, spatial_cell, spatial_key};
use crate::agent::Agent;
use crate::headroom::reserve;
use crate::id::Entry;
use crate::math::Vec3;
use crate::memory::MemoryRecord;
use crate::percept::StepEvents;
use crate::radix;
use std::collections::TryReserveError;

/// The pass compares one neighbouring pair of agents in this many (the last two of each run).
pub(super) const SAMPLE: usize = 8;

/// The store is sorted again when more than one agent in this many is out of order (estimated
/// from the sampled pairs). A 100,000-agent town whose agents wander (a tenth of them moving
/// each step) stepped as fast sorted again at a quarter out of order as at a sixteenth (the
/// first sort, from creation order, is what pays), with a sort every ~19 steps instead of ~4.
const RESORT_FRACTION: usize = 4;

/// Worlds with more agents than this keep their store in spatial order. On the town level
/// (`benches/report`, 2 MB of L2 cache a core), sorting made no difference at 10,000 agents
/// (what it saved, putting the events back into id order cost) and a 100,000-agent step ~20%
/// faster than the two-stage step's spatial order, which the one pass replaces.
pub const SORTED_STORE_MIN_AGENTS: usize = 16_384;

/// How store keys are made, fixed at the last sort: cells on the plane `axes` counted from
/// `origin`, with `coarsen` low bits dropped (as the visiting order's keys, see `pack_spatial_keys`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) struct KeyFrame {
    axes: [usize; 2],
    origin: [i32; 2],
    coarsen: u32,
}

impl KeyFrame {
    /// The store key of an agent at `position`. A cell below the origin (the agent moved past
    /// every agent of the last sort) wraps to a high key: out of order, as it should count.
    #[inline]
    pub fn key(&self, position: Vec3) -> u64 {
        spatial_key(spatial_cell(position, self.axes), self.origin) >> self.coarsen
    }
}

/// The store's order as the steps keep it; buffers reused.
pub(crate) struct AgentOrder {
    /// `SORTED_STORE_MIN_AGENTS`, lowered by tests.
    pub(super) min_agents: usize,
    /// Set at the last sort; `None` before the first.
    frame: Option<KeyFrame>,
    /// Out-of-order pairs the last one pass found among those it sampled.
    pub(super) sampled_descents: usize,
    keys: Vec<u64>,
    scratch: Vec<u64>,
    cells: Vec<[i32; 2]>,
    /// The events' buffers being put into id order, and where each agent's go.
    spare: StepEvents,
    starts: Vec<u32>,
    /// Sorts so far (tests check that moving agents are sorted again).
    pub(super) sorts: u64,
}

impl Default for AgentOrder {
    fn default() -> Self {
        AgentOrder {
            min_agents: SORTED_STORE_MIN_AGENTS,
            frame: None,
            sampled_descents: 0,
            keys: Vec::new(),
            scratch: Vec::new(),
            cells: Vec::new(),
            spare: StepEvents::default(),
            starts: Vec::new(),
            sorts: 0,
        }
    }
}

impl AgentOrder {
    /// The capacities of the buffers `reserve` reserves, summed (see `StepScratch::held`).
    #[cfg(debug_assertions)]
    pub fn held(&self) -> usize {
        self.cells.capacity() + self.keys.capacity() + self.scratch.capacity() + self.starts.capacity()
    }

    /// Before a step (see `step::room`) of a store of `count` agents in `slots` slots: room for
    /// sorting the store (a one pass's) and for putting the events into id order (every step's).
    pub fn reserve(&mut self, count: usize, slots: usize, one_pass: bool) -> Result<(), TryReserveError> {
        if one_pass && count > self.min_agents {
            reserve(&mut self.cells, count)?;
            reserve(&mut self.keys, count)?;
            reserve(&mut self.scratch, count)?;
        }
        reserve(&mut self.starts, slots + 1)
    }
}

impl World {
    /// Before a one pass whose grid spans the plane `axes`: a big world's agents are sorted
    /// when they never were on this plane, or when the last pass found too many out of order.
    /// Returns the frame of the store's keys for the pass to sample (`None`: a small world).
    pub(super) fn keep_agents_in_order(&mut self, axes: [usize; 2]) -> Option<KeyFrame> {
        let order = &mut self.scratch.agent_order;
        let count = self.agents.len();
        if count <= order.min_agents {
            return None;
        }
        Some(match order.frame {
            Some(frame) if frame.axes == axes && order.sampled_descents * SAMPLE * RESORT_FRACTION <= count => frame,
            last => {
                // The agents' cells in one pass over the store (each entry its own cache line).
                order.cells.clear();
                order.cells.extend(self.agents.entries().iter().map(|e| spatial_cell(e.value.position, axes)));
                let cells = &order.cells;
                let origin = cells.iter().fold([i32::MAX; 2], |lo, c| [lo[0].min(c[0]), lo[1].min(c[1])]);
                let coarsen = pack_spatial_keys(|| cells.iter().copied(), origin, &mut order.keys);
                radix::sort_by_key(&mut order.keys, &mut order.scratch);
                if order.keys.iter().enumerate().any(|(k, &word)| word as u32 as usize != k) {
                    self.agents.permute(&mut order.keys);
                    // Each agent's memory records are a heap block of their own, placed in the
                    // order the agents first remembered something. At a first sort on this plane
                    // (records made in creation or id order, as after a load) they are copied
                    // afresh in the new order (all before the old are freed, so none reuses an
                    // old place) to follow their agents: a 100,000-agent step went from 51 to
                    // 45 ms. Sorted again later, agents move little in the order and their
                    // records stay near: copying them again cost 13–23 ms a sort at 100,000
                    // agents, more than the sort, for 2–3% off the steps after it.
                    // The copies are made fallibly: without the memory for them, the records stay
                    // where they are (which changes only where they sit).
                    if last.is_none_or(|frame| frame.axes != axes)
                        && let Some(fresh) = copy_records(self.agents.entries())
                    {
                        for (entry, records) in self.agents.entries_mut().iter_mut().zip(fresh) {
                            entry.value.records = records;
                        }
                    }
                }
                let frame = KeyFrame { axes, origin, coarsen };
                order.frame = Some(frame);
                order.sampled_descents = 0;
                order.sorts += 1;
                frame
            }
        })
    }

    /// The step's events, made in store order, put into id order (each agent's own in the order
    /// they were made): as if the agents had been concluded one by one in id order.
    pub(super) fn events_into_id_order(&mut self) {
        let AgentOrder { starts, spare, .. } = &mut self.scratch.agent_order;
        let events = &mut self.events;
        by_agent(&mut events.percepts, &mut spare.percepts, |e| e.agent.index, starts);
        by_agent(&mut events.brain, &mut spare.brain, |e| e.agent.index, starts);
        by_agent(&mut events.forgotten, &mut spare.forgotten, |e| e.agent.index, starts);
        by_agent(&mut events.awareness, &mut spare.awareness, |e| e.agent.index, starts);
        #[cfg(any(test, feature = "testing"))]
        by_agent(&mut events.sight_ticks, &mut spare.sight_ticks, |id| id.index, starts);
        by_agent(&mut events.sight_changes, &mut spare.sight_changes, |e| e.agent.index, starts);
    }
}

/// A copy of every agent's memory records, each in a heap block of its own (as `clone` makes
/// them); `None` when the memory for them cannot be had.
fn copy_records(entries: &[Entry<Agent>]) -> Option<Vec<Vec<MemoryRecord>>> {
    let mut fresh = Vec::new();
    fresh.try_reserve_exact(entries.len()).ok()?;
    for e in entries {
        let mut copy = Vec::new();
        copy.try_reserve_exact(e.value.records.len()).ok()?;
        copy.extend_from_slice(&e.value.records);
        fresh.push(copy);
    }
    Some(fresh)
}

/// Stable counting sort of `items` by `agent` into `spare`, which then takes their place (its
/// old buffer becomes the next step's spare). `starts` is scratch, one word per slot index.
fn by_agent<T: Copy>(items: &mut Vec<T>, spare: &mut Vec<T>, agent: impl Fn(&T) -> u32, starts: &mut Vec<u32>) {
    if items.windows(2).all(|w| agent(&w[0]) <= agent(&w[1])) {
        return;
    }
    let slots = items.iter().map(|item| agent(item) as usize).max().unwrap_or(0) + 1;
    starts.clear();
    starts.resize(slots + 1, 0);
    for item in items.iter() {
        starts[agent(item) as usize + 1] += 1;
    }
    for k in 1..=slots {
        starts[k] += starts[k - 1];
    }
    spare.clear();
    spare.resize(items.len(), items[0]);
    for item in items.iter() {
        let at = &mut starts[agent(item) as usize];
        spare[*at as usize] = *item;
        *at += 1;
    }
    std::mem::swap(items, spare);
}

#[cfg(test)]
mod tests {
    use crate::test_rng::Xorshift;
    use crate::{AgentDef, OccluderDef, OccluderShape, TargetDef, Vec3, World, WorldDef};

    fn town(threads: u32, budget: u32) -> World {
        let def = WorldDef { worker_threads: threads, max_sight_ticks_per_step: budget, ..Default::default() };
        let mut world = World::new(&def).unwrap();
        let mut rng = Xorshift(0x5DEE_CE66_D1CE_4E5B);
        let mut spot = |side: f32| {
            let x = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            let z = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            Vec3::new(x * side, 0.0, z * side)
        };
        for _ in 0..60 {
            let half_extents = Vec3::new(1.5, 2.0, 0.5);
            let def =
                OccluderDef { shape: OccluderShape::Box { half_extents }, position: spot(120.0), ..Default::default() };
            world.add_occluder(&def).unwrap();
        }
        for _ in 0..60 {
            world.create_target(&TargetDef { position: spot(120.0), ..Default::default() }).unwrap();
        }
        for k in 0..700 {
            let mut def = AgentDef { position: spot(120.0), forward: Vec3::X, ..Default::default() };
            def.sight.view_radius = 25.0;
            def.sight.rate_hz = [0.0, 10.0, 30.0][k % 3];
            def.memory.decay_per_second = 0.4;
            world.create_agent(&def).unwrap();
        }
        world
    }

    /// Agents that wander, come and go are sorted again and again; the one pass over the sorted
    /// store gives exactly the events, in exactly the order, of the two-stage step (which never
    /// sorts the store), on one thread and on two.
    #[test]
    fn a_store_sorted_again_as_agents_move_gives_the_same_events_in_id_order() {
        for threads in [1, 2] {
            let (mut sorted, mut spatial) = (town(threads, 0), town(threads, u32::MAX));
            sorted.scratch.agent_order.min_agents = 100;
            let mut rng = Xorshift(0x1234_5678_9ABC_DEF1);
            for step in 0..60 {
                let ids: Vec<_> = sorted.agents().map(|(id, _)| id).collect();
                for &id in &ids {
                    if rng.next_u64().is_multiple_of(2) {
                        continue;
                    }
                    let a = sorted.agent(id).unwrap();
                    let turn = (rng.next_u64() % 628) as f32 / 100.0;
                    let jump = if rng.next_u64().is_multiple_of(10) { 40.0 } else { 3.0 };
                    let position = a.position + Vec3::new(turn.cos(), 0.0, turn.sin()) * jump;
                    let forward = Vec3::new(turn.sin(), 0.0, turn.cos());
                    for world in [&mut sorted, &mut spatial] {
                        world.set_agent_pose(id, position, forward).unwrap();
                    }
                }
                if step % 7 == 3 {
                    let gone = ids[(rng.next_u64() % ids.len() as u64) as usize];
                    let def = AgentDef { position: Vec3::new(60.0, 0.0, 60.0), ..Default::default() };
                    for world in [&mut sorted, &mut spatial] {
                        world.destroy_agent(gone).unwrap();
                        world.create_agent(&def).unwrap();
                    }
                }
                sorted.step(0.05).unwrap();
                spatial.step(0.05).unwrap();
                let (a, b) = (sorted.events(), spatial.events());
                assert_eq!(a.percepts, b.percepts, "{threads} threads, step {step}");
                assert_eq!(a.brain, b.brain, "{threads} threads, step {step}");
                assert_eq!(a.forgotten, b.forgotten, "{threads} threads, step {step}");
                assert_eq!(a.awareness, b.awareness, "{threads} threads, step {step}");
                assert_eq!(a.sight_ticks, b.sight_ticks, "{threads} threads, step {step}");
                assert_eq!(a.sight_changes, b.sight_changes, "{threads} threads, step {step}");
                assert!(a.sight_ticks.windows(2).all(|w| w[0].index < w[1].index), "id order");
            }
            assert!(sorted.events().percepts.len() > 20, "the scene sees things");
            let sorts = sorted.scratch.agent_order.sorts;
            assert!(sorts >= 3, "{threads} threads: the store was sorted {sorts} times");
            assert_eq!(spatial.scratch.agent_order.sorts, 0, "the two-stage step leaves the store alone");
            let entries = sorted.agents.entries();
            assert!(entries.windows(2).any(|w| w[0].index > w[1].index), "the store is not in id order");
        }
    }
}
