//! The guard brain of lesson §8 and what it adds: every transition, the 4 s search timeout,
//! investigation endings, move targets, events, and awareness-gated chasing.

mod common;
use argus_core::*;
use common::*;

struct Scene {
    world: World,
    guard: AgentId,
    player: TargetId,
    wall: OccluderId,
}

/// Guard at the origin facing +Z; player 6 m ahead; a wall that can be slid in between.
fn scene() -> Scene {
    let (mut world, guard) = lesson_world();
    let player = world.create_target(&point_target(Vec3::new(0.0, 0.0, 6.0))).unwrap();
    let wall = world.add_occluder(&wall(Vec3::new(50.0, 0.0, 3.0), Vec3::new(2.0, 2.0, 0.2))).unwrap();
    Scene { world, guard, player, wall }
}

impl Scene {
    fn state(&self) -> BrainState {
        self.world.agent(self.guard).unwrap().brain().state
    }
    fn hide(&mut self) {
        self.world.set_occluder_pose(self.wall, Vec3::new(0.0, 0.0, 3.0), Quat::IDENTITY).unwrap();
    }
    fn unhide(&mut self) {
        self.world.set_occluder_pose(self.wall, Vec3::new(50.0, 0.0, 3.0), Quat::IDENTITY).unwrap();
    }
    fn step(&mut self, dt: f32) -> Vec<(BrainState, BrainState)> {
        self.world.step(dt).unwrap();
        self.world.events().brain.iter().map(|e| (e.from, e.to)).collect()
    }
    fn noise(&mut self, at: Vec3, source: TargetId) {
        self.world.emit_sound(&SoundDef { position: at, loudness: 15.0, source, ..Default::default() }).unwrap();
    }
}

#[test]
fn sight_starts_a_chase_and_losing_sight_starts_a_4_second_search() {
    let mut s = scene();
    assert_eq!(s.step(0.25), vec![(BrainState::Idle, BrainState::Chasing)]);
    assert_eq!(s.world.move_target(s.guard).unwrap(), Some(Vec3::new(0.0, 0.0, 6.0)));
    s.hide();
    assert_eq!(s.step(0.25), vec![(BrainState::Chasing, BrainState::Searching)]);
    assert_eq!(s.world.agent(s.guard).unwrap().brain().timer, 4.0);
    assert_eq!(s.world.move_target(s.guard).unwrap(), Some(Vec3::new(0.0, 0.0, 6.0)), "searches the last known spot");
    // 15 more quarter seconds: 0.25 s of search left, still searching.
    for _ in 0..15 {
        assert!(s.step(0.25).is_empty());
        assert_eq!(s.state(), BrainState::Searching);
    }
    // The 16th brings the timer to exactly 0: give up.
    assert_eq!(s.step(0.25), vec![(BrainState::Searching, BrainState::Idle)]);
    assert_eq!(s.world.move_target(s.guard).unwrap(), None);
    let rec = s.world.memory_of(s.guard, s.player).unwrap().unwrap();
    assert!(rec.confidence > 0.0, "the timer ran out before memory did ({})", rec.confidence);
}

#[test]
fn searching_ends_early_when_memory_is_forgotten() {
    let mut s = scene();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.memory.decay_per_second = 1.0;
    s.world.set_agent_def(s.guard, &def).unwrap();
    s.step(0.25);
    s.hide();
    s.step(0.25); // Searching; confidence 0.75 after this step
    let mut idle_after = 0.0;
    for i in 1..=16 {
        if s.step(0.25) == vec![(BrainState::Searching, BrainState::Idle)] {
            idle_after = i as f32 * 0.25;
            break;
        }
    }
    // 1 − 0.25 k < 0.05 first at k = 4 (0.0), i.e. 0.75 s into the search, well before 4 s.
    assert_eq!(idle_after, 0.75);
}

#[test]
fn seeing_the_target_again_while_searching_resumes_the_chase() {
    let mut s = scene();
    s.step(0.25);
    s.hide();
    s.step(0.25);
    s.step(0.25);
    s.unhide();
    assert_eq!(s.step(0.25), vec![(BrainState::Searching, BrainState::Chasing)]);
}

#[test]
fn a_sound_while_idle_is_investigated_at_its_position() {
    let mut s = scene();
    s.world.set_target_pose(s.player, Vec3::new(0.0, 0.0, -6.0), Vec3::Z).unwrap(); // behind: unseen
    s.noise(Vec3::new(0.0, 0.0, -6.0), TargetId::NULL);
    assert_eq!(s.step(0.25), vec![(BrainState::Idle, BrainState::Investigating)]);
    assert_eq!(s.world.move_target(s.guard).unwrap(), Some(Vec3::new(0.0, 0.0, -6.0)));
    // A second noise elsewhere is ignored while investigating, as in the lesson.
    s.noise(Vec3::new(5.0, 0.0, 0.0), TargetId::NULL);
    assert!(s.step(0.25).is_empty());
    assert_eq!(s.world.move_target(s.guard).unwrap(), Some(Vec3::new(0.0, 0.0, -6.0)));
}

#[test]
fn investigating_ends_on_arrival_then_searches_then_gives_up() {
    let mut s = scene();
    s.world.set_target_pose(s.player, Vec3::new(0.0, 0.0, -6.0), Vec3::Z).unwrap();
    s.noise(Vec3::new(0.0, 0.0, -6.0), TargetId::NULL);
    s.step(0.25);
    s.world.report_arrived(s.guard).unwrap();
    assert_eq!(s.step(0.25), vec![(BrainState::Investigating, BrainState::Searching)]);
    // An anonymous sound leaves no memory to forget: only the 4 s timer ends the search.
    for _ in 0..15 {
        assert!(s.step(0.25).is_empty());
    }
    assert_eq!(s.step(0.25), vec![(BrainState::Searching, BrainState::Idle)]);
}

#[test]
fn investigating_times_out_when_the_engine_never_reports_arrival() {
    let mut s = scene();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.brain.investigate_timeout = 2.0;
    s.world.set_agent_def(s.guard, &def).unwrap();
    s.world.set_target_pose(s.player, Vec3::new(0.0, 0.0, -6.0), Vec3::Z).unwrap();
    s.noise(Vec3::new(0.0, 0.0, -6.0), TargetId::NULL);
    s.step(0.5);
    for _ in 0..3 {
        let events = s.step(0.5);
        assert!(events.is_empty(), "{events:?} timer {}", s.world.agent(s.guard).unwrap().brain().timer);
    }
    assert_eq!(s.step(0.5), vec![(BrainState::Investigating, BrainState::Searching)]);
}

#[test]
fn sight_while_investigating_starts_a_chase() {
    let mut s = scene();
    s.hide();
    s.noise(Vec3::new(3.0, 0.0, 3.0), s.player);
    assert_eq!(s.step(0.25), vec![(BrainState::Idle, BrainState::Investigating)]);
    s.unhide();
    assert_eq!(s.step(0.25), vec![(BrainState::Investigating, BrainState::Chasing)]);
    let e = s.world.events().brain[0];
    assert_eq!((e.agent, e.target, e.time), (s.guard, s.player, 0.5));
}

#[test]
fn a_sound_while_chasing_changes_nothing() {
    let mut s = scene();
    s.step(0.25);
    s.noise(Vec3::new(-5.0, 0.0, 0.0), TargetId::NULL);
    assert!(s.step(0.25).is_empty());
    assert_eq!(s.state(), BrainState::Chasing);
    assert_eq!(s.world.move_target(s.guard).unwrap(), Some(Vec3::new(0.0, 0.0, 6.0)));
}

#[test]
fn chasing_a_target_that_no_longer_exists_goes_idle() {
    let mut s = scene();
    s.step(0.25);
    s.world.destroy_target(s.player).unwrap();
    assert_eq!(s.step(0.25), vec![(BrainState::Chasing, BrainState::Idle)]);
}

#[test]
fn a_disabled_brain_stays_idle_but_still_senses() {
    let mut s = scene();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.brain.enabled = false;
    s.world.set_agent_def(s.guard, &def).unwrap();
    assert!(s.step(0.25).is_empty());
    assert_eq!(s.state(), BrainState::Idle);
    assert_eq!(s.world.events().percepts.len(), 1);
}

#[test]
fn the_brain_chases_the_nearest_of_several_and_keeps_its_focus() {
    let mut s = scene();
    let near = s.world.create_target(&point_target(Vec3::new(1.0, 0.0, 3.0))).unwrap();
    s.step(0.25);
    assert_eq!(s.world.agent(s.guard).unwrap().brain().focus, near);
    // The original target walks closer; the guard keeps chasing the one it chose.
    s.world.set_target_pose(s.player, Vec3::new(0.0, 0.0, 1.0), Vec3::Z).unwrap();
    s.step(0.25);
    assert_eq!(s.world.agent(s.guard).unwrap().brain().focus, near);
}

#[test]
fn with_awareness_a_glimpse_is_investigated_and_a_stare_is_chased() {
    let mut s = scene();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.awareness.enabled = true;
    s.world.set_agent_def(s.guard, &def).unwrap();
    // Player 6 m ahead, dead centre: salience = 1 × (1 − 0.75 × 0.6) × 1 = 0.55 → 1.1 per second.
    let mut stages = Vec::new();
    let mut states = Vec::new();
    for _ in 0..10 {
        s.step(0.1);
        stages.extend(s.world.events().awareness.iter().map(|e| e.to));
        states.extend(s.world.events().brain.iter().map(|e| e.to));
    }
    assert_eq!(stages, vec![AwarenessStage::Suspicious, AwarenessStage::Alert, AwarenessStage::Aware]);
    assert_eq!(states, vec![BrainState::Investigating, BrainState::Chasing]);
    let rec = s.world.memory_of(s.guard, s.player).unwrap().unwrap();
    assert_eq!(rec.awareness, 1.0);
    // Hidden, the meter falls at 0.25 per second.
    s.hide();
    s.step(0.1);
    s.step(1.0);
    let rec = s.world.memory_of(s.guard, s.player).unwrap().unwrap();
    assert!((rec.awareness - (1.0 - 0.25 * 1.1)).abs() < 1e-5, "{}", rec.awareness);
}

#[test]
fn awareness_fills_faster_near_and_centred() {
    let mut world = World::default();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.awareness.enabled = true;
    def.brain.enabled = false;
    let guard = world.create_agent(&def).unwrap();
    let near_centre = world.create_target(&point_target(Vec3::new(0.0, 0.0, 2.0))).unwrap();
    let far_centre = world.create_target(&point_target(Vec3::new(0.0, 0.0, 9.0))).unwrap();
    let far_edge = world.create_target(&point_target(at_angle(44.0, 9.0))).unwrap();
    world.step(0.0).unwrap();
    world.step(0.1).unwrap();
    let level = |t| world.memory_of(guard, t).unwrap().unwrap().awareness;
    assert!(level(near_centre) > level(far_centre));
    assert!(level(far_centre) > level(far_edge));
    assert!((level(near_centre) - 0.2 * (1.0 - 0.75 * 0.2)).abs() < 1e-5);
}
