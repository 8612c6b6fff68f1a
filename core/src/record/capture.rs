//! The Agents and Memory records of a frame, made inside the step's own pass over the agents,
//! right after each agent is concluded: its state and its memory (a heap block of its own) are
//! in cache then, where a pass after the step would wait for memory at every agent (a third of
//! a 10 Hz town step's recording cost). Each conclusion chunk keeps the records that differ
//! from what the recording last wrote (all of them for a key frame); the frame takes them in
//! slot order (see `delta`).

use super::writer::{Rec, Writer, id_bits};
use crate::agent::Agent;
use crate::bits::has_bit;
use crate::id::AgentId;
use crate::math::Vec3;

/// Bytes of an Agents record.
pub(crate) const AGENT_BYTES: usize = 84;

/// What the capture reads of the recording (last written records and fingerprints by slot).
pub(crate) struct CaptureInput<'a> {
    pub agents: &'a [[u8; AGENT_BYTES]],
    pub memory: &'a [u64],
    /// The fingerprint of each agent's state when last taken (see `fingerprints`).
    pub states: &'a [u64],
    /// A bit per slot: an input changed the agent since the last frame.
    pub touched: &'a [u64],
    /// The agents in focus, a bit per slot; empty = every agent.
    pub focus: &'a [u64],
    /// The frame will be a key frame: every record is taken.
    pub key: bool,
    /// The world's time after the step.
    pub time: f64,
}

impl CaptureInput<'_> {
    fn in_focus(&self, slot: u32) -> bool {
        crate::bits::in_slot_set(self.focus, slot)
    }

    /// The agent's records are those last taken: what a step changes of it is as it was then
    /// (`state`), and no input changed the rest (its pose and settings) since. Most agents at
    /// most steps: between their sight ticks, or seeing the same things.
    fn unchanged(&self, slot: u32, state: u64) -> bool {
        !self.key && self.states.get(slot as usize) == Some(&state) && !has_bit(self.touched, slot)
    }
}

/// One conclusion chunk's Memory records that changed, as written.
#[derive(Default)]
pub(crate) struct CapturedMemory {
    /// (agent slot, fingerprint, range of its record in `bytes`).
    pub agents: Vec<(u32, u64, u32, u32)>,
    pub bytes: Vec<u8>,
}

impl CapturedMemory {
    pub fn clear(&mut self) {
        self.agents.clear();
        self.bytes.clear();
    }

    /// Its agent `i`'s record.
    pub fn record(&self, i: usize) -> &[u8] {
        let (_, _, start, end) = self.agents[i];
        &self.bytes[start as usize..end as usize]
    }
}

/// One conclusion chunk's records of the step (cleared when a step begins).
#[derive(Default)]
pub(crate) struct AgentCapture {
    /// Agents records that changed, by (slot, record).
    pub agents: Vec<(u32, [u8; AGENT_BYTES])>,
    pub memory: CapturedMemory,
    /// The next tick of each agent that ticked: (slot, seconds from the step's time).
    pub next_ticks: Vec<(u32, f32)>,
    /// The state fingerprint of each agent taken whose state changed: (slot, fingerprint).
    pub states: Vec<(u32, u64)>,
}

impl AgentCapture {
    pub fn clear(&mut self) {
        self.agents.clear();
        self.memory.clear();
        self.next_ticks.clear();
        self.states.clear();
    }

    /// Takes agent `id`'s records, concluded just now (`ticked`: its sight ticked).
    #[inline]
    pub fn take(&mut self, input: &CaptureInput, id: AgentId, agent: &Agent, ticked: bool) {
        if ticked {
            self.next_ticks.push((id.index, (agent.next_sense_time - input.time) as f32));
        }
        let (memory, state) = fingerprints(agent);
        if input.unchanged(id.index, state) {
            return;
        }
        self.states.push((id.index, state));
        let focus = input.in_focus(id.index);
        let record = agent_record(id, agent, focus);
        let slot = id.index as usize;
        if input.key || input.agents.get(slot).is_none_or(|r| !same(r, &record.buf)) {
            self.agents.push((id.index, record.buf));
        }
        if focus && (input.key || input.memory.get(slot) != Some(&memory)) {
            self.memory_record(id, agent, memory);
        }
    }

    fn memory_record(&mut self, id: AgentId, agent: &Agent, fingerprint: u64) {
        let memory = &mut self.memory;
        let start = memory.bytes.len() as u32;
        let mut w = Writer::appending(std::mem::take(&mut memory.bytes));
        w.id(id.index, id.generation);
        w.u32(agent.records.len() as u32);
        for m in &agent.records {
            let mut r = Rec::<32>::new();
            r.id(m.target.index, m.target.generation).vec3(m.last_known_position);
            r.f32(m.confidence).f32(m.last_percept_time).u8(m.seen as u8).pad(3);
            w.rec(&r);
        }
        memory.bytes = w.into_bytes();
        memory.agents.push((id.index, fingerprint, start, memory.bytes.len() as u32));
    }
}

/// Byte-equal, eight at a time (records are short: a call to `memcmp` cost more than the test).
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("8 bytes"));
    let (wa, wb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tails = wa.remainder() == wb.remainder();
    tails && wa.zip(wb).fold(0, |acc, (x, y)| acc | (word(x) ^ word(y))) == 0
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

/// Fingerprints (never 0, which stands for none) of what a step can change of an agent's
/// records: its Memory record, and its state (the Memory record with the brain and the
/// awareness, the rest of its Agents record being its pose and settings). Taken of every agent
/// at every step: each record's words are multiplied apart, so only one step a record waits
/// for the one before.
fn fingerprints(agent: &Agent) -> (u64, u64) {
    const K: [u64; 5] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x27D4_EB2F_1656_67C5,
        0x85EB_CA77_C2B2_AE63,
    ];
    let mix = |h: u64, v: u64| (h.rotate_left(23) ^ v).wrapping_mul(0x517C_C1B7_2722_0A95);
    let (mut memory, mut state) = (K[0], K[1]);
    for m in &agent.records {
        let p = m.last_known_position;
        let words = [
            id_bits(m.target.index, m.target.generation),
            (p.x.to_bits() as u64) << 32 | p.y.to_bits() as u64,
            (p.z.to_bits() as u64) << 32 | m.confidence.to_bits() as u64,
            (m.last_percept_time.to_bits() as u64) << 32 | m.seen as u64,
        ];
        let record = words.iter().zip(K).fold(0, |acc, (&w, k)| acc ^ w.wrapping_mul(k).rotate_left(k as u32 & 63));
        memory = mix(memory, record);
        state = mix(state, ((m.awareness.to_bits() as u64) << 8 | m.stage as u64).wrapping_mul(K[4]));
    }
    let b = &agent.brain;
    let i = b.investigate_position;
    // The move target the Agents record shows: a belief search's point, when it has one.
    let s = b.search_point.unwrap_or(Vec3::splat(f32::NAN));
    let brain = [
        id_bits(b.focus.index, b.focus.generation) | (b.state as u64) << 32,
        (i.x.to_bits() as u64) << 32 | i.y.to_bits() as u64,
        (i.z.to_bits() as u64) << 32 | s.x.to_bits() as u64,
        memory,
        (s.y.to_bits() as u64) << 32 | s.z.to_bits() as u64,
    ];
    let brain = brain.iter().zip(K).fold(0, |acc, (&w, k)| acc ^ w.wrapping_mul(k).rotate_left(k as u32 & 63));
    (memory.max(1), mix(state, brain).max(1))
}
