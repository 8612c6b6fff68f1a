//! The FRAME sections written on the recording's thread: the step's events (7–11), the Memory
//! (12) and the Why (13). They need no world, only data the step made anyway: the stepping
//! thread copies the events (one copy of each list), swaps the sweep's traces and the captured
//! memory records out (no copy at all), and leaves the writing to the thread (see `sink`). A replay, which compares each frame as it goes,
//! writes them in place with the same functions.

use super::Focus;
use super::capture::CapturedMemory;
use super::delta::write_memory;
use super::frame::write_events;
use super::why::write_why;
use super::writer::Writer;
use crate::percept::StepEvents;
use crate::world::SightTrace;

/// Where a FRAME's deferred sections go in the bytes staged: offsets of its chunk header and of
/// the places of its events, its Memory and its Why.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Holes {
    pub chunk_at: usize,
    pub events_at: usize,
    pub memory_at: usize,
    pub why_at: usize,
}

/// One frame's deferred sections: their places and what they are written from.
#[derive(Default)]
pub(crate) struct Deferred {
    pub holes: Holes,
    pub events: StepEvents,
    /// The conclusion chunks' memory records, and `(slot, chunk, index)` of each in slot order.
    pub memory: Vec<CapturedMemory>,
    pub memory_order: Vec<(u32, u32, u32)>,
    /// The sweep chunks' traces, and `(slot, chunk, index)` of each agent that ticked, in slot
    /// order (see `ticks`).
    pub traces: Vec<SightTrace>,
    pub ticks: Vec<(u32, u32, u32)>,
}

impl Deferred {
    /// About the bytes its sections will take (what the hand-over to the thread counts).
    pub fn weight(&self) -> usize {
        let memory: usize = self.memory.iter().map(|m| m.bytes.len()).sum();
        let why: usize = self.traces.iter().map(|t| 8 * (t.pairs.len() + t.blocked.len())).sum();
        self.events() + memory + why
    }

    /// At least the bytes its sections will take, written with the Why (`explain`) or without:
    /// the room made for them before they are written, so that the writing never grows a
    /// recording's memory unchecked (and, close to exact, never holds much more than it uses).
    /// Seven counts; each event's record; each memory record written; in the Why, a word per
    /// agent, per pair and per blocked point at most.
    /// (The sections written on the stepping thread, the Hearing and the Beliefs among them, are
    /// in the staged bytes, which the batch's room counts as they are.)
    pub fn room(&self, explain: bool) -> usize {
        let why = |t: &SightTrace| 8 * (t.agents.len() + t.pairs.len() + t.blocked.len());
        let why: usize = if explain { self.traces.iter().map(why).sum() } else { 0 };
        let memory = |&(_, chunk, i): &(u32, u32, u32)| self.memory[chunk as usize].record(i as usize).len();
        7 * 4 + self.events() + self.memory_order.iter().map(memory).sum::<usize>() + why
    }

    /// The bytes of its events' records.
    fn events(&self) -> usize {
        let e = &self.events;
        let events = 48 * e.percepts.len() + 24 * e.brain.len();
        events + 32 * (e.sight_changes.len() + e.forgotten.len() + e.awareness.len())
    }

    pub fn clear(&mut self) {
        self.events.clear();
        self.memory.iter_mut().for_each(CapturedMemory::clear);
        self.memory_order.clear();
        self.traces.iter_mut().for_each(SightTrace::clear);
        self.ticks.clear();
    }
}

/// What the recording keeps of the Why (fixed when it starts).
#[derive(Clone)]
pub(crate) struct WhyScope {
    pub explain: bool,
    pub focus: Focus,
}

impl WhyScope {
    /// Appends `staged` to `out` with each of `frames`' sections written in its place, and its
    /// FRAME chunk's length grown by what they added.
    pub fn splice(&self, staged: &[u8], frames: &mut [Deferred], out: &mut Writer) {
        let mut from = 0;
        for f in frames {
            f.traces.iter_mut().for_each(SightTrace::resolve_cast);
            let Holes { chunk_at, events_at, memory_at, why_at } = f.holes;
            out.bytes(&staged[from..events_at]);
            let chunk = out.len() - (events_at - chunk_at);
            let before = out.len();
            write_events(&f.events, out);
            out.bytes(&staged[events_at..memory_at]);
            write_memory(&f.memory_order, |chunk| &f.memory[chunk], out);
            out.bytes(&staged[memory_at..why_at]);
            write_why(self.explain, &self.focus, &f.ticks, |chunk| f.traces.get(chunk), out);
            // What the three added: all but the staged bytes between them.
            let added = out.len() - before - (why_at - events_at);
            let length_at = chunk + 4..chunk + 8;
            let length = u32::from_le_bytes(out.bytes[length_at.clone()].try_into().expect("4 bytes"));
            out.bytes[length_at].copy_from_slice(&(length + added as u32).to_le_bytes());
            from = why_at;
        }
        out.bytes(&staged[from..]);
    }
}
