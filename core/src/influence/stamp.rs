//! Adding influence from a source: linear falloff `1 − d/r` over a disc of cells (lesson §10),
//! from a precomputed stamp per radius so the hot loop is a square-root-free `row += v * stamp`.

use super::InfluenceMap;
use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite};
use crate::prefetch::prefetch;

/// Largest radius (in cells) whose falloff stamp is cached. Larger radii are computed cell by
/// cell with the same formula (identical values, just slower); they are rare and their stamps
/// would be large.
pub const MAX_CACHED_STAMP_RADIUS: i32 = 64;

/// How many sources ahead `add_influences` loads the rows of (measured on 1024² grids).
const STAMP_LOOKAHEAD: usize = 8;

/// The lesson's falloff for a cell `(dx, dz)` away from the source, as f32 exactly as the
/// lesson computes it, so stamped values match a plain loop bit for bit.
#[inline]
fn falloff(dx: i64, dz: i64, radius: i64) -> f32 {
    if radius == 0 {
        return 1.0; // only the centre is in range; the lesson would divide 0 by 0 here
    }
    1.0 - distance_cells(dx, dz) / radius as f32
}

/// √(dx² + dz²) in f32, with the sum rounded once (i128: far-off sources cannot overflow).
#[inline]
fn distance_cells(dx: i64, dz: i64) -> f32 {
    let (dx, dz) = (dx as i128, dz as i128);
    ((dx * dx + dz * dz) as f32).sqrt()
}

/// The falloff of one radius. Symmetric in dz, so only rows `dz = 0..=r` are stored, each
/// `2r + 1` wide (dx = −r..=r), with the half-width of the disc on that row.
#[derive(Clone, Debug)]
struct Stamp {
    radius: usize,
    /// Largest |dx| with dx² + dz² ≤ r², per |dz|.
    half_widths: Vec<usize>,
    rows: Vec<f32>,
}

impl Stamp {
    fn build(radius: usize) -> Stamp {
        let r = radius as i64;
        let width = 2 * radius + 1;
        let mut rows = vec![0.0; (radius + 1) * width];
        let mut half_widths = Vec::with_capacity(radius + 1);
        for dz in 0..=r {
            // Exact in integers: for r ≤ MAX_CACHED_STAMP_RADIUS every dx² + dz² is exact in f32.
            let half = (0..=r).rev().find(|dx| dx * dx + dz * dz <= r * r).unwrap_or(0);
            half_widths.push(half as usize);
            for dx in -half..=half {
                rows[dz as usize * width + (dx + r) as usize] = falloff(dx, dz, r);
            }
        }
        Stamp { radius, half_widths, rows }
    }

    /// Row |dz| of the stamp: index `dx + r`.
    fn row(&self, dz: usize) -> &[f32] {
        let width = 2 * self.radius + 1;
        &self.rows[dz * width..(dz + 1) * width]
    }
}

/// Stamps built so far, indexed by radius.
#[derive(Clone, Debug, Default)]
pub(super) struct StampCache {
    by_radius: Vec<Option<Stamp>>,
}

impl StampCache {
    fn get(&mut self, radius: usize) -> &Stamp {
        if self.by_radius.len() <= radius {
            self.by_radius.resize(radius + 1, None);
        }
        self.by_radius[radius].get_or_insert_with(|| Stamp::build(radius))
    }
}

impl InfluenceMap {
    /// [`InfluenceMap::add_influence`] for many sources of one radius: `sources[i]` is
    /// `(position, value)`. Everything is checked before anything is added. Sources are stamped
    /// row by row (then column, then input order) so neighbouring stamps share cache lines; where
    /// two stamps overlap, the f32 sum may differ in its last bit from adding them in input order.
    #[doc(alias = "AddInfluence")]
    pub fn add_influences(&mut self, layer: usize, sources: &[(Vec3, f32)], radius_cells: i32) -> Result<()> {
        self.check_layer(layer)?;
        if radius_cells < 0 {
            return Err(invalid(format!("influence radius must be >= 0 cells, got {radius_cells}")));
        }
        for (i, &(p, v)) in sources.iter().enumerate() {
            // Messages are formatted only for the source that fails.
            if check_finite(p, "").is_err() {
                check_finite(p, &format!("influence source {i} position"))?;
            }
            if crate::math::check_magnitude(v, "").is_err() {
                crate::math::check_magnitude(v, &format!("influence source {i} value"))?;
            }
        }
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(sources.iter().enumerate().map(|(i, &(p, _))| {
            let (col, row) = self.cell_of(p);
            (row, col, i as u32)
        }));
        order.sort_unstable();
        let r = radius_cells as i64;
        for (k, &(row, col, i)) in order.iter().enumerate() {
            // A big grid is stamped at memory latency: one cache miss per row of every stamp.
            // Prefetching the rows of a source a few places ahead overlaps those misses.
            if let Some(&(ahead_row, ahead_col, _)) = order.get(k + STAMP_LOOKAHEAD) {
                self.prefetch_disc(layer, (ahead_col as i64, ahead_row as i64), r);
            }
            self.stamp(layer, (col as i64, row as i64), sources[i as usize].1, r);
        }
        self.order = order;
        Ok(())
    }

    /// Adds `value × (1 − d / radius_cells)` to every cell of `layer` whose distance `d` (in
    /// cells, centre to centre) from the cell containing `position` is at most `radius_cells`,
    /// as the lesson's `AddInfluence`. Cells off the grid are skipped (a source near or beyond
    /// an edge is clipped); a radius of 0 adds `value` to the centre cell only. `value` may be
    /// negative (e.g. allies subtracting danger). Each cell's sum saturates at
    /// ±[`crate::math::MAX_MAGNITUDE`], the range every other writer keeps a map in.
    #[doc(alias = "AddInfluence")]
    pub fn add_influence(&mut self, layer: usize, position: Vec3, value: f32, radius_cells: i32) -> Result<()> {
        self.check_layer(layer)?;
        check_finite(position, "influence source position")?;
        crate::math::check_magnitude(value, "influence value")?;
        if radius_cells < 0 {
            return Err(invalid(format!("influence radius must be >= 0 cells, got {radius_cells}")));
        }
        let (cx, cz) = self.cell_of(position);
        self.stamp(layer, (cx as i64, cz as i64), value, radius_cells as i64);
        Ok(())
    }

    /// The cells of the disc of radius `r` around cell `(cx, cz)`, clipped to the grid, as
    /// `(x0, x1, z0, z1)`; `None` when the disc misses the grid entirely.
    fn disc_bounds(&self, (cx, cz): (i64, i64), r: i64) -> Option<(i64, i64, i64, i64)> {
        let (w, h) = (self.width as i64, self.height as i64);
        let (x0, x1) = ((cx - r).max(0), (cx + r).min(w - 1));
        let (z0, z1) = ((cz - r).max(0), (cz + r).min(h - 1));
        (x0 <= x1 && z0 <= z1).then_some((x0, x1, z0, z1))
    }

    /// Prefetches the first and last cell of every row the disc covers, so those cache lines
    /// are on their way when the disc is stamped.
    fn prefetch_disc(&self, layer: usize, centre: (i64, i64), r: i64) {
        let Some((x0, x1, z0, z1)) = self.disc_bounds(centre, r) else { return };
        let (cells, w) = (&self.layers[layer], self.width as i64);
        for z in z0..=z1 {
            prefetch(&cells[(z * w + x0) as usize]);
            prefetch(&cells[(z * w + x1) as usize]);
        }
    }

    /// Adds the falloff disc of a checked source at cell `(cx, cz)`.
    fn stamp(&mut self, layer: usize, (cx, cz): (i64, i64), value: f32, r: i64) {
        let Some((x0, x1, z0, z1)) = self.disc_bounds((cx, cz), r) else { return };
        let w = self.width as i64;
        let InfluenceMap { layers, stamps, .. } = self;
        let cells = &mut layers[layer];
        if r > MAX_CACHED_STAMP_RADIUS as i64 {
            add_uncached(cells, w, (cx, cz, r), (x0, x1, z0, z1), value);
            return;
        }
        let stamp = stamps.get(r as usize);
        for z in z0..=z1 {
            let dz = (z - cz).unsigned_abs() as usize;
            let half = stamp.half_widths[dz] as i64;
            let (a, b) = ((cx - half).max(x0), (cx + half).min(x1));
            if a > b {
                continue;
            }
            let row = &mut cells[(z * w + a) as usize..=(z * w + b) as usize];
            let weights = &stamp.row(dz)[(a - cx + r) as usize..=(b - cx + r) as usize];
            add_scaled(row, weights, value);
        }
    }
}

/// `row[i] += value * weights[i]`, saturated at ±`MAX_MAGNITUDE` (see [`add_saturated`]).
/// Fixed chunks of four become one SIMD multiply-add and clamp each without the loop
/// vectoriser's set-up cost, which dominates on rows this short.
#[inline]
fn add_scaled(row: &mut [f32], weights: &[f32], value: f32) {
    let mut rows = row.chunks_exact_mut(4);
    let mut ws = weights.chunks_exact(4);
    for (r, w) in (&mut rows).zip(&mut ws) {
        for k in 0..4 {
            r[k] = add_saturated(r[k], value * w[k]);
        }
    }
    for (cell, weight) in rows.into_remainder().iter_mut().zip(ws.remainder()) {
        *cell = add_saturated(*cell, value * weight);
    }
}

/// `cell + delta` clamped to ±`MAX_MAGNITUDE`: every value a map holds stays within the range
/// its setters accept, however many sources are stamped on one cell. Both inputs are within
/// ±1e9, so the sum is finite and the clamp is exact. `if` selects rather than `f32::clamp`
/// (which checks its bounds and carries NaN rules) so the loop above stays vectorised.
#[inline]
fn add_saturated(cell: f32, delta: f32) -> f32 {
    const MAX: f32 = crate::math::MAX_MAGNITUDE;
    let v = cell + delta;
    let v = if v > MAX { MAX } else { v };
    if v < -MAX { -MAX } else { v }
}

/// Large radii: the lesson's per-cell test and falloff over the clipped square.
fn add_uncached(
    cells: &mut [f32],
    w: i64,
    (cx, cz, r): (i64, i64, i64),
    (x0, x1, z0, z1): (i64, i64, i64, i64),
    value: f32,
) {
    for z in z0..=z1 {
        for x in x0..=x1 {
            let (dx, dz) = (x - cx, z - cz);
            if distance_cells(dx, dz) > r as f32 {
                continue;
            }
            let cell = &mut cells[(z * w + x) as usize];
            *cell = add_saturated(*cell, value * falloff(dx, dz, r));
        }
    }
}
