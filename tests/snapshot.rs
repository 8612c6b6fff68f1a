//! Save / load: a saved world continues exactly like the original; every truncation and
//! corruption is refused with a clear error, never a crash or a half-loaded world.

mod common;
use argus_core::*;
use common::*;

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// Rewrites the trailing checksum so the parser, not the checksum, has to catch the damage.
fn resign(bytes: &mut [u8]) {
    let n = bytes.len() - 8;
    let sum = fnv1a(&bytes[..n]);
    bytes[n..].copy_from_slice(&sum.to_le_bytes());
}

fn busy_world(seed: u64, agents: usize) -> (World, Scenario) {
    let mut world = World::default();
    let scenario = Scenario::build(&mut world, seed, agents, 6, 12);
    (world, scenario)
}

#[test]
fn save_load_continue_gives_the_uninterrupted_event_stream() {
    for seed in [3, 4, 5] {
        let (mut original, mut scenario) = busy_world(seed, 30);
        for _ in 0..40 {
            scenario.drive(&mut original);
            original.step(1.0 / 30.0).unwrap();
        }
        // Sounds pending, arrival reported, memories and brains mid-flight at the save.
        scenario.drive(&mut original);
        let bytes = original.save().unwrap();
        let mut restored = World::load(&bytes).unwrap();
        assert!(restored.save().unwrap() == bytes, "a loaded world saves to the same bytes");
        let mut twin = Scenario { rng: Rng(scenario.rng.0), ..scenario_clone(&scenario) };
        let mut active = 0;
        for _ in 0..80 {
            original.step(1.0 / 30.0).unwrap();
            restored.step(1.0 / 30.0).unwrap();
            assert_eq!(snapshot_events(&original), snapshot_events(&restored));
            active += original.events().percepts.len() + original.events().brain.len();
            scenario.drive(&mut original);
            twin.drive(&mut restored);
        }
        assert!(active > 50, "the continuation exercises perception ({active} events)");
        assert_eq!(original.time(), restored.time());
    }
}

fn scenario_clone(s: &Scenario) -> Scenario {
    Scenario {
        rng: Rng(s.rng.0),
        agents: s.agents.clone(),
        targets: s.targets.clone(),
        movers: s.movers.clone(),
        size: s.size,
    }
}

#[test]
fn ids_handed_out_after_a_load_match_the_original() {
    let (mut world, scenario) = busy_world(9, 8);
    world.destroy_agent(scenario.agents[2]).unwrap();
    world.destroy_target(scenario.targets[1]).unwrap();
    let mut restored = World::load(&world.save().unwrap()).unwrap();
    let a = world.create_agent(&AgentDef::default()).unwrap();
    let b = restored.create_agent(&AgentDef::default()).unwrap();
    assert_eq!(a, b);
    assert!(!restored.is_agent_valid(scenario.agents[2]), "stale ids stay stale");
    assert_eq!(
        world.create_target(&TargetDef::default()).unwrap(),
        restored.create_target(&TargetDef::default()).unwrap()
    );
}

#[test]
fn every_truncation_is_refused() {
    let (mut world, mut scenario) = busy_world(21, 3);
    for _ in 0..5 {
        scenario.drive(&mut world);
        world.step(0.1).unwrap();
    }
    let bytes = world.save().unwrap();
    for len in 0..bytes.len() {
        match World::load(&bytes[..len]) {
            Err(Error::BadSnapshot(_)) => {}
            other => panic!("a {len}-byte prefix of {} was not refused: {other:?}", bytes.len()),
        }
    }
}

#[test]
fn random_corruptions_are_refused_by_the_checksum() {
    let (world, _) = busy_world(22, 4);
    let bytes = world.save().unwrap();
    let mut rng = Rng(77);
    for _ in 0..10_000 {
        let mut damaged = bytes.clone();
        let flips = 1 + rng.below(4);
        for _ in 0..flips {
            let at = rng.below(damaged.len() as u32) as usize;
            damaged[at] ^= 1 + rng.below(255) as u8;
        }
        assert!(matches!(World::load(&damaged), Err(Error::BadSnapshot(_))));
    }
}

#[test]
fn corruptions_that_pass_the_checksum_never_crash_or_half_load() {
    let (mut world, mut scenario) = busy_world(23, 4);
    for _ in 0..10 {
        scenario.drive(&mut world);
        world.step(0.1).unwrap();
    }
    let bytes = world.save().unwrap();
    let mut rng = Rng(78);
    let (mut refused, mut accepted) = (0, 0);
    for _ in 0..20_000 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + rng.below(3) {
            let at = 20 + rng.below((damaged.len() - 28) as u32) as usize;
            damaged[at] = rng.below(256) as u8;
        }
        resign(&mut damaged);
        match World::load(&damaged) {
            Err(Error::BadSnapshot(why)) => {
                assert!(!why.is_empty());
                refused += 1;
            }
            Err(other) => panic!("wrong error kind {other:?}"),
            Ok(mut loaded) => {
                // A change the format cannot tell from real data (a position, a timer): the
                // world must still be whole and usable.
                loaded.step(0.1).unwrap();
                accepted += 1;
            }
        }
    }
    assert!(refused > 1000, "structural damage is detected ({refused} refused, {accepted} accepted)");
}

#[test]
fn a_failed_load_into_changes_nothing_and_versions_are_checked() {
    let (mut world, _) = busy_world(24, 3);
    let before = world.save().unwrap();
    let mut future = before.clone();
    future[8..12].copy_from_slice(&99u32.to_le_bytes());
    resign(&mut future);
    match world.load_into(&future) {
        Err(Error::BadSnapshot(why)) => assert!(why.contains("version 99"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Older versions (1: before per-sense settings records; 2: with runtime settings) are refused
    // with a clear error, not misread.
    for version in [1u32, 2] {
        let mut old = before.clone();
        old[8..12].copy_from_slice(&version.to_le_bytes());
        resign(&mut old);
        match World::load(&old) {
            Err(Error::BadSnapshot(why)) => assert!(why.contains(&format!("version {version} is not")), "{why}"),
            other => panic!("{other:?}"),
        }
    }
    assert!(world.save().unwrap() == before, "a refused load changed the world");
    assert!(matches!(World::load(b"not a snapshot at all, sorry"), Err(Error::BadSnapshot(_))));
}

#[test]
fn the_format_is_little_endian_with_magic_version_and_length() {
    let world = World::default();
    let bytes = world.save().unwrap();
    assert_eq!(&bytes[..8], b"ARGUSSNP");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), argus_core::snapshot::FORMAT_VERSION);
    let len = u64::from_le_bytes(bytes[12..20].try_into().unwrap()) as usize;
    assert_eq!(len + 20 + 8, bytes.len());
}

#[test]
fn saving_during_a_two_phase_step_is_refused() {
    let (mut world, _) = busy_world(25, 3);
    world.begin_step(0.1).unwrap();
    assert_eq!(world.save(), Err(Error::StepInProgress));
    world.cancel_step();
    assert!(world.save().is_ok());
}

#[test]
fn influence_maps_round_trip_with_names_values_and_blocked_cells() {
    use argus_core::influence::{InfluenceMapDef, Plane, PropagationParams};
    let (mut world, _) = busy_world(26, 2);
    world.add_occluder(&wall(Vec3::new(5.0, 1.0, 5.0), Vec3::new(0.5, 2.0, 3.0))).unwrap();
    let def = InfluenceMapDef {
        width: 12,
        height: 9,
        cell_size: 1.0,
        origin: Vec3::new(0.0, 1.0, 0.0),
        plane: Plane::XZ,
        layer_count: 2,
    };
    let id = world.create_influence_map(&def).unwrap();
    {
        let map = world.influence_map_mut(id).unwrap();
        map.set_layer_name(1, "danger").unwrap();
        map.add_influence(1, Vec3::new(2.5, 0.0, 4.5), 10.0, 3).unwrap();
    }
    world.propagate_influence(id, 1, &PropagationParams { decay: 0.3, momentum: 0.6 }, u32::MAX).unwrap();
    let bytes = world.save().unwrap();
    let restored = World::load(&bytes).unwrap();
    let (a, b) = (world.influence_map(id).unwrap(), restored.influence_map(id).unwrap());
    assert_eq!(b.layer_index("danger"), Some(1));
    assert_eq!(a.layer(1).unwrap(), b.layer(1).unwrap());
    assert_eq!(a.blocked_cells(), b.blocked_cells());
    assert!(a.blocked_cells().iter().any(|&c| c != 0), "the wall blocks some cells");
    assert!(restored.save().unwrap() == bytes);
}

/// Replaces the first occurrence of `old`'s bytes in the payload with `new`'s and reseals.
fn patch_f32(bytes: &[u8], old: f32, new: f32) -> Vec<u8> {
    let at = bytes.windows(4).position(|w| w == old.to_le_bytes()).expect("the value is in the snapshot");
    let mut out = bytes.to_vec();
    out[at..at + 4].copy_from_slice(&new.to_le_bytes());
    argus_core::snapshot::reseal(&mut out);
    out
}

/// A map cell holds what the map's own setters accept (±1e9), or the load is refused: 3.4e38
/// used to load, and a flank query weighting it by 10 then scored -inf.
#[test]
fn influence_values_beyond_the_api_range_are_refused() {
    use argus_core::influence::InfluenceMapDef;
    let mut world = World::default();
    let id = world.create_influence_map(&InfluenceMapDef { width: 4, height: 4, ..Default::default() }).unwrap();
    world.influence_map_mut(id).unwrap().set_cell(0, 2, 1, 1234.5).unwrap();
    let bytes = world.save().unwrap();
    for bad in [3.4e38f32, -3.4e38, 1.000_001e9, f32::MAX, f32::INFINITY, f32::NAN] {
        let mut host = World::default();
        match host.load_into(&patch_f32(&bytes, 1234.5, bad)) {
            Err(Error::BadSnapshot(why)) => assert!(why.contains("influence value"), "{why}"),
            other => panic!("a cell of {bad} gave {other:?}"),
        }
    }
    for fine in [1.0e9f32, -1.0e9, 0.0, -0.0, f32::MIN_POSITIVE / 8.0] {
        let loaded = World::load(&patch_f32(&bytes, 1234.5, fine)).unwrap();
        assert_eq!(loaded.influence_map(id).unwrap().cell(0, 2, 1).unwrap().map(f32::to_bits), Some(fine.to_bits()));
    }
}

/// Every f64 field of a snapshot's payload, in order (world time first, then each agent's next
/// sight tick).
fn f64_fields(bytes: &[u8]) -> Vec<usize> {
    use argus_core::snapshot::{FieldKind, PAYLOAD_OFFSET, trace_fields};
    let fields = trace_fields(bytes).unwrap();
    fields.iter().filter(|f| f.kind == FieldKind::F64).map(|f| PAYLOAD_OFFSET + f.offset).collect()
}

/// A sight schedule is held to what the API can make (from 0 to one period past the clock): a
/// next tick of -1e300 with a 1 GHz rate used to load, and after one step the agent's schedule
/// was infinite, it stopped seeing, and the world refused its own save.
#[test]
fn sight_schedules_outside_the_api_range_are_refused() {
    let mut world = World::default();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.rate_hz = 1.0e9;
    let agent = world.create_agent(&def).unwrap();
    world.create_target(&point_target(Vec3::new(0.0, 0.0, 3.0))).unwrap();
    world.step(0.1).unwrap();
    let bytes = world.save().unwrap();
    let at = f64_fields(&bytes)[1];
    let patched = |v: f64| {
        let mut out = bytes.clone();
        out[at..at + 8].copy_from_slice(&v.to_le_bytes());
        argus_core::snapshot::reseal(&mut out);
        out
    };
    for bad in [-1.0e300, -1.0e-300, -0.5, 10.0, 1.0e300, f64::INFINITY, f64::NAN, f64::MAX] {
        match World::load(&patched(bad)) {
            Err(Error::BadSnapshot(why)) => assert!(why.contains("schedule"), "{why}"),
            Ok(_) => panic!("a next sight tick of {bad} loaded"),
            Err(other) => panic!("{other:?}"),
        }
    }
    for fine in [0.0, 0.05, 0.1 + 1.0e-9] {
        let mut loaded = World::load(&patched(fine)).unwrap();
        loaded.step(0.1).unwrap();
        assert!(loaded.agent(agent).unwrap().next_sense_time().is_finite());
        World::load(&loaded.save().unwrap()).unwrap();
    }
}

/// A faster sight rate brings the next tick forward but never before the clock, however often
/// the rate is changed: the schedule stays in the range a snapshot accepts.
#[test]
fn rate_changes_keep_the_schedule_loadable() {
    let mut world = World::default();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.rate_hz = 0.5;
    let a = world.create_agent(&def).unwrap();
    let b = world.create_agent(&def).unwrap();
    world.step(0.25).unwrap();
    for k in 0..200 {
        def.sight.rate_hz = if k % 2 == 0 { 1.0e9 } else { 0.5 };
        world.set_agent_def(a, &def).unwrap();
        world.set_agent_def(b, &def).unwrap();
    }
    for id in [a, b] {
        let next = world.agent(id).unwrap().next_sense_time();
        assert!((0.25..=2.25).contains(&next), "next tick {next}");
    }
    let bytes = world.save().unwrap();
    let mut loaded = World::load(&bytes).unwrap();
    loaded.step(0.1).unwrap();
    World::load(&loaded.save().unwrap()).unwrap();
}
