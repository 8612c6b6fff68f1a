//! The lesson's hearing trace (§5), percepts (§6) and memory trace (§7), through `World::step`.

mod common;
use argus_core::*;
use common::*;

fn footstep(world: &mut World, at: Vec3, loudness: f32, source: TargetId) {
    world.emit_sound(&SoundDef { position: at, loudness, source, ..Default::default() }).unwrap();
}

#[test]
fn lesson_trace_running_is_heard_at_10_m_walking_is_not() {
    let (mut world, agent) = lesson_world();
    footstep(&mut world, Vec3::new(10.0, 0.0, 0.0), 15.0, TargetId::NULL);
    world.step(0.1).unwrap();
    let heard: Vec<_> = world.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sound).collect();
    assert_eq!(heard.len(), 1);
    assert_eq!(heard[0].agent, agent);
    assert_eq!(heard[0].position, Vec3::new(10.0, 0.0, 0.0));
    assert!((heard[0].strength - (1.0 - 10.0 / 15.0)).abs() < 1e-6);

    footstep(&mut world, Vec3::new(10.0, 0.0, 0.0), 6.0, TargetId::NULL);
    world.step(0.1).unwrap();
    assert!(world.events().percepts.iter().all(|p| p.kind != PerceptKind::Sound));
}

#[test]
fn hearing_radius_is_inclusive_and_scales_with_sensitivity() {
    let mut world = World::default();
    let normal = world.create_agent(&lesson_agent(Vec3::ZERO, Vec3::Z)).unwrap();
    let mut keen = lesson_agent(Vec3::ZERO, Vec3::Z);
    keen.hearing.sensitivity = 2.0;
    let keen = world.create_agent(&keen).unwrap();
    footstep(&mut world, Vec3::new(0.0, 0.0, 6.0), 6.0, TargetId::NULL);
    footstep(&mut world, Vec3::new(0.0, 0.0, 11.0), 6.0, TargetId::NULL);
    world.step(0.1).unwrap();
    let heard =
        |a: AgentId| world.events().percepts.iter().filter(|p| p.agent == a && p.kind == PerceptKind::Sound).count();
    assert_eq!(heard(normal), 1, "exactly at the radius is heard; 11 m is not");
    assert_eq!(heard(keen), 2, "sensitivity 2 doubles the radius");
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
fn one_percept_shape_for_sight_and_sound() {
    let (mut world, agent) = lesson_world();
    let player = world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    footstep(&mut world, Vec3::new(2.0, 0.0, -3.0), 15.0, player);
    world.step(0.25).unwrap();
    let p = &world.events().percepts;
    assert_eq!(p.len(), 2);
    assert_eq!((p[0].kind, p[0].target, p[0].position), (PerceptKind::Sound, player, Vec3::new(2.0, 0.0, -3.0)));
    assert_eq!((p[1].kind, p[1].target, p[1].position), (PerceptKind::Sight, player, Vec3::new(0.0, 0.0, 5.0)));
    assert!(p.iter().all(|p| p.agent == agent && p.time == 0.25));
    assert_eq!(p[1].strength, 1.0);
}

#[test]
fn hearing_respects_teams_and_sound_layers() {
    let (mut world, agent) = lesson_world();
    world.emit_sound(&SoundDef { position: Vec3::X, loudness: 5.0, team: 0, ..Default::default() }).unwrap();
    world.emit_sound(&SoundDef { position: Vec3::X, loudness: 5.0, layers: 1 << 4, ..Default::default() }).unwrap();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.hearing.sound_mask = 1;
    world.set_agent_def(agent, &def).unwrap();
    world.step(0.1).unwrap();
    assert!(world.events().percepts.is_empty(), "own team's and masked-out sounds are not heard");
}

#[test]
fn optional_sound_occlusion_shrinks_the_radius_per_wall() {
    let def = WorldDef { sound_occlusion: 0.5, ..Default::default() };
    let mut world = World::new(&def).unwrap();
    let agent = world.create_agent(&lesson_agent(Vec3::ZERO, Vec3::Z)).unwrap();
    world.add_occluder(&wall(Vec3::new(0.0, 0.0, 4.0), Vec3::new(3.0, 3.0, 0.2))).unwrap();
    // 8 m away behind one wall: radius 15 × 0.5 = 7.5 < 8, not heard; 12 × ... = 6 for walking.
    footstep(&mut world, Vec3::new(0.0, 0.0, 8.0), 15.0, TargetId::NULL);
    // Same distance, no wall in between: heard.
    footstep(&mut world, Vec3::new(0.0, 0.0, -8.0), 15.0, TargetId::NULL);
    world.step(0.1).unwrap();
    let heard: Vec<_> = world.events().percepts.iter().filter(|p| p.agent == agent).map(|p| p.position).collect();
    assert_eq!(heard, vec![Vec3::new(0.0, 0.0, -8.0)]);
}

#[test]
fn lesson_trace_memory_decays_0_2_per_second_and_snaps_to_zero() {
    let (mut world, agent) = lesson_world();
    let player = world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    world.step(0.0).unwrap(); // percept at t = 0 sets confidence 1
    let conf = |w: &World| w.memory_of(agent, player).unwrap().map_or(0.0, |r| r.confidence);
    assert_eq!(conf(&world), 1.0);
    world.set_target_enabled(player, false).unwrap(); // no new percept after t = 0
    let mut forgotten_at = None;
    for step in 1..=24 {
        world.step(0.25).unwrap();
        let t = step as f32 * 0.25;
        if !world.events().forgotten.is_empty() {
            forgotten_at.get_or_insert(t);
        }
        let expected = 1.0 - 0.2 * t;
        if expected >= 0.05 + 1e-4 {
            assert!((conf(&world) - expected).abs() < 1e-5, "t = {t}: {} vs {expected}", conf(&world));
        } else if expected < 0.05 - 1e-4 {
            assert_eq!(conf(&world), 0.0, "t = {t}: below the threshold it is exactly 0");
        }
        if step == 4 {
            assert!((conf(&world) - 0.8).abs() < 1e-6);
        }
        if step == 8 {
            assert!((conf(&world) - 0.6).abs() < 1e-6);
        }
    }
    // 1 − 0.2 t reaches 0.05 at t = 4.75 exactly; f32 rounding of the running sum decides whether
    // that step or the next is the first strictly below the threshold.
    assert!(matches!(forgotten_at, Some(t) if t == 4.75 || t == 5.0), "forgotten at {forgotten_at:?}");
    assert!(world.memory_of(agent, player).unwrap().is_none(), "a forgotten record is dropped");
}

#[test]
fn a_percept_refreshes_confidence_and_position() {
    let (mut world, agent) = lesson_world();
    let player = world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    world.step(0.0).unwrap();
    world.set_target_enabled(player, false).unwrap();
    for _ in 0..10 {
        world.step(0.2).unwrap();
    }
    assert!((world.memory_of(agent, player).unwrap().unwrap().confidence - 0.6).abs() < 1e-5);
    // The player makes a noise elsewhere: memory jumps back to 1 at the sound's position.
    footstep(&mut world, Vec3::new(3.0, 0.0, 2.0), 15.0, player);
    world.step(0.2).unwrap();
    let rec = world.memory_of(agent, player).unwrap().unwrap();
    assert_eq!(rec.confidence, 1.0);
    assert_eq!(rec.last_known_position, Vec3::new(3.0, 0.0, 2.0));
    assert!(!rec.seen);
}

#[test]
fn lose_sight_radius_keeps_a_seen_target_until_it_leaves_the_larger_radius() {
    let mut world = World::default();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.lose_sight_radius = 14.0;
    let agent = world.create_agent(&def).unwrap();
    let player = world.create_target(&point_target(Vec3::new(0.0, 0.0, 12.0))).unwrap();
    let seen = |w: &World| w.memory_of(agent, player).unwrap().is_some_and(|r| r.seen);
    world.step(0.1).unwrap();
    assert!(!seen(&world), "12 m is outside the 10 m view radius before first sight");
    world.set_target_pose(player, Vec3::new(0.0, 0.0, 9.0), Vec3::Z).unwrap();
    world.step(0.1).unwrap();
    assert!(seen(&world));
    world.set_target_pose(player, Vec3::new(0.0, 0.0, 13.5), Vec3::Z).unwrap();
    world.step(0.1).unwrap();
    assert!(seen(&world), "still seen inside the lose-sight radius");
    world.set_target_pose(player, Vec3::new(0.0, 0.0, 14.5), Vec3::Z).unwrap();
    world.step(0.1).unwrap();
    assert!(!seen(&world), "lost past 14 m");
    world.set_target_pose(player, Vec3::new(0.0, 0.0, 12.0), Vec3::Z).unwrap();
    world.step(0.1).unwrap();
    assert!(!seen(&world), "once lost, 12 m is out of range again");
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

#[test]
fn a_bush_blocks_sight_but_not_hearing() {
    const BUSH: u32 = 1 << 2;
    let def = WorldDef { sound_occlusion: 0.5, ..Default::default() };
    let mut world = World::new(&def).unwrap();
    let mut guard = lesson_agent(Vec3::ZERO, Vec3::Z);
    guard.hearing.obstacle_mask = !BUSH; // leaves rustle, they do not muffle
    let guard = world.create_agent(&guard).unwrap();
    let bush = OccluderDef { layers: BUSH, ..OccluderDef::sphere(Vec3::new(0.0, 0.0, 5.0), 1.5) };
    world.add_occluder(&bush).unwrap();
    let player = world.create_target(&point_target(Vec3::new(0.0, 0.0, 8.0))).unwrap();
    assert!(!world.can_see(guard, player).unwrap().seen, "the bush hides the player");
    // 8 m away, loudness 9: a muffling occluder would halve the radius to 4.5 m.
    footstep(&mut world, Vec3::new(0.0, 0.0, 8.0), 9.0, player);
    world.step(0.1).unwrap();
    let kinds: Vec<_> = world.events().percepts.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, vec![PerceptKind::Sound], "heard through the bush, not seen");
}
