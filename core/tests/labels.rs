//! Labels (the engine's names for things): set, read, refused, forgotten with their thing, kept
//! through a load for the things still there; recorded in NAMES chunks that the replay applies;
//! and a recording of the format before (3, no NAMES, Targets without team and layers) still
//! replays exactly.

use argus_core::*;

mod common;
use common::scenario::*;

fn names_chunks(bytes: &[u8]) -> usize {
    let (mut at, mut n) = (16, 0);
    while at + 8 <= bytes.len() {
        n += (bytes[at] == 6) as usize;
        at += 8 + u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
    }
    n
}

#[test]
fn labels_are_kept_refused_and_forgotten_with_their_thing() {
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef::default()).unwrap();
    let player = world.create_target(&TargetDef::default()).unwrap();
    let wall = world.add_occluder(&OccluderDef::default()).unwrap();
    world.set_label(Labelled::Agent(guard), "G1").unwrap();
    world.set_label(Labelled::Target(player), "player").unwrap();
    world.set_label(Labelled::Occluder(wall), "north wall").unwrap();
    assert_eq!(world.label(Labelled::Agent(guard)), Some("G1"));
    assert_eq!(world.labels().count(), 3);
    // Refused, changing nothing.
    let long = "x".repeat(MAX_LABEL_BYTES + 1);
    assert!(matches!(world.set_label(Labelled::Agent(guard), &long), Err(Error::InvalidArgument(_))));
    assert!(matches!(world.set_label(Labelled::Agent(guard), "a\0b"), Err(Error::InvalidArgument(_))));
    let stale = AgentId { index: guard.index, generation: guard.generation + 1 };
    assert!(matches!(world.set_label(Labelled::Agent(stale), "G2"), Err(Error::InvalidId(_))));
    assert_eq!(world.label(Labelled::Agent(guard)), Some("G1"));
    assert!(world.set_label(Labelled::Agent(guard), &"é".repeat(MAX_LABEL_BYTES / 2)).is_ok());
    // A load keeps the labels of the things still there.
    let saved = world.save().unwrap();
    world.destroy_target(player).unwrap();
    assert_eq!(world.label(Labelled::Target(player)), None);
    let again = world.create_target(&TargetDef::default()).unwrap();
    assert_eq!(again.index, player.index);
    assert_eq!(world.label(Labelled::Target(again)), None, "a slot's new thing has no old label");
    world.set_label(Labelled::Target(again), "decoy").unwrap();
    world.load_into(&saved).unwrap();
    assert_eq!(world.label(Labelled::Occluder(wall)), Some("north wall"));
    assert_eq!(world.label(Labelled::Target(player)), None, "the snapshot's target had its label removed");
    assert_eq!(world.label(Labelled::Target(again)), None, "the decoy is gone with the load");
    // An empty label removes it.
    world.set_label(Labelled::Occluder(wall), "").unwrap();
    assert_eq!(world.label(Labelled::Occluder(wall)), None);
}

#[test]
fn labels_are_recorded_and_the_replay_gives_them_back() {
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef::default()).unwrap();
    let player = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 5.0), ..Default::default() }).unwrap();
    world.set_label(Labelled::Agent(guard), "G1").unwrap();
    world.start_recording(&RecordOptions::default()).unwrap();
    world.step(0.1).unwrap();
    world.set_label(Labelled::Target(player), "player").unwrap();
    world.set_label(Labelled::Agent(guard), "Sergeant").unwrap();
    world.step(0.1).unwrap();
    let bytes = world.stop_recording().unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), argus_core::record::FORMAT_VERSION);
    assert_eq!(names_chunks(&bytes), 3, "one after START, one per label set");
    let mut replay = Replay::new(&bytes).unwrap();
    // Before any step (a world rebuilt at step 0): the labels in force when recording started.
    assert_eq!(replay.world().label(Labelled::Agent(guard)), Some("G1"));
    replay.next_step().unwrap();
    assert_eq!(replay.world().label(Labelled::Agent(guard)), Some("G1"));
    assert_eq!(replay.world().label(Labelled::Target(player)), None);
    replay.run_to_end().unwrap();
    assert_eq!(replay.world().label(Labelled::Agent(guard)), Some("Sergeant"));
    assert_eq!(replay.world().label(Labelled::Target(player)), Some("player"));
    // Damage in a NAMES chunk is refused by the replay, naming the step.
    let mut damaged = bytes.clone();
    // The last NAMES chunk (the rename, before step 1).
    let (mut at, mut last) = (16, 0);
    while at + 8 <= damaged.len() {
        if damaged[at] == 6 {
            last = at;
        }
        at += 8 + u32::from_le_bytes(damaged[at + 4..at + 8].try_into().unwrap()) as usize;
    }
    damaged[last + 8 + 4] = 9; // the kind of its entry
    argus_core::record::reseal(&mut damaged);
    match Replay::new(&damaged).and_then(|mut r| r.run_to_end()) {
        Err(Error::BadSnapshot(m)) => assert!(m.contains("NAMES") && m.contains("step 1"), "{m}"),
        other => panic!("a damaged NAMES chunk replayed: {other:?}"),
    }
}

#[test]
fn the_flight_recorder_window_carries_the_labels() {
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef::default()).unwrap();
    world.set_label(Labelled::Agent(guard), "G1").unwrap();
    world.start_recording_to(&RecordOptions::default(), RecordTo::Flight { seconds: 1.0 }).unwrap();
    for _ in 0..200 {
        world.step(1.0 / 60.0).unwrap();
    }
    let mut window = Vec::new();
    world.save_flight_recording(&mut window).unwrap();
    let mut replay = Replay::new(&window).unwrap();
    replay.next_step().unwrap();
    assert_eq!(replay.world().label(Labelled::Agent(guard)), Some("G1"));
    replay.run_to_end().unwrap();
}

#[test]
fn a_format_3_recording_still_replays() {
    // Made by the library that wrote format 3 (`scenario(2, 15, ..)` of core/tests/common): a
    // snapshot loaded mid-way, every feature of the core; 149,081 bytes.
    replays_as_now("scenario_v3.argusrec", 3);
}

#[test]
fn a_format_4_recording_still_replays() {
    // Made by the library that wrote format 4 (no Hearing section), the same scenario: 149,649
    // bytes.
    replays_as_now("scenario_v4.argusrec", 4);
}

/// The recording `file` of format `version` replays, and ends in the world the same scenario
/// recorded now (in this library's format) ends in.
fn replays_as_now(file: &str, version: u32) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(file);
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), version);
    let mut replay = Replay::new(&bytes).unwrap();
    assert_eq!(replay.step_count(), 15);
    replay.run_to_end().unwrap();
    let (world, now) = scenario(2, 15, Some(RecordOptions::default()), 1);
    assert_eq!(u32::from_le_bytes(now[8..12].try_into().unwrap()), argus_core::record::FORMAT_VERSION);
    assert!(replay.world().save().unwrap() == world.save().unwrap());
}
