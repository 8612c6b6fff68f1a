//! Where a recording's bytes go while it runs. Each step's chunks are written into a buffer the
//! world reuses, then handed to a thread of the recording's own that appends them to the whole
//! recording and hands the emptied buffer back. A growing recording needs fresh memory from the
//! operating system, and each new page is a page fault (~3 µs on the test machine): those happen
//! on the other thread, and the stepping thread writes into memory it has used before. The
//! thread also writes each frame's deferred sections in their places (see `deferred`), and keeps
//! the checksum of what it gathered, so stopping a long recording does not read it all again.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::deferred::{Deferred, WhyScope};
use super::writer::Writer;
use crate::snapshot::codec::{CHECKSUM_START, checksum_on};

/// Staged bytes stay with the world until they and their frames' deferred sections reach this
/// size, or hold this many frames (a hand-over wakes the thread: a system call, worth making once
/// every few steps rather than every step; each frame waiting holds its own lists).
const HAND_OVER_AT: usize = 1024 * 1024;
const HAND_OVER_FRAMES: usize = 16;
/// Batches waiting for the thread; the world waits when the thread is this far behind.
const IN_FLIGHT: usize = 4;

/// Staged bytes and the deferred sections of the frames in them.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    frames: Vec<Deferred>,
}

pub(crate) struct Sink {
    full: Option<SyncSender<Batch>>,
    emptied: Mutex<Receiver<Batch>>,
    /// The deferred sections of the frames staged, and emptied ones to fill again.
    pending: Vec<Deferred>,
    pending_weight: usize,
    spare: Vec<Deferred>,
    scope: WhyScope,
    /// Gives every byte handed over, and their checksum.
    thread: Option<JoinHandle<(Vec<u8>, u64)>>,
}

/// Appends `batch` to `all`, its sections written in place; returns the checksum so far.
fn gather(scope: &WhyScope, batch: &mut Batch, all: &mut Vec<u8>, sum: u64) -> u64 {
    let start = all.len();
    let mut out = Writer::appending(std::mem::take(all));
    scope.splice(&batch.bytes, &mut batch.frames, &mut out);
    *all = out.into_bytes();
    checksum_on(sum, &all[start..])
}

impl Sink {
    /// The thread, or `None` when the system refuses one (the recording then stays in `staged`,
    /// every section written in place).
    pub fn start(scope: WhyScope) -> Option<Sink> {
        let (full, to_append) = sync_channel::<Batch>(IN_FLIGHT);
        let (give_back, emptied) = sync_channel::<Batch>(IN_FLIGHT + 1);
        let on_thread = scope.clone();
        let thread = std::thread::Builder::new()
            .name("argus-recording".into())
            .spawn(move || {
                let (mut all, mut sum) = (Vec::new(), CHECKSUM_START);
                for mut batch in to_append {
                    sum = gather(&on_thread, &mut batch, &mut all, sum);
                    batch.bytes.clear();
                    batch.frames.iter_mut().for_each(Deferred::clear);
                    let _ = give_back.try_send(batch);
                }
                (all, sum)
            })
            .ok()?;
        let emptied = Mutex::new(emptied);
        let (pending, spare) = (Vec::new(), Vec::new());
        Some(Sink { full: Some(full), emptied, pending, pending_weight: 0, spare, scope, thread: Some(thread) })
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

    /// Hands `staged` and its frames to the thread once they are enough, leaving an emptied
    /// buffer in its place.
    pub fn hand_over(&mut self, staged: &mut Vec<u8>) {
        if staged.len() + self.pending_weight < HAND_OVER_AT && self.pending.len() < HAND_OVER_FRAMES {
            return;
        }
        self.pending_weight = 0;
        let Some(full) = &self.full else { return };
        let spare = self.emptied.get_mut().ok().and_then(|r| r.try_recv().ok()).unwrap_or_default();
        let Batch { bytes: mut buffer, frames } = spare;
        self.spare.extend(frames);
        if buffer.capacity() == 0 {
            buffer.reserve(staged.capacity());
        }
        let batch = Batch { bytes: std::mem::replace(staged, buffer), frames: std::mem::take(&mut self.pending) };
        if let Err(e) = full.send(batch) {
            // The thread is gone (it cannot fail but by a panic): keep the bytes here.
            let Batch { bytes, frames } = e.0;
            *staged = bytes;
            self.pending = frames;
        }
    }

    /// Every byte handed over, followed by `staged`, and their checksum. (The thread cannot
    /// fail but by running out of memory, which ends the process.)
    pub fn finish(mut self, staged: Vec<u8>) -> (Vec<u8>, u64) {
        let last = Batch { bytes: staged, frames: std::mem::take(&mut self.pending) };
        let unsent = match self.full.take() {
            Some(full) => full.send(last).err().map(|e| e.0),
            None => Some(last),
        };
        let (mut all, sum) = self.thread.take().and_then(|t| t.join().ok()).unwrap_or((Vec::new(), CHECKSUM_START));
        match unsent {
            Some(mut batch) => {
                let sum = gather(&self.scope, &mut batch, &mut all, sum);
                (all, sum)
            }
            None => (all, sum),
        }
    }
}
