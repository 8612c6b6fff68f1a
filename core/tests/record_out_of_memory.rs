//! Issue 50: a recording that stays on through a play session never ends the process when memory
//! runs out for it. A recording in memory lets its bytes go and its stop answers `OutOfMemory`;
//! a flight recorder lets its window go, answers a save with `OutOfMemory`, and starts again at
//! its next key frame. The world steps on meanwhile, and a recording started afterwards replays.
//!
//! Memory runs out on purpose: this binary's allocator refuses every allocation of
//! [`REFUSED_FROM`] bytes or more while armed, which only what keeps many steps of a recording
//! asks for (a step, a batch of staged bytes and the world's own buffers stay far below it). An
//! allocation that could not be refused ends the process, failing the test.
//!
//! One test only: the allocator's switch is process-wide.

use argus_core::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};

const REFUSED_FROM: usize = 6 << 20;
static ARMED: AtomicBool = AtomicBool::new(false);
static REFUSED: AtomicUsize = AtomicUsize::new(0);

struct Refusing;

fn refuse(size: usize) -> bool {
    let refused = size >= REFUSED_FROM && ARMED.load(SeqCst);
    if refused {
        REFUSED.fetch_add(1, SeqCst);
    }
    refused
}

// SAFETY: forwards every call it does not refuse to the system allocator unchanged; a refusal
// is a null pointer, as the allocator contract allows.
unsafe impl GlobalAlloc for Refusing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refuse(layout.size()) { std::ptr::null_mut() } else { unsafe { System.alloc(layout) } }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refuse(layout.size()) { std::ptr::null_mut() } else { unsafe { System.alloc_zeroed(layout) } }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if refuse(new_size) { std::ptr::null_mut() } else { unsafe { System.realloc(ptr, layout, new_size) } }
    }
}

#[global_allocator]
static ALLOCATOR: Refusing = Refusing;

/// Guards in rows among walls, explained, and targets walking through them: about 10 KB of
/// recording a step.
fn busy_world() -> (World, Vec<TargetId>) {
    let mut world = World::new(&WorldDef::default()).unwrap();
    for k in 0..12 {
        let at = Vec3::new(-30.0 + 5.0 * k as f32, 1.0, (k % 3) as f32 * 6.0 - 6.0);
        world.add_occluder(&OccluderDef::cuboid(at, Vec3::new(1.5, 1.0, 0.2))).unwrap();
    }
    for k in 0..200 {
        let position = Vec3::new(-40.0 + 4.0 * (k % 20) as f32, 0.0, -20.0 + 4.0 * (k / 20) as f32);
        let forward = if k % 2 == 0 { Vec3::Z } else { -Vec3::Z };
        world.create_agent(&AgentDef { position, forward, ..Default::default() }).unwrap();
    }
    let targets = (0..30)
        .map(|k| {
            let position = Vec3::new(-35.0 + 2.5 * k as f32, 0.0, 0.0);
            world.create_target(&TargetDef { position, ..Default::default() }).unwrap()
        })
        .collect();
    (world, targets)
}

fn step(world: &mut World, targets: &[TargetId], k: usize) {
    for (n, &t) in targets.iter().enumerate() {
        let z = -15.0 + ((k + 7 * n) % 300) as f32 * 0.1;
        world.set_target_pose(t, Vec3::new(-35.0 + 2.5 * n as f32, 0.0, z), Vec3::Z).unwrap();
    }
    world.step(1.0 / 60.0).unwrap();
}

/// Steps `count` steps from step `from` with the allocator armed; returns how many allocations
/// it refused meanwhile (the recording's thread has taken every step's bytes by then when `sync`
/// is a save or a stop).
fn armed_steps(world: &mut World, targets: &[TargetId], from: usize, count: usize) -> usize {
    let refused = REFUSED.load(SeqCst);
    ARMED.store(true, SeqCst);
    for k in from..from + count {
        step(world, targets, k);
    }
    REFUSED.load(SeqCst) - refused
}

#[test]
fn a_recording_that_runs_out_of_memory_ends_gracefully_and_the_world_goes_on() {
    let explain = RecordOptions { explain: true, ..Default::default() };

    // In memory: the bytes are let go; the stop says why. 600 steps make about 13 MB, twice
    // what may be allocated at once: the vector's doubling and then its exact growth are refused.
    let (mut world, targets) = busy_world();
    world.start_recording(&explain).unwrap();
    let refused = armed_steps(&mut world, &targets, 0, 600);
    let stopped = world.stop_recording();
    ARMED.store(false, SeqCst);
    assert!(refused > 0, "nothing was refused: the recording never grew to {REFUSED_FROM} bytes");
    match stopped {
        Err(Error::OutOfMemory(why)) => assert!(why.contains("outgrew memory"), "{why}"),
        other => panic!("a recording that ran out of memory stopped with {:?}", other.map(|b| b.len())),
    }
    assert!(!world.is_recording());
    // A recording started afterwards is whole.
    world.start_recording(&RecordOptions::default()).unwrap();
    for k in 600..620 {
        step(&mut world, &targets, k);
    }
    let bytes = world.stop_recording().unwrap();
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().unwrap();
    assert_eq!(replay.step_count(), 20);

    // The flight recorder: its window is let go, a save says why, and it starts again at its
    // next key frame (every 60 s / 8 = 7.5 s, 450 steps). 440 steps make a segment of about
    // 9.5 MB: refused.
    let (mut world, targets) = busy_world();
    world.start_recording_to(&explain, RecordTo::Flight { seconds: 60.0 }).unwrap();
    let refused = armed_steps(&mut world, &targets, 0, 440);
    let saved = world.save_flight_recording(&mut Vec::new());
    ARMED.store(false, SeqCst);
    assert!(refused > 0, "nothing was refused: the flight recorder never grew to {REFUSED_FROM} bytes");
    match saved {
        Err(Error::OutOfMemory(why)) => assert!(why.contains("starts again at its next key frame"), "{why}"),
        other => panic!("a flight recorder that ran out of memory saved with {other:?}"),
    }
    assert!(world.is_recording());
    for j in 440..440 + 450 {
        step(&mut world, &targets, j);
    }
    let mut window = Vec::new();
    world.save_flight_recording(&mut window).unwrap();
    let mut replay = Replay::new(&window).unwrap();
    replay.run_to_end().unwrap();
    assert!(replay.step_count() > 0 && replay.step_count() < 450, "{} steps", replay.step_count());
    world.stop_recording().unwrap();
}
