//! A step's work split into blocks shared between the world's workers. Worker `w` starts on the
//! blocks of share `w`, the same ones every step, so the agents it writes stay in its core's
//! cache: with blocks handed out by work stealing alone, the conclusion ran ~25% slower per agent
//! on two threads than on one, each step first pulling agents over from the other core. A worker
//! done with its share takes the blocks still left in the others', so one that wakes late (a
//! sleeping core of a virtual machine can take most of a millisecond) delays nothing.

#[cfg(test)]
use std::panic::AssertUnwindSafe;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::team::Team;

/// The most worker threads a world may have (see `WorldDef::worker_threads`).
pub(crate) const MAX_WORKERS: usize = 256;

/// The most blocks a phase is split into.
const MAX_BLOCKS: usize = 256;

/// Blocks per worker: what a worker done early can take over from one still busy.
const BLOCKS_PER_WORKER: usize = 4;

/// How many blocks a phase is split into with `team` (one without).
pub(super) fn block_count(team: Option<&Team>) -> usize {
    team.map_or(1, |team| (team.threads() * BLOCKS_PER_WORKER).min(MAX_BLOCKS))
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

/// Runs `work` once on each of `blocks` (at most `block_count` of them) on `team`'s threads and
/// returns when all are done; block `i` belongs to share `i / ceil(blocks / threads)`.
pub(super) fn run_blocks<T: Send>(team: &Team, blocks: impl IntoIterator<Item = T>, work: impl Fn(T) + Sync) {
    let threads = team.threads().clamp(1, MAX_WORKERS);
    // Each block leaves its cell exactly once, to the thread that claimed it: never contended.
    let mut cells: [Mutex<Option<T>>; MAX_BLOCKS] = std::array::from_fn(|_| Mutex::new(None));
    let mut count = 0usize;
    for (cell, block) in cells.iter_mut().zip(blocks) {
        *cell.get_mut().unwrap_or_else(|e| e.into_inner()) = Some(block);
        count += 1;
    }
    let per_share = count.div_ceil(threads);
    let claimed: [AtomicUsize; MAX_WORKERS] = std::array::from_fn(|_| AtomicUsize::new(0));
    team.run(&|me| {
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
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;
    use std::sync::mpsc;
    use std::thread::ThreadId;
    use std::time::Duration;

    /// A pool for a team of `threads`: the caller's thread is the first.
    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads - 1).build().unwrap()
    }

    #[test]
    fn every_block_runs_exactly_once() {
        for threads in [2, 3, 5] {
            let pool = pool(threads);
            for count in [0, 1, 3, threads, 4 * threads, MAX_BLOCKS] {
                let runs: Vec<AtomicU32> = (0..count).map(|_| AtomicU32::new(0)).collect();
                Team::gather(&pool, |team| {
                    // Two phases in one team: the second must not see the first's blocks.
                    run_blocks(team, 0..count, |i| _ = runs[i].fetch_add(1, Ordering::Relaxed));
                    run_blocks(team, 0..count, |i| _ = runs[i].fetch_add(1, Ordering::Relaxed));
                });
                let counts: Vec<u32> = runs.iter().map(|r| r.load(Ordering::Relaxed)).collect();
                assert!(counts.iter().all(|&n| n == 2), "{threads} threads, {count} blocks: {counts:?}");
            }
        }
    }

    #[test]
    fn each_thread_starts_on_its_own_share() {
        // Every thread waits at its first block until all have started one: the first block each
        // runs must then be the first of its own share, and the caller's share is the first.
        let threads = 3;
        let pool = pool(threads);
        let started = AtomicUsize::new(0);
        let first_of: Mutex<Vec<(ThreadId, usize)>> = Mutex::new(Vec::new());
        Team::gather(&pool, |team| {
            run_blocks(team, 0..threads * 4, |i| {
                let me = std::thread::current().id();
                let mut firsts = first_of.lock().unwrap();
                if firsts.iter().all(|&(t, _)| t != me) {
                    firsts.push((me, i));
                    drop(firsts);
                    started.fetch_add(1, Ordering::SeqCst);
                    while started.load(Ordering::SeqCst) < threads {
                        std::thread::yield_now();
                    }
                }
            })
        });
        let mut firsts = first_of.into_inner().unwrap();
        let caller = firsts.iter().find(|&&(t, _)| t == std::thread::current().id()).map(|&(_, i)| i);
        assert_eq!(caller, Some(0), "the caller's first block");
        firsts.sort_by_key(|&(_, i)| i);
        assert_eq!(firsts.iter().map(|&(_, i)| i).collect::<Vec<_>>(), vec![0, 4, 8], "each thread's first block");
    }

    #[test]
    fn a_busy_worker_delays_nothing() {
        // The pool's only worker is held until the blocks are done: the caller must do them all.
        let pool = std::sync::Arc::new(pool(2));
        let (held_tx, held_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release_rx = Mutex::new(release_rx);
        pool.spawn_broadcast(move |_| {
            held_tx.send(()).unwrap();
            release_rx.lock().unwrap().recv().unwrap();
        });
        held_rx.recv().unwrap();
        let (done_tx, done_rx) = mpsc::channel();
        let runner = pool.clone();
        std::thread::spawn(move || {
            let ran_on: Vec<Mutex<Option<ThreadId>>> = (0..8).map(|_| Mutex::new(None)).collect();
            Team::gather(&runner, |team| {
                run_blocks(team, 0..8, |i| *ran_on[i].lock().unwrap() = Some(std::thread::current().id()));
                let ran_on: Vec<Option<ThreadId>> = ran_on.iter().map(|t| *t.lock().unwrap()).collect();
                done_tx.send((std::thread::current().id(), ran_on)).unwrap();
            });
        });
        let (caller, ran_on) =
            done_rx.recv_timeout(Duration::from_secs(30)).expect("the blocks waited for the busy worker");
        release_tx.send(()).unwrap();
        assert_eq!(ran_on, vec![Some(caller); 8], "every block on the caller's thread");
    }

    #[test]
    fn a_panicking_block_reaches_the_caller_and_the_pool_still_works() {
        let pool = pool(2);
        for panicking in [0, 7] {
            let ran = AtomicU32::new(0);
            let caught = std::panic::catch_unwind(AssertUnwindSafe(|| {
                Team::gather(&pool, |team| {
                    run_blocks(team, 0..8, |i| {
                        ran.fetch_add(1, Ordering::SeqCst);
                        assert_ne!(i, panicking, "block {i} fails");
                    })
                })
            }));
            assert!(caught.is_err(), "block {panicking}'s panic is resumed on the caller");
            assert!(ran.load(Ordering::SeqCst) >= 1);
        }
        // The pool is still usable.
        let runs = AtomicU32::new(0);
        Team::gather(&pool, |team| run_blocks(team, 0..8, |_| _ = runs.fetch_add(1, Ordering::SeqCst)));
        assert_eq!(runs.load(Ordering::SeqCst), 8);
    }
}
