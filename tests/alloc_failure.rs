//! Allocation failure injected into snapshot loads: the k-th large allocation of a load fails,
//! for every k, as it would when memory runs out at that point. Every load must then be
//! refused (`BadSnapshot` or `OutOfMemory`) with the world unchanged, never abort the process:
//! each large allocation of a load is fallible (the dense agent store, pending sounds, memory
//! records, influence maps, pools). Allocations that cannot fail gracefully (parry3d's mesh
//! build, the occluder BVH) are checked for room beforehand; those are tested under
//! `ulimit -v` in tests/snapshot_fuzz.rs.
//!
//! One test only: the allocator's counters are process-wide.

use argus_core::influence::InfluenceMapDef;
use argus_core::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

/// Allocations of at least this many bytes count as large.
const LARGE: usize = 64 << 10;
/// 0 = off; otherwise the number of large allocations still allowed plus one.
static COUNTDOWN: AtomicUsize = AtomicUsize::new(0);
static LARGE_SEEN: AtomicUsize = AtomicUsize::new(0);

struct Failing;

impl Failing {
    fn refuse(size: usize) -> bool {
        if size < LARGE {
            return false;
        }
        LARGE_SEEN.fetch_add(1, SeqCst);
        match COUNTDOWN.load(SeqCst) {
            0 => false,
            1 => true, // stays at 1: memory stays exhausted from here on
            _ => {
                COUNTDOWN.fetch_sub(1, SeqCst);
                false
            }
        }
    }
}

// SAFETY: forwards to the system allocator, or returns null (a failed allocation) as allowed.
unsafe impl GlobalAlloc for Failing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if Failing::refuse(layout.size()) { std::ptr::null_mut() } else { unsafe { System.alloc(layout) } }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if Failing::refuse(layout.size()) { std::ptr::null_mut() } else { unsafe { System.alloc_zeroed(layout) } }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && Failing::refuse(new_size) {
            std::ptr::null_mut()
        } else {
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }
}

#[global_allocator]
static ALLOCATOR: Failing = Failing;

/// A world whose load makes large allocations on every path: thousands of agents with memories,
/// thousands of targets, pending sounds, a big influence map, a few occluders.
fn big_world() -> Vec<u8> {
    let mut world = World::default();
    let targets: Vec<TargetId> = (0..3000)
        .map(|i| {
            let position = Vec3::new((i % 60) as f32, 0.0, (i / 60) as f32);
            world.create_target(&TargetDef { position, ..Default::default() }).unwrap()
        })
        .collect();
    for i in 0..6000 {
        let position = Vec3::new((i % 80) as f32, 0.0, -1.0 - (i / 80) as f32);
        let agent = world.create_agent(&AgentDef { position, ..Default::default() }).unwrap();
        let memories = if i < 100 { 1500 } else { i % 4 };
        for k in 0..memories {
            world.remember(agent, targets[k % targets.len()], position, 0.5).unwrap();
        }
    }
    for i in 0..5000 {
        let def = SoundDef { position: Vec3::new(i as f32 * 0.01, 0.0, 0.0), loudness: 1.0, ..Default::default() };
        world.emit_sound(&def).unwrap();
    }
    let map =
        world.create_influence_map(&InfluenceMapDef { width: 300, height: 200, layer_count: 3, ..Default::default() });
    world.influence_map_mut(map.unwrap()).unwrap().fill(1, 0.25).unwrap();
    for i in 0..20 {
        world.add_occluder(&OccluderDef::cuboid(Vec3::new(i as f32 * 3.0, 1.0, 5.0), Vec3::splat(1.0))).unwrap();
    }
    world.save().unwrap()
}

#[test]
fn a_load_whose_allocation_fails_is_refused_at_every_point() {
    let bytes = big_world();
    let mut host = World::default();
    let before = host.save().unwrap();
    LARGE_SEEN.store(0, SeqCst);
    World::load(&bytes).unwrap();
    let large = LARGE_SEEN.load(SeqCst);
    assert!(large >= 5, "the load makes {large} large allocations: too few to test");
    let mut refused = 0;
    for k in 1..=large + 1 {
        COUNTDOWN.store(k, SeqCst);
        let outcome = host.load_into(&bytes);
        COUNTDOWN.store(0, SeqCst);
        match outcome {
            Err(Error::BadSnapshot(why) | Error::OutOfMemory(why)) => {
                refused += 1;
                assert!(why.contains("memory") || why.contains("allocate"), "failure {k}: {why}");
                assert!(host.save().unwrap() == before, "failure {k}: a refused load changed the world");
            }
            Ok(()) => {
                // Only once the failure comes after every large allocation of the load.
                assert_eq!(k, large + 1, "failure {k} of {large} went unnoticed");
                host = World::default();
            }
            Err(other) => panic!("failure {k}: {other:?}"),
        }
    }
    assert_eq!(refused, large, "every injected failure refused the load");
}
