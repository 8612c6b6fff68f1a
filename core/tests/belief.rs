//! Belief (where a target can be now, over the walk graph): the probability is conserved, spreads
//! no faster than the target can walk, and a view clears exactly the nodes `can_see` would see
//! the target at.

use argus_core::*;

mod common;
use common::Rng;

/// 20 × 20 m of 0.5 m cells with a few walls, a guard and a player.
fn level(rng: &mut Rng) -> (World, AgentId, TargetId) {
    let mut world = World::default();
    for _ in 0..6 {
        let (long, thin) = (rng.f(1.0, 5.0), rng.f(0.1, 0.4));
        let half = if rng.next().is_multiple_of(2) { Vec3::new(long, 1.5, thin) } else { Vec3::new(thin, 1.5, long) };
        world.add_occluder(&OccluderDef::cuboid(Vec3::new(rng.f(2.0, 18.0), 1.5, rng.f(2.0, 18.0)), half)).unwrap();
    }
    world.set_walk_grid(&WalkGridDef { width: 40, depth: 40, cell_size: 0.5, ..Default::default() }).unwrap();
    let a = rng.f(0.0, std::f32::consts::TAU);
    let guard = world
        .create_agent(&AgentDef {
            position: Vec3::new(rng.f(1.0, 19.0), 0.0, rng.f(1.0, 19.0)),
            forward: Vec3::new(a.sin(), 0.0, a.cos()),
            sight: SightConfig { view_radius: 12.0, ..Default::default() },
            ..Default::default()
        })
        .unwrap();
    let player =
        world.create_target(&TargetDef { position: Vec3::new(10.0, 0.0, 10.0), ..Default::default() }).unwrap();
    (world, guard, player)
}

fn total(b: &Belief) -> f64 {
    b.probabilities().iter().map(|&m| m as f64).sum()
}

/// The view's clearing first passes over nodes whose check points all lie outside the view (a
/// ball around them beyond a cone's radius or side): never a node `can_see` would see the target
/// at. Gazes tilted up and down, cones from narrow to all round, a peripheral cone or none, check
/// points off the vertical and spread wide, eyes low and high.
#[test]
fn a_view_clears_exactly_what_can_see_sees_for_any_cone_gaze_and_check_points() {
    let mut rng = Rng(0x7e57_c0de_0f7e);
    let (mut checked, mut cleared_total) = (0, 0);
    for level_no in 0..40 {
        let (mut world, guard, player) = level(&mut rng);
        let (yaw, pitch) = (rng.f(0.0, std::f32::consts::TAU), rng.f(-1.2, 1.2));
        let forward = Vec3::new(yaw.sin() * pitch.cos(), pitch.sin(), yaw.cos() * pitch.cos());
        let position = world.agent(guard).unwrap().position();
        world.set_agent_pose(guard, position, forward).unwrap();
        let sight = SightConfig {
            eye_offset: Vec3::new(0.0, rng.f(0.2, 3.0), 0.0),
            view_radius: rng.f(3.0, 14.0),
            view_angle: [rng.f(5.0, 60.0), rng.f(60.0, 179.0), rng.f(181.0, 359.0), 360.0][level_no % 4],
            peripheral_radius: if level_no % 3 == 0 { 0.0 } else { rng.f(1.0, 8.0) },
            peripheral_angle: rng.f(30.0, 360.0),
            ..Default::default()
        };
        world.set_agent_sight(guard, &sight).unwrap();
        let points: Vec<Vec3> =
            (0..1 + level_no % 4).map(|_| Vec3::new(rng.f(-1.0, 1.0), rng.f(0.0, 2.5), rng.f(-1.0, 1.0))).collect();
        let target = TargetDef { position: Vec3::new(10.0, 0.0, 10.0), check_points: points, ..Default::default() };
        world.destroy_target(player).unwrap();
        let player = world.create_target(&target).unwrap();
        let mut belief = Belief::new(&world, player, &[guard], &BeliefDef::default()).unwrap();
        let cleared = belief.clear_view(&world, guard).unwrap();
        let after = belief.probabilities().to_vec();
        let graph = world.walk_graph().unwrap().clone();
        let mut cleared_nodes = 0;
        let mut seen_any = false;
        for node in (0..graph.node_count() as u32).filter(|&n| graph.is_open(n)) {
            world.set_target_pose(player, graph.position(node), Vec3::Z).unwrap();
            let seen = world.can_see(guard, player).unwrap().seen;
            seen_any |= seen;
            cleared_nodes += seen as usize;
            checked += 1;
            // A view that would clear every node clears none (the belief would be empty).
            if cleared > 0 {
                assert_eq!(
                    after[node as usize] == 0.0,
                    seen,
                    "level {level_no}, node {node} at {}",
                    graph.position(node)
                );
            }
        }
        assert_eq!(cleared, if after.iter().all(|&m| m > 0.0) && seen_any { 0 } else { cleared_nodes });
        cleared_total += cleared;
    }
    assert!(checked > 40_000 && cleared_total > 2_000, "{checked} nodes compared, {cleared_total} cleared");
}

#[test]
fn a_view_clears_exactly_the_nodes_can_see_would_see_the_target_at() {
    let mut rng = Rng(0x0bad_5eed_1234_5678);
    let (mut checked, mut cleared_total) = (0, 0);
    for level_no in 0..20 {
        let (mut world, guard, player) = level(&mut rng);
        let mut belief = Belief::new(&world, player, &[guard], &BeliefDef::default()).unwrap();
        let before = belief.probabilities().to_vec();
        let cleared = belief.clear_view(&world, guard).unwrap();
        let after = belief.probabilities().to_vec();
        let graph = world.walk_graph().unwrap().clone();
        let mut cleared_nodes = 0;
        for node in 0..graph.node_count() as u32 {
            if before[node as usize] == 0.0 {
                assert_eq!(after[node as usize], 0.0);
                continue;
            }
            // The oracle: the target standing on the node, asked with `can_see`.
            world.set_target_pose(player, graph.position(node), Vec3::Z).unwrap();
            let seen = world.can_see(guard, player).unwrap().seen;
            assert_eq!(after[node as usize] == 0.0, seen, "level {level_no}, node {node} at {}", graph.position(node));
            cleared_nodes += seen as usize;
            checked += 1;
        }
        assert_eq!(cleared, cleared_nodes);
        cleared_total += cleared;
        assert!((total(&belief) - 1.0).abs() < 1e-6);
    }
    assert!(checked > 20_000 && cleared_total > 1_000, "{checked} nodes compared, {cleared_total} cleared");
}

#[test]
fn probability_is_conserved_and_spreads_no_faster_than_the_target_walks() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (world, guard, player) = level(&mut rng);
    let mut belief = Belief::new(&world, player, &[guard], &BeliefDef { speed: 2.0, ..Default::default() }).unwrap();
    let start = Vec3::new(10.0, 0.0, 10.0);
    // Off a wall, so the seen node is open.
    let (seen_node, _) = world.walk_graph().unwrap().nearest_node(start).unwrap();
    belief.seen_at(&world, start).unwrap();
    assert_eq!(belief.peak(), 1.0);
    let mut world = world;
    for k in 1..=20 {
        belief.spread(&world, 0.1).unwrap();
        assert!((total(&belief) - 1.0).abs() < 1e-6, "after spread {k}: {}", total(&belief));
        // No mass farther on foot than the front's moves reach: one edge (at most a diagonal)
        // per 0.25 s (a 0.5 m cell at 2 m/s).
        let moves = (0.1 * k as f32 / 0.25 + 1e-4).floor();
        let limit = moves * 0.5 * std::f32::consts::SQRT_2 + 1e-3;
        let from = world.walk_graph().unwrap().position(seen_node);
        for (node, &m) in belief.probabilities().iter().enumerate() {
            if m > 0.0 {
                let to = world.walk_graph().unwrap().position(node as u32);
                let walk = world.walk_path(from, to, 100.0).unwrap().map(|w| w.distance).unwrap_or(f32::MAX);
                assert!(walk <= limit, "after {k} spreads mass at {to} is {walk} m away on foot (limit {limit})");
            }
        }
    }
    assert!(belief.peak() < 0.5, "the mass left the seen node: peak {}", belief.peak());
    assert!(belief.probabilities().iter().filter(|&&m| m > 0.0).count() > 20, "and spread out");
    belief.heard_at(&world, Vec3::new(3.0, 0.0, 3.0), 0.5).unwrap();
    assert!((total(&belief) - 1.0).abs() < 1e-6);
    assert!(belief.probability_at(&world, Vec3::new(3.0, 0.0, 3.0)).unwrap() >= 0.33);
    world.set_walk_grid(&WalkGridDef { width: 10, depth: 10, ..Default::default() }).unwrap();
    let err = belief.spread(&world, 0.1).unwrap_err().to_string();
    assert!(err.contains("walk graph changed"), "{err}");
}

#[test]
fn a_guard_that_loses_the_player_clears_what_it_sees_and_keeps_what_it_cannot() {
    let mut world = World::default();
    // A wall the player slips behind.
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(10.0, 1.5, 12.0), Vec3::new(4.0, 1.5, 0.2))).unwrap();
    world.set_walk_grid(&WalkGridDef { width: 40, depth: 40, cell_size: 0.5, ..Default::default() }).unwrap();
    let guard = world
        .create_agent(&AgentDef {
            position: Vec3::new(10.0, 0.0, 4.0),
            // A narrow view: the ways round the wall's ends are out of it.
            sight: SightConfig { view_radius: 15.0, view_angle: 30.0, rate_hz: 0.0, ..Default::default() },
            ..Default::default()
        })
        .unwrap();
    let player =
        world.create_target(&TargetDef { position: Vec3::new(10.0, 0.0, 10.0), ..Default::default() }).unwrap();
    let mut belief = Belief::new(&world, player, &[guard], &BeliefDef { speed: 3.0, ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    belief.update(&world, 0.1).unwrap();
    assert_eq!(belief.peak(), 1.0, "seen: all the probability where the player is");
    world.set_target_pose(player, Vec3::new(10.0, 0.0, 14.0), Vec3::Z).unwrap();
    // 4 s at 3 m/s: far enough on foot to round the wall's end.
    for _ in 0..40 {
        world.step(0.1).unwrap();
        belief.update(&world, 0.1).unwrap();
        assert!((total(&belief) - 1.0).abs() < 1e-6);
    }
    let behind = belief.probability_at(&world, Vec3::new(10.0, 0.0, 13.0)).unwrap();
    let in_view = belief.probability_at(&world, Vec3::new(10.0, 0.0, 9.0)).unwrap();
    assert_eq!(in_view, 0.0, "the open ground in front of the guard is cleared");
    assert!(behind > 0.0, "behind the wall the player may be");
    world.destroy_target(player).unwrap();
    world.step(0.1).unwrap();
    assert!(matches!(belief.update(&world, 0.1), Err(Error::InvalidId(_))), "a destroyed target is refused");
}

#[test]
fn bad_beliefs_are_refused() {
    let mut world = World::default();
    let guard = world.create_agent(&AgentDef::default()).unwrap();
    let player = world.create_target(&TargetDef::default()).unwrap();
    let no_graph = Belief::new(&world, player, &[guard], &BeliefDef::default()).unwrap_err().to_string();
    assert!(no_graph.contains("no walk graph"), "{no_graph}");
    world.set_walk_grid(&WalkGridDef { width: 8, depth: 8, ..Default::default() }).unwrap();
    assert!(Belief::new(&world, player, &[guard], &BeliefDef { speed: f32::NAN, ..Default::default() }).is_err());
    assert!(Belief::new(&world, player, &[guard], &BeliefDef { speed: -1.0, ..Default::default() }).is_err());
    assert!(Belief::new(&world, TargetId::NULL, &[guard], &BeliefDef::default()).is_err());
    assert!(Belief::new(&world, player, &[AgentId::NULL], &BeliefDef::default()).is_err());
    let mut belief = Belief::new(&world, player, &[guard], &BeliefDef::default()).unwrap();
    assert!(belief.seen_at(&world, Vec3::new(500.0, 0.0, 500.0)).is_err(), "off the graph");
    assert!(belief.seen_at(&world, Vec3::new(f32::NAN, 0.0, 0.0)).is_err());
    assert!(belief.heard_at(&world, Vec3::ZERO, 0.0).is_err());
    assert!(belief.spread(&world, -1.0).is_err());
    assert!((total(&belief) - 1.0).abs() < 1e-6, "every refusal left it as it was");
}

/// On a graph the engine gave, a node that sends all it has keeps nothing, never less: a centre
/// with three equal edges sends a third each way, and 1/3 rounds up, so it came out an ulp below
/// zero (and the world's save refused to load it).
#[test]
fn a_spread_on_a_given_graph_never_makes_a_negative_probability() {
    let mut world = World::default();
    let nodes = [Vec3::ZERO, Vec3::new(1.0, 0.0, 0.0), Vec3::new(-1.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0)];
    let edges: Vec<WalkEdge> = (1..4).map(|b| WalkEdge { a: 0, b, length: 1.0 }).collect();
    world.set_walk_graph(&nodes, &edges, 0.5).unwrap();
    let guard = world.create_agent(&AgentDef { position: Vec3::new(9.0, 0.0, 9.0), ..Default::default() }).unwrap();
    let player = world.create_target(&TargetDef::default()).unwrap();
    let mut belief = Belief::new(&world, player, &[guard], &BeliefDef { speed: 1.0, ..Default::default() }).unwrap();
    belief.seen_at(&world, Vec3::ZERO).unwrap();
    belief.spread(&world, 1.0).unwrap();
    let p = belief.probabilities();
    assert!(p.iter().all(|&m| m >= 0.0), "{p:?}");
    assert!((total(&belief) - 1.0).abs() < 1e-6);
}

/// A view that clears all but a remnant too small for an f32 sum (a subnormal probability left
/// behind the guard) scales the remnant to 1, not to infinity: the scale 1 / remnant overflowed
/// an f32 and the world's own save then refused to load (found by the snapshot fuzzer).
#[test]
fn a_view_that_leaves_a_subnormal_remnant_keeps_probabilities_in_range() {
    let mut world = World::default();
    world.set_walk_grid(&WalkGridDef { width: 40, depth: 40, cell_size: 0.5, ..Default::default() }).unwrap();
    let guard = world.create_agent(&AgentDef { position: Vec3::new(10.0, 0.0, 5.0), ..Default::default() }).unwrap();
    let player =
        world.create_target(&TargetDef { position: Vec3::new(10.0, 0.0, 10.0), ..Default::default() }).unwrap();
    let mut belief = Belief::new(&world, player, &[guard], &BeliefDef::default()).unwrap();
    belief.seen_at(&world, Vec3::new(10.0, 0.0, 10.0)).unwrap();
    belief.heard_at(&world, Vec3::new(10.0, 0.0, 1.0), f32::from_bits(1)).unwrap();
    let behind = belief.probability_at(&world, Vec3::new(10.0, 0.0, 1.0)).unwrap();
    assert!(behind > 0.0 && !behind.is_normal(), "the remnant is subnormal: {behind}");
    assert_eq!(belief.clear_view(&world, guard).unwrap(), 1);
    let p = belief.probabilities();
    assert!(
        p.iter().all(|&m| (0.0..=1.0).contains(&m)),
        "a probability out of [0, 1]: {:?}",
        p.iter().fold(0.0f32, |a, &b| a.max(b))
    );
    assert_eq!(belief.probability_at(&world, Vec3::new(10.0, 0.0, 1.0)).unwrap(), 1.0);
    assert!((total(&belief) - 1.0).abs() < 1e-6);
}
