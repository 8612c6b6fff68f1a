//! Issue 50: a memory shortage in a replay keeps its code (`OutOfMemory`, not a mismatch), and a
//! world loaded big saves or steps, or refuses with `OutOfMemory` and stays as it was, never
//! aborts. Memory runs short here through the allocator: while `REFUSE_FROM` is set, every
//! allocation of at least that many bytes fails (as under an address-space limit).

use argus_core::influence::InfluenceMapDef;
use argus_core::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

/// 0: off; otherwise the smallest allocation refused.
static REFUSE_FROM: AtomicUsize = AtomicUsize::new(0);
/// The allocator is process-wide: one test at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

struct Short;

fn refused(size: usize) -> bool {
    let from = REFUSE_FROM.load(SeqCst);
    from != 0 && size >= from
}

// SAFETY: forwards to the system allocator, or returns null (a failed allocation) as allowed.
unsafe impl GlobalAlloc for Short {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size()) { std::ptr::null_mut() } else { unsafe { System.alloc(layout) } }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size()) { std::ptr::null_mut() } else { unsafe { System.alloc_zeroed(layout) } }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && refused(new_size) {
            std::ptr::null_mut()
        } else {
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }
}

#[global_allocator]
static ALLOCATOR: Short = Short;

/// Runs `f` with allocations of `from` bytes or more refused.
fn short_of<T>(from: usize, f: impl FnOnce() -> T) -> T {
    REFUSE_FROM.store(from, SeqCst);
    let out = f();
    REFUSE_FROM.store(0, SeqCst);
    out
}

const MB: usize = 1 << 20;

/// A flat grid mesh of `2 n²` triangles.
fn grid_mesh(n: u32) -> OccluderDef {
    let vertices = (0..=n).flat_map(|z| (0..=n).map(move |x| Vec3::new(x as f32, 0.0, z as f32))).collect();
    let at = |x: u32, z: u32| z * (n + 1) + x;
    let indices = (0..n)
        .flat_map(|z| {
            (0..n).flat_map(move |x| {
                [[at(x, z), at(x + 1, z), at(x, z + 1)], [at(x + 1, z), at(x + 1, z + 1), at(x, z + 1)]]
            })
        })
        .collect();
    OccluderDef { shape: OccluderShape::Mesh { vertices, indices }, ..Default::default() }
}

#[test]
fn a_memory_shortage_in_a_replay_keeps_its_code() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = World::default();
    world.create_agent(&AgentDef::default()).unwrap();
    world.start_recording(&RecordOptions::default()).unwrap();
    world.step(0.1).unwrap();
    // 262,088 triangles: building it needs about 75 MB (checked for room first), the
    // recording holds 4.6 MB of it.
    let mesh = grid_mesh(362);
    world.add_occluder(&mesh).unwrap();
    world.step(0.1).unwrap();
    let bytes = world.stop_recording().unwrap();
    assert!(bytes.len() < 16 * MB);
    // Made directly, the mesh is refused for want of memory...
    let direct = short_of(64 * MB, || World::default().add_occluder(&mesh).map(|_| ()));
    assert!(matches!(direct, Err(Error::OutOfMemory(_))), "{direct:?}");
    // ...and so it is in the replay, at the step it comes before.
    let replayed = short_of(64 * MB, || Replay::new(&bytes).and_then(|mut r| r.run_to_end()));
    match replayed {
        Err(Error::OutOfMemory(m)) => assert!(m.contains("step 1"), "{m}"),
        other => panic!("expected OutOfMemory, got {other:?}"),
    }
    Replay::new(&bytes).unwrap().run_to_end().expect("with the memory, it replays");
}

#[test]
fn a_world_loaded_big_refuses_to_save_without_the_memory_and_stays_as_it_was() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut made = World::default();
    made.create_agent(&AgentDef::default()).unwrap();
    // 1024 × 1024 cells × 20 layers: an 80 MB snapshot.
    let def = InfluenceMapDef { width: 1024, height: 1024, cell_size: 1.0, layer_count: 20, ..Default::default() };
    made.create_influence_map(&def).unwrap();
    let saved = made.save().unwrap();
    drop(made);
    let world = World::load(&saved).unwrap();
    // The world holds its 80 MB; its save needs as much again, in one buffer.
    let refused = short_of(64 * MB, || world.save());
    assert!(matches!(refused, Err(Error::OutOfMemory(_))), "{:?}", refused.map(|b| b.len()));
    assert!(world.save().unwrap() == saved, "the refused save changed nothing");
}

#[test]
fn a_world_loaded_big_refuses_to_step_without_room_for_its_scratch() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut made = World::default();
    for i in 0..100_000u32 {
        let position = Vec3::new((i % 316) as f32, 0.0, (i / 316) as f32);
        made.create_agent(&AgentDef { position, ..Default::default() }).unwrap();
    }
    let saved = made.save().unwrap();
    drop(made);
    let mut world = World::load(&saved).unwrap();
    // The step's scratch for 100,000 agents is checked for (12.8 MB at once) before the step.
    let refused = short_of(8 * MB, || world.step(0.1));
    assert!(matches!(refused, Err(Error::OutOfMemory(_))), "{refused:?}");
    assert!(world.save().unwrap() == saved, "the refused step changed nothing");
    world.step(0.1).expect("with the memory, it steps");
    assert!(world.save().unwrap() != saved);
}
