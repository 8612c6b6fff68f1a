//! Where a recording's bytes go while it runs. Each step's chunks are written into a buffer the
//! world reuses, then handed to a thread of the recording's own that takes them where they go —
//! the whole recording in memory, a stream (a file, the caller's callback) or the flight
//! recorder's ring — and hands the emptied buffer back. The thread also writes each frame's
//! deferred sections in their places (see `deferred`) and keeps the checksum of what it took, so
//! stopping a long recording reads nothing again. Growing memory costs page faults (~3 µs a page
//! on the test machine) and writing a file costs system calls: both happen on that thread. Where
//! the system gives no thread (a web build without threads), the stepping thread does the same
//! work at each hand-over.

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
    /// Kept whole until the recording stops. When memory runs out for it, its bytes are let go
    /// and the shortage is kept (`failed`); nothing more is kept.
    Memory { all: Vec<u8>, failed: Option<String> },
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
    /// `None` once finished.
    worker: Option<Worker>,
    /// The deferred sections of the frames staged, and emptied ones to fill again.
    pending: Vec<Deferred>,
    pending_weight: usize,
    spare: Vec<Deferred>,
    /// The next batch begins a segment (see `Batch::cut`).
    cut: Option<(f64, u32)>,
}

/// Room for `more` bytes after `bytes`: doubling as a vector does, or just enough when doubling
/// finds no room.
pub(crate) fn grow(bytes: &mut Vec<u8>, more: usize) -> Result<(), std::collections::TryReserveError> {
    bytes.try_reserve(more).or_else(|_| bytes.try_reserve_exact(more))
}

/// Writes `batch` after `out`'s bytes, its frames' sections in place.
fn splice(scope: &WhyScope, batch: &mut Batch, out: &mut Vec<u8>) {
    let mut w = Writer::appending(std::mem::take(out));
    scope.splice(&batch.bytes, &mut batch.frames, &mut w);
    *out = w.into_bytes();
}

/// What takes the batches where they go: on the recording's thread, or on the stepping thread
/// when the system gives none (a platform without threads).
struct Gatherer {
    scope: WhyScope,
    place: Place,
    sum: u64,
    /// A stream's bytes on their way out.
    scratch: Vec<u8>,
}

impl Gatherer {
    /// Takes a batch where it goes. What keeps many batches (the memory, the ring) first makes
    /// room for the batch fallibly, as much as its frames' `room` bounds, so that a long
    /// recording running out of memory ends, or starts over, instead of ending the process. A
    /// stream's batch goes through `scratch`, whose size a batch bounds.
    fn take(&mut self, batch: &mut Batch) {
        let scope = &self.scope;
        // (Not for a stream, which needs no room.)
        let room =
            |batch: &Batch| batch.bytes.len() + batch.frames.iter().map(|f| f.room(scope.explain)).sum::<usize>();
        match &mut self.place {
            Place::Memory { all, failed } => {
                if failed.is_some() {
                    return;
                }
                let room = room(batch);
                if let Err(e) = grow(all, room) {
                    *failed = Some(format!("the recording outgrew memory at {} bytes: {e}", all.len()));
                    *all = Vec::new();
                    return;
                }
                let start = all.len();
                splice(scope, batch, all);
                debug_assert!(all.len() - start <= room, "a batch took more than the room made for it");
                self.sum = checksum_on(self.sum, &all[start..]);
            }
            Place::Stream { out, failed } => {
                self.scratch.clear();
                splice(scope, batch, &mut self.scratch);
                if failed.is_none()
                    && let Err(e) = out.write_all(&self.scratch)
                {
                    *failed = Some(e.to_string());
                }
                self.sum = checksum_on(self.sum, &self.scratch);
            }
            Place::Ring(ring) => {
                let mut ring = ring.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((time, step)) = batch.cut {
                    ring.begin_segment(time, step);
                }
                let room = room(batch);
                ring.append(batch.time, room, |bytes| {
                    let start = bytes.len();
                    splice(scope, batch, bytes);
                    debug_assert!(bytes.len() - start <= room, "a batch took more than the room made for it");
                });
            }
        }
    }

    fn finish(mut self) -> Gathered {
        if let Place::Stream { out, failed: failed @ None } = &mut self.place
            && let Err(e) = out.flush()
        {
            *failed = Some(e.to_string());
        }
        Gathered { place: self.place, sum: self.sum }
    }
}

/// The recording's thread and the channels to it, or the gatherer itself without one.
enum Worker {
    // In mutexes only so that a recording world stays `Sync` (only `&mut self` reaches them).
    Thread { full: SyncSender<Message>, emptied: Mutex<Receiver<Batch>>, thread: JoinHandle<Gathered> },
    Inline(Mutex<Gatherer>),
}

impl Sink {
    /// Starts the recording's thread (or, when the system gives none, takes each batch on the
    /// stepping thread).
    pub fn start(scope: WhyScope, place: Place) -> Sink {
        let gatherer = Gatherer { scope, place, sum: CHECKSUM_START, scratch: Vec::new() };
        // Handed to the thread through a slot, so that it is still here if no thread starts.
        let slot = Arc::new(Mutex::new(Some(gatherer)));
        let on_thread = slot.clone();
        let (full, to_take) = sync_channel::<Message>(IN_FLIGHT);
        let (give_back, emptied) = sync_channel::<Batch>(IN_FLIGHT + 1);
        let spawned = std::thread::Builder::new().name("argus-recording".into()).spawn(move || {
            let mut gatherer = on_thread.lock().unwrap_or_else(|e| e.into_inner()).take().expect("left for the thread");
            for message in to_take {
                match message {
                    Message::Batch(mut batch) => {
                        gatherer.take(&mut batch);
                        batch.bytes.clear();
                        batch.frames.iter_mut().for_each(Deferred::clear);
                        let _ = give_back.try_send(batch);
                    }
                    Message::Barrier(done) => {
                        let _ = done.send(());
                    }
                }
            }
            gatherer.finish()
        });
        let worker = match spawned {
            Ok(thread) => Worker::Thread { full, emptied: Mutex::new(emptied), thread },
            Err(_) => {
                let gatherer = slot.lock().unwrap_or_else(|e| e.into_inner()).take().expect("no thread took it");
                Worker::Inline(Mutex::new(gatherer))
            }
        };
        Sink { worker: Some(worker), pending: Vec::new(), pending_weight: 0, spare: Vec::new(), cut: None }
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
        let frames = std::mem::take(&mut self.pending);
        let cut = self.cut.take();
        match &mut self.worker {
            Some(Worker::Thread { full, emptied, .. }) => {
                let emptied = emptied.get_mut().unwrap_or_else(|e| e.into_inner());
                let Batch { bytes: mut buffer, frames: emptied_frames, .. } = emptied.try_recv().unwrap_or_default();
                self.spare.extend(emptied_frames);
                if buffer.capacity() == 0 {
                    buffer.reserve(staged.capacity());
                }
                let batch = Batch { bytes: std::mem::replace(staged, buffer), frames, cut, time };
                if let Err(e) = full.send(Message::Batch(batch)) {
                    // The thread is gone (it cannot fail but by a panic): keep the bytes here.
                    let Message::Batch(batch) = e.0 else { unreachable!("a batch was sent") };
                    *staged = batch.bytes;
                    self.pending = batch.frames;
                    self.cut = batch.cut;
                }
            }
            Some(Worker::Inline(gatherer)) => {
                let gatherer = gatherer.get_mut().unwrap_or_else(|e| e.into_inner());
                let mut batch = Batch { bytes: std::mem::take(staged), frames, cut, time };
                gatherer.take(&mut batch);
                batch.frames.iter_mut().for_each(Deferred::clear);
                self.spare.extend(batch.frames);
                batch.bytes.clear();
                *staged = batch.bytes;
            }
            None => {}
        }
    }

    /// Hands everything staged over and waits until it is taken.
    pub fn sync(&mut self, staged: &mut Vec<u8>, time: f64) {
        self.hand_over(staged, time, true);
        if let Some(Worker::Thread { full, .. }) = &self.worker {
            let (done, wait) = sync_channel(1);
            if full.send(Message::Barrier(done)).is_ok() {
                let _ = wait.recv();
            }
        }
    }

    /// Takes `staged` too and ends the thread: where everything went, and its checksum; `None`
    /// when the thread ended abnormally (it cannot but by running out of memory, which ends the
    /// process).
    pub fn finish(mut self, mut staged: Vec<u8>, time: f64) -> Option<Gathered> {
        self.sync(&mut staged, time);
        match self.worker.take()? {
            Worker::Thread { full, thread, .. } => {
                drop(full);
                thread.join().ok()
            }
            Worker::Inline(gatherer) => Some(gatherer.into_inner().unwrap_or_else(|e| e.into_inner()).finish()),
        }
    }
}
