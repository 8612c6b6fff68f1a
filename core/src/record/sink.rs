//! Where a recording's bytes go while it runs. Each step's chunks are written into a buffer the
//! world reuses, then handed to a thread of the recording's own that appends them to the whole
//! recording and hands the emptied buffer back. A growing recording needs fresh memory from the
//! operating system, and each new page is a page fault (~3 µs on the test machine, a third of
//! what recording added to a town step): those now happen on the other thread, and the stepping
//! thread writes into memory it has used before. The thread also keeps the checksum of what it
//! gathered, so stopping a long recording does not read it all again.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use crate::snapshot::codec::{CHECKSUM_START, checksum_on};

/// Buffers smaller than this stay with the world until the next step adds to them (a hand-over
/// wakes the thread: a system call, worth making once every few steps rather than every step).
const HAND_OVER_AT: usize = 1024 * 1024;
/// Full buffers waiting for the thread; the world waits when the thread is this far behind.
const IN_FLIGHT: usize = 4;

pub(crate) struct Sink {
    full: Option<SyncSender<Vec<u8>>>,
    emptied: Mutex<Receiver<Vec<u8>>>,
    /// Gives every byte handed over, and their checksum.
    thread: Option<JoinHandle<(Vec<u8>, u64)>>,
}

impl Sink {
    /// The thread, or `None` when the system refuses one (the recording then stays in `staged`).
    pub fn start() -> Option<Sink> {
        let (full, to_append) = sync_channel::<Vec<u8>>(IN_FLIGHT);
        let (give_back, emptied) = sync_channel::<Vec<u8>>(IN_FLIGHT + 1);
        let thread = std::thread::Builder::new()
            .name("argus-recording".into())
            .spawn(move || {
                let (mut all, mut sum) = (Vec::new(), CHECKSUM_START);
                for mut buffer in to_append {
                    all.extend_from_slice(&buffer);
                    sum = checksum_on(sum, &buffer);
                    buffer.clear();
                    let _ = give_back.try_send(buffer);
                }
                (all, sum)
            })
            .ok()?;
        Some(Sink { full: Some(full), emptied: Mutex::new(emptied), thread: Some(thread) })
    }

    /// Hands `staged` to the thread once it holds enough, leaving an emptied buffer in its place.
    pub fn hand_over(&mut self, staged: &mut Vec<u8>) {
        if staged.len() < HAND_OVER_AT {
            return;
        }
        let Some(full) = &self.full else { return };
        let spare = self.emptied.get_mut().ok().and_then(|r| r.try_recv().ok());
        let spare = spare.unwrap_or_else(|| Vec::with_capacity(staged.capacity()));
        let buffer = std::mem::replace(staged, spare);
        if let Err(e) = full.send(buffer) {
            // The thread is gone (it cannot fail but by a panic): keep the bytes here.
            *staged = e.0;
        }
    }

    /// Every byte handed over, followed by `staged`, and their checksum. (The thread cannot
    /// fail but by running out of memory, which ends the process.)
    pub fn finish(mut self, staged: Vec<u8>) -> (Vec<u8>, u64) {
        drop(self.full.take());
        let (mut all, sum) = self.thread.take().and_then(|t| t.join().ok()).unwrap_or((Vec::new(), CHECKSUM_START));
        all.extend_from_slice(&staged);
        (all, checksum_on(sum, &staged))
    }
}
