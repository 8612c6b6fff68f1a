//! Bad input through the Rust API: a clear error, and the world unchanged.

mod common;
use argus_core::*;
use common::*;

fn snapshot(world: &World) -> Vec<u8> {
    world.save().unwrap()
}

#[test]
fn every_kind_of_bad_input_is_refused_without_changing_anything() {
    let mut world = World::default();
    let mut scenario = Scenario::build(&mut world, 5, 4, 3, 4);
    scenario.drive(&mut world);
    world.step(0.1).unwrap();
    let before = snapshot(&world);
    let agent = scenario.agents[0];
    let target = scenario.targets[0];
    let nan = f32::NAN;
    let inf = f32::INFINITY;

    let mut defs: Vec<(&str, AgentDef)> = Vec::new();
    let base = AgentDef::default();
    let mut d = base;
    d.position.x = nan;
    defs.push(("NaN position", d));
    let mut d = base;
    d.forward = Vec3::ZERO;
    defs.push(("zero forward", d));
    let mut d = base;
    d.sight.view_radius = -1.0;
    defs.push(("negative radius", d));
    let mut d = base;
    d.sight.view_radius = inf;
    defs.push(("infinite radius", d));
    let mut d = base;
    d.sight.rate_hz = -10.0;
    defs.push(("negative rate", d));
    let mut d = base;
    d.sight.view_angle = -1.0;
    defs.push(("negative angle", d));
    let mut d = base;
    d.sight.view_radius = 2.0e9;
    defs.push(("view radius beyond the accepted magnitude", d));
    let mut d = base;
    d.sight.lose_sight_radius = 5.0;
    defs.push(("lose-sight radius below the view radius", d));
    let mut d = base;
    d.hearing.sensitivity = nan;
    defs.push(("NaN sensitivity", d));
    let mut d = base;
    d.memory.forget_threshold = 2.0;
    defs.push(("forget threshold over 1", d));
    let mut d = base;
    d.team = 64;
    defs.push(("team 64", d));
    let mut d = base;
    d.awareness.alert_threshold = 0.1;
    defs.push(("awareness thresholds out of order", d));
    for (what, def) in &defs {
        assert!(matches!(world.create_agent(def), Err(Error::InvalidArgument(_))), "create: {what}");
        assert!(matches!(world.set_agent_def(agent, def), Err(Error::InvalidArgument(_))), "set_def: {what}");
    }

    let stale = AgentId { index: agent.index, generation: agent.generation + 7 };
    assert_eq!(world.set_agent_pose(stale, Vec3::ZERO, Vec3::Z), Err(Error::InvalidId("agent")));
    assert_eq!(world.set_agent_pose(AgentId::NULL, Vec3::ZERO, Vec3::Z), Err(Error::InvalidId("agent")));
    assert!(matches!(world.set_agent_pose(agent, Vec3::new(inf, 0.0, 0.0), Vec3::Z), Err(Error::InvalidArgument(_))));
    assert!(matches!(world.set_agent_pose(agent, Vec3::ZERO, Vec3::ZERO), Err(Error::InvalidArgument(_))));
    let ids = [agent, stale];
    assert!(world.set_agent_poses(&ids, &[Vec3::ONE, Vec3::ONE], None).is_err(), "one bad id moves nobody");
    assert!(world.set_agent_poses(&[agent], &[Vec3::ONE, Vec3::ONE], None).is_err(), "length mismatch");
    assert!(matches!(
        world.set_target_pose(target, Vec3::ZERO, Vec3::new(nan, 0.0, 0.0)),
        Err(Error::InvalidArgument(_))
    ));
    let no_points = TargetDef { check_points: vec![], ..Default::default() };
    assert!(matches!(world.create_target(&no_points), Err(Error::InvalidArgument(_))));
    let nine = TargetDef { check_points: vec![Vec3::ZERO; 9], ..Default::default() };
    assert!(matches!(world.create_target(&nine), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        world.emit_sound(&SoundDef { loudness: -1.0, ..Default::default() }),
        Err(Error::InvalidArgument(_))
    ));
    let ghost = TargetId { index: 99, generation: 1 };
    assert_eq!(world.emit_sound(&SoundDef { source: ghost, ..Default::default() }), Err(Error::InvalidId("target")));
    let bad_box =
        OccluderDef { shape: OccluderShape::Box { half_extents: Vec3::new(1.0, -1.0, 1.0) }, ..Default::default() };
    assert!(matches!(world.add_occluder(&bad_box), Err(Error::InvalidArgument(_))));
    let bad_mesh = OccluderDef {
        shape: OccluderShape::Mesh { vertices: vec![Vec3::ZERO; 3], indices: vec![[0, 1, 3]] },
        ..Default::default()
    };
    assert!(matches!(world.add_occluder(&bad_mesh), Err(Error::InvalidArgument(_))));
    let bad_rotation = OccluderDef { rotation: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), ..Default::default() };
    assert!(matches!(world.add_occluder(&bad_rotation), Err(Error::InvalidArgument(_))));
    assert!(matches!(world.step(nan), Err(Error::InvalidArgument(_))));
    assert!(matches!(world.step(-0.1), Err(Error::InvalidArgument(_))));
    assert!(matches!(world.remember(agent, target, Vec3::ZERO, 1.5), Err(Error::InvalidArgument(_))));
    assert!(matches!(world.set_attitude(0, 64, Attitude::Neutral), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        World::new(&WorldDef { sound_occlusion: 2.0, ..Default::default() }),
        Err(Error::InvalidArgument(_))
    ));

    assert!(snapshot(&world) == before, "a refused call changed the world");
    // The messages say what was wrong.
    match world.set_agent_pose(agent, Vec3::ZERO, Vec3::ZERO) {
        Err(e) => assert!(e.to_string().contains("forward"), "{e}"),
        Ok(()) => unreachable!(),
    }
}

#[test]
fn the_sight_budget_limits_ticks_per_step_and_serves_the_most_overdue_first() {
    let def = WorldDef { max_sight_ticks_per_step: 3, ..Default::default() };
    let mut world = World::new(&def).unwrap();
    let agents: Vec<_> =
        (0..10).map(|i| world.create_agent(&lesson_agent(Vec3::new(i as f32, 0.0, 0.0), Vec3::Z)).unwrap()).collect();
    world.create_target(&point_target(Vec3::new(4.5, 0.0, 5.0))).unwrap();
    let mut ticks = vec![0; agents.len()];
    for _ in 0..20 {
        world.step(0.1).unwrap();
        let sights: Vec<_> = world.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sight).collect();
        assert!(sights.len() <= 3, "at most 3 sight ticks per step, got {}", sights.len());
        for p in sights {
            ticks[p.agent.index as usize] += 1;
        }
    }
    // 10 agents wanting a tick every step share 3 ticks per step: everyone gets a fair turn.
    assert!(ticks.iter().all(|&t| (5..=7).contains(&t)), "{ticks:?}");
}
