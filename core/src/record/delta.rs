//! The FRAME sections that hold only what changed (`docs/recording.md`): Agents, Targets and
//! Memory, compared with what the recording last wrote for each slot, and their "gone" lists.
//! A key frame writes them whole, so a reader can start there.

use super::Focus;
use super::writer::{Rec, Writer, id_bits};
use crate::agent::Agent;
use crate::id::AgentId;
use crate::math::Vec3;
use crate::prefetch::{prefetch, prefetch_offset};
use crate::target::MAX_CHECK_POINTS;
use crate::world::World;

/// Bytes of an Agents record.
pub(crate) const AGENT_BYTES: usize = 84;
/// Bytes of the largest Targets record.
const TARGET_MAX: usize = 24 + 12 * MAX_CHECK_POINTS;
/// How far ahead the pass over the agents asks for their memory.
const LOOKAHEAD: usize = 4;
/// A key frame every this many steps.
pub(crate) const KEY_FRAME_EVERY: u32 = 60;
/// What a slot holds when nothing was written for it (no id is 0).
const NOTHING: u64 = 0;

/// What the recording last wrote for each slot.
pub(crate) struct Written {
    agents: Vec<[u8; AGENT_BYTES]>,
    /// Unused bytes past a target's check points are 0 (`Rec` starts zeroed).
    targets: Vec<[u8; TARGET_MAX]>,
    /// A fingerprint of each agent in focus's memory as last written (`NOTHING`: none).
    memory: Vec<u64>,
    /// The Memory records of the frame being made, as (agent slot, range in `memory_bytes`).
    memory_changed: Vec<(u32, u32, u32)>,
    memory_bytes: Vec<u8>,
    /// The slots written in the frame being made, and the ids gone (scratch).
    changed: Vec<u32>,
    gone: Vec<u64>,
    /// Whether each slot was live in the frame being made (scratch).
    live: Vec<bool>,
    /// The next frame is a key frame whatever its step (after a START).
    pub key_next: bool,
}

impl Default for Written {
    fn default() -> Self {
        Written {
            agents: Vec::new(),
            targets: Vec::new(),
            memory: Vec::new(),
            memory_changed: Vec::new(),
            memory_bytes: Vec::new(),
            changed: Vec::new(),
            gone: Vec::new(),
            live: Vec::new(),
            key_next: true,
        }
    }
}

fn id_of(record: &[u8]) -> u64 {
    u64::from_le_bytes(record[..8].try_into().expect("an id"))
}

/// The Agents record of an agent (its sight tick and schedule are in Sight ticks).
fn agent_record(id: AgentId, agent: &Agent, focus: bool) -> Rec<AGENT_BYTES> {
    let s = &agent.tuning.sight;
    let target = agent.brain.move_target(&agent.brain.focus_view(&agent.records));
    let flags = (target.is_some() as u8) << 1 | (s.enabled as u8) << 2 | (focus as u8) << 3;
    let (mut stage, mut level) = (0u8, 0.0f32);
    for r in &agent.records {
        stage = stage.max(r.stage as u8);
        level = level.max(r.awareness);
    }
    let mut r = Rec::<AGENT_BYTES>::new();
    r.id(id.index, id.generation).vec3(agent.position).vec3(agent.forward).vec3(agent.eye());
    r.f32(s.view_radius).f32(s.view_angle * 0.5).f32(s.peripheral_radius).f32(s.peripheral_angle * 0.5);
    r.u8(agent.brain.state as u8).u8(flags).u8(agent.team).u8(stage).f32(level);
    r.vec3(target.unwrap_or(Vec3::ZERO)).f32(s.lose_sight_radius);
    r
}

fn agent_bytes(r: &[u8; AGENT_BYTES]) -> &[u8] {
    &r[..]
}

/// A Targets record's bytes: its check points' count is at byte 21.
fn target_bytes(r: &[u8; TARGET_MAX]) -> &[u8] {
    &r[..24 + 12 * r[21] as usize]
}

/// A fingerprint of an agent's memory records (never `NOTHING`).
fn memory_fingerprint(agent: &Agent) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64;
    let mut mix = |v: u64| h = (h.rotate_left(5) ^ v).wrapping_mul(0x517C_C1B7_2722_0A95);
    for m in &agent.records {
        let p = m.last_known_position;
        mix(id_bits(m.target.index, m.target.generation));
        mix((p.x.to_bits() as u64) << 32 | p.y.to_bits() as u64);
        mix((p.z.to_bits() as u64) << 32 | m.confidence.to_bits() as u64);
        mix((m.last_percept_time.to_bits() as u64) << 32 | m.seen as u64);
    }
    h.max(1)
}

/// Writes the `changed` slots' records in slot order, then the gone list: the ids in `gone`
/// (records replaced by another id's) and those of the slots written before and not live now,
/// sorted (none in a key frame). Slots not live are emptied and `forget` hears them.
fn write_changed_and_gone<R: Copy>(
    w: &mut Writer,
    scratch: (&mut Vec<u32>, &mut Vec<u64>, &[bool]),
    key: bool,
    records: &mut [R],
    (empty, bytes): (R, impl Fn(&R) -> &[u8]),
    mut forget: impl FnMut(usize),
) {
    let (changed, gone, live) = scratch;
    changed.sort_unstable();
    w.u32(changed.len() as u32);
    for &slot in changed.iter() {
        w.bytes(bytes(&records[slot as usize]));
    }
    for (slot, record) in records.iter_mut().enumerate() {
        let id = id_of(bytes(record));
        if id != NOTHING && !live.get(slot).copied().unwrap_or(false) {
            gone.push(id);
            *record = empty;
            forget(slot);
        }
    }
    if key {
        gone.clear();
    }
    gone.sort_unstable();
    w.u32(gone.len() as u32);
    gone.iter().for_each(|&id| w.u64(id));
}

/// Byte-equal, eight at a time (records are short: a call to `memcmp` cost more than the test).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("8 bytes"));
    let (wa, wb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tails = wa.remainder() == wb.remainder();
    tails && wa.zip(wb).fold(0, |acc, (x, y)| acc | (word(x) ^ word(y))) == 0
}

/// Stores `record` (of `id`) in `slot` if it differs from what is there (or `key`): noted in
/// `changed`, and a different id's record it replaces in `gone`.
fn note<const N: usize>(
    (changed, gone): (&mut Vec<u32>, &mut Vec<u64>),
    stored: &mut [u8; N],
    record: &[u8; N],
    len: usize,
    key: bool,
    slot: u32,
) -> bool {
    if !key && same(&stored[..len], &record[..len]) {
        return false;
    }
    let before = id_of(&stored[..]);
    if before != NOTHING && before != id_of(&record[..]) {
        gone.push(before);
    }
    *stored = *record;
    changed.push(slot);
    true
}

impl Written {
    /// Sections 1 and 2 (Agents, Agents gone). In the same pass (each agent's memory is a heap
    /// block of its own: read once), notes the Memory section and sets the next tick of each
    /// agent that ticked: `next_in[slot]`, where it is not NaN.
    pub fn write_agents(&mut self, world: &World, focus: &Focus, key: bool, next_in: &mut [f32], w: &mut Writer) {
        let slots = world.agents.live_indices().last().map_or(0, |i| i as usize + 1);
        if self.agents.len() < slots {
            self.agents.resize(slots, [0; AGENT_BYTES]);
            self.memory.resize(slots, NOTHING);
        }
        self.live.clear();
        self.live.resize(self.agents.len(), false);
        (self.changed.clear(), self.gone.clear(), self.memory_changed.clear(), self.memory_bytes.clear());
        let entries = world.agents.entries();
        for (k, e) in entries.iter().enumerate() {
            // The agents come in store order, their memories and last records by slot: ask for
            // those of an agent a few ahead (each would be a wait for memory).
            if let Some(ahead) = entries.get(k + LOOKAHEAD) {
                if let Some(first) = ahead.value.records.first() {
                    prefetch(first);
                }
                if let Some(record) = self.agents.get(ahead.index as usize) {
                    prefetch(record);
                    prefetch_offset(record, 64);
                }
            }
            let id = AgentId { index: e.index, generation: e.generation };
            let in_focus = focus.contains(id);
            let r = agent_record(id, &e.value, in_focus);
            if in_focus {
                self.note_memory(id, &e.value, key);
            }
            let slot = e.index as usize;
            note((&mut self.changed, &mut self.gone), &mut self.agents[slot], &r.buf, AGENT_BYTES, key, e.index);
            self.live[slot] = true;
            if let Some(next) = next_in.get_mut(slot).filter(|n| !n.is_nan()) {
                *next = (e.value.next_sense_time - world.time) as f32;
            }
        }
        let memory = &mut self.memory;
        let scratch = (&mut self.changed, &mut self.gone, &self.live[..]);
        let empty = ([0; AGENT_BYTES], agent_bytes);
        write_changed_and_gone(w, scratch, key, &mut self.agents, empty, |slot| memory[slot] = NOTHING);
    }

    /// Sections 4 and 5 (Targets, Targets gone).
    pub fn write_targets(&mut self, world: &World, key: bool, w: &mut Writer) {
        let slots = world.targets.slots().len();
        if self.targets.len() < slots {
            self.targets.resize(slots, [0; TARGET_MAX]);
        }
        self.live.clear();
        self.live.resize(self.targets.len(), false);
        (self.changed.clear(), self.gone.clear());
        for (id, t) in world.targets() {
            let mut r = Rec::<TARGET_MAX>::new();
            r.id(id.index, id.generation).vec3(t.position()).u8(t.enabled() as u8).u8(t.point_count).pad(2);
            t.world_points().for_each(|p| {
                r.vec3(p);
            });
            let slot = id.index as usize;
            note((&mut self.changed, &mut self.gone), &mut self.targets[slot], &r.buf, TARGET_MAX, key, id.index);
            self.live[slot] = true;
        }
        let scratch = (&mut self.changed, &mut self.gone, &self.live[..]);
        write_changed_and_gone(w, scratch, key, &mut self.targets, ([0; TARGET_MAX], target_bytes), |_| {});
    }

    /// Section 12 (Memory), from what `write_agents` noted in its pass over the agents.
    pub fn write_memory(&mut self, w: &mut Writer) {
        self.memory_changed.sort_unstable_by_key(|&(slot, ..)| slot);
        w.u32(self.memory_changed.len() as u32);
        for &(_, start, end) in &self.memory_changed {
            w.bytes(&self.memory_bytes[start as usize..end as usize]);
        }
    }

    /// Notes the Memory record of an agent in focus if its memory changed (or `key`).
    fn note_memory(&mut self, id: AgentId, agent: &Agent, key: bool) {
        let fingerprint = memory_fingerprint(agent);
        let slot = &mut self.memory[id.index as usize];
        if !key && *slot == fingerprint {
            return;
        }
        *slot = fingerprint;
        let start = self.memory_bytes.len() as u32;
        let mut w = Writer::appending(std::mem::take(&mut self.memory_bytes));
        w.id(id.index, id.generation);
        w.u32(agent.records.len() as u32);
        for m in &agent.records {
            let mut r = Rec::<32>::new();
            r.id(m.target.index, m.target.generation).vec3(m.last_known_position);
            r.f32(m.confidence).f32(m.last_percept_time).u8(m.seen as u8).pad(3);
            w.rec(&r);
        }
        self.memory_bytes = w.into_bytes();
        self.memory_changed.push((id.index, start, self.memory_bytes.len() as u32));
    }
}
