//! Issue 50, defect 3: a world loaded big never aborts the process in a step. With the memory for
//! the step, it steps; without it, the step is refused with `OutOfMemory` and the world is exactly
//! as it was (its save byte-identical), then steps once the memory is there.
//!
//! Memory runs short for real: each case loads a saved world in a child process (this test binary
//! again, running `limited_step`) and limits that process's address space (`RLIMIT_AS`) to what
//! the loaded world holds plus a margin, where an allocation the step could not refuse aborts the
//! child. The worlds are those that aborted before the step made its room: many targets, many
//! sounds, a big store whose memory records are copied when it is first sorted, a two-stage step
//! with a budget on two threads, an engine's ray batch.
//!
//! And a steady-state step still allocates nothing, on every path (counted by this binary's
//! allocator, on the stepping thread only).

use argus_core::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

// ---- a counting allocator ------------------------------------------------------------------

thread_local! {
    /// Allocations are counted on this thread while set.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}
static COUNTED: AtomicUsize = AtomicUsize::new(0);

struct Counting;

fn count() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        COUNTED.fetch_add(1, Relaxed);
    }
}

// SAFETY: forwards every call to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations `f` makes on this thread.
fn allocations_of(f: impl FnOnce()) -> usize {
    let before = COUNTED.load(Relaxed);
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    COUNTED.load(Relaxed) - before
}

// ---- worlds ----------------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// The benchmark's town at a tenth of its size: agents (15 m, 110°, 10 Hz), targets and box
/// occluders, the targets walking loops and dropping footsteps (see `drive`).
fn town(def: &WorldDef) -> World {
    let (agents, side) = (2_000, 256.0 * 0.2f32.sqrt());
    let mut rng = Rng(19);
    let mut world = World::new(def).unwrap();
    for _ in 0..agents / 5 {
        let half = Vec3::new(rng.f(0.5, 3.5), rng.f(0.5, 3.5), rng.f(0.5, 3.5));
        let position = Vec3::new(rng.f(0.0, side), half.y, rng.f(0.0, side));
        let rotation = Quat::from_rotation_y(rng.f(0.0, std::f32::consts::TAU));
        let shape = OccluderShape::Box { half_extents: half };
        world.add_occluder(&OccluderDef { shape, position, rotation, ..Default::default() }).unwrap();
    }
    for _ in 0..agents {
        let position = Vec3::new(rng.f(0.0, side), 0.0, rng.f(0.0, side));
        let a = rng.f(0.0, std::f32::consts::TAU);
        let mut def = AgentDef { position, forward: Vec3::new(a.sin(), 0.0, a.cos()), ..Default::default() };
        def.sight.view_radius = 15.0;
        def.sight.view_angle = 110.0;
        def.sight.rate_hz = 10.0;
        world.create_agent(&def).unwrap();
    }
    for _ in 0..agents / 10 {
        let position = Vec3::new(rng.f(0.0, side), 0.0, rng.f(0.0, side));
        world.create_target(&TargetDef { position, ..Default::default() }).unwrap();
    }
    world
}

/// Step `k` of the town's play: every target on its 4 s loop, a footstep from one in eight.
fn drive(world: &mut World, homes: &[(TargetId, Vec3)], k: usize) {
    let phase = (k % 240) as f32 / 240.0 * std::f32::consts::TAU;
    for (i, &(target, home)) in homes.iter().enumerate() {
        let position = home + Vec3::new(phase.cos(), 0.0, phase.sin()) * 6.0;
        world.set_target_pose(target, position, Vec3::Z).unwrap();
        if (k + i).is_multiple_of(8) {
            let sound = SoundDef { position, loudness: 6.0, source: target, ..Default::default() };
            world.emit_sound(&sound).unwrap();
        }
    }
}

/// How a case steps: with the built-in rays, or answering the engine's batch (every ray clear).
#[derive(Copy, Clone, PartialEq, Debug)]
enum How {
    Step,
    Engine,
}

/// One step of `world`, as `how` says. The engine's answers go into `hits`, grown only here.
fn step(world: &mut World, how: How, dt: f32, hits: &mut Vec<RayHit>) -> Result<()> {
    match how {
        How::Step => world.step(dt),
        How::Engine => {
            let n = world.begin_step(dt)?.len();
            if hits.try_reserve(n.saturating_sub(hits.len())).is_err() {
                world.cancel_step();
                return Err(Error::OutOfMemory("the test's answers".into()));
            }
            hits.clear();
            hits.resize(n, RayHit { hit: false, distance: 0.0 });
            let finished = world.finish_step(hits);
            if finished.is_err() {
                world.cancel_step();
            }
            finished
        }
    }
}

// ---- worlds loaded big, stepped under an address-space limit --------------------------------

#[cfg(target_os = "linux")]
mod loaded_big {
    use super::*;

    const MB: usize = 1 << 20;

    /// `n` agents on a grid a metre apart, `targets` targets among them.
    fn crowd(def: &WorldDef, n: u32, targets: u32) -> World {
        let mut world = World::new(def).unwrap();
        let side = (n as f32).sqrt().ceil() as u32;
        for i in 0..targets {
            let position = Vec3::new((i * 7 % side) as f32 + 0.5, 0.0, (i * 7 / side % side) as f32 + 0.5);
            world.create_target(&TargetDef { position, ..Default::default() }).unwrap();
        }
        for i in 0..n {
            let position = Vec3::new((i % side) as f32, 0.0, (i / side) as f32);
            world.create_agent(&AgentDef { position, ..Default::default() }).unwrap();
        }
        world
    }

    // ---- the limited child -----------------------------------------------------------------------

    /// What a case passes to its child: the snapshot's file, the margin above what the loaded world
    /// holds (0: no limit), the world's threads, how it steps and by how much.
    const CASE: &str = "ARGUS_STEP_OOM_CASE";

    mod limit {
        /// `struct rlimit` of Linux.
        #[repr(C)]
        struct Rlimit {
            cur: u64,
            max: u64,
        }
        const RLIMIT_AS: i32 = 9;
        unsafe extern "C" {
            fn getrlimit(resource: i32, limit: *mut Rlimit) -> i32;
            fn setrlimit(resource: i32, limit: *const Rlimit) -> i32;
        }

        /// The process's address space now, in bytes.
        pub fn address_space() -> usize {
            let status = std::fs::read_to_string("/proc/self/status").expect("procfs");
            let line = status.lines().find(|l| l.starts_with("VmSize:")).expect("VmSize");
            line.split_whitespace().nth(1).and_then(|kb| kb.parse::<usize>().ok()).expect("a size in kB") * 1024
        }

        /// Sets the soft limit of the address space (`u64::MAX`: none) under the hard one, which stays.
        pub fn set(bytes: u64) {
            let mut limit = Rlimit { cur: 0, max: 0 };
            // SAFETY: valid pointers to locals.
            unsafe {
                assert_eq!(getrlimit(RLIMIT_AS, &mut limit), 0);
                limit.cur = bytes.min(limit.max);
                assert_eq!(setrlimit(RLIMIT_AS, &limit), 0);
            }
        }
    }

    /// Run by `run_case` in a child: loads the case's snapshot, limits the address space to what the
    /// world then holds plus the margin, and steps. Prints `outcome: stepped` or `outcome: refused`.
    #[test]
    #[ignore = "run by the cases below in a child process, under an address-space limit"]
    fn limited_step() {
        let Ok(case) = std::env::var(CASE) else {
            println!("no case given (run by the tests of this file)");
            return;
        };
        let fields: Vec<&str> = case.split('|').collect();
        let [path, margin, threads, how, dt] = fields[..] else { panic!("a bad case: {case}") };
        let margin: usize = margin.parse().unwrap();
        let how = if how == "engine" { How::Engine } else { How::Step };
        let dt: f32 = dt.parse().unwrap();
        let def = WorldDef { worker_threads: threads.parse().unwrap(), ..Default::default() };
        let mut world = World::new(&def).unwrap();
        world.load_into(&std::fs::read(path).unwrap()).unwrap();
        let before = world.save().unwrap();
        let mut hits = Vec::new();
        if margin > 0 {
            limit::set((limit::address_space() + margin) as u64);
        }
        let outcome = step(&mut world, how, dt, &mut hits);
        limit::set(u64::MAX);
        match outcome {
            Ok(()) => println!("outcome: stepped"),
            Err(Error::OutOfMemory(why)) => {
                assert!(world.save().unwrap() == before, "the refused step ({why}) changed the world");
                step(&mut world, how, dt, &mut hits).expect("with the memory, it steps");
                assert!(world.save().unwrap() != before, "the step changed the world");
                println!("outcome: refused ({why})");
            }
            Err(other) => panic!("the step failed with {other:?}"),
        }
    }

    /// Saves `world` and steps it in a child (see `limited_step`) once for each margin (0: no limit),
    /// as `how` says, by `dt`; returns whether each step was refused. A child that crashes (an
    /// allocation aborted) or fails fails the test.
    fn run_case(name: &str, world: &World, how: How, dt: f32, margins: &[usize]) -> Vec<bool> {
        let path = std::env::temp_dir().join(format!("argus-step-oom-{}-{name}.snapshot", std::process::id()));
        std::fs::write(&path, world.save().unwrap()).unwrap();
        let threads = world.def().worker_threads;
        let how_name = if how == How::Engine { "engine" } else { "step" };
        let exe = std::env::current_exe().unwrap();
        let outcomes = margins
            .iter()
            .map(|&margin| {
                let case = format!("{}|{margin}|{threads}|{how_name}|{dt}", path.display());
                let out = Command::new(&exe)
                    .args(["--exact", "loaded_big::limited_step", "--ignored", "--nocapture", "--test-threads", "1"])
                    .env(CASE, case)
                    // One heap, and big blocks mapped on their own: an address space that follows
                    // what the world holds.
                    .env("MALLOC_ARENA_MAX", "1")
                    .env("MALLOC_MMAP_THRESHOLD_", "131072")
                    .output()
                    .expect("the test binary runs itself");
                let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
                assert!(
                    out.status.success(),
                    "{name}, {} MB over the world: the child failed ({}):\n{text}",
                    margin / MB,
                    out.status
                );
                assert!(text.contains("1 passed"), "{name}: the child ran no case:\n{text}");
                println!(
                    "{name}, {} MB over the world: {}",
                    margin / MB,
                    text.split("outcome: ").nth(1).and_then(|o| o.lines().next()).unwrap_or("?")
                );
                text.contains("outcome: refused")
            })
            .collect();
        std::fs::remove_file(&path).ok();
        outcomes
    }

    /// The margins of every case: none to spare, a little, a lot, no limit.
    const MARGINS: [usize; 4] = [MB, 8 * MB, 64 * MB, 0];

    fn check(name: &str, world: &World, how: How, dt: f32) {
        let refused = run_case(name, world, how, dt, &MARGINS);
        assert!(refused[0], "{name}: with 1 MB to spare, the step is refused");
        assert!(!refused[3], "{name}: without a limit, the step steps");
    }

    #[test]
    fn a_world_of_many_targets_loaded_big_steps_or_refuses() {
        // 400,000 targets: the step's grid input alone is 16 MB.
        check("400k targets", &crowd(&WorldDef::default(), 1, 400_000), How::Step, 0.1);
    }

    #[test]
    fn a_world_of_many_sounds_loaded_big_steps_or_refuses() {
        // 300,000 sounds waiting for the step: 12 MB of sound grid input.
        let mut world = crowd(&WorldDef::default(), 100, 0);
        for i in 0..300_000 {
            let position = Vec3::new((i % 500) as f32, 0.0, (i / 500) as f32);
            world.emit_sound(&SoundDef { position, loudness: 2.0, ..Default::default() }).unwrap();
        }
        check("300k sounds", &world, How::Step, 0.1);
    }

    #[test]
    fn a_big_store_with_memories_loaded_big_steps_or_refuses() {
        // 20,000 agents (a store kept in spatial order) remembering 30 targets each: the first step
        // sorts the store and copies the 600,000 records (~30 MB) after their agents, if it can.
        let mut world = crowd(&WorldDef::default(), 20_000, 100);
        let targets: Vec<TargetId> = world.targets().map(|(id, _)| id).collect();
        let agents: Vec<AgentId> = world.agents().map(|(id, _)| id).collect();
        for (i, &agent) in agents.iter().enumerate() {
            for k in 0..30 {
                world.remember(agent, targets[(i + 3 * k) % targets.len()], Vec3::ZERO, 0.9).unwrap();
            }
        }
        check("20k agents remembering", &world, How::Step, 0.1);
    }

    #[test]
    fn a_two_stage_step_on_two_threads_loaded_big_steps_or_refuses() {
        // A sight-tick budget (the two-stage step) and worker threads: 60,000 agents all due.
        let def = WorldDef { worker_threads: 2, max_sight_ticks_per_step: 5_000, ..Default::default() };
        check("two-stage, 60k agents", &crowd(&def, 60_000, 2_000), How::Step, 0.1);
    }

    #[test]
    fn an_engine_batch_loaded_big_steps_or_refuses() {
        let def = WorldDef { ray_backend: RayBackend::Engine, ..Default::default() };
        check("engine rays, 60k agents", &crowd(&def, 60_000, 2_000), How::Engine, 0.1);
    }
}

// ---- steady state ----------------------------------------------------------------------------

/// After a few loops of the town's play, a step allocates nothing: its room is made only when
/// a buffer is short, which a steady state never finds. One pass, two stages (a budget), the
/// engine's batch.
#[test]
fn steady_state_steps_allocate_nothing_on_every_path() {
    let paths = [
        ("one pass", WorldDef::default(), How::Step),
        ("two stages (a budget)", WorldDef { max_sight_ticks_per_step: 100, ..Default::default() }, How::Step),
        ("the engine's batch", WorldDef { ray_backend: RayBackend::Engine, ..Default::default() }, How::Engine),
    ];
    for (name, def, how) in paths {
        let mut world = town(&def);
        let homes: Vec<(TargetId, Vec3)> = world.targets().map(|(id, t)| (id, t.position())).collect();
        let mut hits = Vec::with_capacity(1 << 16);
        for k in 0..240 * 3 {
            drive(&mut world, &homes, k);
            step(&mut world, how, 1.0 / 60.0, &mut hits).unwrap();
        }
        let mut percepts = 0;
        let made = allocations_of(|| {
            for k in 240 * 3..240 * 4 {
                drive(&mut world, &homes, k);
                step(&mut world, how, 1.0 / 60.0, &mut hits).unwrap();
                percepts += world.events().percepts.len();
            }
        });
        assert!(percepts > 1_000, "{name}: the town sees and hears ({percepts} percepts)");
        assert_eq!(made, 0, "{name}: {made} allocations in 240 steady-state steps");
    }
}
