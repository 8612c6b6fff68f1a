//! The FRAME sections that hold only what changed (`docs/recording.md`): Agents, Targets and
//! Memory, compared with what the recording last wrote for each slot, and their "gone" lists.
//! A key frame writes them whole, so a reader can start there. The agents' records come from
//! the step's own pass (`capture`); the targets' (a few hundred) are read here.

use super::capture::{AGENT_BYTES, AgentCapture, CaptureInput, CapturedMemory, same};
use super::writer::{Rec, Writer};
use crate::bits::bits_set;
use crate::target::MAX_CHECK_POINTS;
use crate::world::World;

/// Bytes of a Targets record before its check points (format 3: without team and layers).
const TARGET_HEAD: usize = 32;
const TARGET_HEAD_V3: usize = 24;
/// Bytes of the largest Targets record.
const TARGET_MAX: usize = TARGET_HEAD + 12 * MAX_CHECK_POINTS;
/// A key frame every this many steps.
pub(crate) const KEY_FRAME_EVERY: u32 = 60;
/// What a slot holds when nothing was written for it (no id is 0).
const NOTHING: u64 = 0;

/// What the recording last wrote for each slot.
pub(crate) struct Written {
    agents: Vec<[u8; AGENT_BYTES]>,
    /// The id of each slot's Agents record (`NOTHING`: none), for the gone list, and how many
    /// are not `NOTHING`.
    agent_ids: Vec<u64>,
    agents_written: usize,
    /// A fingerprint of each agent in focus's memory as last written (`NOTHING`: none).
    memory: Vec<u64>,
    /// Each agent's state fingerprint when last taken (see `capture`; `NOTHING`: none).
    states: Vec<u64>,
    /// Unused bytes past a target's check points are 0 (`Rec` starts zeroed).
    targets: Vec<[u8; TARGET_MAX]>,
    /// The frame being made's captured records in slot order: (slot, chunk, index).
    order: Vec<(u32, u32, u32)>,
    memory_order: Vec<(u32, u32, u32)>,
    by_slot: Vec<u64>,
    /// Scratch of the Targets section: slots written; and the ids gone.
    changed: Vec<u32>,
    gone: Vec<u64>,
    /// The next frame is a key frame whatever its step (after a START).
    pub key_next: bool,
    /// The format the frames are written in (a replay writes its recording's).
    pub version: u32,
}

impl Default for Written {
    fn default() -> Self {
        Written {
            agents: Vec::new(),
            agent_ids: Vec::new(),
            agents_written: 0,
            memory: Vec::new(),
            states: Vec::new(),
            targets: Vec::new(),
            order: Vec::new(),
            memory_order: Vec::new(),
            by_slot: Vec::new(),
            changed: Vec::new(),
            gone: Vec::new(),
            key_next: true,
            version: super::FORMAT_VERSION,
        }
    }
}

fn id_of(record: &[u8]) -> u64 {
    u64::from_le_bytes(record[..8].try_into().expect("an id"))
}

/// Is the agent of this id (as [`super::writer::id_bits`] packs it) alive in `world`?
fn agent_alive(world: &World, id: u64) -> bool {
    let index = id as u32;
    let generation = world.agents.generation_at(index);
    (generation & 0xFFFF) as u64 == id >> 48 && world.agents.get(index, generation).is_some()
}

/// Lists the captured records `(slot, chunk, index)` in slot order (a slot is captured at most
/// once a step); `by_slot` is scratch. Few records (a 10 Hz step's) are sorted; many are placed
/// by slot, which costs less than a sort of thousands.
pub(crate) fn in_slot_order<I: Iterator<Item = u32>>(
    chunks: impl Iterator<Item = I>,
    slots: usize,
    by_slot: &mut Vec<u64>,
    out: &mut Vec<(u32, u32, u32)>,
) {
    out.clear();
    for (c, chunk) in chunks.enumerate() {
        out.extend(chunk.enumerate().map(|(i, slot)| (slot, c as u32, i as u32)));
    }
    if out.len() * 8 <= slots {
        out.sort_unstable_by_key(|r| r.0);
        return;
    }
    by_slot.clear();
    by_slot.resize(slots, u64::MAX);
    for &(slot, c, i) in out.iter() {
        if let Some(at) = by_slot.get_mut(slot as usize) {
            *at = (c as u64) << 32 | i as u64;
        }
    }
    out.clear();
    let placed = by_slot.iter().enumerate().filter(|(_, at)| **at != u64::MAX);
    out.extend(placed.map(|(slot, &at)| (slot as u32, (at >> 32) as u32, at as u32)));
}

/// Writes `gone` sorted (or nothing in a key frame).
fn write_gone(w: &mut Writer, gone: &mut Vec<u64>, key: bool) {
    if key {
        gone.clear();
    }
    gone.sort_unstable();
    w.u32(gone.len() as u32);
    gone.iter().for_each(|&id| w.u64(id));
}

impl Written {
    /// What the step's pass compares its agents with (see `capture`).
    /// `touched`: a bit per agent slot changed by an input since the last frame.
    pub fn capture_input<'a>(&'a self, focus: &'a [u64], touched: &'a [u64], key: bool, time: f64) -> CaptureInput<'a> {
        CaptureInput { agents: &self.agents, memory: &self.memory, states: &self.states, touched, focus, key, time }
    }

    /// Sections 1 and 2 (Agents, Agents gone) from the step's `captures`; also sets the next
    /// tick of each agent that ticked (`next_in[slot]`) and readies the Memory section.
    pub fn write_agents<'c>(
        &mut self,
        world: &World,
        captures: impl Iterator<Item = &'c AgentCapture> + Clone,
        key: bool,
        next_in: &mut [f32],
        w: &mut Writer,
    ) {
        let slots = world.agents.live_indices().last().map_or(0, |i| i as usize + 1);
        if self.agents.len() < slots {
            self.agents.resize(slots, [0; AGENT_BYTES]);
            self.agent_ids.resize(slots, NOTHING);
            self.memory.resize(slots, NOTHING);
            self.states.resize(slots, NOTHING);
        }
        self.gone.clear();
        for capture in captures.clone() {
            for &(slot, next) in &capture.next_ticks {
                if let Some(n) = next_in.get_mut(slot as usize) {
                    *n = next;
                }
            }
        }
        let records = captures.clone().map(|c| c.agents.iter().map(|a| a.0));
        in_slot_order(records, slots, &mut self.by_slot, &mut self.order);
        let memories = captures.clone().map(|c| c.memory.agents.iter().map(|m| m.0));
        in_slot_order(memories, slots, &mut self.by_slot, &mut self.memory_order);
        let captures: Vec<&AgentCapture> = captures.collect();
        w.u32(self.order.len() as u32);
        for &(slot, c, i) in &self.order {
            let record = &captures[c as usize].agents[i as usize].1;
            let (before, now) = (self.agent_ids[slot as usize], id_of(record));
            if before != NOTHING && before != now {
                self.gone.push(before);
            }
            self.agents_written += (before == NOTHING) as usize;
            (self.agents[slot as usize], self.agent_ids[slot as usize]) = (*record, now);
            w.bytes(record);
        }
        for &(slot, state) in captures.iter().flat_map(|c| &c.states) {
            self.states[slot as usize] = state;
        }
        for &(slot, c, i) in &self.memory_order {
            self.memory[slot as usize] = captures[c as usize].memory.agents[i as usize].1;
        }
        // Every live agent has a record now: more records than agents means some are gone.
        for slot in 0..self.agent_ids.len() {
            if self.agents_written == world.agents.len() {
                break;
            }
            let id = self.agent_ids[slot];
            if id != NOTHING && !agent_alive(world, id) {
                self.gone.push(id);
                (self.agents[slot], self.agent_ids[slot], self.memory[slot]) = ([0; AGENT_BYTES], NOTHING, NOTHING);
                self.states[slot] = NOTHING;
                self.agents_written -= 1;
            }
        }
        write_gone(w, &mut self.gone, key);
    }

    /// Where each agent's Memory record is, `(slot, chunk, index)` in slot order, as
    /// `write_agents` readied it; swapped with `other` (the recording's thread takes it).
    pub fn swap_memory_order(&mut self, other: &mut Vec<(u32, u32, u32)>) {
        std::mem::swap(&mut self.memory_order, other);
    }

    pub fn memory_order(&self) -> &[(u32, u32, u32)] {
        &self.memory_order
    }

    /// Sections 4 and 5 (Targets, Targets gone). Only inputs change targets: between key
    /// frames only those `touched` (a bit per slot) are looked at.
    pub fn write_targets(&mut self, world: &World, key: bool, touched: &[u64], w: &mut Writer) {
        let slots = world.targets.slots().len();
        if self.targets.len() < slots {
            self.targets.resize(slots, [0; TARGET_MAX]);
        }
        self.changed.clear();
        self.gone.clear();
        let stored_slots = self.targets.len() as u32;
        let head = if self.version >= 4 { TARGET_HEAD } else { TARGET_HEAD_V3 };
        let mut visit = |slot: u32| {
            let stored = &mut self.targets[slot as usize];
            match world.targets.at(slot) {
                Some(t) => {
                    let generation = world.targets.generation_at(slot);
                    let mut r = Rec::<TARGET_MAX>::new();
                    r.id(slot, generation).vec3(t.position()).u8(t.enabled() as u8).u8(t.point_count).pad(2);
                    if head == TARGET_HEAD {
                        r.u32(t.team()).u32(t.layers());
                    }
                    t.world_points().for_each(|p| {
                        r.vec3(p);
                    });
                    if key || !same(stored, &r.buf) {
                        let before = id_of(stored);
                        if before != NOTHING && before != id_of(&r.buf) {
                            self.gone.push(before);
                        }
                        *stored = r.buf;
                        self.changed.push(slot);
                    }
                }
                None => {
                    let id = id_of(stored);
                    if id != NOTHING {
                        self.gone.push(id);
                        *stored = [0; TARGET_MAX];
                    }
                }
            }
        };
        match key {
            true => (0..stored_slots).for_each(&mut visit),
            false => bits_set(touched).filter(|&slot| slot < stored_slots).for_each(&mut visit),
        }
        w.u32(self.changed.len() as u32);
        for &slot in &self.changed {
            let record = &self.targets[slot as usize];
            w.bytes(&record[..head + 12 * record[21] as usize]);
        }
        write_gone(w, &mut self.gone, key);
    }
}

/// Section 12 (Memory): the records at `order` (`(slot, chunk, index)`, see
/// `Written::memory_order`) of the chunks' `memory`.
pub(crate) fn write_memory<'m>(
    order: &[(u32, u32, u32)],
    memory: impl Fn(usize) -> &'m CapturedMemory,
    w: &mut Writer,
) {
    w.u32(order.len() as u32);
    for &(_, c, i) in order {
        w.bytes(memory(c as usize).record(i as usize));
    }
}
