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

/// How many of `items` go in each of `blocks` blocks (at least one), the last block taking the
/// rest: the same cut for collecting and concluding, so a worker's share is the same slots.
pub(super) fn block_len(items: usize, blocks: usize) -> usize {
    items.div_ceil(blocks.max(1)).max(1)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;
    use std::sync::mpsc;
    use std::time::Duration;

    fn pool(threads: usize) -> ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    #[test]
    fn every_block_runs_exactly_once() {
        for threads in [2, 3, 5] {
            let pool = pool(threads);
            for count in [0, 1, 3, threads, 4 * threads, MAX_BLOCKS] {
                let runs: Vec<AtomicU32> = (0..count).map(|_| AtomicU32::new(0)).collect();
                pool.install(|| run_blocks(&pool, 0..count, |i| _ = runs[i].fetch_add(1, Ordering::Relaxed)));
                let counts: Vec<u32> = runs.iter().map(|r| r.load(Ordering::Relaxed)).collect();
                assert!(counts.iter().all(|&n| n == 1), "{threads} threads, {count} blocks: {counts:?}");
            }
        }
    }

    #[test]
    fn each_worker_starts_on_its_own_share() {
        // Every worker waits at its first block until all have started one: the first block
        // each runs must then be the first of its own share.
        let threads = 3;
        let pool = pool(threads);
        let started = AtomicUsize::new(0);
        let first_of: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(usize::MAX)).collect();
        pool.install(|| {
            run_blocks(&pool, 0..threads * 4, |i| {
                let me = rayon::current_thread_index().unwrap();
                if first_of[me].compare_exchange(usize::MAX, i, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
                    started.fetch_add(1, Ordering::SeqCst);
                    while started.load(Ordering::SeqCst) < threads {
                        std::thread::yield_now();
                    }
                }
            })
        });
        for (worker, first) in first_of.iter().enumerate() {
            assert_eq!(first.load(Ordering::SeqCst), worker * 4, "worker {worker}'s first block");
        }
    }

    #[test]
    fn a_busy_worker_delays_nothing() {
        // Worker 1 is held until the blocks are done: the other worker must do them all.
        let pool = std::sync::Arc::new(pool(2));
        let (held_tx, held_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release_rx = Mutex::new(release_rx);
        pool.spawn_broadcast(move |worker| {
            if worker.index() == 1 {
                held_tx.send(()).unwrap();
                release_rx.lock().unwrap().recv().unwrap();
            }
        });
        held_rx.recv().unwrap();
        let (done_tx, done_rx) = mpsc::channel();
        let runner = pool.clone();
        std::thread::spawn(move || {
            let ran_on: Vec<AtomicUsize> = (0..8).map(|_| AtomicUsize::new(usize::MAX)).collect();
            runner.install(|| {
                run_blocks(&runner, 0..8, |i| ran_on[i].store(rayon::current_thread_index().unwrap(), Ordering::SeqCst))
            });
            done_tx.send(ran_on.iter().map(|w| w.load(Ordering::SeqCst)).collect::<Vec<_>>()).unwrap();
        });
        let ran_on = done_rx.recv_timeout(Duration::from_secs(30)).expect("the blocks waited for the busy worker");
        release_tx.send(()).unwrap();
        assert_eq!(ran_on, vec![0; 8], "every block on the free worker");
    }
}
