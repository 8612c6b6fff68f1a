//! Search quality: how long a squad of three guards takes to find a hider who was spotted, ran out
//! of sight and hid, with belief search beside the lesson's search (the last known position, then
//! a patrol), on the same seeded levels (town, maze, rooms and corridors) in one run.
//!
//! Both searches get the same guards, moves and patrols: a guard walks (2.5 m/s, along the walk
//! graph) to its brain's move target, or along its patrol when it has none, and looks around
//! (90°/s) where it stands. The hider sprints (4 m/s) to a node 15–30 m of walking away, out of
//! sight of where it was spotted; once every guard has lost it, it slips away to a hiding place
//! 15–30 m on, out of sight of where it was lost, and stays. Found: a guard sees it there; the
//! time runs from the moment it was spotted. Not found in 90 s counts as 90 s.

use argus_core::{
    AgentDef, AgentId, BrainConfig, BrainState, OccluderDef, SearchKind, SightConfig, TargetDef, TargetId,
};
use argus_core::{Vec3, WalkGridDef, World};

use crate::measure::Row;
use crate::scenes::Rng;

const SIDE: f32 = 40.0;
const CELL: f32 = 0.5;
const DT: f32 = 0.1;
const GIVE_UP_AFTER: f32 = 90.0;
const GUARD_SPEED: f32 = 2.5;
const HIDER_SPEED: f32 = 4.0;

#[derive(Copy, Clone, Debug, PartialEq)]
enum Kind {
    Town,
    Maze,
    Rooms,
}

/// A level's walls as boxes (centre, half extents).
fn walls(kind: Kind, rng: &mut Rng) -> Vec<(Vec3, Vec3)> {
    let mut out = Vec::new();
    let wall = |out: &mut Vec<(Vec3, Vec3)>, x0: f32, z0: f32, x1: f32, z1: f32| {
        let c = Vec3::new((x0 + x1) / 2.0, 1.5, (z0 + z1) / 2.0);
        out.push((c, Vec3::new(((x1 - x0) / 2.0).max(0.15), 1.5, ((z1 - z0) / 2.0).max(0.15))));
    };
    match kind {
        Kind::Town => {
            // Buildings on a 10 m block grid, each filling most of its block, streets between.
            for bx in 0..4 {
                for bz in 0..4 {
                    if rng.f(0.0, 1.0) < 0.15 {
                        continue; // a square
                    }
                    let (w, d) = (rng.f(3.0, 7.0), rng.f(3.0, 7.0));
                    let (x, z) = (bx as f32 * 10.0 + 5.0 + rng.f(-1.0, 1.0), bz as f32 * 10.0 + 5.0 + rng.f(-1.0, 1.0));
                    wall(&mut out, x - w / 2.0, z - d / 2.0, x + w / 2.0, z + d / 2.0);
                }
            }
        }
        Kind::Maze => {
            // A perfect maze of 5 m cells (depth-first), then a few extra openings.
            let n = 8usize;
            let mut open_e = vec![false; n * n]; // passage to the east neighbour
            let mut open_s = vec![false; n * n]; // passage to the south (+z) neighbour
            let mut seen = vec![false; n * n];
            let mut stack = vec![0usize];
            seen[0] = true;
            while let Some(&c) = stack.last() {
                let (x, z) = (c % n, c / n);
                let mut next = Vec::new();
                if x + 1 < n && !seen[c + 1] {
                    next.push(c + 1)
                }
                if x > 0 && !seen[c - 1] {
                    next.push(c - 1)
                }
                if z + 1 < n && !seen[c + n] {
                    next.push(c + n)
                }
                if z > 0 && !seen[c - n] {
                    next.push(c - n)
                }
                if next.is_empty() {
                    stack.pop();
                    continue;
                }
                let to = next[(rng.next() % next.len() as u64) as usize];
                match to as isize - c as isize {
                    1 => open_e[c] = true,
                    -1 => open_e[to] = true,
                    d if d > 0 => open_s[c] = true,
                    _ => open_s[to] = true,
                }
                seen[to] = true;
                stack.push(to);
            }
            for c in 0..n * n {
                if rng.f(0.0, 1.0) < 0.1 {
                    open_e[c] = true;
                }
                let (x, z) = ((c % n) as f32 * 5.0, (c / n) as f32 * 5.0);
                if c % n + 1 < n && !open_e[c] {
                    wall(&mut out, x + 4.85, z, x + 5.15, z + 5.0);
                }
                if c / n + 1 < n && !open_s[c] {
                    wall(&mut out, x, z + 4.85, x + 5.0, z + 5.15);
                }
            }
        }
        Kind::Rooms => {
            // 4 × 4 rooms of 10 m, each shared wall with a 1.5 m door at a random place.
            for k in 1..4 {
                let at = k as f32 * 10.0;
                for span in 0..4 {
                    let s0 = span as f32 * 10.0;
                    let door = s0 + rng.f(1.0, 7.5);
                    wall(&mut out, at - 0.15, s0, at + 0.15, door);
                    wall(&mut out, at - 0.15, door + 1.5, at + 0.15, s0 + 10.0);
                    let door = s0 + rng.f(1.0, 7.5);
                    wall(&mut out, s0, at - 0.15, door, at + 0.15);
                    wall(&mut out, door + 1.5, at - 0.15, s0 + 10.0, at + 0.15);
                }
            }
        }
    }
    out
}

/// An open node's position, drawn at random.
fn open_point(world: &World, rng: &mut Rng) -> Vec3 {
    let graph = world.walk_graph().expect("a walk graph");
    loop {
        let n = (rng.next() % graph.node_count() as u64) as u32;
        if graph.is_open(n) {
            return graph.position(n);
        }
    }
}

/// One step of walking from `at` toward `to` along the walk graph, `speed` × `DT` metres.
fn walk(world: &mut World, at: Vec3, to: Vec3, speed: f32) -> Option<Vec3> {
    let path = world.walk_path(at, to, 500.0).ok().flatten()?;
    let graph = world.walk_graph().expect("a walk graph");
    // Past a node already (it is the nearest, but behind): head on to the next one.
    let mut first = 0;
    while first + 1 < path.nodes.len() {
        let (a, b) = (graph.position(path.nodes[first]), graph.position(path.nodes[first + 1]));
        if at.distance(b) >= a.distance(b) {
            break;
        }
        first += 1;
    }
    let mut left = speed * DT;
    let mut here = at;
    for &n in path.nodes[first..].iter().chain(std::iter::once(&u32::MAX)) {
        let next = if n == u32::MAX { to } else { graph.position(n) };
        let d = here.distance(next);
        if d >= left {
            return Some(here + (next - here) * (left / d.max(1e-6)));
        }
        left -= d;
        here = next;
    }
    Some(here)
}

struct Episode {
    world: World,
    guards: Vec<AgentId>,
    hider: TargetId,
    patrols: Vec<Vec<Vec3>>,
    next_waypoint: Vec<usize>,
}

fn episode(kind: Kind, seed: u64, search: SearchKind) -> Episode {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut world = World::default();
    for (c, h) in walls(kind, &mut rng) {
        world.add_occluder(&OccluderDef::cuboid(c, h)).unwrap();
    }
    let cells = (SIDE / CELL) as u32;
    world.set_walk_grid(&WalkGridDef { width: cells, depth: cells, cell_size: CELL, ..Default::default() }).unwrap();
    let sight = SightConfig { view_radius: 15.0, view_angle: 110.0, rate_hz: 10.0, ..Default::default() };
    let brain = match search {
        SearchKind::Belief => BrainConfig { search, search_duration: GIVE_UP_AFTER, ..Default::default() },
        SearchKind::LastKnownPosition => BrainConfig::default(),
    };
    let hider_at = open_point(&world, &mut rng);
    let hider =
        world.create_target(&TargetDef { position: hider_at, top_speed: HIDER_SPEED, ..Default::default() }).unwrap();
    let mut guards = Vec::new();
    for k in 0..3 {
        // The first guard stands where it sees the hider; the others anywhere.
        let (position, forward) = if k == 0 {
            let mut p = open_point(&world, &mut rng);
            for _ in 0..500 {
                if p.distance(hider_at) < 9.0 && p.distance(hider_at) > 3.0 {
                    break;
                }
                p = open_point(&world, &mut rng);
            }
            (p, (hider_at - p).normalize_or(Vec3::Z))
        } else {
            (open_point(&world, &mut rng), Vec3::Z)
        };
        guards.push(world.create_agent(&AgentDef { position, forward, sight, brain, ..Default::default() }).unwrap());
    }
    let patrols = (0..3).map(|_| (0..8).map(|_| open_point(&world, &mut rng)).collect()).collect();
    Episode { world, guards, hider, patrols, next_waypoint: vec![0; 3] }
}

/// A node 15–30 m of walking from `from` that cannot be seen from there (a look all around at a
/// guard's eye height, by a stand-in guard made and destroyed for the question); `from` if none.
fn hiding_place(world: &mut World, hider: TargetId, from: Vec3, rng: &mut Rng) -> Vec3 {
    let was = world.target(hider).unwrap().position();
    let sight = SightConfig { view_radius: 100.0, view_angle: 360.0, ..Default::default() };
    let brain = BrainConfig { enabled: false, ..Default::default() };
    let eye = world.create_agent(&AgentDef { position: from, sight, brain, team: 7, ..Default::default() }).unwrap();
    let mut spot = from;
    for _ in 0..4000 {
        let p = open_point(world, rng);
        if let Ok(Some(w)) = world.walk_path(from, p, 30.0) {
            world.set_target_pose(hider, p, Vec3::Z).unwrap();
            if w.distance >= 15.0 && !world.can_see(eye, hider).unwrap().seen {
                spot = p;
                break;
            }
        }
    }
    world.set_target_pose(hider, was, Vec3::Z).unwrap();
    world.destroy_agent(eye).unwrap();
    spot
}

/// Seconds from the hider being spotted to being seen where it hid, after every guard lost it (90
/// when never); `None` when no guard spotted it at the start (the level is skipped for both searches).
fn time_to_find(kind: Kind, seed: u64, search: SearchKind) -> Option<f32> {
    let mut e = episode(kind, seed, search);
    let mut rng = Rng(seed ^ 0x5eed);
    // Spotted?
    let mut spotted = false;
    for _ in 0..10 {
        e.world.step(DT).unwrap();
        spotted |= e.guards.iter().any(|&g| e.world.agent(g).unwrap().brain().state == BrainState::Chasing);
    }
    if !spotted {
        return None;
    }
    // Where it runs first: 15–30 m of walking away, out of sight of where it was spotted.
    let from = e.world.target(e.hider).unwrap().position();
    let mut spot = hiding_place(&mut e.world, e.hider, from, &mut rng);
    let mut hid = false;
    let (mut lost, mut t) = (false, 0.0f32);
    while t < GIVE_UP_AFTER {
        // The hider runs to its spot.
        let at = e.world.target(e.hider).unwrap().position();
        if let Some(next) = walk(&mut e.world, at, spot, HIDER_SPEED) {
            let facing = (next - at).normalize_or(Vec3::Z);
            e.world.set_target_pose(e.hider, next, facing).unwrap();
        }
        // The guards go where their brains say, or patrol; standing, they look around.
        for k in 0..e.guards.len() {
            let g = e.guards[k];
            let agent = e.world.agent(g).unwrap();
            let (at, forward) = (agent.position(), agent.forward());
            let goal = match e.world.move_target(g).unwrap() {
                Some(goal) => goal,
                None => {
                    let route = &e.patrols[k];
                    if at.distance(route[e.next_waypoint[k]]) < 1.0 {
                        e.next_waypoint[k] = (e.next_waypoint[k] + 1) % route.len();
                    }
                    route[e.next_waypoint[k]]
                }
            };
            let next = walk(&mut e.world, at, goal, GUARD_SPEED).unwrap_or(at);
            let moved = next - at;
            let facing = if moved.length() > 0.05 {
                moved.normalize()
            } else {
                let a = std::f32::consts::FRAC_PI_2 * DT;
                Vec3::new(forward.x * a.cos() + forward.z * a.sin(), 0.0, forward.z * a.cos() - forward.x * a.sin())
            };
            e.world.set_agent_pose(g, next, facing).unwrap();
        }
        e.world.step(DT).unwrap();
        t += DT;
        let seen =
            e.world.events().percepts.iter().any(|p| p.target == e.hider && p.kind == argus_core::PerceptKind::Sight);
        let hidden = hid && e.world.target(e.hider).unwrap().position().distance(spot) < 0.01;
        if hidden && seen {
            return Some(t);
        }
        lost |= !seen && e.guards.iter().all(|&g| e.world.agent(g).unwrap().brain().state != BrainState::Chasing);
        // Lost by every guard: it slips away to a hiding place out of sight of where it is now.
        if lost && !hid {
            let here = e.world.target(e.hider).unwrap().position();
            spot = hiding_place(&mut e.world, e.hider, here, &mut rng);
            hid = true;
        }
    }
    Some(GIVE_UP_AFTER)
}

fn median(v: &mut [f32]) -> f32 {
    v.sort_by(f32::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

pub fn search(_size: &crate::Size, rows: &mut Vec<Row>) {
    let (mut lesson, mut belief) = (Vec::new(), Vec::new());
    let mut per_kind = Vec::new();
    let mut seed = 1u64;
    for kind in [Kind::Town, Kind::Maze, Kind::Rooms] {
        let (mut l_kind, mut b_kind) = (Vec::new(), Vec::new());
        // Seven levels of each kind where the hider is spotted at the start (21 in all).
        while l_kind.len() < 7 && seed < 200 {
            seed += 1;
            let Some(l) = time_to_find(kind, seed, SearchKind::LastKnownPosition) else { continue };
            let Some(b) = time_to_find(kind, seed, SearchKind::Belief) else { continue };
            l_kind.push(l);
            b_kind.push(b);
        }
        lesson.extend_from_slice(&l_kind);
        belief.extend_from_slice(&b_kind);
        per_kind.push((kind, median(&mut l_kind), median(&mut b_kind), l_kind.len()));
    }
    let found = |v: &[f32]| v.iter().filter(|&&t| t < GIVE_UP_AFTER).count();
    let (lf, bf, n) = (found(&lesson), found(&belief), lesson.len());
    let spread = |v: &mut Vec<f32>| {
        v.sort_by(f32::total_cmp);
        format!("{:.1}–{:.1} s", v[v.len() / 4], v[3 * v.len() / 4])
    };
    let (ls, bs) = (spread(&mut lesson), spread(&mut belief));
    let (lm, bm) = (median(&mut lesson), median(&mut belief));
    rows.push(Row {
        what: format!(
            "search: 3 guards find a hider who ran and hid, median over {n} levels (belief found {bf}/{n}, lesson {lf}/{n}; quartiles belief {bs}, lesson {ls})"
        ),
        argus: format!("{bm:.1} s"),
        baseline: format!("{lm:.1} s lesson's search"),
        ratio: format!("{:.2}×", bm / lm),
        goal: "≤ 0.60×".into(),
        met: Some(bm <= 0.6 * lm),
    });
    for (kind, l, b, count) in per_kind {
        rows.push(Row {
            what: format!("  {kind:?} ({count} levels)"),
            argus: format!("{b:.1} s"),
            baseline: format!("{l:.1} s"),
            ratio: format!("{:.2}×", b / l),
            goal: String::new(),
            met: None,
        });
    }
}
