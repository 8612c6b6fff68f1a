//! A flat grid over the occluders' footprints on the ground plane, for the sweep's short
//! line-of-sight rays: a ray walks only the few cells it crosses (2D DDA) and tests the occluders
//! registered there, instead of descending the BVH from its root for every ray. Occluders much
//! larger than a cell (terrain, a long wall) go to a short list every ray tests. The BVH stays the
//! answer for everything else (nearest hits, long rays, containment). Each cell keeps its
//! occluders' bounds four to a [`Quad`] (see `quad.rs`).

use super::quad::{Quad, SlabRay, pack};
use crate::math::{Vec3, floor_i64};

/// Occluders covering more cells than this are tested by every ray instead of being registered.
const LARGE_CELLS: usize = 64;

/// What a ray tests before touching the occluder itself: its bounds and layers (copied into
/// every cell it covers, so the walk reads memory in order).
#[derive(Copy, Clone, Debug)]
pub(crate) struct GridOccluder {
    pub mins: Vec3,
    pub maxs: Vec3,
    /// The caller's index of the occluder (its rank once inside the grid).
    pub id: u32,
    pub layers: u32,
}

impl Default for GridOccluder {
    fn default() -> Self {
        GridOccluder { mins: Vec3::ZERO, maxs: Vec3::ZERO, id: 0, layers: 0 }
    }
}

/// The grid; rebuilt from the occluders' bounds when they change.
#[derive(Clone, Debug, Default)]
pub(crate) struct OccluderGrid {
    pub axes: [usize; 2],
    origin: [f32; 2],
    cell: f32,
    inv_cell: f32,
    width: usize,
    height: usize,
    /// `starts[c]..starts[c + 1]` are the quads of cell `c` (row-major).
    starts: Vec<u32>,
    quads: Vec<Quad>,
    /// Occluders too large to register cell by cell.
    pub large: Vec<Quad>,
    /// Scratch of `rebuild`: the occluders of every cell, cell after cell.
    entries: Vec<GridOccluder>,
    /// Rank → index in the occluders `rebuild` was given (ranks follow the grid's cells).
    pub order: Vec<u32>,
    /// Bounds and layers by rank (also `rebuild`'s scratch).
    pub ranked: Vec<GridOccluder>,
    large_entries: Vec<GridOccluder>,
}

/// Per-thread scratch: a stamp per occluder rank so one ray tests an occluder once even when
/// it spans several of the ray's cells, and the occluder that blocked the previous ray.
#[derive(Clone, Debug, Default)]
pub(crate) struct RayScratch {
    stamps: Vec<u32>,
    ray: u32,
    /// The rank of the occluder that blocked the last ray, if it was blocked (a rank of
    /// whichever grid answered it: only a guess, see `OccluderSet::blocks_swept`).
    pub blocker: Option<u32>,
    /// For a recording's Why, after a blocked ray: the slot of the occluder that stopped it, and
    /// how far along (only kept when asked, see `OccluderSet::blocks_swept`).
    pub stop: Option<(u32, f32)>,
    /// Rays answered before any walk: by the remembered occluder, and by the last blocker
    /// (for tests and profiling).
    pub answered_early: [u64; 2],
}

impl RayScratch {
    /// Starts a new ray: returns its stamp.
    pub fn next_ray(&mut self, occluders: usize) -> u32 {
        if self.stamps.len() < occluders {
            self.stamps.resize(occluders, 0);
        }
        self.ray = self.ray.wrapping_add(1);
        if self.ray == 0 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.ray = 1;
        }
        self.ray
    }

    /// True the first time `rank` is seen for the ray `stamp`.
    #[inline]
    pub fn first_visit(&mut self, rank: u32, stamp: u32) -> bool {
        let s = &mut self.stamps[rank as usize];
        let first = *s != stamp;
        *s = stamp;
        first
    }
}

impl OccluderGrid {
    /// Rebuilds from every live occluder.
    pub fn rebuild(&mut self, occluders: &[GridOccluder]) {
        self.entries.clear();
        self.quads.clear();
        self.large.clear();
        self.starts.clear();
        self.order.clear();
        if occluders.is_empty() {
            self.width = 0;
            self.height = 0;
            return;
        }
        let (lo, hi) = occluders
            .iter()
            .fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), b| (lo.min(b.mins), hi.max(b.maxs)));
        let extent = (hi - lo).to_array();
        let flat = (0..3).min_by(|&a, &b| extent[a].total_cmp(&extent[b]).then(b.cmp(&a))).unwrap_or(1);
        self.axes = match flat {
            0 => [1, 2],
            1 => [0, 2],
            _ => [0, 1],
        };
        let (lo, span) = (lo.to_array(), [extent[self.axes[0]] as f64, extent[self.axes[1]] as f64]);
        self.origin = [lo[self.axes[0]], lo[self.axes[1]]];
        // About two occluders' worth of ground per cell, and never more cells than 4 per occluder.
        let n = occluders.len() as f64;
        let mut cell = ((2.0 * span[0].max(1.0) * span[1].max(1.0) / n).sqrt()).max(0.25);
        while ((span[0] / cell).floor() + 1.0) * ((span[1] / cell).floor() + 1.0) > (4.0 * n).max(64.0) {
            cell *= 2.0;
        }
        self.cell = cell as f32;
        self.inv_cell = (1.0 / cell) as f32;
        self.width = (span[0] / cell).floor() as usize + 1;
        self.height = (span[1] / cell).floor() as usize + 1;
        let cells = self.width * self.height;
        self.starts.resize(cells + 1, 0);
        // Occluders ranked by the cell of their centre: the quads name them by rank, so the
        // owner's per-occluder data laid out in rank order is read in spatial order by a ray.
        let mut order = std::mem::take(&mut self.order);
        order.extend(0..occluders.len() as u32);
        // Unstable with the index in the key: deterministic, and no merge buffer to allocate.
        order.sort_unstable_by_key(|&i| {
            let b = &occluders[i as usize];
            let (x, y) = self.clamped((b.mins + b.maxs) * 0.5);
            ((y * self.width + x) as u64) << 32 | i as u64
        });
        self.order = order;
        let mut ranked = std::mem::take(&mut self.ranked);
        ranked.clear();
        ranked.extend(
            (self.order.iter().enumerate()).map(|(rank, &i)| GridOccluder { id: rank as u32, ..occluders[i as usize] }),
        );
        let mut large = std::mem::take(&mut self.large_entries);
        large.clear();
        // Two passes of counting sort over the cells each occluder's bounds overlap (inclusive).
        for pass in 0..2 {
            for b in &ranked {
                let (x0, y0) = self.clamped(b.mins);
                let (x1, y1) = self.clamped(b.maxs);
                if (x1 - x0 + 1) * (y1 - y0 + 1) > LARGE_CELLS {
                    if pass == 0 {
                        large.push(*b);
                    }
                    continue;
                }
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let c = y * self.width + x;
                        if pass == 0 {
                            self.starts[c + 1] += 1;
                        } else {
                            self.entries[self.starts[c] as usize] = *b;
                            self.starts[c] += 1;
                        }
                    }
                }
            }
            if pass == 0 {
                for c in 0..cells {
                    self.starts[c + 1] += self.starts[c];
                }
                self.entries.resize(self.starts[cells] as usize, GridOccluder::default());
            }
        }
        // Pass two advanced each start to its cell's end, the next cell's start: pack each
        // cell's run into quads, and the starts become quad indices.
        let mut run_start = 0;
        for c in 0..cells {
            let run_end = self.starts[c] as usize;
            self.starts[c] = self.quads.len() as u32;
            pack(&self.entries[run_start..run_end], &mut self.quads);
            run_start = run_end;
        }
        self.starts[cells] = self.quads.len() as u32;
        pack(&large, &mut self.large);
        self.ranked = ranked;
        self.large_entries = large;
    }

    fn clamped(&self, p: Vec3) -> (usize, usize) {
        let p = p.to_array();
        let c = |v: f32, o: f32, n: usize| (((v - o) * self.inv_cell).floor().max(0.0) as usize).min(n - 1);
        (c(p[self.axes[0]], self.origin[0], self.width), c(p[self.axes[1]], self.origin[1], self.height))
    }

    /// True if rays of `length` are short enough for the grid (a handful of cells).
    pub fn suits(&self, length: f32) -> bool {
        self.width > 0 && length <= 8.0 * self.cell
    }

    /// Calls `exact` with the rank of every occluder whose bounds the ray meets, cell by cell
    /// (see `walk`), then the large ones, until `exact` returns true (blocked). Returns whether
    /// it did.
    pub fn any_blocks(&self, ray: &SlabRay, origin: Vec3, dir: Vec3, mut exact: impl FnMut(u32) -> bool) -> bool {
        self.walk(origin, dir, ray.length, |quads| ray.any(quads, &mut exact)) || ray.any(&self.large, &mut exact)
    }

    /// Calls `visit` with the quads of every cell the segment crosses (in order from the origin,
    /// or, for a short segment, of the few cells of its bounding box row by row), until `visit`
    /// returns true (blocked). Returns whether it did.
    #[inline(always)]
    fn walk(&self, origin: Vec3, dir: Vec3, length: f32, mut visit: impl FnMut(&[Quad]) -> bool) -> bool {
        let (o, d) = (origin.to_array(), dir.to_array());
        let (a0, a1) = (self.axes[0], self.axes[1]);
        let (px, py) = ((o[a0] - self.origin[0]) * self.inv_cell, (o[a1] - self.origin[1]) * self.inv_cell);
        let (dx, dy) = (d[a0] * self.inv_cell, d[a1] * self.inv_cell);
        // A segment whose bounding box covers at most four cells (most sight rays): those cells,
        // row by row, with none of the stepping's arithmetic. The box holds every cell the
        // segment crosses (the floor is monotonic); an extra cell costs only its quads' slab
        // test, which reads the segment itself.
        let (ex, ey) = (px + dx * length, py + dy * length);
        let (x0, x1) = (floor_i64(px.min(ex)), floor_i64(px.max(ex)));
        let (y0, y1) = (floor_i64(py.min(ey)), floor_i64(py.max(ey)));
        let (columns, rows) = (self.width as i64, self.height as i64);
        // (Saturating: a coordinate of 1e30 floors to the end of i64.)
        let span = |lo: i64, hi: i64| hi.saturating_sub(lo).saturating_add(1);
        if span(x0, x1).saturating_mul(span(y0, y1)) <= 4 {
            if x1 < 0 || y1 < 0 || x0 >= columns || y0 >= rows {
                return false;
            }
            let (x0, x1) = (x0.max(0) as usize, x1.min(columns - 1) as usize);
            for y in y0.max(0) as usize..y1.min(rows - 1) as usize + 1 {
                for c in y * self.width + x0..y * self.width + x1 + 1 {
                    let (start, end) = (self.starts[c] as usize, self.starts[c + 1] as usize);
                    if visit(&self.quads[start..end]) {
                        return true;
                    }
                }
            }
            return false;
        }
        let (w, h) = (self.width as f32, self.height as f32);
        // Reciprocals once: a division costs as much as the rest of a short walk's setup.
        let recip = |dv: f32| if dv.abs() < 1e-12 { f32::INFINITY } else { 1.0 / dv };
        let (rx, ry) = (recip(dx), recip(dy));
        // Clip the segment (in cell units) to the grid rectangle.
        let (mut t0, mut t1) = (0.0f32, length);
        for (p, r, size) in [(px, rx, w), (py, ry, h)] {
            if r.is_infinite() {
                if p < 0.0 || p > size {
                    return false;
                }
            } else {
                let (a, b) = ((0.0 - p) * r, (size - p) * r);
                t0 = t0.max(a.min(b));
                t1 = t1.min(a.max(b));
            }
        }
        if t0 > t1 {
            return false;
        }
        let (sx, sy) = (px + dx * t0, py + dy * t0);
        let mut x = floor_i64(sx).clamp(0, self.width as i64 - 1);
        let mut y = floor_i64(sy).clamp(0, self.height as i64 - 1);
        let (step_x, step_y) = (if dx >= 0.0 { 1 } else { -1 }, if dy >= 0.0 { 1 } else { -1 });
        let next = |c: i64, s: i64, p: f32, r: f32| {
            if r.is_infinite() { f32::INFINITY } else { t0 + ((c + (s > 0) as i64) as f32 - p) * r }
        };
        let (mut tx, mut ty) = (next(x, step_x, sx, rx), next(y, step_y, sy, ry));
        let (dtx, dty) = (rx.abs(), ry.abs());
        loop {
            let c = y as usize * self.width + x as usize;
            let (start, end) = (self.starts[c] as usize, self.starts[c + 1] as usize);
            if visit(&self.quads[start..end]) {
                return true;
            }
            // Step to the neighbour whose boundary comes first; a corner steps both ways over
            // two iterations, and inclusive registration makes either order safe.
            if tx <= ty {
                if tx > t1 {
                    return false;
                }
                x += step_x;
                tx += dtx;
            } else {
                if ty > t1 {
                    return false;
                }
                y += step_y;
                ty += dty;
            }
            if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
                return false;
            }
        }
    }
}
