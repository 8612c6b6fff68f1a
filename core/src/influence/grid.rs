//! World ↔ cell conversion and the blocked-cell mask.

use super::InfluenceMap;
use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite};

/// `floor((p − origin) / cell_size)` as i32, the lesson's `FloorToInt`, without a libm call
/// (baseline x86-64 has no rounding instruction). Saturates like `as`, so far-away points land
/// far outside the grid instead of wrapping. Kept out of line on purpose: inlined, the compiler
/// pairs the two axes' divisions into one SIMD division, which measured 4× slower here than
/// the whole rest of a small `add_influence`.
#[inline(never)]
fn cell_coordinate(p: f32, origin: f32, cell_size: f32) -> i32 {
    let x = (p - origin) / cell_size;
    let truncated = x as i32;
    if (truncated as f32) > x { truncated.saturating_sub(1) } else { truncated }
}

impl InfluenceMap {
    /// The cell containing `position`, as `(column, row)`: `floor((p − origin) / cell_size)` on
    /// each plane axis, as the lesson's `WorldToCell`. Cells outside the grid are returned too
    /// (negative or ≥ the size); coordinates beyond the `i32` range saturate.
    #[doc(alias = "WorldToCell")]
    pub fn world_to_cell(&self, position: Vec3) -> Result<(i32, i32)> {
        check_finite(position, "influence map position")?;
        Ok(self.cell_of(position))
    }

    /// `world_to_cell` for an already-checked, finite position.
    #[inline]
    pub(crate) fn cell_of(&self, position: Vec3) -> (i32, i32) {
        let (u, v) = self.def.plane.project(position);
        let (ou, ov) = self.def.plane.project(self.def.origin);
        let cs = self.def.cell_size;
        (cell_coordinate(u, ou, cs), cell_coordinate(v, ov, cs))
    }

    /// Row-major index of a cell (`row * width + column`), `None` outside the grid.
    #[inline]
    pub fn cell_index(&self, column: i32, row: i32) -> Option<usize> {
        let inside = column >= 0 && row >= 0 && (column as usize) < self.width && (row as usize) < self.height;
        inside.then(|| row as usize * self.width + column as usize)
    }

    /// World position of a cell's centre. Its coordinate along the plane normal is the
    /// origin's (Y on `XZ`, Z on `XY`). Accepts cells outside the grid too.
    pub fn cell_center(&self, column: i32, row: i32) -> Vec3 {
        let (ou, ov) = self.def.plane.project(self.def.origin);
        let cs = self.def.cell_size;
        let u = ou + (column as f32 + 0.5) * cs;
        let v = ov + (row as f32 + 0.5) * cs;
        self.def.plane.unproject(u, v, self.def.plane.normal_coordinate(self.def.origin))
    }

    /// Marks or clears one cell as blocked. Blocked cells hold 0 after propagation, never pass
    /// influence on, and are skipped by [`InfluenceMap::best_cell`].
    pub fn set_blocked(&mut self, column: i32, row: i32, blocked: bool) -> Result<()> {
        let index = self.cell_index(column, row).ok_or_else(|| {
            invalid(format!("cell ({column}, {row}) is outside the {} x {} influence map", self.width, self.height))
        })?;
        self.blocked[index] = blocked as u8;
        Ok(())
    }

    /// True if the cell is inside the grid and blocked.
    pub fn is_blocked(&self, column: i32, row: i32) -> bool {
        self.cell_index(column, row).is_some_and(|i| self.blocked[i] != 0)
    }

    /// Unblocks every cell.
    pub fn clear_blocked(&mut self) {
        self.blocked.fill(0);
    }

    /// The blocked mask, row-major like the layers: 1 = blocked, 0 = open.
    pub fn blocked_cells(&self) -> &[u8] {
        &self.blocked
    }

    /// Replaces the whole blocked mask (row-major, one byte per cell, non-zero = blocked), e.g.
    /// from an engine's walkability grid or a snapshot. The length must equal the cell count.
    pub fn set_blocked_cells(&mut self, mask: &[u8]) -> Result<()> {
        if mask.len() != self.blocked.len() {
            return Err(invalid(format!(
                "blocked mask has {} entries; the map has {} cells",
                mask.len(),
                self.blocked.len()
            )));
        }
        for (b, &m) in self.blocked.iter_mut().zip(mask) {
            *b = (m != 0) as u8;
        }
        Ok(())
    }

    /// Marks every cell whose centre satisfies `inside` as blocked (the others are left alone).
    /// Visits only cells whose centres lie within the axis-aligned box `min..max`, so a world
    /// can rasterise each occluder over its own footprint instead of testing every cell.
    /// Returns how many cells became blocked.
    pub(crate) fn block_cells_in_box(&mut self, min: Vec3, max: Vec3, inside: impl Fn(Vec3) -> bool) -> usize {
        let plane = self.def.plane;
        let normal = plane.normal_coordinate(self.def.origin);
        if normal < plane.normal_coordinate(min) || normal > plane.normal_coordinate(max) {
            return 0; // the grid's plane does not cut this box
        }
        let (ou, ov) = plane.project(self.def.origin);
        let ((min_u, min_v), (max_u, max_v)) = (plane.project(min), plane.project(max));
        let cs = self.def.cell_size;
        // Centre of column c is ou + (c + 0.5) cs; keep the columns whose centre is in range,
        // one extra each side against rounding (`inside` is the exact test).
        let first = |lo: f32, o: f32| (((lo - o) / cs - 0.5).ceil() - 1.0).max(0.0);
        let last = |hi: f32, o: f32, n: usize| (((hi - o) / cs - 0.5).floor() + 1.0).min(n as f32 - 1.0);
        let (c0, c1) = (first(min_u, ou), last(max_u, ou, self.width));
        let (r0, r1) = (first(min_v, ov), last(max_v, ov, self.height));
        if !(c0 <= c1 && r0 <= r1) {
            return 0;
        }
        let mut newly_blocked = 0;
        for row in r0 as i32..=r1 as i32 {
            for column in c0 as i32..=c1 as i32 {
                let index = row as usize * self.width + column as usize;
                if self.blocked[index] == 0 && inside(self.cell_center(column, row)) {
                    self.blocked[index] = 1;
                    newly_blocked += 1;
                }
            }
        }
        newly_blocked
    }
}
