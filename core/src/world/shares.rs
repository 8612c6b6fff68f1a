//! A step's work split into blocks shared between the world's workers. Worker `w` starts on the
//! blocks of share `w`, the same ones every step, so the agents it writes stay in its core's
//! cache: with blocks handed out by work stealing alone, the conclusion ran ~25% slower per agent
//! on two threads than on one, each step first pulling agents over from the other core. A worker
//! done with its share takes the blocks still left in the others', so one that wakes late (a
//! sleeping core of a virtual machine can take most of a millisecond) delays nothing.

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
    team.map_or(1, |team| blocks_for(team.threads()))
}

/// How many blocks a phase is split into by a team of `threads`.
pub(super) fn blocks_for(threads: usize) -> usize {
    (threads * BLOCKS_PER_WORKER).min(MAX_BLOCKS)
}

/// How many of `items` block `k` of [`block_start`]'s cut holds.
pub(super) fn block_len(items: usize, blocks: usize, threads: usize, k: usize) -> usize {
    block_start(items, blocks, threads, k + 1) - block_start(items, blocks, threads, k)
}

/// Where block `k` of the `blocks` of a phase over `items` starts (`k == blocks`: the end). The
/// items are split into equal shares, one per thread (block `k` is in share
/// `k / ceil(blocks / threads)`, as `run_blocks` hands them out), and each share into blocks
/// that shrink toward its end, weights n, n − 1, …, 1: a thread done with its own share takes
/// over the others' last blocks, the small ones, so the threads finish closer together. The same
/// cut serves collecting and concluding, so a worker's share is the same agents in both.
pub(super) fn block_start(items: usize, blocks: usize, threads: usize, k: usize) -> usize {
    let blocks = blocks.max(1);
    let per_share = blocks.div_ceil(threads.max(1));
    let shares = blocks.div_ceil(per_share);
    if k >= blocks {
        return items;
    }
    let (share, j) = (k / per_share, k % per_share);
    let n = per_share.min(blocks - share * per_share);
    // In u64: `items` times a share or weight count must not wrap on 32-bit targets.
    let (items, share, shares) = (items as u64, share as u64, shares as u64);
    let share_start = items * share / shares;
    let share_len = items * (share + 1) / shares - share_start;
    let (j, n) = (j as u64, n as u64);
    let (before, total) = (j * n - j * (j.max(1) - 1) / 2, n * (n + 1) / 2);
    (share_start + share_len * before / total) as usize
}

/// `items` cut into the `blocks` blocks of `block_start`, each with the index of its first item.
pub(super) fn cut<T>(items: &[T], blocks: usize, threads: usize) -> impl Iterator<Item = (usize, &[T])> {
    let n = items.len();
    (0..blocks.max(1)).map(move |k| {
        let (start, end) = (block_start(n, blocks, threads, k), block_start(n, blocks, threads, k + 1));
        (start, &items[start..end])
    })
}

/// [`cut`] of a mutable slice.
pub(super) fn cut_mut<T>(
    mut items: &mut [T],
    blocks: usize,
    threads: usize,
) -> impl Iterator<Item = (usize, &mut [T])> {
    let n = items.len();
    (0..blocks.max(1)).map(move |k| {
        let (start, end) = (block_start(n, blocks, threads, k), block_start(n, blocks, threads, k + 1));
        let (block, rest) = std::mem::take(&mut items).split_at_mut(end - start);
        items = rest;
        (start, block)
    })
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
    use super::super::team::Workers;
    use super::*;
    use std::panic::AssertUnwindSafe;
    use std::sync::atomic::AtomicU32;
    use std::sync::mpsc;
    use std::thread::ThreadId;
    use std::time::Duration;

    /// Workers for a team of `threads`: the caller's thread is the first.
    fn pool(threads: usize) -> Workers {
        Workers::start(threads).unwrap()
    }

    #[test]
    fn blocks_cover_every_item_once_and_shrink_toward_each_share_end() {
        for threads in [1, 2, 3, 7] {
            for blocks in [1, 2, threads * 4, 10, MAX_BLOCKS] {
                for items in [0, 1, 5, 99, 10_000] {
                    let starts: Vec<usize> = (0..=blocks).map(|k| block_start(items, blocks, threads, k)).collect();
                    assert_eq!((starts[0], starts[blocks]), (0, items), "{threads} threads, {blocks} blocks");
                    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{threads}/{blocks}/{items}: {starts:?}");
                    let v: Vec<usize> = (0..items).collect();
                    let joined: Vec<usize> = cut(&v, blocks, threads)
                        .flat_map(|(s, b)| {
                            assert_eq!(b.first().copied().unwrap_or(s), s);
                            b.to_vec()
                        })
                        .collect();
                    assert_eq!(joined, v);
                    let mut w = v.clone();
                    assert_eq!(cut_mut(&mut w, blocks, threads).count(), blocks);
                }
            }
        }
        // Two threads, four blocks each, 10,000 items: shares of 5,000 in blocks 4:3:2:1.
        let sizes: Vec<usize> =
            (0..8).map(|k| block_start(10_000, 8, 2, k + 1) - block_start(10_000, 8, 2, k)).collect();
        assert_eq!(sizes, vec![2000, 1500, 1000, 500, 2000, 1500, 1000, 500]);
    }

    #[test]
    fn every_block_runs_exactly_once() {
        for threads in [2, 3, 5] {
            let pool = pool(threads);
            for count in [0, 1, 3, threads, 4 * threads, MAX_BLOCKS] {
                let runs: Vec<AtomicU32> = (0..count).map(|_| AtomicU32::new(0)).collect();
                pool.gather(|team| {
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
        pool.gather(|team| {
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
        // The pool's only worker is held until the team is released: the caller must do every
        // block, and neither wait for the worker to start nor to leave.
        let pool = std::sync::Arc::new(pool(2));
        let (held_tx, held_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release_rx = Mutex::new(release_rx);
        pool.pool().spawn_broadcast(move |_| {
            held_tx.send(()).unwrap();
            release_rx.lock().unwrap().recv().unwrap();
        });
        held_rx.recv().unwrap();
        let (done_tx, done_rx) = mpsc::channel();
        let runner = pool.clone();
        std::thread::spawn(move || {
            let ran_on: Vec<Mutex<Option<ThreadId>>> = (0..8).map(|_| Mutex::new(None)).collect();
            runner.gather(|team| {
                run_blocks(team, 0..8, |i| *ran_on[i].lock().unwrap() = Some(std::thread::current().id()));
            });
            let ran_on: Vec<Option<ThreadId>> = ran_on.iter().map(|t| *t.lock().unwrap()).collect();
            done_tx.send((std::thread::current().id(), ran_on)).unwrap();
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
                pool.gather(|team| {
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
        pool.gather(|team| run_blocks(team, 0..8, |_| _ = runs.fetch_add(1, Ordering::SeqCst)));
        assert_eq!(runs.load(Ordering::SeqCst), 8);
    }
}
