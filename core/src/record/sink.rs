//! Where a recording's bytes go while it runs. Each step's chunks are written into a buffer the
//! world reuses, then handed to a thread of the recording's own that takes them where they go —
//! the whole recording in memory, a stream (a file, the caller's callback) or the flight
//! recorder's ring — and hands the emptied buffer back. The thread also writes each frame's
//! deferred sections in their places (see `deferred`) and keeps the checksum of what it took, so
//! stopping a long recording reads nothing again. Growing memory costs page faults (~3 µs a page
//! on the test machine) and writing a file costs system calls: both happen on that thread.

use std::io::Write;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::deferred::{Deferred, WhyScope};
use super::ring::Ring;
use super::writer::Writer;
use crate::snapshot::codec::{CHECKSUM_START, checksum_on};

/// Staged bytes stay with the world until they and their frames' deferred sections reach this
/// size, or hold this many frames (a hand-over wakes the thread: a system call, worth making once
/// every few steps rather than every step; each frame waiting holds its own lists).
const HAND_OVER_AT: usize = 1024 * 1024;
const HAND_OVER_FRAMES: usize = 16;
/// Batches waiting for the thread; the world waits when the thread is this far behind (so a
/// stream's memory stays bounded however slow its writer).
const IN_FLIGHT: usize = 4;

/// Where the thread takes the bytes.
pub(crate) enum Place {
    /// Kept whole until the recording stops.
    Memory(Vec<u8>),
    /// Written as they come; the first failure is kept and nothing more is written.
    Stream { out: Box<dyn Write + Send>, failed: Option<String> },
    /// The flight recorder's last seconds.
    Ring(Arc<Mutex<Ring>>),
}

/// Staged bytes and the deferred sections of the frames in them. `cut`: the bytes begin a flight
/// recorder's segment (its clock and step there); `time`: the flight recorder's clock after them.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    frames: Vec<Deferred>,
    cut: Option<(f64, u32)>,
    time: f64,
}

enum Message {
    Batch(Batch),
    /// Answered once every batch sent before it is taken.
    Barrier(SyncSender<()>),
}

/// What the thread took: its place (the memory's bytes, the stream) and their checksum.
pub(crate) struct Gathered {
    pub place: Place,
    pub sum: u64,
}

pub(crate) struct Sink {
    full: Option<SyncSender<Message>>,
    emptied: Mutex<Receiver<Batch>>,
    /// The deferred sections of the frames staged, and emptied ones to fill again.
    pending: Vec<Deferred>,
    pending_weight: usize,
    spare: Vec<Deferred>,
    /// The next batch begins a segment (see `Batch::cut`).
    cut: Option<(f64, u32)>,
    scope: WhyScope,
    thread: Option<JoinHandle<Gathered>>,
}

/// Writes `batch` after `out`'s bytes, its frames' sections in place.
fn splice(scope: &WhyScope, batch: &mut Batch, out: &mut Vec<u8>) {
    let mut w = Writer::appending(std::mem::take(out));
    scope.splice(&batch.bytes, &mut batch.frames, &mut w);
    *out = w.into_bytes();
}

/// Takes `batch` to `place`; `sum` is the checksum of what was taken before; `scratch` holds a
/// stream's bytes on their way out.
fn take(scope: &WhyScope, batch: &mut Batch, place: &mut Place, sum: u64, scratch: &mut Vec<u8>) -> u64 {
    match place {
        Place::Memory(all) => {
            let start = all.len();
            splice(scope, batch, all);
            checksum_on(sum, &all[start..])
        }
        Place::Stream { out, failed } => {
            scratch.clear();
            splice(scope, batch, scratch);
            if failed.is_none()
                && let Err(e) = out.write_all(scratch)
            {
                *failed = Some(e.to_string());
            }
            checksum_on(sum, scratch)
        }
        Place::Ring(ring) => {
            let mut ring = ring.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((time, step)) = batch.cut {
                ring.begin_segment(time, step);
            }
            ring.append(batch.time, |bytes| splice(scope, batch, bytes));
            sum
        }
    }
}

impl Sink {
    /// The thread, or `None` when the system refuses one (a recording in memory then stays in
    /// the world's staged bytes, every section written in place).
    pub fn start(scope: WhyScope, mut place: Place) -> Option<Sink> {
        let (full, to_take) = sync_channel::<Message>(IN_FLIGHT);
        let (give_back, emptied) = sync_channel::<Batch>(IN_FLIGHT + 1);
        let on_thread = scope.clone();
        let thread = std::thread::Builder::new()
            .name("argus-recording".into())
            .spawn(move || {
                let (mut sum, mut scratch) = (CHECKSUM_START, Vec::new());
                for message in to_take {
                    match message {
                        Message::Batch(mut batch) => {
                            sum = take(&on_thread, &mut batch, &mut place, sum, &mut scratch);
                            batch.bytes.clear();
                            batch.frames.iter_mut().for_each(Deferred::clear);
                            let _ = give_back.try_send(batch);
                        }
                        Message::Barrier(done) => {
                            let _ = done.send(());
                        }
                    }
                }
                if let Place::Stream { out, failed: failed @ None } = &mut place
                    && let Err(e) = out.flush()
                {
                    *failed = Some(e.to_string());
                }
                Gathered { place, sum }
            })
            .ok()?;
        let emptied = Mutex::new(emptied);
        let (pending, spare) = (Vec::new(), Vec::new());
        Some(Sink {
            full: Some(full),
            emptied,
            pending,
            pending_weight: 0,
            spare,
            cut: None,
            scope,
            thread: Some(thread),
        })
    }

    /// An emptied frame's sections to fill (and give back through `defer`).
    pub fn frame(&mut self) -> Deferred {
        self.spare.pop().unwrap_or_default()
    }

    /// The sections of the frame just staged.
    pub fn defer(&mut self, frame: Deferred) {
        self.pending_weight += frame.weight();
        self.pending.push(frame);
    }

    /// The bytes staged next begin a flight recorder's segment at its clock `time`, step `step`.
    pub fn cut_next(&mut self, time: f64, step: u32) {
        self.cut = Some((time, step));
    }

    /// Hands `staged` and its frames to the thread once they are enough (or now, `force`),
    /// leaving an emptied buffer in its place; `time` is the flight recorder's clock.
    pub fn hand_over(&mut self, staged: &mut Vec<u8>, time: f64, force: bool) {
        let enough = staged.len() + self.pending_weight >= HAND_OVER_AT || self.pending.len() >= HAND_OVER_FRAMES;
        if !force && !enough {
            return;
        }
        self.pending_weight = 0;
        let Some(full) = &self.full else { return };
        let spare = self.emptied.get_mut().ok().and_then(|r| r.try_recv().ok()).unwrap_or_default();
        let Batch { bytes: mut buffer, frames, .. } = spare;
        self.spare.extend(frames);
        if buffer.capacity() == 0 {
            buffer.reserve(staged.capacity());
        }
        let bytes = std::mem::replace(staged, buffer);
        let batch = Batch { bytes, frames: std::mem::take(&mut self.pending), cut: self.cut.take(), time };
        if let Err(e) = full.send(Message::Batch(batch)) {
            // The thread is gone (it cannot fail but by a panic): keep the bytes here.
            let Message::Batch(Batch { bytes, frames, cut, .. }) = e.0 else { unreachable!("a batch was sent") };
            *staged = bytes;
            self.pending = frames;
            self.cut = cut;
        }
    }

    /// Hands everything staged over and waits until the thread has taken it.
    pub fn sync(&mut self, staged: &mut Vec<u8>, time: f64) {
        self.hand_over(staged, time, true);
        let (done, wait) = sync_channel(1);
        if let Some(full) = &self.full
            && full.send(Message::Barrier(done)).is_ok()
        {
            let _ = wait.recv();
        }
    }

    /// Takes `staged` too and ends the thread: where everything went, and its checksum. (The
    /// thread cannot fail but by running out of memory, which ends the process.)
    pub fn finish(mut self, staged: Vec<u8>, time: f64) -> Option<Gathered> {
        let cut = self.cut.take();
        let mut last = Batch { bytes: staged, frames: std::mem::take(&mut self.pending), cut, time };
        let unsent = match self.full.take() {
            Some(full) => full.send(Message::Batch(last)).err().map(|e| e.0),
            None => Some(Message::Batch(last)),
        };
        let mut gathered = self.thread.take().and_then(|t| t.join().ok())?;
        if let Some(Message::Batch(b)) = unsent {
            last = b;
            gathered.sum = take(&self.scope, &mut last, &mut gathered.place, gathered.sum, &mut Vec::new());
        }
        Some(gathered)
    }
}
