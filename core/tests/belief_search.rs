//! Belief search in the world: guards with `SearchKind::Belief` keep a belief of where the
//! player they lost can be, walk to its search points, share it as a team, give up by it, and
//! the world saves, loads and replays it exactly.

use argus_core::*;

/// 30 × 30 m of 0.5 m cells: a wall across the middle (a gap at its east end), a player seen
/// by `guards` guards standing west of the gap, all searching by belief.
fn level(guards: usize, share: bool) -> (World, Vec<AgentId>, TargetId) {
    let mut world = World::default();
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(12.0, 1.5, 15.0), Vec3::new(12.0, 1.5, 0.3))).unwrap();
    world.set_walk_grid(&WalkGridDef { width: 60, depth: 60, cell_size: 0.5, ..Default::default() }).unwrap();
    let mut brain = BrainConfig { search: SearchKind::Belief, search_duration: 30.0, ..Default::default() };
    brain.share_belief = share;
    let ids = (0..guards)
        .map(|k| {
            let def = AgentDef {
                position: Vec3::new(4.0 + 2.0 * k as f32, 0.0, 6.0),
                sight: SightConfig { view_radius: 15.0, view_angle: 120.0, rate_hz: 10.0, ..Default::default() },
                brain,
                ..Default::default()
            };
            world.create_agent(&def).unwrap()
        })
        .collect();
    let player = world.create_target(&TargetDef { position: Vec3::new(6.0, 0.0, 11.0), ..Default::default() }).unwrap();
    (world, ids, player)
}

fn total(b: &Belief) -> f64 {
    b.probabilities().iter().map(|&m| m as f64).sum()
}

/// Steps until every guard chases, then the player slips behind the wall.
fn chase_then_hide(world: &mut World, guards: &[AgentId], player: TargetId, scale: f32) {
    for _ in 0..5 {
        world.step(0.1).unwrap();
    }
    for &g in guards {
        assert_eq!(world.agent(g).unwrap().brain().state, BrainState::Chasing);
    }
    world.set_target_pose(player, Vec3::new(20.0, 0.0, 24.0) * scale, Vec3::Z).unwrap();
    for _ in 0..3 {
        world.step(0.1).unwrap();
    }
}

#[test]
fn a_guard_that_loses_the_player_searches_by_its_belief() {
    let (mut world, guards, player) = level(1, true);
    let g = guards[0];
    chase_then_hide(&mut world, &guards, player, 1.0);
    let brain = *world.agent(g).unwrap().brain();
    assert_eq!(brain.state, BrainState::Searching);
    let belief = world.agent_belief(g).unwrap().expect("a belief while searching");
    assert_eq!(belief.target(), player);
    assert!((total(belief) - 1.0).abs() < 1e-6, "mass {}", total(belief));
    let point = brain.search_point.expect("a search point");
    assert_eq!(world.move_target(g).unwrap(), Some(point));
    // The point is where the belief holds probability (not a node the guard sees now).
    assert!(belief.probability_at(&world, point).unwrap() > 0.0);
    // Walking to it and beyond, the belief keeps its mass and the guard keeps searching by it.
    for step in 0..100 {
        let target = world.move_target(g).unwrap().unwrap();
        let at = world.agent(g).unwrap().position();
        let to = target - at;
        let next = if to.length() > 0.15 { at + to.normalize() * 0.15 } else { target };
        let facing = if to.length() > 1e-3 { Vec3::new(to.x, 0.0, to.z).normalize_or(Vec3::Z) } else { Vec3::Z };
        world.set_agent_pose(g, next, facing).unwrap();
        world.step(0.1).unwrap();
        if let Some(b) = world.agent_belief(g).unwrap() {
            assert!((total(b) - 1.0).abs() < 1e-6, "step {step}: mass {}", total(b));
        }
        if world.agent(g).unwrap().brain().state == BrainState::Chasing {
            return; // found the player
        }
    }
    assert_ne!(world.agent(g).unwrap().brain().state, BrainState::Idle, "gave up within 10 s of a 30 s search");
}

#[test]
fn the_lessons_search_keeps_no_belief() {
    let (mut world, guards, player) = level(2, true);
    for &g in &guards {
        let mut brain = *world.agent(g).unwrap().brain_config();
        brain.search = SearchKind::LastKnownPosition;
        world.set_agent_brain(g, &brain).unwrap();
    }
    chase_then_hide(&mut world, &guards, player, 1.0);
    assert_eq!(world.beliefs().count(), 0);
    let brain = world.agent(guards[0]).unwrap().brain();
    assert_eq!(brain.state, BrainState::Searching);
    assert_eq!(brain.search_point, None);
    assert_eq!(world.move_target(guards[0]).unwrap(), Some(Vec3::new(6.0, 0.0, 11.0)));
}

#[test]
fn a_team_shares_one_belief_and_splits_the_search_points() {
    let (mut world, guards, player) = level(3, true);
    chase_then_hide(&mut world, &guards, player, 1.0);
    assert_eq!(world.beliefs().count(), 1);
    let (owner, belief) = world.beliefs().next().unwrap();
    assert_eq!(owner, BeliefOwner::Team(0));
    assert_eq!(belief.owners(), &guards[..]);
    // Once the probability has spread over more tiles than there are guards (and each guard
    // has chosen again), no two guards walk within a tile (4 m) of each other.
    let points = |world: &World| -> Vec<Vec3> {
        guards.iter().map(|&g| world.agent(g).unwrap().brain().search_point.unwrap()).collect()
    };
    let apart = |p: &[Vec3]| (0..p.len()).all(|i| (i + 1..p.len()).all(|j| p[i].distance(p[j]) > 4.0));
    let mut steps = 0;
    while !apart(&points(&world)) {
        world.step(0.1).unwrap();
        steps += 1;
        assert!(steps < 60, "after 6 s the guards still share a search point: {:?}", points(&world));
    }
    // Not sharing: one belief each.
    let (mut world, guards, player) = level(3, false);
    chase_then_hide(&mut world, &guards, player, 1.0);
    let owners: Vec<BeliefOwner> = world.beliefs().map(|(o, _)| o).collect();
    assert_eq!(owners, guards.iter().map(|&g| BeliefOwner::Agent(g)).collect::<Vec<_>>());
}

#[test]
fn the_search_gives_up_when_the_belief_is_too_thin() {
    let (mut world, guards, player) = level(1, true);
    let g = guards[0];
    let mut brain = *world.agent(g).unwrap().brain_config();
    brain.give_up_probability = 0.9;
    world.set_agent_brain(g, &brain).unwrap();
    chase_then_hide(&mut world, &guards, player, 1.0);
    // Unseen, the probability spreads below 0.9 within a move (0.36 s): given up, belief dropped.
    for _ in 0..5 {
        world.step(0.1).unwrap();
    }
    let b = world.agent(g).unwrap().brain();
    assert_eq!(b.state, BrainState::Idle);
    assert_eq!(b.search_point, None);
    assert_eq!(world.beliefs().count(), 0);
}

#[test]
fn a_replaced_walk_graph_drops_the_beliefs_and_the_guard_searches_as_the_lesson() {
    let (mut world, guards, player) = level(1, true);
    let g = guards[0];
    chase_then_hide(&mut world, &guards, player, 1.0);
    assert_eq!(world.beliefs().count(), 1);
    world.set_walk_grid(&WalkGridDef { width: 30, depth: 30, cell_size: 1.0, ..Default::default() }).unwrap();
    assert_eq!(world.beliefs().count(), 0);
    let b = world.agent(g).unwrap().brain();
    assert_eq!((b.search_point, b.belief_peak), (None, argus_core::brain::NO_BELIEF));
    world.step(0.1).unwrap();
    assert_eq!(world.agent(g).unwrap().brain().state, BrainState::Searching);
    assert_eq!(world.move_target(g).unwrap(), Some(Vec3::new(6.0, 0.0, 11.0)));
    // A destroyed player: the guard gives up and the belief goes.
    let (mut world, guards, player) = level(2, true);
    chase_then_hide(&mut world, &guards, player, 1.0);
    world.destroy_target(player).unwrap();
    world.step(0.1).unwrap();
    assert_eq!(world.beliefs().count(), 0);
    assert!(guards.iter().all(|&g| world.agent(g).unwrap().brain().state == BrainState::Idle));
}

#[test]
fn beliefs_are_saved_loaded_and_replayed_exactly() {
    let (mut world, guards, player) = level(3, true);
    world.start_recording(&RecordOptions::default()).unwrap();
    chase_then_hide(&mut world, &guards, player, 1.0);
    let saved = world.save().unwrap();
    let mut loaded = World::load(&saved).unwrap();
    assert_eq!(loaded.save().unwrap(), saved, "a loaded world saves the same bytes");
    for _ in 0..40 {
        for w in [&mut world, &mut loaded] {
            for &g in &guards {
                let to = w.move_target(g).unwrap().unwrap_or(Vec3::ZERO);
                let at = w.agent(g).unwrap().position();
                let step = (to - at).clamp_length_max(0.15);
                w.set_agent_pose(g, at + step, Vec3::new(step.x, 0.0, step.z).normalize_or(Vec3::Z)).unwrap();
            }
            w.step(0.1).unwrap();
        }
        assert_eq!(loaded.save().unwrap(), world.save().unwrap());
    }
    assert!(
        world.beliefs().count() > 0
            || guards.iter().any(|&g| world.agent(g).unwrap().brain().state != BrainState::Searching)
    );
    let bytes = world.stop_recording().unwrap();
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().unwrap();
    assert_eq!(replay.world().save().unwrap(), world.save().unwrap(), "the replay differs");
    // A damaged belief in a save is refused, naming it.
    // (The probabilities follow their count, the walk graph's 3,600 nodes.)
    let mut bad = saved.clone();
    let count = (3600u32).to_le_bytes();
    let at = bad.windows(4).rposition(|w| w == count).expect("the probabilities' count") + 4;
    bad[at..at + 4].copy_from_slice(&2.0f32.to_le_bytes());
    argus_core::snapshot::reseal(&mut bad);
    let err = World::load(&bad).expect_err("refused").to_string();
    assert!(err.contains("belief") || err.contains("search point"), "{err}");
}

#[test]
fn bad_belief_settings_are_refused() {
    let (mut world, guards, player) = level(1, true);
    let mut brain = *world.agent(guards[0]).unwrap().brain_config();
    for bad in [-0.1, 1.5, f32::NAN] {
        brain.give_up_probability = bad;
        assert!(world.set_agent_brain(guards[0], &brain).is_err(), "{bad}");
    }
    for bad in [-1.0, f32::INFINITY, f32::NAN, 2000.0] {
        let def = TargetDef { top_speed: bad, ..world.target(player).unwrap().def() };
        assert!(world.set_target_def(player, &def).is_err(), "{bad}");
    }
}

/// The search reads a level in its own units: the same level in metres and in pixels (64 to the
/// metre, as a 2D game counts, its view radius too) gives the same search points, scaled.
#[test]
fn the_search_points_follow_the_levels_units() {
    let points = |scale: f32| -> Vec<Vec3> {
        let mut world = World::default();
        let s = |v: Vec3| v * scale;
        world.add_occluder(&OccluderDef::cuboid(s(Vec3::new(12.0, 1.5, 15.0)), s(Vec3::new(12.0, 1.5, 0.3)))).unwrap();
        let grid = WalkGridDef {
            width: 60,
            depth: 60,
            cell_size: 0.5 * scale,
            band_min: 0.3 * scale,
            band_max: 1.8 * scale,
            ..Default::default()
        };
        world.set_walk_grid(&grid).unwrap();
        let brain = BrainConfig { search: SearchKind::Belief, search_duration: 30.0, ..Default::default() };
        let sight = SightConfig {
            view_radius: 15.0 * scale,
            view_angle: 120.0,
            eye_offset: s(Vec3::new(0.0, 1.6, 0.0)),
            ..Default::default()
        };
        let guards: Vec<AgentId> = (0..3)
            .map(|k| {
                let position = s(Vec3::new(4.0 + 2.0 * k as f32, 0.0, 6.0));
                world.create_agent(&AgentDef { position, sight, brain, ..Default::default() }).unwrap()
            })
            .collect();
        let def = TargetDef {
            position: s(Vec3::new(6.0, 0.0, 11.0)),
            check_points: vec![s(Vec3::new(0.0, 1.3, 0.0))],
            top_speed: 1.4 * scale,
            ..Default::default()
        };
        let player = world.create_target(&def).unwrap();
        chase_then_hide(&mut world, &guards, player, scale);
        for _ in 0..30 {
            world.step(0.1).unwrap();
        }
        guards.iter().map(|&g| world.agent(g).unwrap().brain().search_point.unwrap() / scale).collect()
    };
    let (metres, pixels) = (points(1.0), points(64.0));
    for (m, p) in metres.iter().zip(&pixels) {
        assert!(m.distance(*p) < 0.01, "{metres:?} in metres, {pixels:?} in pixels / 64");
    }
}

/// Issue 50 (found by the FFI fuzzer's beliefs): a guard destroyed while it keeps a belief
/// leaves it at once, not at the next step: a save in between loads (its load refuses a belief
/// naming a dead owner), and a recording started then replays. Its teammate keeps the shared
/// belief; a belief of its own is dropped. The next step is the same either way.
#[test]
fn a_destroyed_guard_leaves_its_belief_at_once() {
    for share in [true, false] {
        let (mut world, guards, player) = level(2, share);
        chase_then_hide(&mut world, &guards, player, 1.0);
        assert!(world.agent_belief(guards[0]).unwrap().is_some());
        let kept = world.beliefs().count();
        world.destroy_agent(guards[0]).unwrap();
        assert_eq!(world.beliefs().count(), if share { kept } else { kept - 1 }, "share {share}");
        assert!(world.beliefs().all(|(_, b)| !b.owners().contains(&guards[0])));
        let saved = world.save().unwrap();
        let mut loaded = World::load(&saved).expect("a save between the destroy and the next step loads");
        world.start_recording(&RecordOptions::default()).unwrap();
        world.step(0.1).unwrap();
        loaded.step(0.1).unwrap();
        assert!(world.save().unwrap() == loaded.save().unwrap(), "share {share}: the loaded world steps alike");
        let bytes = world.stop_recording().unwrap();
        Replay::new(&bytes).unwrap().run_to_end().expect("the recording replays");
    }
}

/// Issue 50 (found by the FFI fuzzer's beliefs): the beliefs about a destroyed player are
/// dropped at once: a save in between loads (its load refuses a belief about a dead target),
/// and the guards search as the lesson does, then give up, as they did.
#[test]
fn a_destroyed_players_beliefs_are_dropped_at_once() {
    let (mut world, guards, player) = level(2, true);
    chase_then_hide(&mut world, &guards, player, 1.0);
    assert_eq!(world.beliefs().count(), 1);
    world.destroy_target(player).unwrap();
    assert_eq!(world.beliefs().count(), 0);
    for &g in &guards {
        assert_eq!(world.agent(g).unwrap().brain().belief_peak, argus_core::brain::NO_BELIEF);
    }
    let mut loaded = World::load(&world.save().unwrap()).expect("a save between the destroy and the next step loads");
    world.step(0.1).unwrap();
    loaded.step(0.1).unwrap();
    assert!(world.save().unwrap() == loaded.save().unwrap(), "the loaded world steps alike");
    for &g in &guards {
        assert_eq!(world.agent(g).unwrap().brain().state, BrainState::Idle, "nothing left to search for");
    }
}

/// A player so slow that one move along the shortest edge would take longer than any f32 time
/// (a subnormal top speed): the belief never spreads, and the world's save still loads. Before,
/// each step added 0 × ∞ to the waiting time, which became infinite and refused on load (found by
/// the snapshot fuzzer).
#[test]
fn a_belief_too_slow_to_ever_move_keeps_a_finite_waiting_time() {
    let (mut world, guards, player) = level(1, true);
    let def = TargetDef { top_speed: 1e-40, ..world.target(player).unwrap().def() };
    world.set_target_def(player, &def).unwrap();
    chase_then_hide(&mut world, &guards, player, 1.0);
    let before = world.beliefs().next().expect("a belief").1.probabilities().to_vec();
    for _ in 0..5 {
        world.step(0.1).unwrap();
    }
    assert_eq!(world.beliefs().next().unwrap().1.probabilities(), &before[..], "it spread");
    let saved = world.save().unwrap();
    let loaded = World::load(&saved).expect("the world's own save loads");
    assert_eq!(loaded.save().unwrap(), saved);
}
