//! The recording's Hearing section (format 5): for each agent in focus and each sound near it,
//! heard or not as the step decided, how, and why not; the walk it took. Checked on a hand-made
//! level (a wall with a doorway, a closed room, a listener off the graph) and, on random levels,
//! against the step's own percepts and the world's walk search; and the replay compares it.

use argus_core::record::{HearingRecord, hearing_sections};
use argus_core::*;

mod common;
use common::Rng;

const HEARD_STRAIGHT: u8 = 0;
const HEARD_WALK: u8 = 1;
const BEYOND_REACH: u8 = 2;
const MUFFLED: u8 = 3;
const WALK_TOO_LONG: u8 = 4;
const NO_WALK: u8 = 5;
const OFF_GRAPH: u8 = 6;
const WALK_FAR: u8 = 7;

fn cuboid(world: &mut World, centre: Vec3, half: Vec3) -> OccluderId {
    world.add_occluder(&OccluderDef::cuboid(centre, half)).unwrap()
}

/// 20 × 20 m of 0.5 m cells; a wall across at z = 10 with a doorway at x 13–15; a closed box
/// (a room with no door) around (3, 3).
fn level(path: HearingPath) -> World {
    let mut world = World::new(&WorldDef { hearing_path: path, ..Default::default() }).unwrap();
    cuboid(&mut world, Vec3::new(6.5, 1.5, 10.0), Vec3::new(6.5, 1.5, 0.1));
    cuboid(&mut world, Vec3::new(17.5, 1.5, 10.0), Vec3::new(2.5, 1.5, 0.1));
    for (c, h) in
        [((3.0, 1.0), (2.1, 0.1)), ((3.0, 5.0), (2.1, 0.1)), ((1.0, 3.0), (0.1, 2.1)), ((5.0, 3.0), (0.1, 2.1))]
    {
        cuboid(&mut world, Vec3::new(c.0, 1.5, c.1), Vec3::new(h.0, 1.5, h.1));
    }
    world.set_walk_grid(&WalkGridDef { width: 40, depth: 40, cell_size: 0.5, ..Default::default() }).unwrap();
    world
}

fn guard(world: &mut World, at: Vec3) -> AgentId {
    world.create_agent(&AgentDef { position: at, ..Default::default() }).unwrap()
}

/// Emits `sounds` (position, loudness) in one step while recording; the step's records.
fn record_step(world: &mut World, sounds: &[(Vec3, f32)]) -> (Vec<HearingRecord>, Vec<Percept>) {
    world.start_recording(&RecordOptions::default()).unwrap();
    for &(position, loudness) in sounds {
        world.emit_sound(&SoundDef { position, loudness, ..Default::default() }).unwrap();
    }
    world.step(0.1).unwrap();
    let percepts = world.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sound).copied().collect();
    let bytes = world.stop_recording().unwrap();
    Replay::new(&bytes).unwrap().run_to_end().unwrap();
    let mut frames = hearing_sections(&bytes).expect("well-formed frames");
    assert_eq!(frames.len(), 1);
    (frames.remove(0), percepts)
}

fn record_of(records: &[HearingRecord], agent: AgentId, sound: u32) -> &HearingRecord {
    records.iter().find(|r| r.agent_index == agent.index && r.sound == sound).expect("a record")
}

#[test]
fn each_reason_is_told_on_a_hand_made_level() {
    let mut world = level(HearingPath::Walk);
    let g = guard(&mut world, Vec3::new(5.0, 0.0, 8.0));
    let boxed = guard(&mut world, Vec3::new(3.0, 0.0, 3.0));
    let sounds = [
        (Vec3::new(5.0, 0.0, 12.0), 30.0), // 0: behind the wall, round through the doorway
        (Vec3::new(5.0, 0.0, 12.0), 12.0), // 1: the same, too quiet to come round
        (Vec3::new(5.0, 0.0, 15.0), 4.0),  // 2: 7 m away by the line, reach 4: beyond
        (Vec3::new(5.0, 0.0, 40.0), 40.0), // 3: behind the wall and off the graph (z 40)
        (Vec3::new(6.0, 0.0, 8.0), 3.0),   // 4: in the open, 1 m: straight
    ];
    let (records, percepts) = record_step(&mut world, &sounds);
    let walked = record_of(&records, g, 0);
    let heard = percepts.iter().find(|p| p.agent == g && p.sound == 0).expect("heard round the wall");
    assert_eq!((walked.outcome, walked.walk_hearing), (HEARD_WALK, true));
    assert_eq!((walked.distance, walked.apparent), (heard.distance, heard.position));
    assert!(walked.kept == 0.0 && (walked.straight - 4.0).abs() < 1e-5 && walked.reach == 30.0);
    assert!(walked.path.len() > 10, "the walk's nodes: {}", walked.path.len());
    assert!(walked.path.iter().any(|p| p.z > 9.5 && p.z < 10.5 && p.x > 13.0 && p.x < 15.0), "through the doorway");
    let quiet = record_of(&records, g, 1);
    assert_eq!(quiet.outcome, WALK_TOO_LONG);
    assert_eq!(quiet.distance, walked.distance, "the same walk, longer than its reach");
    assert!(quiet.distance > quiet.reach && quiet.path == walked.path);
    assert_eq!(record_of(&records, g, 2).outcome, BEYOND_REACH);
    assert_eq!(record_of(&records, g, 3).outcome, OFF_GRAPH);
    let open = record_of(&records, g, 4);
    assert_eq!((open.outcome, open.distance, open.kept), (HEARD_STRAIGHT, 1.0, 1.0));
    // The boxed guard: the doorway sound is within its reach by the line, and no walk leaves
    // the box.
    assert_eq!(record_of(&records, boxed, 0).outcome, NO_WALK);
    // A sound beyond twice the reach is not listed.
    assert!(!records.iter().any(|r| r.agent_index == boxed.index && r.sound == 2));
}

#[test]
fn the_lesson_hearing_says_muffled_and_lists_only_the_focus() {
    let mut world = World::new(&WorldDef { sound_occlusion: 0.25, ..Default::default() }).unwrap();
    cuboid(&mut world, Vec3::new(0.0, 1.5, 5.0), Vec3::new(10.0, 1.5, 0.1));
    let g = guard(&mut world, Vec3::new(0.0, 0.0, 3.0));
    let other = guard(&mut world, Vec3::new(1.0, 0.0, 3.0));
    world.start_recording(&RecordOptions { focus: vec![g], explain: true }).unwrap();
    world.emit_sound(&SoundDef { position: Vec3::new(0.0, 0.0, 7.0), loudness: 10.0, ..Default::default() }).unwrap();
    world.emit_sound(&SoundDef { position: Vec3::new(0.0, 0.0, 2.0), loudness: 10.0, ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    let bytes = world.stop_recording().unwrap();
    let records = hearing_sections(&bytes).unwrap().remove(0);
    assert!(records.iter().all(|r| r.agent_index == g.index && !r.walk_hearing), "{records:?}");
    let muffled = record_of(&records, g, 0);
    assert_eq!((muffled.outcome, muffled.kept, muffled.straight), (MUFFLED, 0.25, 4.0));
    assert_eq!(record_of(&records, g, 1).outcome, HEARD_STRAIGHT);
    let _ = other;
    // Without explanations the section is empty.
    world.start_recording(&RecordOptions { focus: Vec::new(), explain: false }).unwrap();
    world.emit_sound(&SoundDef { position: Vec3::new(0.0, 0.0, 2.0), loudness: 10.0, ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    assert!(hearing_sections(&world.stop_recording().unwrap()).unwrap()[0].is_empty());
}

/// On random levels and sounds: a record says heard exactly when the step made the percept,
/// with its distance and position; every sound percept of a listener has its record; a walk too
/// long or heard is the world's own shortest walk; no walk means the world finds none.
#[test]
fn the_records_agree_with_the_step_and_the_walk_search_on_random_levels() {
    let mut rng = Rng(45);
    let (mut heard, mut too_long, mut no_walk, mut far) = (0, 0, 0, 0);
    for round in 0..60 {
        let mut world = level(if round % 3 == 0 { HearingPath::Straight } else { HearingPath::Walk });
        for _ in 0..rng.n(6) {
            let c = Vec3::new(rng.f(0.0, 20.0), 1.5, rng.f(0.0, 20.0));
            cuboid(&mut world, c, Vec3::new(rng.f(0.1, 4.0), 1.5, rng.f(0.1, 4.0)));
        }
        let guards: Vec<AgentId> =
            (0..4).map(|_| guard(&mut world, Vec3::new(rng.f(0.0, 20.0), 0.0, rng.f(0.0, 20.0)))).collect();
        let sounds: Vec<(Vec3, f32)> =
            (0..5).map(|_| (Vec3::new(rng.f(-2.0, 22.0), 0.0, rng.f(-2.0, 22.0)), rng.f(1.0, 25.0))).collect();
        let (records, percepts) = record_step(&mut world, &sounds);
        for p in &percepts {
            let r = record_of(&records, p.agent, p.sound);
            assert!(matches!(r.outcome, HEARD_STRAIGHT | HEARD_WALK), "round {round}: {r:?}");
            assert_eq!((r.distance, r.apparent), (p.distance, p.position), "round {round}");
        }
        for r in &records {
            let g = guards.iter().find(|g| g.index == r.agent_index).expect("a guard");
            let percept = percepts.iter().any(|p| p.agent == *g && p.sound == r.sound);
            assert_eq!(percept, matches!(r.outcome, HEARD_STRAIGHT | HEARD_WALK), "round {round}: {r:?}");
            let (from, to) = (sounds[r.sound as usize].0, world.agent(*g).unwrap().position());
            assert!(r.straight <= 2.0 * r.reach + 1e-4 && (r.straight - from.distance(to)).abs() < 1e-4);
            match r.outcome {
                WALK_TOO_LONG | HEARD_WALK => {
                    let walk = world.walk_path(from, to, f32::MAX).unwrap().expect("a walk");
                    assert!((walk.distance - r.distance).abs() <= 1e-4 * walk.distance.max(1.0), "round {round}");
                    assert_eq!(walk.nodes.len(), r.path.len());
                    if r.outcome == WALK_TOO_LONG {
                        assert!(r.distance > r.reach, "round {round}: {r:?}");
                        too_long += 1;
                    } else {
                        assert!(r.distance <= r.reach, "round {round}: {r:?}");
                    }
                }
                NO_WALK => {
                    assert!(world.walk_path(from, to, f32::MAX).unwrap().is_none(), "round {round}");
                    no_walk += 1;
                }
                WALK_FAR => {
                    assert!(world.walk_path(from, to, 2.0 * r.reach).unwrap().is_none(), "round {round}");
                    far += 1;
                }
                BEYOND_REACH => assert!(r.straight > r.reach),
                _ => {}
            }
            heard += percept as usize;
        }
    }
    let met = format!("heard {heard}, too long {too_long}, no walk {no_walk}, none within twice the reach {far}");
    assert!(heard > 20 && too_long > 5 && no_walk > 0, "cases met: {met}");
    println!("cases met: {met}");
}
