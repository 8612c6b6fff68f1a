//! A uniform grid over target positions, rebuilt each step by counting sort, so an agent only
//! visits targets near its view sphere instead of every target (the lesson's OverlapSphere).
//! The grid spans the two axes along which the targets spread most (the ground plane of a 3D
//! level, the screen plane of a 2D one); the third axis is left to the exact range test. Cells
//! are stored row by row, so a query scans one contiguous run of entries per row.

use crate::math::{Vec3, floor_i64};
use crate::team::TeamSet;
use std::ops::Range;

/// What the sweep needs to filter a target without touching the target itself (which would
/// cost a cache miss per nearby target): its slot, position, team and layers; and, for a target
/// with one check point (the default), what classifying it needs, so the sweep never reads
/// such a target at all.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct GridTarget {
    pub position: Vec3,
    /// Its first check point in world space (the sweep reads it only when `point_count` is 1).
    pub point: Vec3,
    pub target: u32,
    pub generation: u32,
    pub layers: u32,
    pub team: u8,
    pub point_count: u8,
}

/// The box around the targets a grid is built over, and the plane that grid spans.
#[derive(Copy, Clone, Debug)]
pub(crate) struct GridBounds {
    lo: Vec3,
    hi: Vec3,
}

impl GridBounds {
    pub fn of(targets: &[GridTarget]) -> GridBounds {
        let (lo, hi) = targets.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), t| {
            (lo.min(t.position), hi.max(t.position))
        });
        GridBounds { lo, hi }
    }

    /// The two axes along which the targets spread most.
    pub fn plane_axes(&self) -> [usize; 2] {
        let extent = (self.hi - self.lo).max(Vec3::ZERO).to_array();
        let flat = (0..3).min_by(|&a, &b| extent[a].total_cmp(&extent[b]).then(b.cmp(&a))).unwrap_or(1);
        match flat {
            0 => [1, 2],
            1 => [0, 2],
            _ => [0, 1],
        }
    }
}

/// The grid. Rebuilding reuses its buffers, so steady-state steps do not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct TargetGrid {
    inv_cell: f32,
    /// The two axes the grid spans.
    axes: [usize; 2],
    origin: [f32; 2],
    width: usize,
    height: usize,
    /// `starts[c]..starts[c + 1]` are the entries of cell `c` (row-major).
    starts: Vec<u32>,
    entries: Vec<GridTarget>,
    /// What the sweep's scan tests of each entry, by column.
    columns: GridColumns,
    cells: Vec<u32>,
    /// What the grid was last built from (see `rebuild_within`).
    built: BuiltFrom,
    /// Builds so far (tests check which rebuilds were skipped).
    #[cfg(test)]
    builds: u32,
}

/// A grid's last input, kept so that a rebuild from the very same input (targets that did not
/// move: a static scene's, or between moves of a few) can be skipped. The rebuild was the largest
/// part of the step run by one thread alone: 13 µs of a 10,000-agent town step's 17 µs serial
/// prepare, while the other core waits (see `World::last_step_phases`). Compared bit for bit, so
/// the grid kept is exactly the one a rebuild would make.
#[derive(Clone, Debug, Default)]
struct BuiltFrom {
    /// The cell size and the bounds' corners, as bits; `None` before the first build.
    key: Option<[u32; 7]>,
    targets: Vec<GridTarget>,
}

impl BuiltFrom {
    fn key(cell_size: f32, bounds: &GridBounds) -> [u32; 7] {
        let (lo, hi) = (bounds.lo.to_array().map(f32::to_bits), bounds.hi.to_array().map(f32::to_bits));
        [cell_size.to_bits(), lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]]
    }

    fn is(&self, key: [u32; 7], targets: &[GridTarget]) -> bool {
        self.key == Some(key)
            && self.targets.len() == targets.len()
            && self.targets.iter().zip(targets).all(|(a, b)| a.bits() == b.bits())
    }
}

impl GridTarget {
    /// Every field, floats as their bits: equal for two targets exactly when their grids are.
    #[inline]
    fn bits(&self) -> ([u32; 6], [u32; 3], [u8; 2]) {
        let (p, q) = (self.position.to_array(), self.point.to_array());
        let floats = [p[0], p[1], p[2], q[0], q[1], q[2]].map(f32::to_bits);
        (floats, [self.target, self.generation, self.layers], [self.team, self.point_count])
    }
}

/// How many entries the sweep's scan tests side by side.
pub(crate) const LANES: usize = 4;

/// The entries' positions, layers and teams column by column (entry `i` at index `i` of each),
/// so the sweep's scan loads `LANES` entries' worth of each with one read. Each column has
/// `LANES - 1` padding entries past the last, so a group of lanes starting at any entry stays
/// in bounds (the scan masks the lanes past its run).
#[derive(Clone, Debug, Default)]
pub(crate) struct GridColumns {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub z: Vec<f32>,
    pub layers: Vec<u32>,
    /// The halves of each entry's `TeamSet`.
    pub team_lo: Vec<u32>,
    pub team_hi: Vec<u32>,
}

impl GridColumns {
    /// Sized for `len` entries plus the padding, which is zeroed; `rebuild_within` writes the
    /// entries as it places them.
    fn resize(&mut self, len: usize) {
        for column in [&mut self.x, &mut self.y, &mut self.z] {
            column.resize(len + LANES - 1, 0.0);
            column[len..].fill(0.0);
        }
        for column in [&mut self.layers, &mut self.team_lo, &mut self.team_hi] {
            column.resize(len + LANES - 1, 0);
            column[len..].fill(0);
        }
    }
}

impl TargetGrid {
    /// Column and row of a point, unclamped.
    #[inline]
    fn coords(&self, p: Vec3) -> (i64, i64) {
        let p = p.to_array();
        let c = |axis: usize, i: usize| floor_i64((p[axis] - self.origin[i]) * self.inv_cell);
        (c(self.axes[0], 0), c(self.axes[1], 1))
    }

    /// Rebuilds from the targets with cells of at least `cell_size` metres (larger when the
    /// targets are so spread out that the grid would have many more cells than targets).
    pub fn rebuild(&mut self, cell_size: f32, targets: &[GridTarget]) {
        self.rebuild_within(cell_size, targets, &GridBounds::of(targets));
    }

    /// [`TargetGrid::rebuild`] with the targets' bounds already found.
    /// Skipped when built last from the very same input (see `BuiltFrom`).
    pub fn rebuild_within(&mut self, cell_size: f32, targets: &[GridTarget], bounds: &GridBounds) {
        let key = BuiltFrom::key(cell_size, bounds);
        if self.built.is(key, targets) {
            return;
        }
        self.build(cell_size, targets, bounds);
        self.built.key = Some(key);
        self.built.targets.clear();
        self.built.targets.extend_from_slice(targets);
    }

    fn build(&mut self, cell_size: f32, targets: &[GridTarget], bounds: &GridBounds) {
        #[cfg(test)]
        {
            self.builds += 1;
        }
        self.axes = bounds.plane_axes();
        let (lo, hi) = (bounds.lo, bounds.hi);
        let extent = (hi - lo).max(Vec3::ZERO).to_array();
        let (lo, span) = if targets.is_empty() {
            ([0.0; 2], [0.0; 2])
        } else {
            let l = lo.to_array();
            ([l[self.axes[0]], l[self.axes[1]]], [extent[self.axes[0]], extent[self.axes[1]]])
        };
        self.origin = lo;
        let max_cells = (4 * targets.len()).max(64) as f64;
        let mut cell = cell_size.max(0.01) as f64;
        // Absurd coordinates (1e30) just give a coarse grid; f64 keeps the sizes exact enough.
        while ((span[0] as f64 / cell).floor() + 1.0) * ((span[1] as f64 / cell).floor() + 1.0) > max_cells {
            cell *= 2.0;
        }
        self.inv_cell = (1.0 / cell) as f32;
        self.width = ((span[0] as f64 / cell).floor() as usize + 1).max(1);
        self.height = ((span[1] as f64 / cell).floor() as usize + 1).max(1);
        let n = self.width * self.height;
        self.starts.clear();
        self.starts.resize(n + 1, 0);
        // The cell is clamped before truncation, in f32: for any value, truncating a clamp to
        // `0..=last` is the floor clamped (and NaN gives 0 both ways), as `coords` finds it for
        // a query. The fields in locals: the loop's writes could otherwise alias them.
        let (axes, origin, inv_cell, width) = (self.axes, self.origin, self.inv_cell, self.width);
        let last = [width - 1, self.height - 1];
        let last_f32 = last.map(|l| l as f32);
        let cell_of = |p: Vec3| {
            let p = p.to_array();
            let on = |i: usize| (((p[axes[i]] - origin[i]) * inv_cell).clamp(0.0, last_f32[i]) as usize).min(last[i]);
            on(1) * width + on(0)
        };
        // Counted into `starts[c + 1]`, then summed: `starts[c]` is where cell c begins.
        let starts = &mut self.starts[..];
        self.cells.clear();
        self.cells.extend(targets.iter().map(|t| {
            let c = cell_of(t.position);
            starts[c + 1] += 1;
            c as u32
        }));
        let mut sum = 0;
        for start in starts.iter_mut() {
            sum += *start;
            *start = sum;
        }
        // The placement writes every entry (it is a permutation): only growth needs filling.
        self.entries.resize(targets.len(), GridTarget::default());
        self.columns.resize(targets.len());
        // In locals, as above; each column is written as its entry is placed.
        let entries = &mut self.entries[..];
        let GridColumns { x, y, z, layers, team_lo, team_hi } = &mut self.columns;
        let (x, y, z, layers, team_lo, team_hi) =
            (&mut x[..], &mut y[..], &mut z[..], &mut layers[..], &mut team_lo[..], &mut team_hi[..]);
        // Placing in input order keeps each cell in slot order: deterministic visits.
        let cursor = &mut self.starts[..];
        for (t, &c) in targets.iter().zip(&self.cells) {
            let at = cursor[c as usize] as usize;
            cursor[c as usize] += 1;
            entries[at] = *t;
            let teams = TeamSet::of(t.team);
            (x[at], y[at], z[at]) = (t.position.x, t.position.y, t.position.z);
            (layers[at], team_lo[at], team_hi[at]) = (t.layers, teams.lo, teams.hi);
        }
        // `cursor[c]` now holds the end of cell c, the start of c + 1: shift back.
        cursor.copy_within(0..n, 1);
        cursor[0] = 0;
    }

    /// Calls `visit` for every target within `radius` of `center`, each exactly once, in grid
    /// order.
    #[inline(always)]
    pub fn query(&self, center: Vec3, radius: f32, mut visit: impl FnMut(&GridTarget)) {
        let radius_sq = radius * radius;
        let reach = Vec3::splat(radius);
        self.query_rows(center - reach, center + reach, |_, row| {
            for t in row {
                if t.position.distance_squared(center) <= radius_sq {
                    visit(t);
                }
            }
        });
    }

    /// Calls `visit` with the index of its first entry and the run of entries of each grid row
    /// that the box `lo..=hi` overlaps on the grid's plane: every target inside the box is in
    /// exactly one run, next to others the caller must still test (the sweep tests them without
    /// branches).
    #[inline(always)]
    pub fn query_rows(&self, lo: Vec3, hi: Vec3, mut visit: impl FnMut(usize, &[GridTarget])) {
        self.query_runs(lo, hi, |run| visit(run.start, &self.entries[run]));
    }

    /// [`TargetGrid::query_rows`] by entry indices (into [`TargetGrid::columns`] too).
    #[inline(always)] // into the sweep: its visit closure is the hottest loop
    pub fn query_runs(&self, lo: Vec3, hi: Vec3, mut visit: impl FnMut(Range<usize>)) {
        if self.entries.is_empty() {
            return;
        }
        let (x0, y0) = self.coords(lo);
        let (x1, y1) = self.coords(hi);
        let (w, h) = (self.width as i64, self.height as i64);
        if x1 < 0 || y1 < 0 || x0 >= w || y0 >= h {
            return;
        }
        let (x0, x1) = (x0.max(0) as usize, x1.min(w - 1) as usize);
        // An exclusive range: an inclusive one's iterator costs a few instructions a row more.
        for y in y0.max(0) as usize..y1.min(h - 1) as usize + 1 {
            let row = y * self.width;
            let (start, end) = (self.starts[row + x0] as usize, self.starts[row + x1 + 1] as usize);
            visit(start..end);
        }
    }

    /// How many entries the grid holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries by column.
    #[inline]
    pub fn columns(&self) -> &GridColumns {
        &self.columns
    }

    /// The entry at `index` (as counted by [`TargetGrid::query_rows`]).
    #[inline]
    pub fn entry(&self, index: usize) -> &GridTarget {
        &self.entries[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(points: &[(u32, Vec3)]) -> Vec<GridTarget> {
        points.iter().map(|&(target, position)| GridTarget { position, target, ..Default::default() }).collect()
    }

    fn check(points: &[(u32, Vec3)], center: Vec3, radius: f32, cell: f32) {
        let mut grid = TargetGrid::default();
        grid.rebuild(cell, &items(points));
        let mut found = Vec::new();
        grid.query(center, radius, |t| found.push(t.target));
        let mut sorted = found.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), found.len(), "a target was visited twice");
        for (i, p) in points {
            assert_eq!(found.contains(i), p.distance(center) <= radius, "target {i} at {p}");
        }
    }

    #[test]
    fn query_finds_exactly_the_targets_in_range_on_the_ground_and_on_a_2d_plane() {
        let ground: Vec<(u32, Vec3)> =
            (0..200).map(|i| (i, Vec3::new((i % 20) as f32 * 3.0, (i % 3) as f32, (i / 20) as f32 * 3.0))).collect();
        for center in [Vec3::new(20.0, 0.0, 10.0), Vec3::new(-5.0, 0.0, -5.0), Vec3::new(70.0, 0.0, 40.0)] {
            check(&ground, center, 6.0, 5.0);
            check(&ground, center, 600.0, 5.0);
        }
        let screen: Vec<(u32, Vec3)> =
            (0..200).map(|i| (i, Vec3::new((i % 20) as f32 * 3.0, (i / 20) as f32 * 3.0, 0.0))).collect();
        check(&screen, Vec3::new(20.0, 10.0, 0.0), 6.0, 5.0);
    }

    #[test]
    fn each_entry_sits_in_the_cell_a_query_finds_for_its_position() {
        let mut rng = crate::test_rng::Xorshift(0x9E37_79B9_7F4A_7C15);
        let spreads = [1.0f32, 37.5, 256.0, 1e6, 1e30];
        for (case, &spread) in spreads.iter().cycle().take(40).enumerate() {
            let mut points: Vec<(u32, Vec3)> = (0..1 + case as u32 * 7)
                .map(|i| (i, Vec3::new(rng.range(-spread, spread), rng.range(-1.0, 1.0), rng.range(-spread, spread))))
                .collect();
            // Points exactly on cell edges, and at the far corner where rounding may step past it.
            points.extend((0..8).map(|k| (900 + k, Vec3::new(k as f32 * 2.5, 0.0, -(k as f32) * 2.5))));
            points.push((999, Vec3::new(spread, 0.0, spread)));
            let mut grid = TargetGrid::default();
            grid.rebuild(2.5, &items(&points));
            let (w, h) = (grid.width as i64, grid.height as i64);
            for cell in 0..grid.width * grid.height {
                for entry in &grid.entries[grid.starts[cell] as usize..grid.starts[cell + 1] as usize] {
                    let (x, y) = grid.coords(entry.position);
                    let expected = y.clamp(0, h - 1) * w + x.clamp(0, w - 1);
                    assert_eq!(cell as i64, expected, "spread {spread}: target {} at {}", entry.target, entry.position);
                }
            }
            let columns = grid.columns();
            for (i, entry) in grid.entries.iter().enumerate() {
                assert_eq!([columns.x[i], columns.y[i], columns.z[i]], entry.position.to_array());
            }
            assert!(columns.x.len() == grid.len() + LANES - 1 && columns.x[grid.len()..].iter().all(|&v| v == 0.0));
        }
    }

    #[test]
    fn sparse_and_absurd_positions_keep_the_grid_small() {
        let points = vec![(0, Vec3::ZERO), (1, Vec3::new(1e30, 0.0, -1e30)), (2, Vec3::new(5.0, 0.0, 5.0))];
        let mut grid = TargetGrid::default();
        grid.rebuild(1.0, &items(&points));
        assert!(grid.width * grid.height <= 64);
        check(&points, Vec3::ZERO, 10.0, 1.0);
    }

    /// A grid kept from the same input, or rebuilt from a changed one, is exactly a fresh grid
    /// of that input (a target's any field changed, a zero's sign, the cell size); only the very
    /// same input skips the build.
    #[test]
    fn a_rebuild_from_the_same_input_is_skipped_and_any_change_rebuilds() {
        let points: Vec<(u32, Vec3)> = (0..50).map(|i| (i, Vec3::new((i % 7) as f32 * 3.0, 0.0, i as f32))).collect();
        let base = items(&points);
        let mut moved = base.clone();
        moved[49].position.x += 0.25;
        let mut signed = base.clone();
        signed[0].position.y = -0.0;
        let mut renewed = base.clone();
        renewed[10].generation += 1;
        let inputs = [(&base, 2.0, 1), (&base, 2.0, 0), (&moved, 2.0, 1), (&base, 2.0, 1), (&signed, 2.0, 1)];
        let inputs = inputs.into_iter().chain([(&signed, 2.0, 0), (&renewed, 2.0, 1), (&renewed, 3.0, 1)]);
        let mut kept = TargetGrid::default();
        for (step, (input, cell, builds)) in inputs.enumerate() {
            let before = kept.builds;
            kept.rebuild(cell, input);
            assert_eq!(kept.builds - before, builds, "input {step}: builds");
            let mut fresh = TargetGrid::default();
            fresh.rebuild(cell, input);
            let shown = |g: &TargetGrid| {
                format!(
                    "{:?} {:?} {:?} {} {} {:?} {:?} {:?}",
                    g.inv_cell, g.axes, g.origin, g.width, g.height, g.starts, g.entries, g.columns
                )
            };
            assert_eq!(shown(&kept), shown(&fresh), "input {step}");
        }
    }
}
