//! Beliefs: one belief's update at a sight tick on a 128 × 128 walk grid (16,384 nodes of
//! 0.5 m), with one guard's 15 m view clearing, beside a copy of its probabilities (the memory
//! it touches).

use std::hint::black_box;
use std::time::Instant;

use argus_core::{AgentDef, Belief, BeliefDef, OccluderDef, SightConfig, TargetDef, Vec3, WalkGridDef, World};

use crate::Size;
use crate::measure::{Row, show};
use crate::scenes::Rng;

pub fn belief(size: &Size, rows: &mut Vec<Row>) {
    let mut world = World::default();
    let mut rng = Rng(0xbe11ef);
    for _ in 0..60 {
        let half = Vec3::new(rng.f(0.5, 3.0), 1.5, rng.f(0.5, 3.0));
        world.add_occluder(&OccluderDef::cuboid(Vec3::new(rng.f(0.0, 64.0), 1.5, rng.f(0.0, 64.0)), half)).unwrap();
    }
    world.set_walk_grid(&WalkGridDef { width: 128, depth: 128, cell_size: 0.5, ..Default::default() }).unwrap();
    let sight = SightConfig { view_radius: 15.0, view_angle: 110.0, rate_hz: 0.0, ..Default::default() };
    let guard =
        world.create_agent(&AgentDef { position: Vec3::new(32.0, 0.0, 20.0), sight, ..Default::default() }).unwrap();
    let player =
        world.create_target(&TargetDef { position: Vec3::new(32.0, 0.0, 40.0), ..Default::default() }).unwrap();
    // Beliefs update after a step (which keeps the occluders' ground grid current).
    world.step(0.1).unwrap();
    let def = BeliefDef { speed: 3.0, ..Default::default() };
    // Lost 10 s ago: the probability has spread over a few thousand nodes.
    let lost = |world: &World| {
        let mut b = Belief::new(world, player, &[guard], &def).unwrap();
        b.seen_at(world, Vec3::new(32.0, 0.0, 36.0)).unwrap();
        b.spread(world, 10.0).unwrap();
        b
    };
    let start = lost(&world);
    let live = start.probabilities().iter().filter(|&&m| m > 0.0).count();
    let rounds = size.rounds.max(5) * 20;
    let (mut ours, mut copy) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let mut b = start.clone();
        let t = Instant::now();
        b.spread(&world, 0.1).unwrap();
        b.clear_view(&world, guard).unwrap();
        ours.push(t.elapsed());
        black_box(&b);
        let t = Instant::now();
        black_box(start.probabilities().to_vec());
        copy.push(t.elapsed());
    }
    ours.sort();
    copy.sort();
    let (first, c) = (ours[ours.len() / 2], copy[copy.len() / 2]);
    // A searching guard: it turns 15° a tick, each tick spreading 0.1 s and clearing its view
    // (most of what it saw a tick ago holds no probability any more).
    let mut ticks = Vec::new();
    for _ in 0..rounds / 10 {
        let mut b = start.clone();
        for k in 0..48 {
            let a = (k as f32 * 15.0).to_radians();
            world.set_agent_pose(guard, Vec3::new(32.0, 0.0, 20.0), Vec3::new(a.sin(), 0.0, a.cos())).unwrap();
            let t = Instant::now();
            b.spread(&world, 0.1).unwrap();
            b.clear_view(&world, guard).unwrap();
            ticks.push(t.elapsed());
        }
    }
    ticks.sort();
    let a = ticks[ticks.len() / 2];
    rows.push(Row {
        what: format!("belief: one update at a searching guard's sight tick (spread 0.1 s, a 15 m view cleared), 128² grid, {live} nodes hold probability"),
        argus: show(a),
        baseline: format!("{} copy of it", show(c)),
        ratio: format!("{:.1}×", a.as_secs_f64() / c.as_secs_f64()),
        goal: "≤ 50 µs".into(),
        met: Some(a.as_secs_f64() <= 50e-6),
    });
    rows.push(Row {
        what: "  the first tick after losing it (nothing in view cleared yet)".into(),
        argus: show(first),
        baseline: format!("{} copy of it", show(c)),
        ratio: format!("{:.1}×", first.as_secs_f64() / c.as_secs_f64()),
        goal: String::new(),
        met: None,
    });
}
