use super::*;
use crate::occluders::{OccluderDef, OccluderSet};
use crate::test_rng::Xorshift;

/// A 10 × 10 grid of 1 m cells from the origin.
fn grid_def() -> WalkGridDef {
    WalkGridDef { width: 10, depth: 10, cell_size: 1.0, ..Default::default() }
}

fn cell(x: u32, z: u32) -> u32 {
    x + z * 10
}

/// A wall along Z at x = 5 (from x 4.9 to 5.1), floor to 3 m, over z in `z0..z1`.
fn wall(z0: f32, z1: f32) -> OccluderDef {
    let (c, h) = ((z0 + z1) / 2.0, (z1 - z0) / 2.0);
    OccluderDef::cuboid(Vec3::new(5.0, 1.5, c), Vec3::new(0.1, 1.5, h))
}

/// Walls along Z at x = 5 over z in 1..3, 4..6 and 7..9.
fn walled() -> OccluderSet {
    let mut set = OccluderSet::default();
    for z in [1.0f32, 4.0, 7.0] {
        set.add(&wall(z, z + 2.0)).unwrap();
    }
    set
}

/// `count` boxes 2 m tall, centred in `0..far.0` × `0..far.1`, half sides in `half`.
fn random_boxes(rng: &mut Xorshift, count: usize, far: (f32, f32), half: (f32, f32)) -> OccluderSet {
    let mut set = OccluderSet::default();
    for _ in 0..count {
        let at = Vec3::new(rng.range(0.0, far.0), 1.0, rng.range(0.0, far.1));
        set.add(&OccluderDef::cuboid(at, Vec3::new(rng.range(half.0, half.1), 1.0, rng.range(half.0, half.1))))
            .unwrap();
    }
    set
}

fn edges_of(graph: &WalkGraph, node: u32) -> Vec<(u32, f32)> {
    let mut out = Vec::new();
    graph.for_each_edge(node, |n, l| out.push((n, l)));
    out
}

#[test]
fn open_grid_has_8_neighbours_and_walks_the_octile_distance() {
    let graph = WalkGraph::grid(&grid_def(), &OccluderSet::default()).unwrap();
    assert_eq!(graph.node_count(), 100);
    assert_eq!(edges_of(&graph, cell(5, 5)).len(), 8);
    assert_eq!(edges_of(&graph, cell(0, 0)).len(), 3);
    assert_eq!(graph.position(cell(2, 3)), Vec3::new(2.5, 0.0, 3.5));
    let mut scratch = FloodScratch::default();
    scratch.prepare(graph.node_count()).unwrap();
    let path = walk_path(&graph, &mut scratch, Vec3::new(0.5, 0.0, 0.5), Vec3::new(3.5, 0.0, 1.5), 100.0).unwrap();
    // One diagonal step and two straight: √2 + 2.
    assert!((path.distance - (2f32.sqrt() + 2.0)).abs() < 1e-5, "{}", path.distance);
    assert_eq!(path.nodes.first(), Some(&cell(0, 0)));
    assert_eq!(path.nodes.last(), Some(&cell(3, 1)));
}

#[test]
fn a_thin_wall_blocks_the_cells_it_crosses_and_the_walk_goes_around_it() {
    let mut occluders = OccluderSet::default();
    occluders.add(&wall(0.0, 8.0)).unwrap();
    let graph = WalkGraph::grid(&grid_def(), &occluders).unwrap();
    for z in 0..8 {
        assert!(!graph.is_open(cell(4, z)) && !graph.is_open(cell(5, z)), "cells beside x = 5 at z {z}");
        assert!(graph.is_open(cell(3, z)) && graph.is_open(cell(6, z)));
    }
    assert!(graph.is_open(cell(4, 8)) && graph.is_open(cell(5, 8)));
    let mut scratch = FloodScratch::default();
    scratch.prepare(graph.node_count()).unwrap();
    let (a, b) = (Vec3::new(3.5, 0.0, 0.5), Vec3::new(6.5, 0.0, 0.5));
    let around = walk_path(&graph, &mut scratch, a, b, 100.0).unwrap();
    assert!(around.distance > 15.0, "the walk goes round the wall's end: {}", around.distance);
    assert!(walk_path(&graph, &mut scratch, a, b, 10.0).is_none(), "beyond the limit");
}

#[test]
fn a_wall_face_on_a_grid_line_blocks_only_its_own_side() {
    let mut occluders = OccluderSet::default();
    // From x = 4 to x = 5 exactly: the cells of column 4 only.
    occluders.add(&OccluderDef::cuboid(Vec3::new(4.5, 1.0, 5.0), Vec3::new(0.5, 1.0, 5.0))).unwrap();
    let graph = WalkGraph::grid(&grid_def(), &occluders).unwrap();
    assert!(!graph.is_open(cell(4, 3)));
    assert!(graph.is_open(cell(3, 3)) && graph.is_open(cell(5, 3)));
}

#[test]
fn diagonal_steps_never_cut_a_blocked_corner() {
    let mut occluders = OccluderSet::default();
    // One blocked cell at (5, 5).
    occluders.add(&OccluderDef::cuboid(Vec3::new(5.5, 1.0, 5.5), Vec3::new(0.3, 1.0, 0.3))).unwrap();
    let graph = WalkGraph::grid(&grid_def(), &occluders).unwrap();
    assert!(!graph.is_open(cell(5, 5)));
    let from_corner = edges_of(&graph, cell(4, 4));
    assert!(from_corner.iter().all(|&(n, _)| n != cell(5, 5)));
    // (4, 5) → (5, 4) passes the blocked cell's corner: not an edge.
    assert!(edges_of(&graph, cell(4, 5)).iter().all(|&(n, _)| n != cell(5, 4)));
    assert!(edges_of(&graph, cell(4, 4)).iter().any(|&(n, _)| n == cell(5, 3)));
}

#[test]
fn the_band_decides_what_blocks_walking() {
    let mut occluders = OccluderSet::default();
    // A kerb 10 cm high and a beam from 2.5 m up: neither blocks a person.
    occluders.add(&OccluderDef::cuboid(Vec3::new(2.5, 0.05, 2.5), Vec3::new(0.4, 0.05, 0.4))).unwrap();
    occluders.add(&OccluderDef::cuboid(Vec3::new(6.5, 3.0, 6.5), Vec3::new(0.4, 0.5, 0.4))).unwrap();
    let mut other_layer = OccluderDef::cuboid(Vec3::new(8.5, 1.0, 8.5), Vec3::new(0.4, 1.0, 0.4));
    other_layer.layers = 4;
    occluders.add(&other_layer).unwrap();
    let graph = WalkGraph::grid(&WalkGridDef { layers: 1, ..grid_def() }, &occluders).unwrap();
    assert!(graph.is_open(cell(2, 2)) && graph.is_open(cell(6, 6)) && graph.is_open(cell(8, 8)));
}

#[test]
fn updating_a_region_matches_a_fresh_build() {
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut occluders = OccluderSet::default();
    let mut ids = Vec::new();
    for _ in 0..12 {
        let def = OccluderDef::cuboid(
            Vec3::new(rng.range(0.0, 10.0), 1.0, rng.range(0.0, 10.0)),
            Vec3::new(rng.range(0.1, 1.5), 1.0, rng.range(0.1, 1.5)),
        );
        ids.push(occluders.add(&def).unwrap());
    }
    let mut graph = WalkGraph::grid(&grid_def(), &occluders).unwrap();
    for (k, &id) in ids.iter().enumerate() {
        let before = occluders.get(id).unwrap().bounds();
        let to = Vec3::new(rng.range(0.0, 10.0), 1.0, rng.range(0.0, 10.0));
        occluders.set_pose(id, to, crate::math::Quat::from_rotation_y(rng.range(0.0, 3.0))).unwrap();
        graph.update_region(before.0, before.1, &occluders);
        let after = occluders.get(id).unwrap().bounds();
        graph.update_region(after.0, after.1, &occluders);
        let fresh = WalkGraph::grid(&grid_def(), &occluders).unwrap();
        let open = |g: &WalkGraph| (0..100).map(|n| g.is_open(n)).collect::<Vec<_>>();
        assert_eq!(open(&graph), open(&fresh), "after moving occluder {k}");
    }
}

#[test]
fn nearest_node_snaps_to_an_open_cell_within_the_snap_distance() {
    let mut occluders = OccluderSet::default();
    occluders.add(&wall(0.0, 10.0)).unwrap();
    let graph = WalkGraph::grid(&grid_def(), &occluders).unwrap();
    assert_eq!(graph.snap_distance(), 1.5);
    // Standing against the wall, in a blocked cell: the open cell beside it.
    let (node, d) = graph.nearest_node(Vec3::new(4.8, 0.0, 3.5)).unwrap();
    assert_eq!(node, cell(3, 3));
    assert!((d - 1.3).abs() < 1e-5);
    assert!(graph.nearest_node(Vec3::new(-3.0, 0.0, 3.0)).is_none(), "off the grid");
}

#[test]
fn given_graphs_are_checked_and_walked_both_ways() {
    let nodes = [Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 4.0)];
    let edges = [WalkEdge { a: 0, b: 1, length: 3.0 }, WalkEdge { a: 2, b: 1, length: 4.5 }];
    let graph = WalkGraph::given(&nodes, &edges, 1.0).unwrap();
    assert_eq!(graph.kind(), WalkGraphKind::Given);
    assert_eq!(edges_of(&graph, 1), vec![(0, 3.0), (2, 4.5)]);
    let mut scratch = FloodScratch::default();
    scratch.prepare(3).unwrap();
    let walk = walk_path(&graph, &mut scratch, Vec3::new(0.0, 0.0, 0.5), Vec3::new(3.0, 0.0, 4.0), 50.0).unwrap();
    assert_eq!(walk.nodes, vec![0, 1, 2]);
    assert!((walk.distance - 8.0).abs() < 1e-6);

    let refused = |nodes: &[Vec3], edges: &[WalkEdge], snap: f32| WalkGraph::given(nodes, edges, snap).unwrap_err();
    let text = |e: crate::Error| e.to_string();
    assert!(text(refused(&nodes, &[WalkEdge { a: 0, b: 3, length: 9.0 }], 1.0)).contains("3 nodes"));
    assert!(text(refused(&nodes, &[WalkEdge { a: 0, b: 1, length: -1.0 }], 1.0)).contains("negative"));
    assert!(text(refused(&nodes, &[WalkEdge { a: 0, b: 1, length: f32::NAN }], 1.0)).contains("finite"));
    assert!(text(refused(&nodes, &[WalkEdge { a: 0, b: 1, length: 2.0 }], 1.0)).contains("shorter"));
    assert!(text(refused(&nodes, &[WalkEdge { a: 1, b: 1, length: 0.0 }], 1.0)).contains("itself"));
    assert!(text(refused(&[Vec3::new(f32::NAN, 0.0, 0.0)], &[], 1.0)).contains("walk node 0"));
    assert!(text(refused(&[], &[], 1.0)).contains("1 to"));
    assert!(text(refused(&nodes, &edges, 0.0)).contains("snap"));
}

#[test]
fn grid_definitions_are_checked() {
    let bad = |def: WalkGridDef| WalkGraph::grid(&def, &OccluderSet::default()).unwrap_err().to_string();
    assert!(bad(WalkGridDef { cell_size: 0.0, ..grid_def() }).contains("cell size"));
    assert!(bad(WalkGridDef { cell_size: 0.001, ..grid_def() }).contains("at least"));
    assert!(bad(WalkGridDef { width: 0, ..grid_def() }).contains("at least one cell"));
    assert!(bad(WalkGridDef { width: 1 << 13, depth: 1 << 12, ..grid_def() }).contains("more than"));
    assert!(bad(WalkGridDef { band_min: 2.0, band_max: 1.0, ..grid_def() }).contains("above"));
    assert!(bad(WalkGridDef { origin: Vec3::new(f32::INFINITY, 0.0, 0.0), ..grid_def() }).contains("origin"));
    assert!(bad(WalkGridDef { snap_distance: -1.0, ..grid_def() }).contains("snap"));
}

/// A grid's gathered spread move is the edge-by-edge one (each node sends its mass over its
/// edges, scaled by a cell ÷ the edge's length, and keeps the rest), within rounding, and keeps
/// the total: on grids with walls, where edges are missing at corners and borders.
#[test]
fn a_grids_spread_move_is_the_edge_by_edge_one() {
    let mut rng = Xorshift(0x5eed_5eed);
    let graph = WalkGraph::grid(&grid_def(), &walled()).unwrap();
    let n = graph.node_count();
    let mass: Vec<f32> = (0..n).map(|i| if graph.is_open(i as u32) { rng.range(0.0, 1.0) } else { 0.0 }).collect();
    let mut expected = mass.clone();
    for node in 0..n as u32 {
        let degree = graph.degree(node);
        if degree == 0 {
            continue;
        }
        let share = mass[node as usize] / degree as f32;
        graph.for_each_edge(node, |to, length| {
            let moved = share * (1.0 / length).min(1.0);
            expected[node as usize] -= moved;
            expected[to as usize] += moved;
        });
    }
    let (mut next, mut share) = (vec![0.0; n], Vec::new());
    assert!(graph.grid_spread_move(&mass, &mut next, &mut share));
    for i in 0..n {
        assert!((next[i] - expected[i]).abs() < 1e-5, "node {i}: {} vs {}", next[i], expected[i]);
    }
    let (before, after): (f64, f64) = (mass.iter().map(|&m| m as f64).sum(), next.iter().map(|&m| m as f64).sum());
    assert!((before - after).abs() < 1e-4 * before, "{before} vs {after}");
}

/// A spread move's bits never change from one version to the next: a recording replays a belief
/// by spreading it again, so the same masses must come out to the last bit. The hashes are of the
/// row-by-row gather's results (as released until December 2026), five moves in a row, on grids
/// with walls, random boxes, and shapes with no inner cell.
#[test]
fn a_grids_spread_move_keeps_its_bits() {
    let mut rng = Xorshift(0xb175);
    let walled = walled();
    let boxes = random_boxes(&mut rng, 25, (18.0, 12.0), (0.2, 1.5));
    let empty = OccluderSet::default();
    let cases: [(u32, u32, f32, &OccluderSet); 7] = [
        (10, 10, 1.0, &walled),
        (37, 23, 0.5, &boxes),
        (64, 64, 0.5, &empty),
        (1, 7, 1.0, &empty),
        (7, 1, 1.0, &empty),
        (2, 2, 1.0, &empty),
        (3, 3, 1.0, &empty),
    ];
    let mut hashes = Vec::new();
    for (width, depth, cell_size, set) in cases {
        let graph = WalkGraph::grid(&WalkGridDef { width, depth, cell_size, ..Default::default() }, set).unwrap();
        let n = graph.node_count();
        let mut mass: Vec<f32> =
            (0..n).map(|i| if graph.is_open(i as u32) { rng.range(0.0, 1.0) } else { 0.0 }).collect();
        let (mut next, mut share) = (vec![0.0; n], Vec::new());
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for _ in 0..5 {
            assert!(graph.grid_spread_move(&mass, &mut next, &mut share));
            for m in &next {
                hash = (hash ^ m.to_bits() as u64).wrapping_mul(0x100_0000_01b3);
            }
            std::mem::swap(&mut mass, &mut next);
        }
        hashes.push(hash);
    }
    let released = [
        0x7fde_72c1_9fc2_1eb3,
        0xab6c_6860_ab5c_38b2,
        0x33ba_08a6_e7d3_2e3d,
        0xa284_0d61_58a2_f4e0,
        0x7fe6_b178_d3c3_e5d5,
        0x6ce9_1e5c_cfd6_a0e4,
        0x03a9_8e77_ae5a_fd9b,
    ];
    assert_eq!(hashes, released, "a spread move's results changed bits");
}

/// A cell that sends all it has keeps nothing, never less: a third sent three ways (1/3 rounds up)
/// came out an ulp below zero, and the belief's save then refused to load (found by the snapshot
/// fuzzer). Every cell of a grid with boxes (cells of many edge counts), alone holding a random
/// mass, normal or subnormal.
#[test]
fn a_spread_move_never_makes_a_negative_mass() {
    let mut rng = Xorshift(0x9e9);
    let set = random_boxes(&mut rng, 40, (10.0, 10.0), (0.05, 0.6));
    let graph = WalkGraph::grid(&grid_def(), &set).unwrap();
    let n = graph.node_count();
    let (mut mass, mut next, mut share) = (vec![0.0f32; n], vec![0.0; n], Vec::new());
    let mut negatives = 0;
    for cell in (0..n).filter(|&c| graph.is_open(c as u32)) {
        for k in 0..200 {
            mass[cell] = if k % 2 == 0 { rng.range(0.0, 1.0) } else { f32::from_bits(1 + k as u32) };
            graph.grid_spread_move(&mass, &mut next, &mut share);
            negatives += next.iter().filter(|&&m| m < 0.0).count();
        }
        mass[cell] = 0.0;
    }
    assert_eq!(negatives, 0, "masses below zero after a move");
}
