//! Influence maps: the lesson's trace, a lesson-literal differential test, and every extra
//! operation (layers, combine, decay, propagation, sampling) checked against its formula.

mod common;
use common::Rng;

use argus_core::influence::{
    CombineOp, Extremum, InfluenceMap, InfluenceMapDef, LayerWeight, Plane, PropagationParams,
};
use argus_core::{Error, OccluderDef, Vec3, World};

fn map(width: u32, height: u32, layers: u32) -> InfluenceMap {
    InfluenceMap::new(&InfluenceMapDef { width, height, layer_count: layers, ..Default::default() }).unwrap()
}

/// The lesson's `InfluenceMap`, ported as plainly as possible (`cells[x][z]`, sqrt per cell).
struct LessonMap {
    cells: Vec<Vec<f32>>,
    width: i32,
    height: i32,
    cell_size: f32,
    origin: Vec3,
}

impl LessonMap {
    fn new(width: i32, height: i32, cell_size: f32, origin: Vec3) -> Self {
        LessonMap { cells: vec![vec![0.0; height as usize]; width as usize], width, height, cell_size, origin }
    }
    fn world_to_cell(&self, p: Vec3) -> (i32, i32) {
        (
            ((p.x - self.origin.x) / self.cell_size).floor() as i32,
            ((p.z - self.origin.z) / self.cell_size).floor() as i32,
        )
    }
    fn add_influence(&mut self, p: Vec3, value: f32, radius: i32) {
        let (cx, cz) = self.world_to_cell(p);
        for dx in -radius..=radius {
            for dz in -radius..=radius {
                let (x, z) = (cx + dx, cz + dz);
                if x < 0 || x >= self.width || z < 0 || z >= self.height {
                    continue;
                }
                let dist = ((dx * dx + dz * dz) as f32).sqrt();
                if dist > radius as f32 {
                    continue;
                }
                // The lesson divides by the radius; radius 0 would be 0/0, the core adds `value`.
                let falloff = if radius == 0 { 1.0 } else { 1.0 - dist / radius as f32 };
                self.cells[x as usize][z as usize] += value * falloff;
            }
        }
    }
    #[allow(clippy::needless_range_loop)] // the lesson's loops, kept as written
    fn blur(&mut self) {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut result = vec![vec![0.0; h]; w];
        for x in 0..w {
            for z in 0..h {
                let mut sum = self.cells[x][z];
                let mut count = 1;
                if x > 0 {
                    sum += self.cells[x - 1][z];
                    count += 1;
                }
                if x < w - 1 {
                    sum += self.cells[x + 1][z];
                    count += 1;
                }
                if z > 0 {
                    sum += self.cells[x][z - 1];
                    count += 1;
                }
                if z < h - 1 {
                    sum += self.cells[x][z + 1];
                    count += 1;
                }
                result[x][z] = sum / count as f32;
            }
        }
        self.cells = result;
    }
    /// Row-major copy, the core's layout.
    fn row_major(&self) -> Vec<f32> {
        (0..self.height as usize).flat_map(|z| (0..self.width as usize).map(move |x| self.cells[x][z])).collect()
    }
}

#[test]
fn lesson_trace_5x5_value_10_radius_2_then_one_blur() {
    let mut m = map(5, 5, 1);
    m.add_influence(0, m.cell_center(2, 2), 10.0, 2).unwrap();
    // Before: 10 · (1 − d/2) within distance 2 of the centre cell, 0 elsewhere.
    let before: Vec<f32> = (0..25)
        .map(|i| {
            let (x, z) = ((i % 5) as f32 - 2.0, (i / 5) as f32 - 2.0);
            let d = (x * x + z * z).sqrt();
            if d <= 2.0 { 10.0 * (1.0 - d / 2.0) } else { 0.0 }
        })
        .collect();
    assert_eq!(m.layer(0).unwrap(), &before[..]);
    assert_eq!((before[12], before[7], before[6], before[2]), (10.0, 5.0, 10.0 * (1.0 - 0.5f32.sqrt()), 0.0));
    // After: each cell is the mean of itself and whichever of its four neighbours exist.
    let after: Vec<f32> = (0..25i32)
        .map(|i| {
            let (x, z) = (i % 5, i / 5);
            let cells = [(x, z), (x - 1, z), (x + 1, z), (x, z - 1), (x, z + 1)];
            let inside: Vec<f32> = cells
                .iter()
                .filter(|(a, b)| (0..5).contains(a) && (0..5).contains(b))
                .map(|(a, b)| before[(b * 5 + a) as usize])
                .collect();
            inside.iter().sum::<f32>() / inside.len() as f32
        })
        .collect();
    m.blur(0).unwrap();
    for (got, want) in m.layer(0).unwrap().iter().zip(&after) {
        assert!((got - want).abs() <= 1e-6, "{got} vs {want}");
    }
    assert_eq!(m.value(0, m.cell_center(2, 2)).unwrap(), 6.0, "the lesson's centre after one blur");
    let grid = m.layer(0).unwrap();
    assert_eq!([grid[0], grid[4], grid[20], grid[24]], [0.0; 4], "corners stay 0");
    for i in [1, 5, 3, 9, 15, 21, 19, 23] {
        assert_eq!(before[i], 0.0);
        assert!(grid[i] > 0.0, "corner neighbour {i} was 0 and picks up influence");
    }
}

#[test]
fn matches_the_lesson_literal_loops_bit_for_bit() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..60 {
        let (w, h) = (1 + rng.below(40) as i32, 1 + rng.below(40) as i32);
        let cell_size = rng.range(0.25, 3.0);
        let origin = Vec3::new(rng.range(-20.0, 20.0), 0.0, rng.range(-20.0, 20.0));
        let def = InfluenceMapDef { width: w as u32, height: h as u32, cell_size, origin, ..Default::default() };
        let mut ours = InfluenceMap::new(&def).unwrap();
        let mut lesson = LessonMap::new(w, h, cell_size, origin);
        for _ in 0..6 {
            // Sources inside, near and beyond the edges; some radii take the uncached path.
            let span = (w.max(h) as f32 + 10.0) * cell_size;
            let p = origin + Vec3::new(rng.range(-10.0 * cell_size, span), 0.0, rng.range(-10.0 * cell_size, span));
            let radius = if rng.below(6) == 0 { 65 + rng.below(20) as i32 } else { rng.below(12) as i32 };
            let value = rng.range(-20.0, 50.0);
            ours.add_influence(0, p, value, radius).unwrap();
            lesson.add_influence(p, value, radius);
            assert_eq!(ours.world_to_cell(p).unwrap(), lesson.world_to_cell(p));
            if rng.below(2) == 0 {
                ours.blur(0).unwrap();
                lesson.blur();
            }
            assert_eq!(ours.layer(0).unwrap(), &lesson.row_major()[..], "case {case}");
        }
    }
}

#[test]
fn world_to_cell_floors_and_value_is_zero_outside() {
    let def = InfluenceMapDef {
        width: 4,
        height: 3,
        cell_size: 2.0,
        origin: Vec3::new(-4.0, 7.0, 10.0),
        ..Default::default()
    };
    let mut m = InfluenceMap::new(&def).unwrap();
    assert_eq!(m.world_to_cell(Vec3::new(-4.0, 0.0, 10.0)).unwrap(), (0, 0));
    assert_eq!(m.world_to_cell(Vec3::new(-4.1, 0.0, 9.9)).unwrap(), (-1, -1), "floor, not truncation");
    assert_eq!(m.world_to_cell(Vec3::new(3.9, 99.0, 15.9)).unwrap(), (3, 2), "height is ignored on XZ");
    assert!(m.world_to_cell(Vec3::new(1e30, 0.0, -1e30)).is_err(), "beyond the coordinate range");
    assert_eq!(m.world_to_cell(Vec3::new(1e6, 0.0, -1e6)).unwrap(), (500_002, -500_005));
    assert_eq!(m.cell_center(1, 2), Vec3::new(-1.0, 7.0, 15.0));
    m.fill(0, 3.0).unwrap();
    assert_eq!(m.value(0, Vec3::new(3.9, 0.0, 15.9)).unwrap(), 3.0);
    assert_eq!(m.value(0, Vec3::new(4.0, 0.0, 15.9)).unwrap(), 0.0);
    assert_eq!(m.value(0, Vec3::new(0.0, 0.0, 9.99)).unwrap(), 0.0);
}

#[test]
fn radius_zero_touches_only_the_centre_and_edges_clip() {
    let mut m = map(6, 4, 1);
    m.add_influence(0, Vec3::new(2.5, 0.0, 1.5), 7.0, 0).unwrap();
    let expected: Vec<f32> = (0..24).map(|i| if i == 6 + 2 { 7.0 } else { 0.0 }).collect();
    assert_eq!(m.layer(0).unwrap(), &expected[..]);
    // A source in the corner cell with radius 3: only in-grid cells change, by the formula.
    m.clear();
    m.add_influence(0, Vec3::new(0.2, 0.0, 0.2), 6.0, 3).unwrap();
    for (i, &v) in m.layer(0).unwrap().iter().enumerate() {
        let d = (((i % 6).pow(2) + (i / 6).pow(2)) as f32).sqrt();
        let want = if d <= 3.0 { 6.0 * (1.0 - d / 3.0) } else { 0.0 };
        assert_eq!(v, want, "cell {i}");
    }
    // A source entirely off the grid changes nothing.
    let snapshot = m.layer(0).unwrap().to_vec();
    m.add_influence(0, Vec3::new(-50.0, 0.0, 2.0), 6.0, 3).unwrap();
    assert_eq!(m.layer(0).unwrap(), &snapshot[..]);
}

#[test]
fn xy_plane_uses_y_for_rows_and_ignores_z() {
    let def = InfluenceMapDef {
        width: 5,
        height: 5,
        plane: Plane::XY,
        origin: Vec3::new(0.0, 0.0, 3.0),
        ..Default::default()
    };
    let mut m = InfluenceMap::new(&def).unwrap();
    m.add_influence(0, Vec3::new(1.5, 3.5, -40.0), 4.0, 0).unwrap();
    assert_eq!(m.layer(0).unwrap()[3 * 5 + 1], 4.0, "row = y, column = x");
    assert_eq!(m.world_to_cell(Vec3::new(1.5, 3.5, 9.0)).unwrap(), (1, 3));
    assert_eq!(m.cell_center(1, 3), Vec3::new(1.5, 3.5, 3.0));
}

#[test]
fn layers_are_independent_and_named() {
    let mut m = map(3, 3, 3);
    m.set_layer_name(0, "danger").unwrap();
    m.set_layer_name(2, "allies").unwrap();
    assert_eq!(m.layer_index("allies"), Some(2));
    assert_eq!(m.layer_index("visibility"), None);
    assert_eq!(m.layer_index(""), None);
    assert!(matches!(m.set_layer_name(1, "danger"), Err(Error::InvalidArgument(_))));
    m.set_layer_name(0, "danger").unwrap(); // renaming a layer to its own name is fine
    m.add_influence(2, Vec3::new(1.5, 0.0, 1.5), 1.0, 0).unwrap();
    assert_eq!(m.layer(0).unwrap().iter().sum::<f32>(), 0.0);
    assert_eq!(m.layer(2).unwrap()[4], 1.0);
    let mask = [0, 0, 7, 0, 1, 0, 0, 0, 0];
    m.set_blocked_cells(&mask).unwrap();
    assert_eq!(m.blocked_cells(), &[0, 0, 1, 0, 1, 0, 0, 0, 0]);
    assert!(m.is_blocked(2, 0) && m.is_blocked(1, 1) && !m.is_blocked(0, 0));
    assert!(matches!(m.set_blocked_cells(&mask[..8]), Err(Error::InvalidArgument(_))));
    m.set_cell(1, 2, 0, 9.0).unwrap(); // row 0, column 2: index 2 of the row-major layer
    assert_eq!(m.layer(1).unwrap()[2], 9.0);
    assert_eq!(m.cell(1, 2, 0).unwrap(), Some(9.0));
    assert_eq!(m.cell(1, 3, 0).unwrap(), None);
}

#[test]
fn combine_ops_follow_their_formulas_and_may_overwrite_an_input() {
    let mut m = map(2, 2, 3);
    m.set_layer(0, &[1.0, -2.0, 3.0, 0.0]).unwrap();
    m.set_layer(1, &[4.0, 1.0, -1.0, 2.0]).unwrap();
    let a = LayerWeight { layer: 0, weight: 2.0 };
    let b = LayerWeight { layer: 1, weight: -1.0 };
    type Fold = fn(f32, f32) -> f32;
    let cases: [(CombineOp, Fold); 4] = [
        (CombineOp::WeightedSum, |x, y| x + y),
        (CombineOp::Max, f32::max),
        (CombineOp::Min, f32::min),
        (CombineOp::Multiply, |x, y| x * y),
    ];
    for (op, fold) in cases {
        m.combine(2, op, &[a, b]).unwrap();
        let want: Vec<f32> = (0..4).map(|i| fold(2.0 * m.layer(0).unwrap()[i], -m.layer(1).unwrap()[i])).collect();
        assert_eq!(m.layer(2).unwrap(), &want[..], "{op:?}");
    }
    m.combine(2, CombineOp::Normalize, &[a, b]).unwrap();
    assert_eq!(m.layer(2).unwrap(), &[-2.0 / 7.0, -5.0 / 7.0, 7.0 / 7.0, -2.0 / 7.0]);
    // The destination may be an input: every input is read first.
    m.combine(0, CombineOp::WeightedSum, &[a, LayerWeight { layer: 0, weight: 1.0 }]).unwrap();
    assert_eq!(m.layer(0).unwrap(), &[3.0, -6.0, 9.0, 0.0]);
    m.normalize(0).unwrap();
    assert_eq!(m.layer(0).unwrap(), &[3.0 / 9.0, -6.0 / 9.0, 1.0, 0.0]);
    m.clear_layer(1).unwrap();
    m.normalize(1).unwrap(); // all zero: left alone, no NaN
    assert_eq!(m.layer(1).unwrap(), &[0.0; 4]);
}

#[test]
fn decay_keeps_a_fraction_per_second_independent_of_frame_split() {
    let mut once = map(3, 1, 1);
    once.fill(0, 8.0).unwrap();
    let mut split = once.clone();
    once.decay(0, 0.5, 2.0).unwrap();
    assert_eq!(once.layer(0).unwrap(), &[2.0; 3], "halving per second for 2 s leaves a quarter");
    for _ in 0..8 {
        split.decay(0, 0.5, 0.25).unwrap();
    }
    for v in split.layer(0).unwrap() {
        assert!((v - 2.0).abs() < 1e-5, "{v}");
    }
    once.decay(0, 0.0, 0.0).unwrap();
    assert_eq!(once.layer(0).unwrap(), &[2.0; 3], "no time, no decay");
    once.decay(0, 0.0, 0.1).unwrap();
    assert_eq!(once.layer(0).unwrap(), &[0.0; 3]);
    // Fading influence ends at exactly 0 rather than lingering as subnormal floats.
    once.fill(0, 1.0).unwrap();
    once.decay(0, 0.5, 90.0).unwrap();
    assert_eq!(once.layer(0).unwrap()[0], 0.5f32.powf(90.0));
    once.decay(0, 0.5, 20.0).unwrap(); // 2^-110 < 1e-30
    assert_eq!(once.layer(0).unwrap(), &[0.0; 3]);
}

#[test]
fn propagation_spreads_with_exp_decay_per_metre_and_momentum() {
    let def = InfluenceMapDef { width: 6, height: 1, cell_size: 2.0, ..Default::default() };
    let mut m = InfluenceMap::new(&def).unwrap();
    let full = PropagationParams { decay: 0.3, momentum: 1.0 };
    // A source held at 1 in cell 0: after enough steps cell k holds e^(−decay · 2 m · k).
    for _ in 0..8 {
        m.set_cell(0, 0, 0, 1.0).unwrap();
        m.propagate(0, &full).unwrap();
    }
    for k in 1..6 {
        let want = (-0.3f32 * 2.0 * k as f32).exp();
        let got = m.layer(0).unwrap()[k];
        assert!((got - want).abs() < 1e-5, "cell {k}: {got} vs {want}");
    }
    // Momentum blends: lerp(old, spread, momentum).
    let mut m = InfluenceMap::new(&def).unwrap();
    m.set_layer(0, &[1.0, 0.4, 0.0, 0.0, 0.0, 0.0]).unwrap();
    m.propagate(0, &PropagationParams { decay: 0.3, momentum: 0.25 }).unwrap();
    let spread1 = 1.0 * (-0.6f32).exp();
    assert!((m.layer(0).unwrap()[1] - (0.4 * 0.75 + spread1 * 0.25)).abs() < 1e-6);
    let unchanged = m.layer(0).unwrap().to_vec();
    m.propagate(0, &PropagationParams { decay: 0.3, momentum: 0.0 }).unwrap();
    assert_eq!(m.layer(0).unwrap(), &unchanged[..], "momentum 0 keeps the layer");
}

#[test]
fn propagation_is_stopped_by_walls_and_does_not_leak_at_corners() {
    let params = PropagationParams { decay: 0.1, momentum: 1.0 };
    let mut m = map(7, 7, 1);
    for row in 0..7 {
        m.set_blocked(3, row, true).unwrap();
    }
    let run = |m: &mut InfluenceMap| {
        for _ in 0..30 {
            m.set_cell(0, 1, 3, 1.0).unwrap();
            m.propagate(0, &params).unwrap();
        }
    };
    run(&mut m);
    let grid = m.layer(0).unwrap();
    for row in 0..7 {
        assert!(grid[row * 7] > 0.0 && grid[row * 7 + 2] > 0.0, "left side reached");
        assert_eq!(&grid[row * 7 + 3..row * 7 + 7], &[0.0; 4], "wall and right side stay 0");
    }
    m.set_blocked(3, 6, false).unwrap(); // a gap at the top
    run(&mut m);
    assert!(m.layer(0).unwrap()[3 * 7 + 6] > 0.0, "influence flows round through the gap");
    // A diagonal step counts only when both cells beside it are open (no corner leaks).
    let diagonal_after_one_step = |blocked: &[(i32, i32)]| {
        let mut m = map(3, 3, 1);
        for &(c, r) in blocked {
            m.set_blocked(c, r, true).unwrap();
        }
        m.set_cell(0, 0, 0, 1.0).unwrap();
        m.propagate(0, &params).unwrap();
        m.cell(0, 1, 1).unwrap().unwrap()
    };
    assert_eq!(diagonal_after_one_step(&[(1, 0), (0, 1)]), 0.0);
    assert_eq!(diagonal_after_one_step(&[(1, 0)]), 0.0);
    assert_eq!(diagonal_after_one_step(&[]), (-0.1f32 * std::f32::consts::SQRT_2).exp());
}

#[test]
fn bilinear_sampling_is_exact_at_centres_and_linear_between() {
    let mut m = map(3, 2, 1);
    m.set_layer(0, &[0.0, 4.0, 8.0, 2.0, 6.0, 10.0]).unwrap();
    for (i, &v) in m.layer(0).unwrap().to_vec().iter().enumerate() {
        let centre = m.cell_center((i % 3) as i32, (i / 3) as i32);
        assert_eq!(m.sample(0, centre).unwrap(), v);
    }
    assert_eq!(m.sample(0, Vec3::new(1.0, 0.0, 0.5)).unwrap(), 2.0, "halfway along a row");
    assert_eq!(m.sample(0, Vec3::new(1.0, 0.0, 1.0)).unwrap(), 3.0, "middle of four centres");
    assert_eq!(m.sample(0, Vec3::new(2.9, 0.0, 0.1)).unwrap(), 8.0, "edge half-cell holds the edge value");
    assert_eq!(m.sample(0, Vec3::new(-0.1, 0.0, 0.5)).unwrap(), 0.0, "outside the grid");
}

#[test]
fn best_cell_within_radius_min_max_ties_and_blocked() {
    let mut m = map(5, 5, 1);
    let pattern: Vec<f32> = (0..25).map(|i| ((i * 7) % 5) as f32).collect(); // a repeating pattern with ties
    m.set_layer(0, &pattern).unwrap();
    let at = m.cell_center(2, 2);
    let in_range = |c: i32, r: i32| ((c - 2).pow(2) + (r - 2).pow(2)) as f32 <= 1.5f32.powi(2);
    for extremum in [Extremum::Min, Extremum::Max] {
        let best = m.best_cell(0, at, 1.5, extremum).unwrap().unwrap();
        // Oracle: scan every cell, strict comparison keeps the lowest index on ties.
        let mut want: Option<(i32, i32, f32)> = None;
        for r in 0..5 {
            for c in 0..5 {
                let v = m.cell(0, c, r).unwrap().unwrap();
                let better = want.is_none_or(|(_, _, b)| if extremum == Extremum::Min { v < b } else { v > b });
                if in_range(c, r) && better {
                    want = Some((c, r, v));
                }
            }
        }
        let (c, r, v) = want.unwrap();
        assert_eq!((best.column, best.row, best.value, best.position), (c, r, v, m.cell_center(c, r)));
        m.set_blocked(c, r, true).unwrap();
        let next = m.best_cell(0, at, 1.5, extremum).unwrap().unwrap();
        assert_ne!((next.column, next.row), (c, r), "blocked cells are skipped");
        m.clear_blocked();
    }
    assert_eq!(m.best_cell(0, Vec3::new(100.0, 0.0, 0.0), 3.0, Extremum::Max).unwrap(), None);
    assert_eq!(m.best_cell(0, at, 0.0, Extremum::Max).unwrap().map(|c| (c.column, c.row)), Some((2, 2)));
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let bad_defs = [
        InfluenceMapDef { width: 0, ..Default::default() },
        InfluenceMapDef { height: 0, ..Default::default() },
        InfluenceMapDef { width: 4097, height: 4097, ..Default::default() },
        InfluenceMapDef { width: 4096, height: 4096, layer_count: 5, ..Default::default() },
        InfluenceMapDef { layer_count: 0, ..Default::default() },
        InfluenceMapDef { layer_count: 33, ..Default::default() },
        InfluenceMapDef { cell_size: 0.0, ..Default::default() },
        InfluenceMapDef { cell_size: -1.0, ..Default::default() },
        InfluenceMapDef { cell_size: f32::NAN, ..Default::default() },
        InfluenceMapDef { origin: Vec3::new(0.0, f32::INFINITY, 0.0), ..Default::default() },
    ];
    for def in bad_defs {
        assert!(matches!(InfluenceMap::new(&def), Err(Error::InvalidArgument(_))), "{def:?}");
    }
    let mut m = map(4, 4, 2);
    m.add_influence(0, Vec3::new(1.5, 0.0, 1.5), 3.0, 2).unwrap();
    let (before, nan) = (m.layer(0).unwrap().to_vec(), Vec3::new(f32::NAN, 0.0, 0.0));
    let p = Vec3::new(1.0, 0.0, 1.0);
    let w = |layer, weight| LayerWeight { layer, weight };
    let results = [
        m.add_influence(2, p, 1.0, 1),
        m.add_influence(0, nan, 1.0, 1),
        m.add_influence(0, p, f32::INFINITY, 1),
        m.add_influence(0, p, 1.0, -1),
        m.blur(2),
        m.propagate(0, &PropagationParams { decay: -1.0, momentum: 0.5 }),
        m.propagate(0, &PropagationParams { decay: 0.5, momentum: 1.5 }),
        m.combine(0, CombineOp::Max, &[]),
        m.combine(0, CombineOp::Max, &[w(0, 1.0), w(5, 1.0)]),
        m.combine(0, CombineOp::Max, &[w(1, f32::NAN)]),
        m.decay(0, 1.5, 1.0),
        m.decay(0, 0.5, -1.0),
        m.scale(0, f32::INFINITY),
        m.fill(0, f32::NAN),
        m.set_blocked(4, 0, true),
        m.set_layer_name(0, &"x".repeat(65)),
        m.sample(0, nan).map(drop),
        m.value(3, p).map(drop),
        m.best_cell(0, p, -1.0, Extremum::Max).map(drop),
        m.world_to_cell(nan).map(drop),
    ];
    for (i, r) in results.iter().enumerate() {
        assert!(matches!(r, Err(Error::InvalidArgument(msg)) if !msg.is_empty()), "case {i}: {r:?}");
    }
    assert_eq!(m.layer(0).unwrap(), &before[..]);
    assert_eq!(m.layer(1).unwrap(), &[0.0; 16]);
    assert!(m.blocked_cells().iter().all(|&b| b == 0));
}

#[test]
fn world_owns_maps_by_generational_id() {
    let mut world = World::default();
    let id = world.create_influence_map(&InfluenceMapDef { width: 8, height: 8, ..Default::default() }).unwrap();
    world.influence_map_mut(id).unwrap().fill(0, 2.0).unwrap();
    assert_eq!(world.influence_map(id).unwrap().layer(0).unwrap()[63], 2.0);
    world.destroy_influence_map(id).unwrap();
    assert_eq!(world.influence_map(id).unwrap_err(), Error::InvalidId("influence map"));
    assert!(world.destroy_influence_map(id).is_err());
    let again = world.create_influence_map(&InfluenceMapDef::default()).unwrap();
    assert_eq!(again.index, id.index);
    assert_ne!(again.generation, id.generation, "a stale id never names the new map");
    assert!(world.create_influence_map(&InfluenceMapDef { width: 0, ..Default::default() }).is_err());
    world.begin_step(0.1).unwrap();
    assert_eq!(world.create_influence_map(&InfluenceMapDef::default()).unwrap_err(), Error::StepInProgress);
    assert_eq!(world.influence_map_mut(again).unwrap_err(), Error::StepInProgress);
    assert!(world.influence_map(again).is_ok(), "reading is fine mid-step");
    world.cancel_step();
}

#[test]
fn world_blocks_cells_whose_centre_is_inside_an_occluder() {
    let mut rng = Rng(42);
    let mut world = World::default();
    for i in 0..25 {
        let centre = Vec3::new(rng.range(-5.0, 35.0), rng.range(-1.0, 2.0), rng.range(-5.0, 25.0));
        let mut def = match i % 3 {
            0 => OccluderDef::cuboid(centre, Vec3::new(rng.range(0.2, 4.0), rng.range(0.2, 2.0), rng.range(0.2, 4.0))),
            1 => OccluderDef::sphere(centre, rng.range(0.3, 3.0)),
            _ => OccluderDef {
                shape: argus_core::OccluderShape::Capsule {
                    half_height: rng.range(0.0, 2.0),
                    radius: rng.range(0.3, 2.0),
                },
                position: centre,
                ..Default::default()
            },
        };
        def.rotation = argus_core::Quat::from_rotation_y(rng.range(0.0, 6.0))
            * argus_core::Quat::from_rotation_x(rng.range(-0.5, 0.5));
        def.layers = 1 << (i % 2);
        world.add_occluder(&def).unwrap();
    }
    let def = InfluenceMapDef {
        width: 31,
        height: 22,
        cell_size: 1.1,
        origin: Vec3::new(-3.0, 1.0, -2.0),
        ..Default::default()
    };
    let id = world.create_influence_map(&def).unwrap();
    for layers in [1, 2, 3, 0] {
        let count = world.update_influence_blocking(id, layers).unwrap();
        let m = world.influence_map(id).unwrap();
        let mut expected = 0;
        for row in 0..22 {
            for col in 0..31 {
                let inside = world.occluders().contains_point(m.cell_center(col, row), layers);
                assert_eq!(m.is_blocked(col, row), inside, "cell ({col}, {row}) layers {layers}");
                expected += inside as usize;
            }
        }
        assert_eq!(count, expected);
        assert!(layers == 0 || count > 0, "the scene blocks something");
    }
}

#[test]
fn world_propagation_does_not_cross_a_wall() {
    let mut world = World::default();
    // A wall across the whole map at x ∈ [4.6, 5.4] (cells with centre x = 5 are inside).
    world.add_occluder(&OccluderDef::cuboid(Vec3::new(5.0, 1.0, 5.0), Vec3::new(0.4, 2.0, 20.0))).unwrap();
    let def = InfluenceMapDef { width: 10, height: 10, origin: Vec3::new(0.5, 1.0, 0.0), ..Default::default() };
    let id = world.create_influence_map(&def).unwrap();
    let params = PropagationParams { decay: 0.2, momentum: 0.8 };
    for _ in 0..40 {
        world.influence_map_mut(id).unwrap().add_influence(0, Vec3::new(1.0, 0.0, 5.0), 5.0, 1).unwrap();
        world.propagate_influence(id, 0, &params, u32::MAX).unwrap();
    }
    let m = world.influence_map(id).unwrap();
    for row in 0..10 {
        assert!(m.is_blocked(4, row) && !m.is_blocked(3, row) && !m.is_blocked(5, row));
        assert!(m.cell(0, 3, row).unwrap().unwrap() > 0.0);
        assert!((4..10).all(|c| m.cell(0, c, row).unwrap() == Some(0.0)), "row {row}");
    }
    assert!(world.propagate_influence(id, 1, &params, u32::MAX).is_err(), "bad layer refused");
    // With the wall on another layer, influence gets through.
    for _ in 0..40 {
        world.influence_map_mut(id).unwrap().add_influence(0, Vec3::new(1.0, 0.0, 5.0), 5.0, 1).unwrap();
        world.propagate_influence(id, 0, &params, 2).unwrap();
    }
    assert!(world.influence_map(id).unwrap().cell(0, 8, 5).unwrap().unwrap() > 0.0);
}

/// Plain per-cell propagation, written from the documented rule, as an oracle.
fn propagate_reference(values: &[f32], blocked: &[u8], w: usize, h: usize, p: &PropagationParams, cs: f32) -> Vec<f32> {
    let open = |x: i64, z: i64| {
        x >= 0 && z >= 0 && (x as usize) < w && (z as usize) < h && blocked[z as usize * w + x as usize] == 0
    };
    let at = |x: i64, z: i64| if open(x, z) { values[z as usize * w + x as usize] } else { 0.0 };
    let mut out = vec![0.0; w * h];
    for z in 0..h as i64 {
        for x in 0..w as i64 {
            if !open(x, z) {
                continue;
            }
            let mut spread = 0.0f32;
            for (dx, dz) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                spread = spread.max(at(x + dx, z + dz) * (-p.decay * cs).exp());
            }
            for (dx, dz) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                if open(x + dx, z) && open(x, z + dz) {
                    spread = spread.max(at(x + dx, z + dz) * (-p.decay * cs * std::f32::consts::SQRT_2).exp());
                }
            }
            let old = values[z as usize * w + x as usize];
            let v = old * (1.0 - p.momentum) + spread * p.momentum;
            out[z as usize * w + x as usize] = if v.abs() < 1e-30 { 0.0 } else { v };
        }
    }
    out
}

#[test]
fn propagation_matches_a_plain_per_cell_reference() {
    let mut rng = Rng(99);
    for case in 0..40 {
        let (w, h) = (1 + rng.below(20), 1 + rng.below(20));
        let cs = rng.range(0.5, 2.0);
        let mut m =
            InfluenceMap::new(&InfluenceMapDef { width: w, height: h, cell_size: cs, ..Default::default() }).unwrap();
        let values: Vec<f32> = (0..w * h).map(|_| if rng.below(3) == 0 { rng.range(-1.0, 5.0) } else { 0.0 }).collect();
        m.set_layer(0, &values).unwrap();
        for row in 0..h as i32 {
            for col in 0..w as i32 {
                m.set_blocked(col, row, rng.below(4) == 0).unwrap();
            }
        }
        let params = PropagationParams { decay: rng.range(0.0, 1.0), momentum: rng.range(0.0, 1.0) };
        for _ in 0..3 {
            // Blocked cells are zeroed before spreading, so the oracle sees them as 0 too.
            let mut before = m.layer(0).unwrap().to_vec();
            for (v, &b) in before.iter_mut().zip(m.blocked_cells()) {
                if b != 0 {
                    *v = 0.0;
                }
            }
            let want = propagate_reference(&before, m.blocked_cells(), w as usize, h as usize, &params, cs);
            m.propagate(0, &params).unwrap();
            assert_eq!(m.layer(0).unwrap(), &want[..], "case {case}");
        }
    }
}

#[test]
fn bulk_stamping_matches_one_by_one_and_refuses_bad_sources_without_adding() {
    use argus_core::influence::{InfluenceMap, InfluenceMapDef};
    let def = InfluenceMapDef { width: 64, height: 48, cell_size: 0.5, ..Default::default() };
    let (mut bulk, mut single) = (InfluenceMap::new(&def).unwrap(), InfluenceMap::new(&def).unwrap());
    let mut seed = 7u64;
    let mut rand = move |hi: f32| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u64 << 24) as f32 * hi
    };
    let sources: Vec<(Vec3, f32)> =
        (0..300).map(|_| (Vec3::new(rand(34.0) - 1.0, 0.0, rand(26.0) - 1.0), rand(5.0))).collect();
    bulk.add_influences(0, &sources, 4).unwrap();
    for &(p, v) in &sources {
        single.add_influence(0, p, v, 4).unwrap();
    }
    for (a, b) in bulk.layer(0).unwrap().iter().zip(single.layer(0).unwrap()) {
        assert!((a - b).abs() <= 1e-4 * b.abs().max(1.0), "{a} vs {b}: only the order of overlapping sums differs");
    }
    let before = bulk.layer(0).unwrap().to_vec();
    let bad = [(Vec3::new(1.0, 0.0, 1.0), 1.0), (Vec3::new(f32::NAN, 0.0, 0.0), 1.0)];
    assert!(bulk.add_influences(0, &bad, 2).is_err());
    assert!(bulk.add_influences(0, &sources, -1).is_err());
    assert_eq!(bulk.layer(0).unwrap(), &before[..], "nothing added by a refused call");
}

/// Stamps saturate at ±1e9 (the documented range, `MAX_MAGNITUDE`) on every path: one source,
/// many sources, cached and uncached radii; what a cell then holds can be written back.
#[test]
fn stamps_saturate_at_the_magnitude_limit() {
    use argus_core::math::MAX_MAGNITUDE;
    let centre = Vec3::new(4.5, 0.0, 4.5);
    for radius in [0, 3, 70] {
        let mut m = map(160, 160, 2);
        for _ in 0..3 {
            m.add_influence(0, centre, MAX_MAGNITUDE, radius).unwrap();
        }
        m.add_influences(1, &[(centre, -MAX_MAGNITUDE); 3], radius).unwrap();
        for layer in 0..2 {
            let sign = if layer == 0 { 1.0 } else { -1.0 };
            assert_eq!(m.cell(layer, 4, 4).unwrap(), Some(sign * MAX_MAGNITUDE), "radius {radius}, layer {layer}");
            assert!(m.layer(layer).unwrap().iter().all(|v| v.abs() <= MAX_MAGNITUDE));
            let v = m.cell(layer, 4, 4).unwrap().unwrap();
            m.set_cell(layer, 4, 4, v).unwrap();
        }
        // Off the limit, stamps add as before.
        m.add_influence(0, centre, -MAX_MAGNITUDE, radius).unwrap();
        assert_eq!(m.cell(0, 4, 4).unwrap(), Some(0.0));
    }
}
