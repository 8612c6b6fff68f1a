//! Timing side by side, and a counting allocator for the allocation and memory rows.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Counts every allocation and the bytes currently live.
pub struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        LIVE_BYTES.fetch_add(new_size, Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations made so far in the process.
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// The processor's model as the system names it (every figure holds for that host only).
pub fn processor_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown processor".into())
}

/// Heap bytes currently live.
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// CPU time the calling thread has run so far: unlike wall time, it leaves out the time the
/// thread waited while a neighbour's process had the core (4–10 ms slices on this machine).
pub fn thread_cpu() -> Duration {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time of the whole process (every thread) so far.
pub fn process_cpu() -> Duration {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn cpu_clock(clock: libc::clockid_t) -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid out-pointer to a local.
    unsafe { libc::clock_gettime(clock, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The fastest run: on a shared machine, noise only ever adds time, so the minimum is the
/// best estimate of the cost itself.
fn best(v: Vec<Duration>) -> Duration {
    v.into_iter().min().unwrap_or_default()
}

/// Best time of `f` over `reps` runs.
pub fn time(reps: usize, mut f: impl FnMut()) -> Duration {
    best(
        (0..reps.max(1))
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

/// Best times of `a` and `b` measured alternately, round by round, so machine noise hits both.
pub fn side_by_side(rounds: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..rounds.max(1) {
        let t = Instant::now();
        a();
        ta.push(t.elapsed());
        let t = Instant::now();
        b();
        tb.push(t.elapsed());
    }
    (best(ta), best(tb))
}

/// A duration in the unit that reads best.
pub fn show(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

/// One row of the report.
pub struct Row {
    pub what: String,
    pub argus: String,
    pub baseline: String,
    pub ratio: String,
    pub goal: String,
    pub met: Option<bool>,
}

impl Row {
    /// One line for the parent process: fields separated by tabs after a marker.
    pub fn encode(&self) -> String {
        let met = match self.met {
            Some(true) => "1",
            Some(false) => "0",
            None => "-",
        };
        format!("ROW\t{}\t{}\t{}\t{}\t{}\t{met}", self.what, self.argus, self.baseline, self.ratio, self.goal)
    }

    /// The inverse of [`Row::encode`]; other lines are ignored.
    pub fn decode(line: &str) -> Option<Row> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 7 || f[0] != "ROW" {
            return None;
        }
        let met = match f[6] {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        };
        Some(Row {
            what: f[1].into(),
            argus: f[2].into(),
            baseline: f[3].into(),
            ratio: f[4].into(),
            goal: f[5].into(),
            met,
        })
    }
}

pub fn print(rows: &[Row]) {
    println!("\n{:<46} {:>12} {:>22} {:>10} {:>10}  ", "measurement", "argus", "baseline", "ratio", "goal");
    println!("{}", "-".repeat(106));
    for r in rows {
        let mark = match r.met {
            Some(true) => "met",
            Some(false) => "MISSED",
            None => "",
        };
        println!("{:<46} {:>12} {:>22} {:>10} {:>10}  {mark}", r.what, r.argus, r.baseline, r.ratio, r.goal);
    }
}
