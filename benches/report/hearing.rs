//! Walk hearing: what one flood (the search with no listener to head for) costs per node it
//! reaches, beside a plain Dijkstra that sizes its arrays to the level as a first implementation
//! would; and what walk hearing costs a town's frames beside the same frames heard by the
//! straight line.

use std::collections::BinaryHeap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use argus_core::{HearingConfig, HearingPath, RecordOptions, SoundDef, Vec3, WalkGridDef, World};

use crate::Size;
use crate::measure::{Row, show, thread_cpu};
use crate::scenes::{Rng, Town};

const DT: f32 = 1.0 / 60.0;
/// A running footstep's reach (the lesson's loudness 15).
const REACH: f32 = 15.0;

/// A walk grid of 0.5 m cells over the whole town.
fn town_grid(town_side: f32) -> WalkGridDef {
    let cells = (town_side / 0.5).ceil() as u32 + 8;
    WalkGridDef { origin: Vec3::new(-2.0, 0.0, -2.0), width: cells, depth: cells, cell_size: 0.5, ..Default::default() }
}

/// The textbook search: arrays the size of the level, cleared for every source.
fn plain_dijkstra(adjacency: &[Vec<(u32, f32)>], (source, start): (u32, f32), limit: f32) -> usize {
    let mut dist = vec![f32::INFINITY; adjacency.len()];
    let mut heap = BinaryHeap::new();
    dist[source as usize] = start;
    heap.push(std::cmp::Reverse((start.to_bits() as u64) << 32 | source as u64));
    let mut settled = 0;
    while let Some(std::cmp::Reverse(key)) = heap.pop() {
        let (d, n) = (f32::from_bits((key >> 32) as u32), key as u32);
        if d > dist[n as usize] {
            continue;
        }
        settled += 1;
        for &(m, l) in &adjacency[n as usize] {
            let nd = d + l;
            if nd <= limit && nd < dist[m as usize] {
                dist[m as usize] = nd;
                heap.push(std::cmp::Reverse((nd.to_bits() as u64) << 32 | m as u64));
            }
        }
    }
    settled
}

pub fn hearing(size: &Size, rows: &mut Vec<Row>) {
    let n = size.town_agents;
    let town = Town::at_town_density(n, 23);
    let side = 256.0 * (n as f32 / 10_000.0).sqrt();
    flood_cost(&town, side, size, rows);
    frames_cost(&town, side, size, rows);
}

fn flood_cost(town: &Town, side: f32, size: &Size, rows: &mut Vec<Row>) {
    let mut world = town.argus(10.0, 1);
    let grid = town_grid(side);
    world.set_walk_grid(&grid).unwrap();
    let graph = world.walk_graph().unwrap();
    let mut adjacency = vec![Vec::new(); graph.node_count()];
    for (a, b, l) in graph.edges() {
        adjacency[a as usize].push((b, l));
        adjacency[b as usize].push((a, l));
    }
    let mut rng = Rng(0x5eed_f100d);
    let sources: Vec<Vec3> = (0..200)
        .map(|_| Vec3::new(rng.f(0.0, side), 0.0, rng.f(0.0, side)))
        .filter(|&p| graph.nearest_node(p).is_some())
        .collect();
    let starts: Vec<(u32, f32)> = sources.iter().map(|&p| graph.nearest_node(p).unwrap()).collect();
    let nodes_total = graph.node_count();
    let (mut ours, mut plain) = (Vec::new(), Vec::new());
    let mut reached = 0usize;
    for _ in 0..size.rounds.max(3) {
        let t = Instant::now();
        reached = sources.iter().map(|&p| world.testing_flood(p, REACH)).sum();
        ours.push(t.elapsed());
        let t = Instant::now();
        let theirs: usize = starts.iter().map(|&s| black_box(plain_dijkstra(&adjacency, s, REACH))).sum();
        plain.push(t.elapsed());
        assert_eq!(theirs, reached, "both searches settle the same nodes");
    }
    let best = |v: &[Duration]| v.iter().copied().min().unwrap();
    let per_node = |d: Duration| d.as_secs_f64() * 1e9 / reached.max(1) as f64;
    let (a, b) = (per_node(best(&ours)), per_node(best(&plain)));
    rows.push(Row {
        what: format!(
            "hearing: one flood ({REACH} m) per node reached, {} nodes/flood of a {nodes_total}-node grid",
            reached / sources.len().max(1)
        ),
        argus: format!("{a:.1} ns"),
        baseline: format!("{b:.1} ns plain Dijkstra"),
        ratio: format!("{:.2}×", a / b),
        goal: "≤ 15 ns/node".into(),
        met: Some(a <= 15.0),
    });
}

/// The town's frames (10 Hz sight, every target walking its circle and stepping every 0.5 s),
/// once with straight-line hearing and once with walk hearing, step by step side by side; and
/// the walk-hearing frames recorded (every agent in focus, explained: the Hearing section).
fn frames_cost(town: &Town, side: f32, size: &Size, rows: &mut Vec<Row>) {
    let grid = town_grid(side);
    let make = |walk: bool| {
        let mut world = town.argus(10.0, 1);
        world.set_walk_grid(&grid).unwrap();
        if walk {
            let ids: Vec<_> = world.agents().map(|(id, _)| id).collect();
            for id in ids {
                let hearing = HearingConfig { path: HearingPath::Walk, ..Default::default() };
                world.set_agent_hearing(id, &hearing).unwrap();
            }
        }
        world
    };
    let recorded = || {
        let mut world = make(true);
        world.start_recording(&RecordOptions::default()).unwrap();
        world
    };
    let (mut straight, mut walk, mut rec) = (make(false), make(true), recorded());
    let homes: Vec<_> = straight.targets().map(|(id, t)| (id, t.position())).collect();
    let steps = (size.frame_seconds * 60.0).round() as usize;
    let (mut a, mut b, mut c) = (vec![f64::MAX; steps], vec![f64::MAX; steps], vec![f64::MAX; steps]);
    let (mut sounds, mut heard_walk, mut heard_straight) = (0usize, 0usize, 0usize);
    for run in 0..size.frame_runs {
        if run > 0 {
            (straight, walk, rec) = (make(false), make(true), recorded());
        }
        for k in 0..steps {
            for world in [&mut straight, &mut walk, &mut rec] {
                for (i, &(t, home)) in homes.iter().enumerate() {
                    let angle = (k % 240) as f32 / 240.0 * std::f32::consts::TAU + i as f32 * 2.399;
                    let p = home + Vec3::new(angle.cos(), 0.0, angle.sin()) * 6.0;
                    world.set_target_pose(t, p, Vec3::new(-angle.sin(), 0.0, angle.cos())).unwrap();
                    if (k + i).is_multiple_of(30) {
                        let step = SoundDef { position: p, loudness: 6.0, source: t, ..Default::default() };
                        world.emit_sound(&step).unwrap();
                    }
                }
            }
            // Rotate which goes first, so none always meets a warmer cache.
            let mut worlds: [(&mut World, &mut f64); 3] =
                [(&mut straight, &mut a[k]), (&mut walk, &mut b[k]), (&mut rec, &mut c[k])];
            worlds.rotate_left(k % 3);
            for (world, best) in worlds {
                let t = thread_cpu();
                world.step(DT).unwrap();
                *best = best.min((thread_cpu() - t).as_secs_f64());
            }
            if run == 0 {
                sounds += straight.last_sounds().len();
                let count = |w: &World| w.events().percepts.iter().filter(|p| p.sound != u32::MAX).count();
                heard_straight += count(&straight);
                heard_walk += count(&walk);
            }
        }
    }
    let (sa, sb, sc): (f64, f64, f64) = (a.iter().sum(), b.iter().sum(), c.iter().sum());
    let r = sb / sa;
    let per_step = |s: f64| show(Duration::from_secs_f64(s / steps as f64));
    rows.push(Row {
        what: format!(
            "hearing: frames, {n} agents, {steps} steps, {sounds} footsteps; heard {heard_walk} by walk, {heard_straight} straight",
            n = town.agents.len()
        ),
        argus: format!("{} a step", show(Duration::from_secs_f64(sb / steps as f64))),
        baseline: format!("{} straight", show(Duration::from_secs_f64(sa / steps as f64))),
        ratio: format!("{r:.2}×"),
        goal: "≤ 1.3×".into(),
        met: Some(r <= 1.3),
    });
    rows.push(Row {
        what: "  the walk-hearing frames recorded, every agent explained (Hearing section)".into(),
        argus: format!("{} a step", per_step(sc)),
        baseline: format!("{} unrecorded", per_step(sb)),
        ratio: format!("{:.2}×", sc / sb),
        goal: String::new(),
        met: None,
    });
}
