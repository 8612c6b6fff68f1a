//! The scenarios of the benchmark issue, each adding rows to the report.

use std::hint::black_box;

use argus_core::influence::{InfluenceMap, InfluenceMapDef};
use argus_core::tactics::{Candidates, CoverQuery, FlankQuery, Threat, find_cover, find_flank};
use argus_core::{RayHit, Vec3};
use parry3d::bounding_volume::BoundingVolume;
use parry3d::math::Pose;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, TraversalAction};
use parry3d::query::{Ray, RayCast};
use parry3d::shape::Cuboid;

use crate::Size;
use crate::measure::{Row, allocations, live_bytes, show, side_by_side, thread_cpu, time};
use crate::reference as lesson;
use crate::scenes::{Rng, Town};

const DT: f32 = 1.0 / 60.0;
/// Steps of one full cycle of 10 Hz sight ticks staggered over 60 Hz steps.
const CYCLE: usize = 6;

fn ratio_row(
    what: &str,
    argus: std::time::Duration,
    base: std::time::Duration,
    base_name: &str,
    goal: &str,
    met: bool,
    r: f64,
) -> Row {
    Row {
        what: what.into(),
        argus: show(argus),
        baseline: format!("{} {}", show(base), base_name),
        ratio: format!("{r:.1}×"),
        goal: goal.into(),
        met: Some(met),
    }
}

/// Full sight sweep vs the lesson's loops; vs its line-of-sight floor; the staggered 10 Hz step.
pub fn town(size: &Size, rows: &mut Vec<Row>) {
    let n = size.town_agents;
    let town = Town::at_town_density(n, 7);
    let mut world = town.argus(0.0, 1);
    world.step(DT).unwrap(); // warm the caches and scratch buffers
    let mut oracle = town.reference();
    let (sweep, literal) = side_by_side(
        if n > 2_000 { 3 } else { size.rounds },
        || world.step(DT).unwrap(),
        || {
            black_box(oracle.step(DT));
        },
    );
    let sweep = time(size.rounds, || world.step(DT).unwrap()).min(sweep);
    let r = literal.as_secs_f64() / sweep.as_secs_f64();
    rows.push(ratio_row(&format!("town sight sweep, {n} agents"), sweep, literal, "lesson", "≥ 150×", r >= 150.0, r));

    // The floor: only the rays this sweep needed, cast straight into a parry3d BVH.
    let mut probe = town.argus(0.0, 1);
    probe.step(DT).unwrap();
    let rays: Vec<argus_core::RayQuery> = probe.begin_step(DT).unwrap().to_vec();
    probe.cancel_step();
    let shapes: Vec<(Cuboid, Pose)> =
        town.boxes.iter().map(|&(p, h, q)| (Cuboid::new(h), Pose::from_parts(p, q))).collect();
    let aabbs: Vec<_> = shapes.iter().map(|(s, p)| s.aabb(p).loosened(1e-4)).collect();
    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &aabbs);
    // Two ways to answer the rays with parry3d alone: nearest hit (parry's `cast_ray`), and a
    // traversal that stops at the first blocker. The floor is the faster of the two.
    let nearest = || {
        let mut blocked = 0usize;
        for r in &rays {
            let ray = Ray::new(r.origin, r.direction);
            let hit = bvh.cast_ray(&ray, r.max_distance, |leaf, best| {
                let (s, p) = &shapes[leaf as usize];
                s.cast_ray(p, &ray, best, true).filter(|t| *t > 0.0)
            });
            blocked += hit.is_some() as usize;
        }
        black_box(blocked);
    };
    let any = || {
        let mut blocked = 0usize;
        for r in &rays {
            let ray = Ray::new(r.origin, r.direction);
            let mut hit = false;
            bvh.traverse(|node| {
                if node.aabb().cast_local_ray(&ray, r.max_distance, true).is_none() {
                    return TraversalAction::Prune;
                }
                if let Some(leaf) = node.leaf_data() {
                    let (s, p) = &shapes[leaf as usize];
                    if s.cast_ray(p, &ray, r.max_distance, true).is_some_and(|t| t > 0.0) {
                        hit = true;
                        return TraversalAction::EarlyExit;
                    }
                }
                TraversalAction::Continue
            });
            blocked += hit as usize;
        }
        black_box(blocked);
    };
    let (floor_nearest, floor_any) = side_by_side(size.rounds, nearest, any);
    let floor = floor_nearest.min(floor_any);
    let (sweep2, _) = side_by_side(size.rounds, || world.step(DT).unwrap(), || {});
    let r = sweep2.as_secs_f64() / floor.as_secs_f64();
    rows.push(Row {
        what: format!("  sweep vs its {} rays cast directly", rays.len()),
        argus: show(sweep2),
        baseline: format!("{} parry3d", show(floor)),
        ratio: format!("{r:.2}×"),
        goal: "≤ 0.55×".into(),
        met: Some(r <= 0.55),
    });
    rows.push(Row {
        what: "    (parry3d nearest hit / first blocker)".into(),
        argus: String::new(),
        baseline: format!("{} / {}", show(floor_nearest), show(floor_any)),
        ratio: String::new(),
        goal: String::new(),
        met: None,
    });

    let mut staggered = town.argus(10.0, 1);
    for _ in 0..12 {
        staggered.step(DT).unwrap();
    }
    let mut threaded = town.argus(10.0, 2);
    for _ in 0..12 {
        threaded.step(DT).unwrap();
    }
    // A full 10 Hz cycle (6 steps) at a time, the thread counts alternated cycle by cycle so the
    // machine's noise hits both alike. Timed per cycle, not per step: the first step after the
    // other world's cycle finds the workers asleep, and waking a sleeping core of this virtual
    // machine takes from microseconds to a millisecond, at random.
    let cycle = |world: &mut argus_core::World| {
        for _ in 0..CYCLE {
            world.step(DT).unwrap();
        }
    };
    let (step, step2) = side_by_side(size.rounds * 3, || cycle(&mut staggered), || cycle(&mut threaded));
    let (step, step2) = (step / CYCLE as u32, step2 / CYCLE as u32);
    rows.push(Row {
        what: format!("town step at 60 Hz, agents at 10 Hz, {n} (per step of full cycles)"),
        argus: show(step),
        baseline: String::new(),
        ratio: String::new(),
        goal: String::new(),
        met: None,
    });
    let r = step.as_secs_f64() / step2.as_secs_f64();
    rows.push(Row {
        what: "  same, 2 worker threads".into(),
        argus: show(step2),
        baseline: format!("{} 1 thread", show(step)),
        ratio: format!("{r:.2}×"),
        goal: "≥ 1.9×".into(),
        met: Some(r >= 1.9),
    });
    crate::serial::rows(&mut staggered, &mut threaded, size.rounds * 3, CYCLE, DT, rows);
}

/// Full sweeps at the same density with more and more agents: linear, never all pairs. Each
/// size is also a point of the scaling chart (printed as `POINT` lines for the parent), with
/// the lesson's loop at the sizes where it takes at most about a second a step.
pub fn scale(size: &Size, rows: &mut Vec<Row>) {
    let mut worlds: Vec<(usize, argus_core::World)> = size
        .scale
        .iter()
        .map(|&n| {
            let mut world = Town::at_town_density(n, 11).argus(0.0, 1);
            world.step(DT).unwrap();
            (n, world)
        })
        .collect();
    let rounds = if size.scale.iter().any(|&n| n >= 50_000) { 4 } else { size.rounds };
    let mut times = Vec::new();
    for (n, world) in worlds.iter_mut() {
        times.push((*n, time(rounds, || world.step(DT).unwrap())));
    }
    for &(n, t) in &times {
        rows.push(Row {
            what: format!("scale: full sweep, {n} agents"),
            argus: show(t),
            baseline: String::new(),
            ratio: String::new(),
            goal: String::new(),
            met: None,
        });
        println!("POINT\targus\t{n}\t{}", t.as_secs_f64());
    }
    // The ratio itself from the two largest, measured alternately.
    let k = worlds.len();
    let (small, large) = worlds.split_at_mut(k - 1);
    let ((n1, w1), (n2, w2)) = (&mut small[k - 2], &mut large[0]);
    let (t1, t2) = side_by_side(rounds, || w1.step(DT).unwrap(), || w2.step(DT).unwrap());
    let r = t2.as_secs_f64() / t1.as_secs_f64();
    let goal = *n2 as f64 / *n1 as f64 * 1.05;
    rows.push(Row {
        what: format!("  scaling {n1} → {n2} agents"),
        argus: show(t2),
        baseline: format!("{} at {n1}", show(t1)),
        ratio: format!("{r:.1}×"),
        goal: format!("≤ {goal:.1}×"),
        met: Some(r <= goal),
    });
    drop(worlds);

    // More points for the chart only: sizes between the rows', and the lesson's loop.
    for &n in &size.chart_extra {
        let mut world = Town::at_town_density(n, 11).argus(0.0, 1);
        world.step(DT).unwrap();
        let t = time(rounds, || world.step(DT).unwrap());
        println!("POINT\targus\t{n}\t{}", t.as_secs_f64());
    }
    let mut sizes: Vec<usize> = size.scale.iter().chain(&size.chart_extra).copied().collect();
    sizes.sort_unstable();
    for n in sizes.into_iter().filter(|&n| n <= size.lesson_max) {
        let mut oracle = Town::at_town_density(n, 11).reference();
        black_box(oracle.step(DT));
        let t = time(if n >= 5_000 { 2 } else { size.rounds }, || {
            black_box(oracle.step(DT));
        });
        println!("POINT\tlesson\t{n}\t{}", t.as_secs_f64());
    }
}

/// Stamping and blurring a big grid vs the lesson's loops and vs plain memory bandwidth.
pub fn influence(size: &Size, rows: &mut Vec<Row>) {
    let g = size.grid;
    let def = InfluenceMapDef { width: g, height: g, cell_size: 1.0, ..Default::default() };
    let mut map = InfluenceMap::new(&def).unwrap();
    let mut grid = lesson::RefGrid::new(g as usize, g as usize, 1.0, Vec3::ZERO);
    let mut rng = Rng(5);
    let sources: Vec<Vec3> =
        (0..size.sources).map(|_| Vec3::new(rng.f(0.0, g as f32), 0.0, rng.f(0.0, g as f32))).collect();
    let batch: Vec<(Vec3, f32)> = sources.iter().map(|&p| (p, 1.0)).collect();
    // Touch every page of both grids first, so neither side pays the first-write page faults.
    map.fill(0, 0.0).unwrap();
    grid.cells.iter_mut().for_each(|c| *c = 0.0);
    let (stamp, literal) = side_by_side(
        size.rounds,
        || map.add_influences(0, &batch, 8).unwrap(),
        || {
            for &s in &sources {
                lesson::add_influence(&mut grid, s, 1.0, 8);
            }
        },
    );
    let r = literal.as_secs_f64() / stamp.as_secs_f64();
    rows.push(ratio_row(
        &format!("influence: {} sources r=8 on {g}²", size.sources),
        stamp,
        literal,
        "lesson",
        "≥ 3×",
        r >= 3.0,
        r,
    ));

    let mut copy_dst = vec![0.0f32; (g * g) as usize];
    let src = map.layer(0).unwrap().to_vec();
    let (blur, copy) =
        side_by_side(size.rounds * 3, || map.blur(0).unwrap(), || copy_dst.copy_from_slice(black_box(&src)));
    let r = blur.as_secs_f64() / copy.as_secs_f64();
    rows.push(Row {
        what: format!("  one blur pass on {g}²"),
        argus: show(blur),
        baseline: format!("{} memcpy", show(copy)),
        ratio: format!("{r:.2}×"),
        goal: "≤ 2×".into(),
        met: Some(r <= 2.0),
    });
    let (blur, literal) = side_by_side(size.rounds, || map.blur(0).unwrap(), || lesson::blur(&mut grid));
    let r = literal.as_secs_f64() / blur.as_secs_f64();
    rows.push(ratio_row("  blur vs the lesson's blur", blur, literal, "lesson", "", true, r));
    rows.last_mut().unwrap().met = None;
}

/// Cover and flank over many candidates with several threats vs the lesson's loops.
pub fn tactics(size: &Size, rows: &mut Vec<Row>) {
    let town = Town::at_town_density(2_000, 13);
    let world = town.argus(10.0, 1);
    let oracle_occluders: Vec<lesson::RefOccluder> = town
        .boxes
        .iter()
        .map(|&(p, h, q)| lesson::RefOccluder::new(lesson::RefShape::Box { half_extents: h }, p, q, 1))
        .collect();
    let mut rng = Rng(17);
    let centre = Vec3::new(55.0, 0.0, 55.0);
    let points: Vec<Vec3> =
        (0..size.candidates).map(|_| centre + Vec3::new(rng.f(-30.0, 30.0), 1.0, rng.f(-30.0, 30.0))).collect();
    let threats: Vec<Threat> = (0..8)
        .map(|_| {
            let p = centre + Vec3::new(rng.f(-25.0, 25.0), 0.0, rng.f(-25.0, 25.0));
            Threat::standing(p, Vec3::new(rng.f(-1.0, 1.0), 0.0, 1.0).normalize(), 1.6)
        })
        .collect();
    let grid = lesson::RefGrid::new(128, 128, 1.0, Vec3::ZERO);
    let map = InfluenceMap::new(&InfluenceMapDef { width: 128, height: 128, ..Default::default() }).unwrap();
    let mut out = Vec::new();
    let (ours, literal) = side_by_side(
        size.rounds,
        || {
            for t in &threats {
                let q = CoverQuery {
                    self_position: centre,
                    threats: std::slice::from_ref(t),
                    candidates: Candidates::Points(&points),
                    map: Some((&map, 0)),
                    ..CoverQuery::default()
                };
                black_box(find_cover(&q, world.occluders(), &mut out).unwrap());
                let f = FlankQuery {
                    threat: *t,
                    candidates: Candidates::Points(&points),
                    map: Some((&map, 0)),
                    ..FlankQuery::default()
                };
                black_box(find_flank(&f, &mut out).unwrap());
            }
        },
        || {
            for t in &threats {
                black_box(lesson::find_best_cover(centre, t.eye, &points, &grid, &oracle_occluders, u32::MAX));
                black_box(lesson::find_flank_position(t.position, t.forward, &points, &grid));
            }
        },
    );
    let r = literal.as_secs_f64() / ours.as_secs_f64();
    rows.push(ratio_row(
        &format!("tactics: cover+flank, {} candidates × 8 threats", size.candidates),
        ours,
        literal,
        "lesson",
        "≥ 10×",
        r >= 10.0,
        r,
    ));
}

/// Pose updates through the C ABI: one bulk call vs one call per agent.
pub fn ffi(size: &Size, rows: &mut Vec<Row>) {
    use argus::*;
    let n = size.ffi_agents;
    let mut world = std::ptr::null_mut();
    let def = argus_default_world_def();
    // SAFETY: valid pointers to locals; the world is destroyed at the end.
    unsafe { argus_world_create(&def, &mut world) };
    let mut ids = vec![ArgusAgentId::default(); n];
    let agent = argus_default_agent_def();
    for id in ids.iter_mut() {
        unsafe { argus_agent_create(world, &agent, id) };
    }
    let mut rng = Rng(3);
    let positions: Vec<ArgusVec3> =
        (0..n).map(|_| ArgusVec3 { x: rng.f(0.0, 100.0), y: 0.0, z: rng.f(0.0, 100.0) }).collect();
    let forwards = vec![ArgusVec3 { x: 0.0, y: 0.0, z: 1.0 }; n];
    let (bulk, single) = side_by_side(
        size.rounds * 3,
        || unsafe {
            argus_agent_set_poses(world, ids.as_ptr(), positions.as_ptr(), forwards.as_ptr(), n as u32);
        },
        || {
            for i in 0..n {
                unsafe { argus_agent_set_pose(world, ids[i], positions[i], forwards[i]) };
            }
        },
    );
    unsafe { argus_world_destroy(world) };
    let r = single.as_secs_f64() / bulk.as_secs_f64();
    rows.push(Row {
        what: format!("ffi: {n} pose updates, one bulk call"),
        argus: show(bulk),
        baseline: format!("{} one call each", show(single)),
        ratio: format!("{r:.1}×"),
        goal: String::new(),
        met: None,
    });
}

/// Heap allocations in steady-state steps, and bytes per agent.
pub fn memory(size: &Size, rows: &mut Vec<Row>) {
    // Steady state: every target walks a fixed 4 s loop (a footstep every 8 steps), so after a
    // loop or two every sighting, sound, memory and event count that will ever happen has
    // happened once and buffers have grown.
    let town = Town::at_town_density(size.town_agents.min(10_000), 19);
    for walk in [false, true] {
        steady_allocations(&town, walk, rows);
    }
    agent_bytes(rows);
}

/// Heap allocations per steady-state step of the town, heard by the straight line or along a walk
/// grid (with a door that passes sound on every fifth box, so the transmissions are multiplied).
fn steady_allocations(town: &Town, walk: bool, rows: &mut Vec<Row>) {
    let mut world = town.argus(10.0, 1);
    if walk {
        let side = 256.0 * (town.agents.len() as f32 / 10_000.0).sqrt();
        let cells = (side / 0.5) as u32 + 8;
        let grid = argus_core::WalkGridDef { width: cells, depth: cells, cell_size: 0.5, ..Default::default() };
        world.set_walk_grid(&grid).unwrap();
        let ids: Vec<_> = world.agents().map(|(id, _)| id).collect();
        let hearing = argus_core::HearingConfig { path: argus_core::HearingPath::Walk, ..Default::default() };
        for id in ids {
            world.set_agent_hearing(id, &hearing).unwrap();
        }
        for &(position, half, rotation) in town.boxes.iter().step_by(5) {
            let door = argus_core::OccluderDef {
                shape: argus_core::OccluderShape::Box { half_extents: Vec3::new(half.x, half.y, 0.1) },
                position: position + Vec3::new(4.0, 0.0, 0.0),
                rotation,
                sound_transmission: Some(0.5),
                ..Default::default()
            };
            world.add_occluder(&door).unwrap();
        }
    }
    let homes: Vec<(argus_core::TargetId, Vec3)> = world.targets().map(|(id, t)| (id, t.position())).collect();
    let mut step_no = 0u32;
    let mut drive = |world: &mut argus_core::World| {
        let phase = (step_no % 240) as f32 / 240.0 * std::f32::consts::TAU;
        for (i, &(t, home)) in homes.iter().enumerate() {
            let p = home + Vec3::new(phase.cos(), 0.0, phase.sin()) * 6.0;
            world.set_target_pose(t, p, Vec3::Z).unwrap();
            // Footsteps, enough of them each step that hearing goes through the sound grid.
            if (step_no as usize + i).is_multiple_of(8) {
                let step = argus_core::SoundDef { position: p, loudness: 6.0, source: t, ..Default::default() };
                world.emit_sound(&step).unwrap();
            }
        }
        world.step(DT).unwrap();
        step_no += 1;
    };
    for _ in 0..240 * 3 {
        drive(&mut world);
    }
    let before = allocations();
    let steps = 240;
    for _ in 0..steps {
        drive(&mut world);
    }
    let per_step = (allocations() - before) as f64 / steps as f64;
    rows.push(Row {
        what: if walk {
            "  the same heard along a walk grid (walk hearing)".into()
        } else {
            "heap allocations per steady-state step".into()
        },
        argus: format!("{per_step:.2}"),
        baseline: String::new(),
        ratio: String::new(),
        goal: "0".into(),
        met: Some(per_step == 0.0),
    });
}

fn agent_bytes(rows: &mut Vec<Row>) {
    // Bytes per agent without memory records: live heap of a world of agents only.
    let count = 50_000;
    let start = live_bytes();
    let mut world = argus_core::World::default();
    world.reserve(count, 0).unwrap();
    let far_apart = |i: usize| Vec3::new((i % 1000) as f32 * 50.0, 0.0, (i / 1000) as f32 * 50.0);
    for i in 0..count {
        world.create_agent(&argus_core::AgentDef { position: far_apart(i), ..Default::default() }).unwrap();
    }
    world.step(DT).unwrap();
    let per_agent = (live_bytes() - start) as f64 / count as f64;
    // An agent's entry in the dense store, plus 8 bytes for its id's place in the sparse table.
    let slot = size_of::<argus_core::id::Entry<argus_core::Agent>>() + 8;
    rows.push(Row {
        what: format!("bytes per agent ({count} agents, no memories)"),
        argus: format!("{per_agent:.0} B"),
        baseline: format!("{slot} B entry and id"),
        ratio: String::new(),
        goal: "≤ 256 B".into(),
        met: Some(per_agent <= 256.0),
    });
    drop(world);
    let _ = RayHit::default();
}

/// Per-step times of several seconds of play at 60 Hz: the worst frame, which a game budgets
/// for, not the mean. Targets walk circles and drop a footstep every half second (staggered), so
/// sightings, memories, sounds and events come and go as in a game.
pub fn frames(size: &Size, rows: &mut Vec<Row>) {
    use argus_core::SoundDef;
    let n = size.town_agents;
    let town = Town::at_town_density(n, 23);
    let steps = (size.frame_seconds * 60.0).round() as usize;
    // The run is deterministic, so step k does the same work in every run: the fastest of the
    // runs at each step is its cost with less of the neighbours' noise (which only adds time).
    // Wall time still counts the slices a neighbour's build takes from this core; the thread's
    // CPU time does not, so the goal is judged on it.
    let (mut wall, mut cpu) = (vec![f64::MAX; steps], vec![f64::MAX; steps]);
    let mut one_run_max = f64::MAX;
    for _ in 0..size.frame_runs {
        let mut world = town.argus(10.0, 1);
        let homes: Vec<(argus_core::TargetId, Vec3)> = world.targets().map(|(id, t)| (id, t.position())).collect();
        let mut run_max = 0.0f64;
        for k in 0..steps {
            for (i, &(t, home)) in homes.iter().enumerate() {
                // Each target walks its own 4 s circle of 6 m from its own starting angle.
                let a = (k % 240) as f32 / 240.0 * std::f32::consts::TAU + i as f32 * 2.399;
                let p = home + Vec3::new(a.cos(), 0.0, a.sin()) * 6.0;
                world.set_target_pose(t, p, Vec3::new(-a.sin(), 0.0, a.cos())).unwrap();
                if (k + i).is_multiple_of(30) {
                    let step = SoundDef { position: p, loudness: 6.0, source: t, ..Default::default() };
                    world.emit_sound(&step).unwrap();
                }
            }
            let (start, start_cpu) = (std::time::Instant::now(), thread_cpu());
            world.step(DT).unwrap();
            let (w, c) = (start.elapsed().as_secs_f64(), (thread_cpu() - start_cpu).as_secs_f64());
            wall[k] = wall[k].min(w);
            cpu[k] = cpu[k].min(c);
            run_max = run_max.max(w);
        }
        one_run_max = one_run_max.min(run_max);
    }
    let secs = std::time::Duration::from_secs_f64;
    // p50, p99, max; and the worst step after the first second with its index.
    let stats = |t: &[f64]| {
        let mut sorted = t.to_vec();
        sorted.sort_by(f64::total_cmp);
        let pick = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        let from = 60.min(t.len() - 1);
        let after = t[from..].iter().copied().fold(0.0, f64::max);
        let at = from + t[from..].iter().position(|&x| x == after).unwrap_or(0);
        (pick(0.5), pick(0.99), sorted[sorted.len() - 1], after, at)
    };
    let runs = size.frame_runs;
    for (name, t) in [("wall", &wall), ("CPU", &cpu)] {
        let (p50, p99, max, _, _) = stats(t);
        rows.push(Row {
            what: if name == "wall" {
                format!("frames: {steps} steps at 60 Hz, {n}, wall")
            } else {
                "  same steps, the thread's CPU time".into()
            },
            argus: format!("p50 {}", show(secs(p50))),
            baseline: format!("p99 {} max {}", show(secs(p99)), show(secs(max))),
            ratio: String::new(),
            goal: String::new(),
            met: None,
        });
    }
    let (p50, _, _, after, at) = stats(&cpu);
    rows.push(Row {
        what: format!("  first step ÷ p50 (CPU, min of {runs} runs)"),
        argus: show(secs(cpu[0])),
        baseline: format!("{} p50", show(secs(p50))),
        ratio: format!("{:.1}×", cpu[0] / p50),
        goal: String::new(),
        met: None,
    });
    let r = after / p50;
    rows.push(Row {
        what: format!("  worst after 1 s ÷ p50 (CPU, step {at})"),
        argus: show(secs(after)),
        baseline: format!("{} p50", show(secs(p50))),
        ratio: format!("{r:.2}×"),
        goal: "≤ 2×".into(),
        met: Some(r <= 2.0),
    });
    let (wp50, _, _, wafter, wat) = stats(&wall);
    rows.push(Row {
        what: format!("    wall (step {wat}); one run's raw max"),
        argus: show(secs(wafter)),
        baseline: format!("{} raw", show(secs(one_run_max))),
        ratio: format!("{:.2}× / {:.1}×", wafter / wp50, one_run_max / wp50),
        goal: String::new(),
        met: None,
    });
}

/// The town step through the engine-ray two-phase path (`begin_step` → rays → `finish_step`)
/// vs the built-in backend, the engine's rays answered from a table computed beforehand, so
/// only Argus's own overhead on the two-phase path is measured.
pub fn engine(size: &Size, rows: &mut Vec<Row>) {
    let n = size.town_agents;
    let town = Town::at_town_density(n, 7);
    // Rounds of one whole 10 Hz cycle (6 steps at 60 Hz) each, after two cycles of warm-up.
    let (warm, cycle) = (12usize, 6usize);
    let total = warm + cycle * size.rounds;
    let mut probe = town.argus(10.0, 1);
    let mut table: Vec<Vec<RayHit>> = Vec::with_capacity(total);
    for _ in 0..total {
        let rays = probe.begin_step(DT).unwrap().to_vec();
        let occluders = probe.occluders();
        let hits: Vec<RayHit> = rays
            .iter()
            .map(|r| match occluders.cast_ray(r.origin, r.direction, r.max_distance, r.layer_mask) {
                Some(d) => RayHit { hit: true, distance: d.min(r.max_distance) },
                None => RayHit::default(),
            })
            .collect();
        probe.finish_step(&hits).unwrap();
        table.push(hits);
    }
    let ray_count: usize = table[warm..warm + cycle].iter().map(Vec::len).sum();
    let mut builtin = town.argus(10.0, 1);
    let mut engine = town.argus(10.0, 1);
    let mut next = 0usize;
    let two_phase = |world: &mut argus_core::World, next: &mut usize| {
        let rays = world.begin_step(DT).unwrap().len();
        let hits = &table[*next];
        assert_eq!(rays, hits.len(), "the replayed step {next} asks for other rays than the table's");
        world.finish_step(hits).unwrap();
        *next += 1;
    };
    for _ in 0..warm {
        builtin.step(DT).unwrap();
        two_phase(&mut engine, &mut next);
    }
    let (t_builtin, t_engine) = side_by_side(
        size.rounds,
        || (0..cycle).for_each(|_| builtin.step(DT).unwrap()),
        || (0..cycle).for_each(|_| two_phase(&mut engine, &mut next)),
    );
    // Both worlds went through the same steps: they must have reached the same conclusions.
    let states = |w: &argus_core::World| w.agents().map(|(_, a)| a.brain().state).collect::<Vec<_>>();
    assert_eq!(states(&builtin), states(&engine), "two-phase and built-in worlds disagree");
    let per_step = |d: std::time::Duration| d / cycle as u32;
    let r = t_engine.as_secs_f64() / t_builtin.as_secs_f64();
    rows.push(Row {
        what: format!("town step via engine rays (table), {n}"),
        argus: show(per_step(t_engine)),
        baseline: format!("{} built-in", show(per_step(t_builtin))),
        ratio: format!("{r:.2}×"),
        goal: "≤ 1.2×".into(),
        met: Some(r <= 1.2),
    });
    rows.push(Row {
        what: format!("    ({} rays per step handed to the engine)", ray_count / cycle),
        argus: String::new(),
        baseline: String::new(),
        ratio: String::new(),
        goal: String::new(),
        met: None,
    });
}
