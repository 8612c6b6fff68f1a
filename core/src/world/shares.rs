//! A step's work split into blocks shared between the world's workers. Worker `w` starts on the
//! blocks of share `w`, the same ones every step, so the agents it writes stay in its core's
//! cache: with blocks handed out by work stealing alone, the conclusion ran ~25% slower per agent
//! on two threads than on one, each step first pulling agents over from the other core. A worker
//! done with its share takes the blocks still left in the others', so one that wakes late (a
//! sleeping core of a virtual machine can take most of a millisecond) delays nothing.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::ThreadPool;

/// The most worker threads a world may have (see `WorldDef::worker_threads`).
pub(crate) const MAX_WORKERS: usize = 256;

/// The most blocks a phase is split into.
const MAX_BLOCKS: usize = 256;

/// Blocks per worker: what a worker done early can take over from one still busy.
const BLOCKS_PER_WORKER: usize = 4;

/// How many blocks a phase is split into with `pool` (one without).
pub(super) fn block_count(pool: Option<&ThreadPool>) -> usize {
    pool.map_or(1, |pool| (pool.current_num_threads() * BLOCKS_PER_WORKER).min(MAX_BLOCKS))
}

/// A worker's own value, alone in its cache lines: values of two workers side by side in one
/// line (a vector's length, say) would make every write of one wait for the other's core.
#[derive(Default)]
#[repr(align(128))]
pub(super) struct Padded<T>(pub T);

/// Runs `work` once on each of `blocks` (at most `block_count` of them) on `pool`'s workers and
/// returns when all are done; block `i` belongs to share `i / ceil(blocks / threads)`.
pub(super) fn run_blocks<T: Send>(pool: &ThreadPool, blocks: impl IntoIterator<Item = T>, work: impl Fn(T) + Sync) {
    let threads = pool.current_num_threads().clamp(1, MAX_WORKERS);
    // Each block leaves its cell exactly once, to the worker that claimed it: never contended.
    let mut cells: [Mutex<Option<T>>; MAX_BLOCKS] = std::array::from_fn(|_| Mutex::new(None));
    let mut count = 0usize;
    for (cell, block) in cells.iter_mut().zip(blocks) {
        *cell.get_mut().unwrap_or_else(|e| e.into_inner()) = Some(block);
        count += 1;
    }
    let per_share = count.div_ceil(threads);
    let claimed: [AtomicUsize; MAX_WORKERS] = std::array::from_fn(|_| AtomicUsize::new(0));
    let claim_all = || {
        let me = rayon::current_thread_index().unwrap_or(0);
        for share in (0..threads).map(|k| (me + k) % threads) {
            let (first, end) = (share * per_share, ((share + 1) * per_share).min(count));
            loop {
                let i = first + claimed[share].fetch_add(1, Ordering::Relaxed);
                if i >= end {
                    break;
                }
                let block = cells[i].lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(block) = block {
                    work(block);
                }
            }
        }
    };
    // One claiming task per other worker; a task started after all blocks are claimed (its
    // worker woke late, or this one ran it itself) finds nothing and returns.
    pool.scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| claim_all());
        }
        claim_all();
    });
}
