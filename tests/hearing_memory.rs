//! Hearing and sight scheduling through the Rust API. The lesson's hearing (§5), percept (§6) and
//! memory (§7) traces, sound occlusion and the lose-sight radius are in the conformance corpus
//! (`tests/scenarios/hearing_*.json`, `percepts_one_shape.json`, `memory_*.json`, `sight_*.json`).

mod common;
use argus_core::*;
use common::*;

fn footstep(world: &mut World, at: Vec3, loudness: f32, source: TargetId) {
    world.emit_sound(&SoundDef { position: at, loudness, source, ..Default::default() }).unwrap();
}

#[test]
fn sounds_are_heard_once_at_the_next_step_whatever_the_sight_rate() {
    let mut world = World::default();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.rate_hz = 0.5; // one sight tick every 2 s
    let agent = world.create_agent(&def).unwrap();
    world.step(0.1).unwrap();
    footstep(&mut world, Vec3::new(3.0, 0.0, 0.0), 6.0, TargetId::NULL);
    assert_eq!(world.pending_sounds().len(), 1);
    world.step(0.1).unwrap();
    assert_eq!(world.events().percepts.iter().filter(|p| p.agent == agent).count(), 1);
    world.step(0.1).unwrap();
    assert!(world.events().percepts.is_empty(), "a sound is heard at one step only");
}

#[test]
fn sight_ticks_follow_the_rate_and_are_staggered_evenly() {
    let mut world = World::default();
    let mut ids = Vec::new();
    for _ in 0..60 {
        let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
        def.sight.rate_hz = 10.0;
        ids.push(world.create_agent(&def).unwrap());
    }
    world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    let dt = 1.0 / 60.0;
    let mut per_step = Vec::new();
    let mut per_agent = vec![0; ids.len()];
    for _ in 0..60 {
        world.step(dt).unwrap();
        let sights: Vec<_> = world.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sight).collect();
        per_step.push(sights.len());
        for p in sights {
            per_agent[p.agent.index as usize] += 1;
        }
    }
    // One second at 10 Hz: every agent ticks 10 times (±1 for the phase), the load spreads evenly.
    assert!(per_agent.iter().all(|&n| (9..=11).contains(&n)), "{per_agent:?}");
    let (min, max) = (per_step.iter().min().unwrap(), per_step.iter().max().unwrap());
    assert!(*max <= 16 && *min >= 4, "uneven load per step: {per_step:?}");
}

/// Issue #34, memory without jitter: at the default 10 Hz sight and 30 Hz frames a target in plain
/// view reads exactly 1 at every frame (it read 1, 0.993, 1, 0.993, 0.987, ... before), and once a
/// tick misses it, its confidence is the lesson's decay from the last percept.
#[test]
fn a_target_in_view_holds_confidence_one_between_sight_ticks() {
    let mut world = World::default();
    let mut def = AgentDef { forward: Vec3::Z, ..Default::default() };
    def.sight.eye_offset = Vec3::ZERO;
    def.brain.enabled = false;
    let guard = world.create_agent(&def).unwrap();
    let player = world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    let dt = 1.0 / 30.0;
    let mut ticks = 0;
    for frame in 0..30 {
        world.step(dt).unwrap();
        ticks += world.events().percepts.len();
        let rec = *world.memory_of(guard, player).unwrap().unwrap();
        assert_eq!(rec.confidence, 1.0, "frame {frame}: held while seen at the latest tick");
        assert!(rec.seen);
    }
    assert_eq!(ticks, 11, "10 Hz: a tick at the first frame (t = 1/30), then at t = 0.1, 0.2, ... 1.0");
    world.set_target_enabled(player, false).unwrap();
    let last_seen = world.memory_of(guard, player).unwrap().unwrap().last_percept_time;
    let mut lost_at = None;
    for _ in 0..3 {
        world.step(dt).unwrap();
        let rec = *world.memory_of(guard, player).unwrap().unwrap();
        let lost = world.events().sight_changes.iter().any(|c| !c.seen && c.target == player);
        match lost_at {
            None if lost => {
                lost_at = Some(world.time() as f32);
                let want = 1.0 - 0.2 * (world.time() as f32 - last_seen);
                assert!((rec.confidence - want).abs() < 1e-5, "{} vs {want}", rec.confidence);
                assert!(rec.confidence < 1.0 && !rec.seen);
            }
            None => assert_eq!(rec.confidence, 1.0, "no tick has missed it yet"),
            Some(_) => {}
        }
    }
    assert!(lost_at.is_some(), "a tick within three frames saw it gone");
}

/// Issue #34, sound identity: each sound percept names its sound (emission index) and loudness,
/// so two sounds at one spot stay apart, also for a listener that hears only the second.
#[test]
fn sound_percepts_name_their_sound_and_loudness() {
    let mut world = World::default();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.enabled = false;
    let near = world.create_agent(&def).unwrap();
    def.position = Vec3::new(0.0, 0.0, -100.0);
    let far = world.create_agent(&def).unwrap();
    let player = world.create_target(&point_target(Vec3::new(40.0, 0.0, 40.0))).unwrap();
    let spot = Vec3::new(0.0, 0.0, 5.0);
    footstep(&mut world, spot, 10.0, TargetId::NULL);
    footstep(&mut world, spot, 600.0, player);
    world.step(0.1).unwrap();
    let got: Vec<(AgentId, u32, f32, TargetId)> =
        world.events().percepts.iter().map(|p| (p.agent, p.sound, p.loudness, p.target)).collect();
    assert_eq!(
        got,
        vec![(near, 0, 10.0, TargetId::NULL), (near, 1, 600.0, player), (far, 1, 600.0, player)],
        "the far guard hears only the player's, still sound 1"
    );
    world.create_target(&point_target(Vec3::new(0.0, 0.0, 3.0))).unwrap();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.hearing.enabled = false;
    world.create_agent(&def).unwrap();
    world.step(0.1).unwrap();
    let sight = world.events().percepts.iter().find(|p| p.kind == PerceptKind::Sight).expect("a sight percept");
    assert_eq!((sight.sound, sight.loudness), (Percept::NO_SOUND, 0.0));
}

/// A brain focused on a target that is destroyed gives up at the next step, as documented:
/// investigating a sound the target made (it used to go on for the whole 10 s timeout),
/// chasing it, or searching for it. Its memory record of the target is gone at once.
#[test]
fn brains_focused_on_a_destroyed_target_give_up_at_the_next_step() {
    for start in [BrainState::Investigating, BrainState::Chasing, BrainState::Searching] {
        let (mut world, guard) = lesson_world();
        // Behind the guard (unseen) for a sound; in front (seen) for a chase.
        let at = if start == BrainState::Investigating { Vec3::new(0.0, 0.0, -4.0) } else { Vec3::new(0.0, 0.0, 4.0) };
        let target = world.create_target(&point_target(at)).unwrap();
        if start == BrainState::Investigating {
            footstep(&mut world, at, 20.0, target);
        }
        world.step(0.1).unwrap();
        if start == BrainState::Searching {
            world.set_target_pose(target, Vec3::new(0.0, 0.0, -30.0), Vec3::Z).unwrap();
            world.step(0.1).unwrap();
            world.step(0.1).unwrap();
        }
        let brain = world.agent(guard).unwrap().brain();
        assert_eq!((brain.state, brain.focus), (start, target), "set-up");
        world.destroy_target(target).unwrap();
        assert!(world.agent(guard).unwrap().memory().is_empty(), "{start:?}: memory of it goes at once");
        world.step(0.1).unwrap();
        assert_eq!(world.agent(guard).unwrap().brain().state, BrainState::Idle, "{start:?}");
        assert_eq!(world.agent(guard).unwrap().brain().focus, TargetId::NULL);
        let events = &world.events().brain;
        assert_eq!(events.len(), 1, "{start:?}: {events:?}");
        assert_eq!((events[0].agent, events[0].from, events[0].to), (guard, start, BrainState::Idle));
    }
}
