//! Issue 50: what a recording holds of an accepted call is what the world kept (its replay
//! accepts it), every damage found partway through a replay names its step, and files of
//! earlier formats (kept in `tests/data`) are refused with a message naming their version.

use argus_core::*;

/// A world that records calls given directions and rotations that are not unit length, which
/// the world accepts and normalises.
fn recorded_with_raw_directions() -> (Vec<u8>, Vec<u8>) {
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef { forward: Vec3::new(0.0, 0.0, 3.0), ..Default::default() }).unwrap();
    world.start_recording(&RecordOptions::default()).unwrap();
    let raw = Vec3::new(0.3, 0.0, 0.4);
    let target =
        world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 6.0), forward: raw, ..Default::default() });
    let target = target.unwrap();
    let half = Quat::from_xyzw(0.0, 0.3, 0.0, 0.4); // length 0.5
    let wall = OccluderDef {
        shape: OccluderShape::Box { half_extents: Vec3::new(1.0, 1.0, 0.1) },
        position: Vec3::new(3.0, 1.0, 3.0),
        rotation: half,
        ..Default::default()
    };
    let wall = world.add_occluder(&wall).unwrap();
    world.step(0.1).unwrap();
    let moved = TargetDef { position: Vec3::new(1.0, 0.0, 7.0), forward: raw * 3.0, ..Default::default() };
    world.set_target_def(target, &moved).unwrap();
    world.set_occluder_pose(wall, Vec3::new(3.0, 1.0, 4.0), half * 3.0).unwrap();
    let other = world.create_agent(&AgentDef { forward: Vec3::new(2.0, 0.0, 0.0), ..Default::default() }).unwrap();
    world.set_agent_def(guard, &AgentDef { forward: Vec3::new(0.0, 0.0, 0.5), ..Default::default() }).unwrap();
    world.set_agent_poses(&[other], &[Vec3::new(1.0, 0.0, 0.0)], Some(&[Vec3::new(0.0, 0.0, -4.0)])).unwrap();
    world.set_target_poses(&[target], &[Vec3::new(0.0, 0.0, 5.0)], Some(&[raw])).unwrap();
    world.step(0.1).unwrap();
    let bytes = world.stop_recording().unwrap();
    (bytes, world.save().unwrap())
}

#[test]
fn an_accepted_call_with_a_direction_not_unit_length_replays() {
    let (bytes, saved) = recorded_with_raw_directions();
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().expect("a recording of accepted calls replays");
    assert_eq!(replay.step_count(), 2);
    assert_eq!(replay.world().save().unwrap(), saved, "the replayed world is the recorded one");
}

/// Each chunk of a recording: kind, payload offset, payload length.
fn chunks(bytes: &[u8]) -> Vec<(u8, usize, usize)> {
    let mut out = Vec::new();
    let mut at = 16;
    while at + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        out.push((bytes[at], at + 8, len));
        at += 8 + len;
    }
    out
}

/// The recording with the payload of the first INPUT after its first STEP (an input before
/// step 1) edited by `edit`, resealed so that the damage reaches the replay's reader.
fn with_second_step_input(edit: impl Fn(&mut [u8])) -> Vec<u8> {
    let (mut bytes, _) = recorded_with_raw_directions();
    let list = chunks(&bytes);
    let first_step = list.iter().position(|c| c.0 == 4).unwrap();
    let &(_, at, len) = list[first_step..].iter().find(|c| c.0 == 3).unwrap();
    edit(&mut bytes[at..at + len]);
    record::reseal(&mut bytes);
    bytes
}

fn replay_error(bytes: &[u8]) -> String {
    let mut replay = Replay::new(bytes).expect("the damage is past the START");
    match replay.run_to_end() {
        Err(Error::BadSnapshot(m)) => m,
        other => panic!("expected a bad recording, got {other:?}"),
    }
}

#[test]
fn damage_found_partway_through_a_replay_names_its_step() {
    // An unknown call code.
    let unknown = with_second_step_input(|p| p[0..2].copy_from_slice(&999u16.to_le_bytes()));
    let m = replay_error(&unknown);
    assert!(m.contains("unknown input call 999") && m.contains("step 1"), "{m}");
    // SET_TARGET_DEF (11) read as DESTROY_TARGET (10): its def is left over.
    let trailing = with_second_step_input(|p| {
        assert_eq!(u16::from_le_bytes([p[0], p[1]]), 11, "the first input after step 0 is set_target_def");
        p[0..2].copy_from_slice(&10u16.to_le_bytes());
    });
    let m = replay_error(&trailing);
    assert!(m.contains("trailing bytes") && m.contains("step 1"), "{m}");
}

#[test]
fn earlier_formats_are_refused_naming_their_version() {
    // Made by this library with their version field set to the format before (and the
    // snapshot's checksum made again): a reader refuses them on the version alone.
    let snapshot = std::fs::read(data().join("empty_world_v3.argussnp")).unwrap();
    match World::load(&snapshot) {
        Err(Error::BadSnapshot(m)) => assert!(m.contains("format version 3") && m.contains("reads 4"), "{m}"),
        other => panic!("a version 3 snapshot loaded: {other:?}"),
    }
    let recording = std::fs::read(data().join("empty_world_v2.argusrec")).unwrap();
    match Replay::new(&recording) {
        Err(Error::BadSnapshot(m)) => assert!(m.contains("format version 2") && m.contains("reads 3"), "{m}"),
        other => panic!("a version 2 recording replayed: {other:?}"),
    }
}

/// Writes the files of `earlier_formats_are_refused_naming_their_version` (run by hand with
/// `--ignored` when the formats move on).
#[test]
#[ignore]
fn write_earlier_format_files() {
    let mut world = World::default();
    let mut snapshot = world.save().unwrap();
    snapshot[8..12].copy_from_slice(&3u32.to_le_bytes());
    snapshot::reseal(&mut snapshot);
    world.start_recording(&RecordOptions::default()).unwrap();
    world.step(0.1).unwrap();
    let mut recording = world.stop_recording().unwrap();
    recording[8..12].copy_from_slice(&2u32.to_le_bytes());
    std::fs::write(data().join("empty_world_v3.argussnp"), snapshot).unwrap();
    std::fs::write(data().join("empty_world_v2.argusrec"), recording).unwrap();
}

fn data() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// An engine whose physics scene is gone for a while: every batch of rays fails.
struct Gone;

impl RaySource for Gone {
    fn cast_rays(&mut self, _: &[RayQuery], hits: &mut [RayHit]) -> Result<()> {
        hits.fill(RayHit { hit: true, distance: 0.0 });
        Err(Error::RaySourceFailed("the physics scene is gone".into()))
    }
}

/// An engine-ray world recorded while its ray batches sometimes fail (each failed step changes
/// nothing and leaves nothing in the recording), with inputs between: the recording replays
/// exactly, to the world that made it. Issue 50's fuzz corpus holds such recordings too
/// (`fuzz/fuzz_targets/replay.rs`, `tests/ffi_fuzz.rs`).
#[test]
fn a_recording_with_failed_ray_batches_inside_replays() {
    let mut world = World::new(&WorldDef { ray_backend: RayBackend::Engine, ..Default::default() }).unwrap();
    let guard = world.create_agent(&AgentDef { forward: Vec3::Z, ..Default::default() }).unwrap();
    let player = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 5.0), ..Default::default() });
    let player = player.unwrap();
    world.start_recording(&RecordOptions { explain: true, ..Default::default() }).unwrap();
    let mut half = |rays: &[RayQuery], hits: &mut [RayHit]| {
        for (k, hit) in hits.iter_mut().enumerate().take(rays.len()) {
            *hit = RayHit { hit: k % 2 == 1, distance: 0.0 };
        }
    };
    let mut failed = 0;
    for k in 0..12 {
        world.set_target_pose(player, Vec3::new(k as f32 * 0.3, 0.0, 5.0), Vec3::Z).unwrap();
        if k % 3 == 1 {
            let before = world.save().unwrap();
            assert!(matches!(world.step_with(0.1, Rays::Engine(&mut Gone)), Err(Error::RaySourceFailed(_))));
            assert!(world.save().unwrap() == before, "a failed batch changed the world");
            failed += 1;
            world.emit_sound(&SoundDef { position: Vec3::ONE, source: player, ..Default::default() }).unwrap();
        }
        world.step_with(0.1, Rays::Engine(&mut half)).unwrap();
    }
    assert!(!world.agent(guard).unwrap().memory().is_empty(), "the guard perceived the player");
    let bytes = world.stop_recording().unwrap();
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().expect("a recording with failed batches inside replays");
    assert_eq!((replay.step_count(), failed), (12, 4));
    assert_eq!(replay.world().save().unwrap(), world.save().unwrap(), "the replayed world is the recorded one");
}
