//! Walk hearing: sound around corners, through doorways and through what transmits it, and never
//! through walls. Checked on hand-made levels, and against an independent shortest-path search
//! (plain Dijkstra over the graph the world reports, written here) on a thousand random levels.

use argus_core::*;

mod common;
use common::Rng;

fn walk_world() -> World {
    World::new(&WorldDef { hearing_path: HearingPath::Walk, ..Default::default() }).unwrap()
}

/// 20 × 20 m of 0.5 m cells from the origin.
fn grid() -> WalkGridDef {
    WalkGridDef { width: 40, depth: 40, cell_size: 0.5, ..Default::default() }
}

/// A wall across X at z = 10 (0.2 m thick, 3 m high) from x = 0 to x = 20, with a doorway
/// `door` metres wide centred at x = `door_at` (no doorway when `door` is 0).
fn wall_with_door(world: &mut World, door_at: f32, door: f32) -> Vec<OccluderId> {
    let mut ids = Vec::new();
    let (left, right) = (door_at - door / 2.0, door_at + door / 2.0);
    for (a, b) in [(0.0, left), (right, 20.0)] {
        if b > a {
            let def = OccluderDef::cuboid(Vec3::new((a + b) / 2.0, 1.5, 10.0), Vec3::new((b - a) / 2.0, 1.5, 0.1));
            ids.push(world.add_occluder(&def).unwrap());
        }
    }
    ids
}

fn guard(world: &mut World, at: Vec3) -> AgentId {
    world.create_agent(&AgentDef { position: at, ..Default::default() }).unwrap()
}

fn step_sound(world: &mut World, at: Vec3, loudness: f32) -> Vec<Percept> {
    world.emit_sound(&SoundDef { position: at, loudness, ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    world.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sound).copied().collect()
}

#[test]
fn a_wall_stops_a_sound_that_the_straight_line_would_carry() {
    let mut world = walk_world();
    wall_with_door(&mut world, 0.0, 0.0);
    world.set_walk_grid(&grid()).unwrap();
    guard(&mut world, Vec3::new(5.0, 0.0, 8.0));
    // 4 m away in a straight line, but the wall runs the whole width: no walk at all.
    assert!(step_sound(&mut world, Vec3::new(5.0, 0.0, 12.0), 15.0).is_empty());

    let mut straight = World::default();
    wall_with_door(&mut straight, 0.0, 0.0);
    guard(&mut straight, Vec3::new(5.0, 0.0, 8.0));
    assert_eq!(step_sound(&mut straight, Vec3::new(5.0, 0.0, 12.0), 15.0).len(), 1, "the lesson's rule hears it");
}

#[test]
fn a_sound_through_a_doorway_is_heard_at_the_walk_distance_from_the_doorway() {
    let mut world = walk_world();
    wall_with_door(&mut world, 14.0, 2.0);
    world.set_walk_grid(&grid()).unwrap();
    let g = guard(&mut world, Vec3::new(5.0, 0.0, 8.0));
    let source = Vec3::new(5.0, 0.0, 12.0);
    let heard = step_sound(&mut world, source, 30.0);
    assert_eq!(heard.len(), 1);
    let p = heard[0];
    assert_eq!(p.agent, g);
    // Around through the doorway at x 13–15: 16.6 m as the crow walks, 20.2 m from cell to
    // cell (the grid keeps half a cell off each wall); never the 4 m line.
    assert!(p.distance > 16.6 && p.distance < 21.0, "walk distance {}", p.distance);
    assert!((p.strength - (1.0 - p.distance / 30.0)).abs() < 1e-6);
    // It seems to come from the doorway, on the guard's side of the wall, not from behind it.
    assert!(p.position.z < 10.5 && p.position.x > 11.0 && p.position.x < 16.0, "apparent position {}", p.position);
    let walk = world.walk_path(source, Vec3::new(5.0, 0.0, 8.0), 100.0).unwrap().unwrap();
    assert!((walk.distance - p.distance).abs() < 1e-4, "the percept's distance is the walk's");
    // Too quiet to come round: nothing.
    assert!(step_sound(&mut world, source, 12.0).is_empty());
}

#[test]
fn an_occluder_that_transmits_sound_passes_it_straight_through_at_its_fraction() {
    let mut world = walk_world();
    world.set_walk_grid(&grid()).unwrap();
    let door = OccluderDef {
        sound_transmission: Some(0.5),
        ..OccluderDef::cuboid(Vec3::new(10.0, 1.5, 10.0), Vec3::new(10.0, 1.5, 0.1))
    };
    world.add_occluder(&door).unwrap();
    guard(&mut world, Vec3::new(5.0, 0.0, 8.0));
    let source = Vec3::new(5.0, 0.0, 12.0);
    // 4 m through a door keeping half: heard within 8 m of reach, at the true position.
    let heard = step_sound(&mut world, source, 10.0);
    assert_eq!(heard.len(), 1);
    assert_eq!(heard[0].position, source);
    assert!((heard[0].distance - 4.0).abs() < 1e-5);
    assert!((heard[0].strength - (1.0 - 4.0 / 5.0)).abs() < 1e-6);
    assert!(step_sound(&mut world, source, 7.9).is_empty(), "reach 7.9 × 0.5 < 4 m");
}

#[test]
fn straight_hearing_muffles_by_each_occluders_own_transmission() {
    let mut world = World::default();
    let mut thin = OccluderDef::cuboid(Vec3::new(0.0, 1.5, 5.0), Vec3::new(5.0, 1.5, 0.1));
    thin.sound_transmission = Some(0.25);
    world.add_occluder(&thin).unwrap();
    guard(&mut world, Vec3::ZERO);
    assert_eq!(step_sound(&mut world, Vec3::new(0.0, 0.0, 8.0), 32.1).len(), 1, "8 ≤ 32.1 × 0.25");
    assert!(step_sound(&mut world, Vec3::new(0.0, 0.0, 8.0), 31.9).is_empty(), "8 > 31.9 × 0.25");
}

#[test]
fn an_agent_overrides_its_worlds_hearing_path() {
    let mut world = World::default(); // straight hearing
    wall_with_door(&mut world, 0.0, 0.0);
    world.set_walk_grid(&grid()).unwrap();
    let walker = world
        .create_agent(&AgentDef {
            position: Vec3::new(5.0, 0.0, 8.0),
            hearing: HearingConfig { path: HearingPath::Walk, ..Default::default() },
            ..Default::default()
        })
        .unwrap();
    let lesson = guard(&mut world, Vec3::new(6.0, 0.0, 8.0));
    let heard = step_sound(&mut world, Vec3::new(5.0, 0.0, 12.0), 15.0);
    assert_eq!(heard.iter().map(|p| p.agent).collect::<Vec<_>>(), vec![lesson]);
    let _ = walker;
}

#[test]
fn without_a_walk_graph_walk_hearing_is_the_straight_line() {
    let mut world = walk_world();
    wall_with_door(&mut world, 0.0, 0.0);
    guard(&mut world, Vec3::new(5.0, 0.0, 8.0));
    assert_eq!(step_sound(&mut world, Vec3::new(5.0, 0.0, 12.0), 15.0).len(), 1);
    world.set_walk_grid(&grid()).unwrap();
    assert!(step_sound(&mut world, Vec3::new(5.0, 0.0, 12.0), 15.0).is_empty());
    world.clear_walk_graph().unwrap();
    assert_eq!(step_sound(&mut world, Vec3::new(5.0, 0.0, 12.0), 15.0).len(), 1);
}

#[test]
fn a_sound_off_the_graph_is_heard_only_straight_through() {
    let mut world = walk_world();
    world.set_walk_grid(&grid()).unwrap();
    guard(&mut world, Vec3::new(1.0, 0.0, 1.0));
    // 3 m outside the grid's edge, open air between: heard by the straight line.
    assert_eq!(step_sound(&mut world, Vec3::new(-3.0, 0.0, 1.0), 10.0).len(), 1);
    // The same behind a wall: no walk from off the graph, so nothing.
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(-1.0, 1.5, 1.0), Vec3::new(0.1, 1.5, 5.0))).unwrap();
    assert!(step_sound(&mut world, Vec3::new(-3.0, 0.0, 1.0), 10.0).is_empty());
}

#[test]
fn a_moved_occluder_changes_the_walks_at_once() {
    let mut world = walk_world();
    wall_with_door(&mut world, 14.0, 2.0);
    // A door leaf standing open, out of the way.
    let door = world.add_occluder(&OccluderDef::cuboid(Vec3::new(14.0, 1.5, 15.0), Vec3::new(1.0, 1.5, 0.05))).unwrap();
    world.set_walk_grid(&grid()).unwrap();
    let (a, b) = (Vec3::new(5.0, 0.0, 8.0), Vec3::new(5.0, 0.0, 12.0));
    let open = world.walk_path(a, b, 100.0).unwrap().unwrap().distance;
    world.set_occluder_pose(door, Vec3::new(14.0, 1.5, 10.0), Quat::IDENTITY).unwrap();
    assert!(world.walk_path(a, b, 100.0).unwrap().is_none(), "the door is shut");
    world.remove_occluder(door).unwrap();
    let again = world.walk_path(a, b, 100.0).unwrap().unwrap().distance;
    assert_eq!(open, again, "removed, the doorway is as it was");
}

#[test]
fn the_walk_graph_survives_a_save_and_a_replay() {
    let mut world = walk_world();
    wall_with_door(&mut world, 14.0, 2.0);
    world.set_walk_grid(&grid()).unwrap();
    guard(&mut world, Vec3::new(5.0, 0.0, 8.0));
    let loaded = World::load(&world.save().unwrap()).unwrap();
    assert_eq!(loaded.def().hearing_path, HearingPath::Walk);
    let (a, b) = (world.walk_graph().unwrap(), loaded.walk_graph().unwrap());
    assert_eq!(a.grid_def(), b.grid_def());
    assert_eq!(a.edges(), b.edges());

    let nodes = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 3.0)];
    let edges = [WalkEdge { a: 0, b: 1, length: 4.0 }, WalkEdge { a: 1, b: 2, length: 3.5 }];
    world.start_recording(&RecordOptions::default()).unwrap();
    world.set_walk_graph(&nodes, &edges, 1.0).unwrap();
    world.emit_sound(&SoundDef { position: Vec3::new(5.0, 0.0, 12.0), loudness: 30.0, ..Default::default() }).unwrap();
    world.step(0.1).unwrap();
    world.clear_walk_graph().unwrap();
    world.set_walk_grid(&grid()).unwrap();
    world.step(0.1).unwrap();
    let recording = world.stop_recording().unwrap();
    let mut replay = Replay::new(&recording).unwrap();
    while replay.next_step().unwrap() {}
    let replayed = replay.world();
    assert_eq!(replayed.save().unwrap(), world.save().unwrap());
}

#[test]
fn bad_walk_graphs_and_transmissions_are_refused_and_change_nothing() {
    let mut world = walk_world();
    world.set_walk_grid(&grid()).unwrap();
    let before = world.save().unwrap();
    let nodes = [Vec3::ZERO, Vec3::X];
    for (n, e) in [
        (&nodes[..], vec![WalkEdge { a: 0, b: 2, length: 1.0 }]),
        (&nodes[..], vec![WalkEdge { a: 0, b: 1, length: -1.0 }]),
        (&nodes[..], vec![WalkEdge { a: 0, b: 1, length: f32::INFINITY }]),
        (&[Vec3::new(f32::NAN, 0.0, 0.0)][..], vec![]),
    ] {
        assert!(matches!(world.set_walk_graph(n, &e, 1.0), Err(Error::InvalidArgument(_))));
    }
    assert!(matches!(world.set_walk_graph(&nodes, &[], f32::NAN), Err(Error::InvalidArgument(_))));
    for cell_size in [0.0, 1e-4, f32::NAN] {
        let def = WalkGridDef { cell_size, ..grid() };
        assert!(matches!(world.set_walk_grid(&def), Err(Error::InvalidArgument(_))), "cell size {cell_size}");
    }
    let huge = WalkGridDef { width: 100_000, depth: 100_000, ..grid() };
    let err = world.set_walk_grid(&huge).unwrap_err().to_string();
    assert!(err.contains("more than"), "{err}");
    for t in [-0.5, 1.5, f32::NAN, f32::INFINITY] {
        let def = OccluderDef { sound_transmission: Some(t), ..Default::default() };
        assert!(matches!(world.add_occluder(&def), Err(Error::InvalidArgument(_))), "transmission {t}");
    }
    assert!(world.walk_path(Vec3::ZERO, Vec3::X, -1.0).is_err());
    assert!(World::new(&WorldDef { hearing_path: HearingPath::World, ..Default::default() }).is_err());
    assert_eq!(world.save().unwrap(), before, "every refused call left the world as it was");
}

// ---- the differential test ---------------------------------------------------------------

/// Plain Dijkstra over the graph's own reported nodes and edges (an adjacency matrix of the
/// shortest edge between two nodes; no heap): shortest metres from `source` to every node.
fn dijkstra(n: usize, edges: &[(u32, u32, f32)], source: usize) -> Vec<f64> {
    let mut adjacency = vec![Vec::new(); n];
    for &(a, b, length) in edges {
        adjacency[a as usize].push((b as usize, length as f64));
        adjacency[b as usize].push((a as usize, length as f64));
    }
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[source] = 0.0;
    loop {
        let next = (0..n).filter(|&i| !done[i] && dist[i].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]));
        let Some(u) = next else { break };
        done[u] = true;
        for &(v, l) in &adjacency[u] {
            if dist[u] + l < dist[v] {
                dist[v] = dist[u] + l;
            }
        }
    }
    dist
}

/// The open node nearest to `p` within the snap distance (ties: the lower node), by brute force.
fn nearest(graph: &WalkGraph, p: Vec3) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64)> = None;
    for n in 0..graph.node_count() {
        if !graph.is_open(n as u32) {
            continue;
        }
        let d = p.distance(graph.position(n as u32)) as f64;
        if d <= graph.snap_distance() as f64 && best.is_none_or(|(_, b)| d < b) {
            best = Some((n, d));
        }
    }
    best
}

/// Does the straight line between two points cross any occluder (cast both ways, so that a
/// point inside an occluder counts as crossing it)?
fn crosses_an_occluder(world: &World, a: Vec3, b: Vec3) -> bool {
    let d = b - a;
    let length = d.length();
    if length <= 1e-6 {
        return false;
    }
    let dir = d / length;
    world.occluders().iter().any(|(_, o)| {
        o.contains(a)
            || o.contains(b)
            || o.ray_distance(a, dir, length).is_some()
            || o.ray_distance(b, -dir, length).is_some()
    })
}

fn random_level(rng: &mut Rng, world: &mut World) {
    let walls = 3 + rng.n(8);
    for _ in 0..walls {
        let (long, thin) = (rng.f(1.0, 6.0), rng.f(0.05, 0.4));
        let half = if rng.n(2) == 0 { Vec3::new(long, 1.5, thin) } else { Vec3::new(thin, 1.5, long) };
        let at = Vec3::new(rng.f(0.0, 16.0), 1.5, rng.f(0.0, 16.0));
        world.add_occluder(&OccluderDef::cuboid(at, half)).unwrap();
    }
    if rng.n(2) == 0 {
        let def = WalkGridDef {
            width: 8 + rng.n(30) as u32,
            depth: 8 + rng.n(30) as u32,
            cell_size: rng.f(0.3, 1.2),
            ..Default::default()
        };
        world.set_walk_grid(&def).unwrap();
    } else {
        let n = 3 + rng.n(60);
        let nodes: Vec<Vec3> = (0..n).map(|_| Vec3::new(rng.f(0.0, 16.0), 0.0, rng.f(0.0, 16.0))).collect();
        let mut edges = Vec::new();
        for _ in 0..rng.n(3 * n) {
            let (a, b) = (rng.n(n) as u32, rng.n(n) as u32);
            if a != b {
                let straight = nodes[a as usize].distance(nodes[b as usize]);
                edges.push(WalkEdge { a, b, length: straight * rng.f(1.0, 1.6) });
            }
        }
        world.set_walk_graph(&nodes, &edges, rng.f(1.0, 4.0)).unwrap();
    }
}

#[test]
fn walk_hearing_agrees_with_plain_dijkstra_on_a_thousand_random_levels() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut heard_by_walk, mut heard_straight, mut unheard) = (0, 0, 0);
    for level in 0..1000 {
        let mut world = walk_world();
        random_level(&mut rng, &mut world);
        let agents: Vec<(AgentId, Vec3, f32)> = (0..4)
            .map(|_| {
                let position = Vec3::new(rng.f(0.0, 16.0), 0.0, rng.f(0.0, 16.0));
                let sensitivity = rng.f(0.5, 1.5);
                let hearing = HearingConfig { sensitivity, ..Default::default() };
                let id = world.create_agent(&AgentDef { position, hearing, ..Default::default() }).unwrap();
                (id, position, sensitivity)
            })
            .collect();
        let sounds: Vec<(Vec3, f32)> =
            (0..3).map(|_| (Vec3::new(rng.f(-2.0, 18.0), 0.0, rng.f(-2.0, 18.0)), rng.f(2.0, 25.0))).collect();
        for &(position, loudness) in &sounds {
            world.emit_sound(&SoundDef { position, loudness, ..Default::default() }).unwrap();
        }
        world.step(0.1).unwrap();
        let percepts: Vec<Percept> =
            world.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sound).copied().collect();

        let graph = world.walk_graph().unwrap();
        let edges = graph.edges();
        for &(agent, listener, sensitivity) in &agents {
            for (si, &(source, loudness)) in sounds.iter().enumerate() {
                let reach = (loudness * sensitivity) as f64;
                let straight = listener.distance(source) as f64;
                let clear = !crosses_an_occluder(&world, source, listener);
                let walk = match (nearest(graph, source), nearest(graph, listener)) {
                    (Some((s, ds)), Some((l, dl))) => ds + dijkstra(graph.node_count(), &edges, s)[l] + dl,
                    _ => f64::INFINITY,
                };
                let got = percepts.iter().find(|p| p.agent == agent && p.sound == si as u32);
                let (expect_straight, expect_walk) = (clear && straight <= reach, walk <= reach);
                let close = |x: f64| (x - reach).abs() <= 1e-4 * reach.max(1.0);
                if close(straight) || close(walk) {
                    continue; // on the edge of reach: float rounding may fall either way
                }
                let case = format!(
                    "level {level}, agent {agent:?}, sound {si}: walk {walk}, straight {straight}, reach {reach}"
                );
                match got {
                    Some(p) if expect_straight => {
                        assert!((p.distance as f64 - straight).abs() <= 1e-4 * straight.max(1.0), "{case}: {p:?}");
                        heard_straight += 1;
                    }
                    Some(p) => {
                        assert!(expect_walk, "{case}: heard {p:?} beyond reach");
                        assert!((p.distance as f64 - walk).abs() <= 1e-4 * walk.max(1.0), "{case}: {p:?}");
                        assert!(p.distance as f64 <= reach * (1.0 + 1e-6), "{case}");
                        heard_by_walk += 1;
                    }
                    None => {
                        assert!(!expect_straight && !expect_walk, "{case}: not heard");
                        unheard += 1;
                    }
                }
            }
        }
    }
    // The random levels reach every outcome often.
    assert!(heard_by_walk > 500 && heard_straight > 500 && unheard > 500, "{heard_by_walk} {heard_straight} {unheard}");
}

/// A recording made by the library that searched walk grids with a heap (format 5, kept in
/// `tests/data`): two walks from sound 1 to agent 0 tie to the bit, and it heard the sound from
/// the doorway of one, (9.5, 0, 2.5). The search in buckets takes the other, (9.5, 0, 1.5), at the
/// same distance. A replay searches as the recording's library did and matches it to the byte.
#[test]
fn a_recording_made_with_the_heap_search_replays_the_doorways_it_heard() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/walk_ties_v5.argusrec");
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 5);
    let mut replay = Replay::new(&bytes).unwrap();
    replay.run_to_end().unwrap();
    let heard = |world: &World| {
        let p = world.events().percepts.iter().find(|p| p.kind == PerceptKind::Sound && p.sound == 1);
        let p = p.copied().expect("agent 0 hears sound 1");
        (p.agent, p.distance, p.position)
    };
    let (agent, distance, then) = heard(replay.world());
    assert_eq!(then, Vec3::new(9.5, 0.0, 2.5));

    // The same level heard live.
    let mut world = walk_world();
    let walls = [
        (Vec3::new(4.509963, 1.5, 4.0726833), Vec3::new(5.056709, 1.5, 0.19390523)),
        (Vec3::new(11.640158, 1.5, 1.3822165), Vec3::new(0.104786865, 1.5, 5.2611732)),
        (Vec3::new(15.665494, 1.5, 12.619029), Vec3::new(5.557291, 1.5, 0.3469145)),
    ];
    for (at, half) in walls {
        world.add_occluder(&OccluderDef::cuboid(at, half)).unwrap();
    }
    world.set_walk_grid(&WalkGridDef { width: 33, depth: 26, cell_size: 1.0, ..Default::default() }).unwrap();
    for (x, z) in [(11.257319, 12.161436), (0.33526802, 7.347089), (1.9327888, 9.93433), (0.24864864, 3.1044722)] {
        guard(&mut world, Vec3::new(x, 0.0, z));
    }
    for (x, z, loudness) in
        [(0.7491689, 6.0050745, 14.718355), (7.7167215, 0.18605995, 15.59321), (-0.16269398, 16.556196, 23.661062)]
    {
        world.emit_sound(&SoundDef { position: Vec3::new(x, 0.0, z), loudness, ..Default::default() }).unwrap();
    }
    world.step(0.1).unwrap();
    let (live_agent, live_distance, now) = heard(&world);
    assert_eq!((live_agent, live_distance.to_bits()), (agent, distance.to_bits()), "the same walk length");
    assert_eq!(now, Vec3::new(9.5, 0.0, 1.5), "the other of the two walks");
}
