//! Reading a layer back: the cell value (lesson's `GetValue`), bilinear sampling, and the best
//! cell near a position.

use super::InfluenceMap;
use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite};

/// Which end of the value range [`InfluenceMap::best_cell`] looks for.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Extremum {
    /// The smallest value (the safest cell of a danger layer).
    #[default]
    Min,
    /// The largest value.
    Max,
}

/// One cell picked by [`InfluenceMap::best_cell`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CellValue {
    /// Column (along +X).
    pub column: i32,
    /// Row (along +Z, or +Y on the `XY` plane).
    pub row: i32,
    /// World position of the cell's centre.
    pub position: Vec3,
    /// The layer's value there.
    pub value: f32,
}

impl InfluenceMap {
    /// The value of the cell containing `position`, or 0 outside the grid (lesson's `GetValue`).
    #[doc(alias = "GetValue")]
    pub fn value(&self, layer: usize, position: Vec3) -> Result<f32> {
        self.check_layer(layer)?;
        check_finite(position, "influence map position")?;
        Ok(self.value_unchecked(layer, position))
    }

    /// `value` for a valid layer and finite position (tactical queries validate once up front).
    #[inline]
    pub(crate) fn value_unchecked(&self, layer: usize, position: Vec3) -> f32 {
        let (column, row) = self.cell_of(position);
        self.cell_index(column, row).map_or(0.0, |i| self.layers[layer][i])
    }

    /// Bilinear interpolation between the four nearest cell centres, for smooth readings (and
    /// smooth gradients) between cells. Inside the outer half cell it holds the edge values;
    /// outside the grid it is 0, like [`InfluenceMap::value`]. Exactly the cell value at a centre.
    pub fn sample(&self, layer: usize, position: Vec3) -> Result<f32> {
        self.check_layer(layer)?;
        check_finite(position, "influence map position")?;
        let (column, row) = self.cell_of(position);
        if self.cell_index(column, row).is_none() {
            return Ok(0.0);
        }
        let (u, v) = self.def.plane.project(position);
        let (ou, ov) = self.def.plane.project(self.def.origin);
        let cs = self.def.cell_size;
        // Continuous coordinates where cell centres fall on whole numbers.
        let (fu, fv) = ((u - ou) / cs - 0.5, (v - ov) / cs - 0.5);
        let (iu, iv) = (fu.floor(), fv.floor());
        let (tu, tv) = (fu - iu, fv - iv);
        let clamp = |i: f32, n: usize| (i.max(0.0) as usize).min(n - 1);
        let (c0, c1) = (clamp(iu, self.width), clamp(iu + 1.0, self.width));
        let (r0, r1) = (clamp(iv, self.height), clamp(iv + 1.0, self.height));
        let values = &self.layers[layer];
        let at = |c: usize, r: usize| values[r * self.width + c];
        let lerp = |a: f32, b: f32, t: f32| a * (1.0 - t) + b * t;
        let near = lerp(at(c0, r0), at(c1, r0), tu);
        let far = lerp(at(c0, r1), at(c1, r1), tu);
        Ok(lerp(near, far, tv))
    }

    /// The open cell with the smallest (or largest) value among those whose centre lies within
    /// `radius` metres of `position`, measured on the map's plane. Blocked cells are skipped;
    /// ties go to the lowest row-major index. `None` when no open cell centre is in range.
    pub fn best_cell(
        &self,
        layer: usize,
        position: Vec3,
        radius: f32,
        extremum: Extremum,
    ) -> Result<Option<CellValue>> {
        self.check_layer(layer)?;
        check_finite(position, "search position")?;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(invalid(format!("search radius must be finite and >= 0 metres, got {radius}")));
        }
        let (pu, pv) = self.def.plane.project(position);
        let (ou, ov) = self.def.plane.project(self.def.origin);
        let cs = self.def.cell_size;
        // Candidate range from the bounding square, widened by one against rounding.
        let span = |p: f32, o: f32, n: usize| {
            let lo = (((p - radius - o) / cs - 0.5).floor() - 1.0).max(0.0);
            let hi = (((p + radius - o) / cs - 0.5).ceil() + 1.0).min(n as f32 - 1.0);
            (lo as usize, hi)
        };
        let ((c0, c1), (r0, r1)) = (span(pu, ou, self.width), span(pv, ov, self.height));
        if c1 < c0 as f32 || r1 < r0 as f32 {
            return Ok(None);
        }
        let (c1, r1) = (c1 as usize, r1 as usize);
        let values = &self.layers[layer];
        let mut best: Option<(usize, usize, f32)> = None;
        for r in r0..=r1 {
            let dv = ov + (r as f32 + 0.5) * cs - pv;
            for c in c0..=c1 {
                let du = ou + (c as f32 + 0.5) * cs - pu;
                let i = r * self.width + c;
                if du * du + dv * dv > radius * radius || self.blocked[i] != 0 {
                    continue;
                }
                let value = values[i];
                let better = match (best, extremum) {
                    (None, _) => true,
                    (Some((_, _, b)), Extremum::Min) => value < b,
                    (Some((_, _, b)), Extremum::Max) => value > b,
                };
                if better {
                    best = Some((c, r, value));
                }
            }
        }
        Ok(best.map(|(c, r, value)| CellValue {
            column: c as i32,
            row: r as i32,
            position: self.cell_center(c as i32, r as i32),
            value,
        }))
    }
}
