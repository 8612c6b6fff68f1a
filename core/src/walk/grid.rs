//! A walk graph built by Argus: a grid of cells on a floor, a cell open unless an occluder
//! reaches into it within the height band a person occupies, 8-neighbour edges that do not cut
//! a blocked corner.

use super::{MAX_WALK_NODES, filled};
use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite, check_magnitude, check_non_negative, check_positive, floor_i64};
use crate::occluders::OccluderSet;

/// Smallest cell accepted, in metres: finer grids belong to a navigation mesh, not to hearing.
pub const MIN_WALK_CELL_SIZE: f32 = 0.05;

/// A grid walk graph's settings; the world copies them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WalkGridDef {
    /// The grid's corner with the smallest X and Z; its Y is the floor's height.
    pub origin: Vec3,
    /// Cells along X.
    pub width: u32,
    /// Cells along Z.
    pub depth: u32,
    /// Side of a cell in metres (at least [`MIN_WALK_CELL_SIZE`]; default 0.5).
    pub cell_size: f32,
    /// Bottom of the band a person occupies, above the floor (default 0.3: a step walks over).
    pub band_min: f32,
    /// Top of that band (default 1.8).
    pub band_max: f32,
    /// Occluder layers that block walking (default all).
    pub layers: u32,
    /// How far a point (a sound, a listener) may be from the nearest open cell's centre and
    /// still be on the graph; 0 = automatic (the larger of 1 m and one and a half cells).
    pub snap_distance: f32,
}

impl Default for WalkGridDef {
    fn default() -> Self {
        WalkGridDef {
            origin: Vec3::ZERO,
            width: 64,
            depth: 64,
            cell_size: 0.5,
            band_min: 0.3,
            band_max: 1.8,
            layers: u32::MAX,
            snap_distance: 0.0,
        }
    }
}

impl WalkGridDef {
    pub(crate) fn validate(&self) -> Result<()> {
        check_finite(self.origin, "walk grid origin")?;
        if self.width == 0 || self.depth == 0 {
            return Err(invalid(format!(
                "walk grid needs at least one cell each way, got {} × {}",
                self.width, self.depth
            )));
        }
        let cells = self.width as u64 * self.depth as u64;
        if cells > MAX_WALK_NODES as u64 {
            return Err(invalid(format!(
                "walk grid of {} × {} = {cells} cells is more than the {MAX_WALK_NODES} a graph may have",
                self.width, self.depth
            )));
        }
        check_positive(self.cell_size, "walk grid cell size")?;
        if self.cell_size < MIN_WALK_CELL_SIZE {
            return Err(invalid(format!(
                "walk grid cell size must be at least {MIN_WALK_CELL_SIZE} m, got {}",
                self.cell_size
            )));
        }
        check_magnitude(self.band_min, "walk grid band bottom")?;
        check_magnitude(self.band_max, "walk grid band top")?;
        if self.band_max <= self.band_min {
            return Err(invalid(format!(
                "walk grid band top ({}) must be above its bottom ({})",
                self.band_max, self.band_min
            )));
        }
        check_non_negative(self.snap_distance, "walk grid snap distance")?;
        // The grid's far corner must be a coordinate the library accepts too.
        let far = self.origin
            + Vec3::new(self.width as f32 * self.cell_size, self.band_max, self.depth as f32 * self.cell_size);
        check_finite(far, "walk grid far corner")?;
        Ok(())
    }
}

/// A cell's mass share per edge by its edge count.
const PER_EDGE: [f32; 9] = [0.0, 1.0, 1.0 / 2.0, 1.0 / 3.0, 1.0 / 4.0, 1.0 / 5.0, 1.0 / 6.0, 1.0 / 7.0, 1.0 / 8.0];

/// The eight steps out of a cell, as `(dx, dz)`: the four sides, then the four diagonals. Bit
/// `k` of a cell's move mask says step `k` is an edge.
const STEPS: [(i64, i64); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The grid and which cells are open.
#[derive(Clone, Debug)]
pub(super) struct GridShape {
    pub def: WalkGridDef,
    /// 1 = open, 0 = blocked; cell `x + z × width`.
    open: Vec<u8>,
    /// Each cell's edges as a mask over [`STEPS`], kept with `open` (a flood reads one byte per
    /// cell, with no bounds or corner tests).
    moves: Vec<u8>,
    /// Each cell's mass share per edge, 1 ÷ its edge count (0 for none), kept with `moves`: a
    /// spread move multiplies by it instead of counting bits cell by cell.
    per_edge: Vec<f32>,
    /// The index offset and length of each step.
    step_offset: [i64; 8],
    step_length: [f32; 8],
}

impl GridShape {
    pub fn build(def: &WalkGridDef, occluders: &OccluderSet) -> Result<GridShape> {
        def.validate()?;
        let cells = def.width as usize * def.depth as usize;
        let open = filled(cells, 1u8, "cells")?;
        let moves = filled(cells, 0u8, "cell edges")?;
        let per_edge = filled(cells, 0.0f32, "cell edge shares")?;
        let (w, c) = (def.width as i64, def.cell_size);
        let step_offset = STEPS.map(|(dx, dz)| dx + dz * w);
        let step_length = STEPS.map(|(dx, dz)| if dx != 0 && dz != 0 { c * std::f32::consts::SQRT_2 } else { c });
        let mut grid = GridShape { def: *def, open, moves, per_edge, step_offset, step_length };
        for (_, occluder) in occluders.iter() {
            if occluder.def().layers & def.layers == 0 {
                continue;
            }
            let (mins, maxs) = occluder.bounds();
            grid.for_cells_in(mins, maxs, |grid, cell| {
                if grid.open[cell as usize] == 1 && occluder.overlaps_box(grid.cell_box(cell)) {
                    grid.open[cell as usize] = 0;
                }
            });
        }
        grid.mark_moves(0, def.width - 1, 0, def.depth - 1);
        Ok(grid)
    }

    /// Sets the move masks of the cells `x0..=x1` × `z0..=z1` from `open`.
    fn mark_moves(&mut self, x0: u32, x1: u32, z0: u32, z1: u32) {
        let (w, h) = (self.def.width as i64, self.def.depth as i64);
        let open = |x: i64, z: i64| x >= 0 && z >= 0 && x < w && z < h && self.open[(x + z * w) as usize] == 1;
        for z in z0 as i64..=z1 as i64 {
            for x in x0 as i64..=x1 as i64 {
                let mut mask = 0u8;
                if open(x, z) {
                    for (k, &(dx, dz)) in STEPS.iter().enumerate() {
                        // A diagonal step needs both cells beside it open: it never cuts a
                        // blocked corner.
                        let corner_clear = k < 4 || (open(x + dx, z) && open(x, z + dz));
                        if open(x + dx, z + dz) && corner_clear {
                            mask |= 1 << k;
                        }
                    }
                }
                self.moves[(x + z * w) as usize] = mask;
                self.per_edge[(x + z * w) as usize] = PER_EDGE[mask.count_ones() as usize];
            }
        }
    }

    pub fn snap_distance(&self) -> f32 {
        if self.def.snap_distance > 0.0 { self.def.snap_distance } else { (1.5 * self.def.cell_size).max(1.0) }
    }

    pub fn cell_count(&self) -> usize {
        self.open.len()
    }

    pub fn memory_bytes(&self) -> usize {
        self.open.capacity() + self.moves.capacity() + self.per_edge.capacity() * 4
    }

    pub fn is_open(&self, cell: u32) -> bool {
        self.open.get(cell as usize) == Some(&1)
    }

    pub fn centre(&self, cell: u32) -> Vec3 {
        let w = self.def.width;
        assert!((cell as usize) < self.open.len(), "walk node {cell} out of range");
        let (x, z) = (cell % w, cell / w);
        let c = self.def.cell_size;
        self.def.origin + Vec3::new((x as f32 + 0.5) * c, 0.0, (z as f32 + 0.5) * c)
    }

    /// The cell's column within the band, shrunk by a hair so that a wall whose face lies on a
    /// grid line blocks the cells it is in, not those beside it too.
    fn cell_box(&self, cell: u32) -> (Vec3, Vec3) {
        let d = &self.def;
        let (x, z) = (cell % d.width, cell / d.width);
        let c = d.cell_size;
        let inset = c * 1e-3;
        let mins = d.origin + Vec3::new(x as f32 * c + inset, d.band_min, z as f32 * c + inset);
        let maxs = d.origin + Vec3::new((x + 1) as f32 * c - inset, d.band_max, (z + 1) as f32 * c - inset);
        (mins, maxs)
    }

    /// The cell coordinate range (inclusive) covering `lo..=hi` along one axis, clamped.
    fn span(&self, lo: f32, hi: f32, origin: f32, count: u32) -> Option<(u32, u32)> {
        let c = self.def.cell_size;
        let first = floor_i64((lo - origin) / c).max(0);
        let last = floor_i64((hi - origin) / c).min(count as i64 - 1);
        (first <= last).then_some((first as u32, last as u32))
    }

    /// Calls `f` for every cell whose column the box `mins..maxs` reaches (in X and Z; a box
    /// wholly above or below the band reaches none).
    fn for_cells_in(&mut self, mins: Vec3, maxs: Vec3, mut f: impl FnMut(&mut Self, u32)) {
        let d = self.def;
        if maxs.y < d.origin.y + d.band_min || mins.y > d.origin.y + d.band_max {
            return;
        }
        let (Some((x0, x1)), Some((z0, z1))) =
            (self.span(mins.x, maxs.x, d.origin.x, d.width), self.span(mins.z, maxs.z, d.origin.z, d.depth))
        else {
            return;
        };
        for z in z0..=z1 {
            for x in x0..=x1 {
                f(self, x + z * d.width);
            }
        }
    }

    /// Decides again every cell the box `mins..maxs` reaches, from all occluders on the layers,
    /// and the edges of those cells and of the ring around them.
    pub fn update_region(&mut self, mins: Vec3, maxs: Vec3, occluders: &OccluderSet) {
        let layers = self.def.layers;
        let mut touched: Option<(u32, u32, u32, u32)> = None;
        self.for_cells_in(mins, maxs, |grid, cell| {
            let blocked = occluders.any_overlaps_box(grid.cell_box(cell), layers);
            grid.open[cell as usize] = (!blocked) as u8;
            let (x, z) = (cell % grid.def.width, cell / grid.def.width);
            let t = touched.get_or_insert((x, x, z, z));
            *t = (t.0.min(x), t.1.max(x), t.2.min(z), t.3.max(z));
        });
        if let Some((x0, x1, z0, z1)) = touched {
            let (w, h) = (self.def.width, self.def.depth);
            self.mark_moves(x0.saturating_sub(1), (x1 + 1).min(w - 1), z0.saturating_sub(1), (z1 + 1).min(h - 1));
        }
    }

    #[inline]
    pub fn degree(&self, cell: u32) -> u32 {
        self.moves[cell as usize].count_ones()
    }

    /// The cells that reach within `radius` of `centre` in X and Z (clamped to the grid): row by
    /// row, those the circle's chord at the row's nearest edge spans (a superset of the cells whose
    /// centre is in the circle, by up to half a cell, so rounding never drops one).
    pub fn for_each_cell_near(&self, centre: Vec3, radius: f32, mut visit: impl FnMut(u32)) {
        let d = &self.def;
        let Some((z0, z1)) = self.span(centre.z - radius, centre.z + radius, d.origin.z, d.depth) else {
            return;
        };
        let c = d.cell_size;
        for z in z0..=z1 {
            let row_centre = d.origin.z + (z as f32 + 0.5) * c;
            let gap = ((row_centre - centre.z).abs() - 0.5 * c).max(0.0);
            let half = (radius * radius - gap * gap).max(0.0).sqrt();
            if let Some((x0, x1)) = self.span(centre.x - half, centre.x + half, d.origin.x, d.width) {
                (x0..=x1).for_each(|x| visit(x + z * d.width));
            }
        }
    }

    /// One move of a spread (see `Belief::spread`): every cell sends, over each of its edges,
    /// its mass over its edge count scaled by a cell ÷ that edge's length, and keeps the rest.
    /// Gathered per cell (what its neighbours send it), which the edges being both ways allows:
    /// row by row, no scattered writes. An inner row is first computed as if every cell had all
    /// eight edges, as straight lines over three rows of shares (which the compiler vectorises);
    /// then the cells that lack an edge (at walls, at the border) are computed again edge by edge.
    /// Each cell's sum is taken in the same order either way, so the bits never depend on which
    /// path ran (recordings replay beliefs by spreading them again). A cell that sends all it has
    /// can come out an ulp below zero (1/3 rounds up, so a third sent three ways is more than the
    /// whole): it is 0, a probability is never negative. `share` is scratch.
    pub fn spread_move(&self, mass: &[f32], next: &mut [f32], share: &mut Vec<f32>) {
        share.clear();
        share.extend(mass.iter().zip(&self.per_edge).map(|(&m, &per_edge)| m * per_edge));
        let (w, d) = (self.def.width as usize, self.def.depth as usize);
        for (z, (row_out, row_moves)) in next.chunks_exact_mut(w).zip(self.moves.chunks_exact(w)).enumerate() {
            let at = z * w;
            let inner_row = z > 0 && z + 1 < d && w > 2;
            if inner_row {
                let rows = [&share[at - w..at], &share[at..at + w], &share[at + w..at + 2 * w]];
                gather_full_row(&mass[at..at + w], rows, row_out);
            }
            // Eight cells at a time: in open floor they all have every edge.
            for (block, masks) in row_moves.chunks(8).enumerate() {
                if inner_row && block > 0 && (block + 1) * 8 < w && masks == [0xFF; 8] {
                    continue;
                }
                for (k, &mask) in masks.iter().enumerate() {
                    let x = block * 8 + k;
                    let inner = inner_row && x > 0 && x + 1 < w;
                    if mask != 0xFF || !inner {
                        row_out[x] = self.gather_by_edges(at + x, mass[at + x], mask, share);
                    }
                }
            }
        }
    }

    /// One cell of a spread move, edge by edge (a cell without all eight edges).
    #[inline]
    fn gather_by_edges(&self, cell: usize, m: f32, mask: u8, share: &[f32]) -> f32 {
        const CARRIED: [f32; 8] = [1.0, 1.0, 1.0, 1.0, DIAGONAL_SHARE, DIAGONAL_SHARE, DIAGONAL_SHARE, DIAGONAL_SHARE];
        if mask == 0 {
            return m;
        }
        let (mut inflow, mut carried) = (0.0f32, 0.0f32);
        for k in 0..8 {
            if mask & (1 << k) != 0 {
                inflow += CARRIED[k] * share[(cell as i64 + self.step_offset[k]) as usize];
                carried += CARRIED[k];
            }
        }
        (m - share[cell] * carried + inflow).max(0.0)
    }

    /// Each cell's move mask and the steps' index offsets and lengths (for a flood's own loop).
    pub fn steps(&self) -> GridSteps<'_> {
        GridSteps { moves: &self.moves, offset: self.step_offset, length: self.step_length }
    }

    #[inline(always)]
    pub fn for_each_edge(&self, cell: u32, mut visit: impl FnMut(u32, f32)) {
        let mask = self.moves[cell as usize];
        // Unrolled over the eight steps: constant indices, no table bounds checks.
        for k in 0..8 {
            if mask & (1 << k) != 0 {
                visit((cell as i64 + self.step_offset[k]) as u32, self.step_length[k]);
            }
        }
    }

    /// The open cell whose centre is nearest to `p`, within `snap` metres.
    pub fn nearest(&self, p: Vec3, snap: f32) -> Option<(u32, f32)> {
        let d = &self.def;
        // The cells are the centres' Voronoi regions: a point well inside an open cell (away
        // from its sides, where rounding could tie with a neighbour) is nearest to its centre.
        let (fx, fz) = ((p.x - d.origin.x) / d.cell_size, (p.z - d.origin.z) / d.cell_size);
        let inside = |f: f32, count: u32| f >= 0.0 && f < count as f32 && (f - f.floor() - 0.5).abs() < 0.499;
        if inside(fx, d.width) && inside(fz, d.depth) {
            let cell = fx as u32 + fz as u32 * d.width;
            let distance = p.distance(self.centre(cell));
            if self.open[cell as usize] == 1 && distance <= snap {
                return Some((cell, distance));
            }
        }
        let (xs, zs) = (
            self.span(p.x - snap, p.x + snap, d.origin.x, d.width)?,
            self.span(p.z - snap, p.z + snap, d.origin.z, d.depth)?,
        );
        let mut best: Option<(u32, f32)> = None;
        for z in zs.0..=zs.1 {
            for x in xs.0..=xs.1 {
                let cell = x + z * d.width;
                if self.open[cell as usize] == 0 {
                    continue;
                }
                let distance = p.distance(self.centre(cell));
                // Ties go to the lower cell: the same answer on every platform.
                if distance <= snap && best.is_none_or(|(_, b)| distance < b) {
                    best = Some((cell, distance));
                }
            }
        }
        best
    }
}

/// A grid's edges as a flood reads them: bit `k` of `moves[cell]` says step `k` (index offset
/// `offset[k]`, `length[k]` metres) is an edge.
pub(crate) struct GridSteps<'a> {
    pub moves: &'a [u8],
    pub offset: [i64; 8],
    pub length: [f32; 8],
}

/// A diagonal edge carries 1/√2 of an orthogonal one's share (its walk is √2 cells long).
const DIAGONAL_SHARE: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// A spread move over an inner row as if each of its cells had all eight edges: `rows` are the
/// shares of the rows before, at and after it; the first and last cells are left alone. Every
/// input is a slice of the row's length taken at a fixed offset, so there is no bounds check
/// in the loop and the compiler vectorises it.
fn gather_full_row(mass: &[f32], rows: [&[f32]; 3], out: &mut [f32]) {
    const D: f32 = DIAGONAL_SHARE;
    let n = out.len() - 2;
    let [before, at, after] = rows;
    let (west, centre, east) = (&at[..n], &at[1..n + 1], &at[2..n + 2]);
    let (north_west, north, north_east) = (&before[..n], &before[1..n + 1], &before[2..n + 2]);
    let (south_west, south, south_east) = (&after[..n], &after[1..n + 1], &after[2..n + 2]);
    let (mass, out) = (&mass[1..n + 1], &mut out[1..n + 1]);
    for i in 0..n {
        let straight = east[i] + west[i] + south[i] + north[i];
        let diagonal = south_east[i] + north_east[i] + south_west[i] + north_west[i];
        out[i] = (mass[i] - centre[i] * (4.0 + 4.0 * D) + straight + D * diagonal).max(0.0);
    }
}
