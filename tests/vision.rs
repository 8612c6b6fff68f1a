//! Vision through the Rust API, beyond what the conformance corpus already runs on every surface
//! (`tests/scenarios/vision_*.json`, `sight_*.json`, `teams_attitudes.json`: the lesson's trace, the
//! card's boundaries and mistakes, eye height, several check points, peripheral cone, teams).

mod common;
use argus_core::*;
use common::*;

fn sees(world: &World, agent: AgentId, target: TargetId) -> bool {
    world.can_see(agent, target).unwrap().seen
}

#[test]
fn cos_half_of_a_90_degree_cone_is_0_707() {
    assert!((argus_core::math::cos_half_angle(90.0) - 0.70710677).abs() < 1e-6);
}

#[test]
fn the_angle_boundary_holds_for_every_cone_width() {
    for angle in [10.0f32, 60.0, 90.0, 120.0, 179.0, 270.0] {
        let (mut world, _) = lesson_world();
        let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
        def.sight.view_angle = angle;
        let agent = world.create_agent(&def).unwrap();
        let edge = world.create_target(&point_target(at_angle(angle / 2.0, 7.0))).unwrap();
        let past = world.create_target(&point_target(at_angle(angle / 2.0 + 1.0, 7.0))).unwrap();
        assert!(sees(&world, agent, edge), "edge of a {angle}° cone");
        assert!(!sees(&world, agent, past), "1° past a {angle}° cone");
    }
}

#[test]
fn rays_ignore_an_occluder_around_the_eye_but_not_one_around_the_target() {
    let (mut world, agent) = lesson_world();
    // A bush around the guard: he sees out of it.
    world.add_occluder(&OccluderDef::sphere(Vec3::ZERO, 1.5)).unwrap();
    let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 6.0))).unwrap();
    assert!(sees(&world, agent, t));
    // A crate the player crouches inside: the ray enters it before reaching the point.
    world.add_occluder(&wall(Vec3::new(0.0, 0.0, 6.0), Vec3::splat(0.8))).unwrap();
    let r = world.can_see(agent, t).unwrap();
    assert!(!r.seen);
    assert!((r.points()[0].hit.z - 5.2).abs() < 1e-4);
}

#[test]
fn obstacle_mask_picks_which_layers_block() {
    let (mut world, _) = lesson_world();
    let glass = OccluderDef { layers: 1 << 3, ..wall(Vec3::new(0.0, 0.0, 3.0), Vec3::new(2.0, 2.0, 0.1)) };
    world.add_occluder(&glass).unwrap();
    let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
    def.sight.obstacle_mask = !(1 << 3);
    let sees_through_glass = world.create_agent(&def).unwrap();
    let normal = world.create_agent(&lesson_agent(Vec3::ZERO, Vec3::Z)).unwrap();
    let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 6.0))).unwrap();
    assert!(sees(&world, sees_through_glass, t));
    assert!(!sees(&world, normal, t));
}

#[test]
fn disabled_targets_are_invisible() {
    let (mut world, agent) = lesson_world();
    let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 4.0))).unwrap();
    world.set_target_enabled(t, false).unwrap();
    assert!(!sees(&world, agent, t));
    world.set_target_enabled(t, true).unwrap();
    assert!(sees(&world, agent, t));
}

#[test]
fn every_occluder_shape_blocks() {
    let shapes = [
        OccluderShape::Box { half_extents: Vec3::new(1.0, 1.0, 0.3) },
        OccluderShape::Sphere { radius: 0.8 },
        OccluderShape::Capsule { half_height: 1.0, radius: 0.5 },
        OccluderShape::Mesh {
            vertices: vec![Vec3::new(-2.0, -2.0, 0.0), Vec3::new(2.0, -2.0, 0.0), Vec3::new(0.0, 2.0, 0.0)],
            indices: vec![[0, 1, 2]],
        },
    ];
    for shape in shapes {
        let (mut world, agent) = lesson_world();
        let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 8.0))).unwrap();
        let id = world
            .add_occluder(&OccluderDef {
                shape: shape.clone(),
                position: Vec3::new(0.0, 0.0, 4.0),
                ..Default::default()
            })
            .unwrap();
        assert!(!sees(&world, agent, t), "{shape:?} should block");
        // Moving it aside clears the line.
        world.set_occluder_pose(id, Vec3::new(6.0, 0.0, 4.0), Quat::IDENTITY).unwrap();
        assert!(sees(&world, agent, t), "{shape:?} moved aside");
        world.remove_occluder(id).unwrap();
    }
}

#[test]
fn rotated_boxes_block_where_they_are() {
    let (mut world, agent) = lesson_world();
    // A thin wall along X, rotated 90° about Y so it runs along Z beside the sight line.
    let rotated = OccluderDef {
        rotation: Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        ..wall(Vec3::new(1.0, 0.0, 5.0), Vec3::new(3.0, 1.0, 0.1))
    };
    world.add_occluder(&rotated).unwrap();
    let straight = world.create_target(&point_target(Vec3::new(0.0, 0.0, 8.0))).unwrap();
    let across = world.create_target(&point_target(Vec3::new(2.0, 0.0, 5.0))).unwrap();
    assert!(sees(&world, agent, straight));
    assert!(!sees(&world, agent, across));
}

#[test]
fn the_occluder_tree_survives_removals_and_many_moves() {
    // parry3d's bulk build assumes leaf ids 0 and 1 for tiny sets; slot 0 freed used to panic.
    for keep in 1..=4 {
        let (mut world, agent) = lesson_world();
        let ids: Vec<_> = (0..=keep)
            .map(|i| world.add_occluder(&wall(Vec3::new(30.0 + i as f32 * 3.0, 0.0, 0.0), Vec3::ONE)).unwrap())
            .collect();
        world.remove_occluder(ids[0]).unwrap();
        let door = ids[1];
        for i in 0..200 {
            world.set_occluder_pose(door, Vec3::new(0.0, 0.0, 4.0 + (i % 2) as f32 * 30.0), Quat::IDENTITY).unwrap();
            world.step(0.1).unwrap();
        }
        let t = world.create_target(&point_target(Vec3::new(0.0, 0.0, 8.0))).unwrap();
        world.set_occluder_pose(door, Vec3::new(0.0, 0.0, 4.0), Quat::IDENTITY).unwrap();
        world.step(0.1).unwrap();
        assert!(!sees(&world, agent, t), "the door blocks after {keep} occluders and 200 moves");
        let restored = World::load(&world.save().unwrap()).unwrap();
        assert!(!restored.can_see(agent, t).unwrap().seen);
    }
}

#[test]
fn agents_with_the_same_settings_share_one_tuning_and_changes_are_their_own() {
    let mut world = World::default();
    let ids: Vec<_> =
        (0..100).map(|i| world.create_agent(&lesson_agent(Vec3::new(i as f32, 0.0, 0.0), Vec3::Z)).unwrap()).collect();
    assert_eq!(world.distinct_tunings(), 1);
    let mut wide = lesson_agent(Vec3::ZERO, Vec3::Z);
    wide.sight.view_angle = 200.0;
    world.set_agent_def(ids[3], &wide).unwrap();
    assert_eq!(world.distinct_tunings(), 2);
    assert_eq!(world.agent(ids[3]).unwrap().def().sight.view_angle, 200.0);
    assert_eq!(world.agent(ids[4]).unwrap().def().sight.view_angle, 90.0, "the others keep theirs");
    world.destroy_agent(ids[3]).unwrap();
    assert_eq!(world.distinct_tunings(), 1, "an unused tuning is dropped");
    for id in &ids[..3] {
        world.destroy_agent(*id).unwrap();
    }
    assert_eq!(world.distinct_tunings(), 1);
}

/// The sweep reads each agent's settings through its tuning's place in a table that reuses the
/// places of dropped tunings: after tunings come and go, every agent still sees by its own.
#[test]
fn the_sweep_reads_each_agents_own_settings_after_tunings_come_and_go() {
    let mut world = World::default();
    let target = world.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 12.0), ..Default::default() }).unwrap();
    let with_radius = |radius: f32| {
        let mut def = lesson_agent(Vec3::ZERO, Vec3::Z);
        def.sight.view_radius = radius;
        def.sight.rate_hz = 0.0;
        def
    };
    let short = world.create_agent(&with_radius(5.0)).unwrap();
    let long = world.create_agent(&with_radius(20.0)).unwrap();
    // What the step's sweep saw (its percepts), not an immediate query.
    let swept = |world: &World, agent: AgentId| {
        world.events().percepts.iter().any(|p| p.kind == PerceptKind::Sight && p.agent == agent && p.target == target)
    };
    world.step(0.1).unwrap();
    assert!(!swept(&world, short) && swept(&world, long));
    // The short-sighted tuning goes; a new one (far-sighted, a new place or the freed one) comes,
    // and the long one turns short.
    world.destroy_agent(short).unwrap();
    let newcomer = world.create_agent(&with_radius(30.0)).unwrap();
    world.set_agent_def(long, &with_radius(6.0)).unwrap();
    let another = world.create_agent(&with_radius(13.0)).unwrap();
    world.step(0.1).unwrap();
    assert!(swept(&world, newcomer), "30 m sees the target at 12 m");
    assert!(!swept(&world, long), "now 6 m: no longer sees it");
    assert!(swept(&world, another), "13 m sees it");
    for agent in [newcomer, long, another] {
        assert_eq!(swept(&world, agent), sees(&world, agent, target), "the sweep and the query agree");
    }
}

#[test]
fn sight_ticks_list_exactly_the_agents_whose_sight_ran_and_what_they_see_is_their_percepts() {
    let mut world = World::default();
    let mut every_step = AgentDef::default();
    every_step.sight.view_angle = 360.0;
    every_step.sight.rate_hz = 0.0; // every step
    let mut ten_hz = every_step;
    ten_hz.sight.rate_hz = 10.0;
    let mut blind = every_step;
    blind.sight.enabled = false;
    let fast = world.create_agent(&every_step).unwrap();
    let slow = world.create_agent(&ten_hz).unwrap();
    let off = world.create_agent(&blind).unwrap();
    let target = world.create_target(&point_target(Vec3::new(0.0, 0.0, 5.0))).unwrap();
    let seen_by = |world: &World, a: AgentId| world.memory_of(a, target).unwrap().is_some_and(|r| r.seen);
    let mut slow_ticks = 0;
    for step in 0..60 {
        // Halfway through, the target walks out of everyone's range.
        if step == 30 {
            world.set_target_pose(target, Vec3::new(0.0, 0.0, 500.0), Vec3::Z).unwrap();
        }
        let slow_saw = seen_by(&world, slow);
        world.step(1.0 / 60.0).unwrap();
        let ticks = &world.events().sight_ticks;
        assert!(ticks.windows(2).all(|w| w[0].index < w[1].index), "slot order: {ticks:?}");
        assert!(ticks.contains(&fast), "step {step}: the every-step agent ticks");
        assert!(!ticks.contains(&off), "step {step}: an agent with sight off never ticks");
        for &agent in ticks {
            let percept = world.events().percepts.iter().any(|p| p.agent == agent && p.kind == PerceptKind::Sight);
            assert_eq!(percept, seen_by(&world, agent), "step {step}: a ticking agent sees its percepts");
        }
        if ticks.contains(&slow) {
            slow_ticks += 1;
        } else {
            assert_eq!(seen_by(&world, slow), slow_saw, "step {step}: no tick, no change");
        }
    }
    assert!((9..=11).contains(&slow_ticks), "a 10 Hz agent ticks ~10 times in a second, got {slow_ticks}");
}

/// Guards that only see (deaf, no brain: with no memories yet, the step skips their empty
/// memory and brain stages) tick on the same steps and see the same as guards with every sense
/// on: while a wall hides the target from them (rays cast, none clear), once it is in view, and
/// for one guard that never has it in range.
#[test]
fn sight_only_guards_tick_and_see_as_guards_with_every_sense() {
    let world_of = |sight_only: bool| {
        let mut world = World::default();
        let mut guards = Vec::new();
        for k in 0..13 {
            let x = if k == 12 { 100.0 } else { k as f32 * 0.5 };
            let mut def = lesson_agent(Vec3::new(x, 0.0, 0.0), Vec3::Z);
            def.sight.view_angle = 360.0;
            def.sight.rate_hz = 10.0;
            if sight_only {
                def.hearing.enabled = false;
                def.brain.enabled = false;
            }
            guards.push(world.create_agent(&def).unwrap());
        }
        world.create_target(&point_target(Vec3::new(3.0, 0.0, 5.0))).unwrap();
        let wall = world.add_occluder(&wall(Vec3::new(3.0, 1.0, 2.5), Vec3::new(20.0, 3.0, 0.3))).unwrap();
        (world, guards, wall)
    };
    let (mut lean, lean_guards, lean_wall) = world_of(true);
    let (mut full, full_guards, full_wall) = world_of(false);
    assert_eq!(lean_guards, full_guards);
    let sights = |world: &World| -> Vec<(AgentId, f32)> {
        let percepts = world.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sight);
        percepts.map(|p| (p.agent, p.strength)).collect()
    };
    let (mut hidden_ticks, mut seen) = (0, 0);
    for step in 0..48 {
        for (world, wall) in [(&mut lean, lean_wall), (&mut full, full_wall)] {
            if step == 24 {
                world.set_occluder_pose(wall, Vec3::new(3.0, 1.0, 40.0), Quat::IDENTITY).unwrap();
            }
            world.step(1.0 / 60.0).unwrap();
        }
        assert_eq!(lean.events().sight_ticks, full.events().sight_ticks, "step {step}");
        assert_eq!(sights(&lean), sights(&full), "step {step}");
        assert!(step >= 24 || sights(&lean).is_empty(), "step {step}: seen through the wall");
        hidden_ticks += if step < 24 { lean.events().sight_ticks.len() } else { 0 };
        seen += sights(&lean).len();
    }
    // 0.4 s behind the wall at 10 Hz: 13 guards tick ~4 times each; then 12 of them see.
    assert!((13 * 3..=13 * 5).contains(&hidden_ticks), "{hidden_ticks} sight ticks behind the wall");
    assert!(seen >= 12 * 3, "{seen} sightings once the wall moved");
}

/// With a sight-tick budget, the most overdue agents tick first (ties by slot) and the rest wait
/// for the next steps, whatever the thread count and however the slots are spread.
#[test]
fn a_sight_tick_budget_ticks_the_most_overdue_first_on_any_thread_count() {
    for threads in [1, 2, 3] {
        let def = WorldDef { max_sight_ticks_per_step: 5, worker_threads: threads, ..Default::default() };
        let mut world = World::new(&def).unwrap();
        let target = world.create_target(&point_target(Vec3::new(0.0, 0.0, 4.0))).unwrap();
        let mut agents = Vec::new();
        for k in 0..13 {
            let mut agent = lesson_agent(Vec3::new(k as f32 * 0.01, 0.0, 0.0), Vec3::Z);
            agent.sight.rate_hz = 0.0; // due every step: only the budget spreads them
            agents.push(world.create_agent(&agent).unwrap());
        }
        // A free slot among them.
        world.destroy_agent(agents.remove(6)).unwrap();
        let ticked_each_step: Vec<Vec<AgentId>> = (0..3)
            .map(|_| {
                world.step(1.0 / 60.0).unwrap();
                let ticked = world.events().sight_ticks.clone();
                let seeing: Vec<AgentId> =
                    world.events().percepts.iter().filter(|p| p.target == target).map(|p| p.agent).collect();
                assert_eq!(seeing, ticked, "{threads} threads: each ticking agent sees the target, no other does");
                ticked
            })
            .collect();
        let expect = [&agents[0..5], &agents[5..10], &[agents[10], agents[11], agents[0], agents[1], agents[2]][..]];
        for (step, (ticked, expected)) in ticked_each_step.iter().zip(expect).enumerate() {
            let mut expected = expected.to_vec();
            expected.sort_by_key(|a| a.index);
            assert_eq!(ticked, &expected, "{threads} threads, step {step}");
        }
    }
}

/// The "seen" / "lost" changes of a step are exactly what an engine wrapper would find by keeping
/// each agent's set of seen targets from its sight ticks' percepts: seen = now and not at its
/// previous tick, lost = then and not now (a destroyed target is dropped silently), per agent
/// in target slot order; agents whose sight did not tick change nothing.
#[test]
fn sight_changes_are_what_each_agent_sees_now_against_its_previous_tick() {
    for threads in [1, 2] {
        let mut world = World::new(&WorldDef { worker_threads: threads, ..Default::default() }).unwrap();
        let mut rng = Rng(0x5eed_0001 + threads as u64);
        for _ in 0..6 {
            let at = Vec3::new(rng.range(-12.0, 12.0), 1.0, rng.range(-12.0, 12.0));
            world.add_occluder(&wall(at, Vec3::new(rng.range(0.5, 3.0), 1.5, 0.3))).unwrap();
        }
        let mut agents = Vec::new();
        for k in 0..24 {
            let mut def = lesson_agent(Vec3::new(rng.range(-15.0, 15.0), 0.0, rng.range(-15.0, 15.0)), Vec3::Z);
            def.sight.view_radius = 12.0;
            def.sight.rate_hz = [0.0, 10.0, 20.0][k % 3];
            agents.push(world.create_agent(&def).unwrap());
        }
        let mut targets: Vec<TargetId> = (0..10)
            .map(|_| world.create_target(&point_target(Vec3::new(rng.range(-15.0, 15.0), 0.0, 0.0))).unwrap())
            .collect();
        let mut seen: std::collections::HashMap<AgentId, Vec<TargetId>> = Default::default();
        let (mut gained, mut lost) = (0, 0);
        for step in 0..240 {
            for &t in &targets {
                if rng.chance(0.3) {
                    let at = Vec3::new(rng.range(-15.0, 15.0), 0.0, rng.range(-15.0, 15.0));
                    world.set_target_pose(t, at, Vec3::Z).unwrap();
                }
            }
            for &a in &agents {
                if rng.chance(0.05) {
                    let forward = Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)).normalize_or(Vec3::Z);
                    let position = world.agent(a).unwrap().position();
                    world.set_agent_pose(a, position, forward).unwrap();
                }
            }
            if step % 40 == 39 {
                let gone = targets.remove(0);
                world.destroy_target(gone).unwrap();
                seen.values_mut().for_each(|s| s.retain(|t| *t != gone));
                targets.push(world.create_target(&point_target(Vec3::new(0.0, 0.0, 1.0))).unwrap());
            }
            world.step(1.0 / 60.0).unwrap();
            let events = world.events();
            let mut expected = Vec::new();
            for &agent in &events.sight_ticks {
                let now: Vec<TargetId> = events
                    .percepts
                    .iter()
                    .filter(|p| p.agent == agent && p.kind == PerceptKind::Sight)
                    .map(|p| p.target)
                    .collect();
                let before = seen.insert(agent, now.clone()).unwrap_or_default();
                let mut changes: Vec<(AgentId, TargetId, bool)> = now
                    .iter()
                    .filter(|t| !before.contains(t))
                    .map(|&t| (agent, t, true))
                    .chain(before.iter().filter(|t| !now.contains(t)).map(|&t| (agent, t, false)))
                    .collect();
                changes.sort_by_key(|c| c.1.index);
                expected.extend(changes);
            }
            let got: Vec<(AgentId, TargetId, bool)> =
                events.sight_changes.iter().map(|c| (c.agent, c.target, c.seen)).collect();
            assert_eq!(got, expected, "{threads} threads, step {step}");
            for c in &events.sight_changes {
                let record = world.memory_of(c.agent, c.target).unwrap().expect("a record");
                assert_eq!(c.position, record.last_known_position, "step {step}: where it was seen or lost");
            }
            gained += got.iter().filter(|c| c.2).count();
            lost += got.iter().filter(|c| !c.2).count();
        }
        assert!(gained > 50 && lost > 50, "{threads} threads: {gained} seen, {lost} lost");
    }
}
