//! The threads of one step: the caller's thread and the world's workers, kept together from the
//! step's first phase to its last. Between phases the caller runs the step's serial parts while
//! the workers wait spinning, so each phase starts on every thread at once. (Forked afresh at
//! each phase, a worker idle through the serial part before it had fallen asleep, and this
//! virtual machine took from microseconds to a millisecond to wake it: in ~15% of steps it woke
//! after the whole sweep was done by the caller alone.) Nor does the step wait for a worker to
//! start or to leave: a step whose worker sleeps through it is done by the caller alone, no later
//! than without workers.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex};

use rayon::ThreadPool;

/// A phase's work: called on each thread of the team with its number (0 = the stepping thread).
type Job<'a> = &'a (dyn Fn(usize) + Sync);

/// The phase's job with its lifetime erased, so the workers (started before it existed) can call
/// it. Sound because `Team::run` keeps it alive until no worker is inside it (see there).
#[derive(Copy, Clone)]
struct ErasedJob(*const (dyn Fn(usize) + Sync + 'static));

// SAFETY: it points at a `Sync` closure, only called while `Team::run` keeps that alive.
#[allow(unsafe_code)]
unsafe impl Send for ErasedJob {}

/// How many times a waiting worker spins before it starts yielding its core between checks (when
/// the team has no more threads than the machine has cores; else it yields at once, so that
/// waiting workers leave the cores to those with work).
const SPINS_BEFORE_YIELD: u32 = 1 << 12;

/// The step's threads (see the module's comment).
pub(crate) struct Team {
    threads: usize,
    /// `SPINS_BEFORE_YIELD`, or 0 when the team has more threads than the machine has cores.
    spins_before_yield: u32,
    /// Counts phases opened and closed: odd while one is open.
    phase: AtomicUsize,
    job: Mutex<Option<ErasedJob>>,
    /// Workers inside the open phase's job.
    busy: AtomicUsize,
    finished: AtomicBool,
    /// The first panic of a worker's job, resumed on the caller's thread.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// A world's worker threads, and the team they form with the stepping thread in each step.
pub(crate) struct Workers {
    pool: ThreadPool,
    team: Arc<Team>,
}

impl Workers {
    /// Starts `threads - 1` workers: the thread that steps is the team's first.
    pub fn start(threads: usize) -> Result<Workers, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(2) - 1)
            .thread_name(|i| format!("argus-worker-{i}"))
            .build()?;
        let threads = threads.max(2);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let team = Team {
            threads,
            spins_before_yield: if threads <= cores { SPINS_BEFORE_YIELD } else { 0 },
            phase: AtomicUsize::new(0),
            job: Mutex::new(None),
            busy: AtomicUsize::new(0),
            finished: AtomicBool::new(true),
            panic: Mutex::new(None),
        };
        Ok(Workers { pool, team: Arc::new(team) })
    }

    /// Runs `body` on this thread with the workers serving its phases (`Team::run`) until it
    /// returns. Nothing waits for a worker to start or to leave: one that wakes after the body
    /// returned finds the team released and goes back to sleep, and one that wakes while a later
    /// step runs serves that step.
    pub fn gather<R>(&self, body: impl FnOnce(&Team) -> R) -> R {
        let team = &self.team;
        team.finished.store(false, SeqCst);
        for worker in 1..team.threads {
            let team = Arc::clone(team);
            self.pool.spawn(move || team.serve(worker));
        }
        // Released even if `body` panics.
        struct Release<'a>(&'a AtomicBool);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.store(true, SeqCst);
            }
        }
        let _release = Release(&team.finished);
        body(team)
    }

    /// Threads in the team a step gathers, the stepping thread included.
    pub fn threads(&self) -> usize {
        self.team.threads
    }

    #[cfg(test)]
    pub fn pool(&self) -> &ThreadPool {
        &self.pool
    }
}

impl Team {
    /// Threads in the team, this one included.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `job` on every thread of the team (this one as number 0) and returns when all are out
    /// of it. A job should split its work so that any thread can do any part: a worker late to
    /// the phase just finds nothing left.
    pub fn run(&self, job: Job) {
        // SAFETY: only the lifetime is erased. Workers call the job only between entering `busy`
        // and leaving it, after seeing this phase open; it closes below, and this function
        // returns only once `busy` is zero, so no call outlives `job`. (A worker that enters
        // `busy` after the close sees the phase number changed and leaves without calling.)
        #[allow(unsafe_code)]
        let erased = unsafe { std::mem::transmute::<Job<'_>, *const (dyn Fn(usize) + Sync + 'static)>(job) };
        *self.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(ErasedJob(erased));
        self.phase.fetch_add(1, SeqCst); // open
        let own = catch_unwind(AssertUnwindSafe(|| job(0)));
        self.phase.fetch_add(1, SeqCst); // closed
        while self.busy.load(SeqCst) != 0 {
            std::hint::spin_loop();
        }
        *self.job.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if let Err(payload) = own {
            resume_unwind(payload);
        }
        if let Some(payload) = self.panic.lock().unwrap_or_else(|e| e.into_inner()).take() {
            resume_unwind(payload);
        }
    }

    /// A worker's loop: wait for a phase, do its share of the job, until the step is over.
    fn serve(&self, worker: usize) {
        let mut last = 0;
        loop {
            let mut spins = 0u32;
            let phase = loop {
                if self.finished.load(SeqCst) {
                    return;
                }
                let phase = self.phase.load(SeqCst);
                if phase % 2 == 1 && phase != last {
                    break phase;
                }
                spins = spins.saturating_add(1);
                if spins < self.spins_before_yield { std::hint::spin_loop() } else { std::thread::yield_now() }
            };
            last = phase;
            self.busy.fetch_add(1, SeqCst);
            if self.phase.load(SeqCst) == phase {
                let job = *self.job.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(ErasedJob(job)) = job {
                    // SAFETY: the phase is still open and this worker is `busy`: see `run`.
                    #[allow(unsafe_code)]
                    let job = unsafe { &*job };
                    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| job(worker))) {
                        self.panic.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(payload);
                    }
                }
            }
            self.busy.fetch_sub(1, SeqCst);
        }
    }
}
