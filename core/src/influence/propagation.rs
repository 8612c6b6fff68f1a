//! Influence spreading from cell to cell, the classic formulation (Champandard, "Game AI Pro"):
//! each step, a cell moves towards the strongest neighbour's value attenuated by distance,
//! `new = lerp(old, max_n(v_n · e^(−decay · dist_n)), momentum)`, and walls stop it.

use super::InfluenceMap;
use crate::error::Result;
use crate::math::check_range;

/// Tuning of one propagation step.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PropagationParams {
    /// Attenuation per metre travelled, ≥ 0 (default 0.5): a neighbour `d` metres away passes
    /// on `value · e^(−decay · d)`. Orthogonal neighbours are one cell size away, diagonal ones
    /// √2 cell sizes.
    pub decay: f32,
    /// Blend weight towards the spread value, in [0, 1] (default 0.5), as in the classic
    /// formulation's `lerp(old, spread, momentum)`: 1 replaces each cell by the spread value
    /// outright, 0 leaves the layer unchanged, in between the field follows over several steps.
    pub momentum: f32,
}

impl Default for PropagationParams {
    fn default() -> Self {
        PropagationParams { decay: 0.5, momentum: 0.5 }
    }
}

impl PropagationParams {
    /// Checks both fields.
    pub fn validate(&self) -> Result<()> {
        crate::math::check_non_negative(self.decay, "propagation decay (per metre)")?;
        check_range(self.momentum, 0.0, 1.0, "propagation momentum")?;
        Ok(())
    }
}

/// Attenuation factors for the 8 neighbours, and the blend weight.
#[derive(Copy, Clone)]
struct Factors {
    orthogonal: f32,
    diagonal: f32,
    momentum: f32,
}

impl InfluenceMap {
    /// One propagation step over `layer`, using the map's blocked cells as walls.
    ///
    /// Influence is treated as non-negative, as in the classic formulation: the spread value
    /// starts at 0, so negative cells fade towards 0 rather than spreading. Blocked cells are
    /// set to 0 and pass nothing on; a diagonal neighbour counts only when both cells beside
    /// that diagonal are open, so a wall one cell thick cannot leak at its corners. Cells off
    /// the grid contribute nothing. Results below 1e-30 in magnitude become 0, so fading tails
    /// end instead of lingering as slow subnormal floats. Sources are not kept alive: add them
    /// again before each step.
    pub fn propagate(&mut self, layer: usize, params: &PropagationParams) -> Result<()> {
        self.check_layer(layer)?;
        params.validate()?;
        let cs = self.def.cell_size;
        let factors = Factors {
            orthogonal: (-params.decay * cs).exp(),
            diagonal: (-params.decay * cs * std::f32::consts::SQRT_2).exp(),
            momentum: params.momentum,
        };
        let (w, h) = (self.width, self.height);
        let InfluenceMap { layers, scratch, blocked, .. } = self;
        let values = &mut layers[layer];
        // Walls hold nothing, so a neighbour that is a wall adds 0 to the max without a test.
        for (v, &b) in values.iter_mut().zip(blocked.iter()) {
            if b != 0 {
                *v = 0.0;
            }
        }
        let out = InfluenceMap::scratch_for_layer(scratch, w * h);
        let grid = Grid { values, blocked, w, h };
        for z in 0..h {
            let row_out = &mut out[z * w..(z + 1) * w];
            if z == 0 || z + 1 == h || w < 3 {
                for (x, o) in row_out.iter_mut().enumerate() {
                    *o = grid.step_cell(x, z, factors);
                }
                continue;
            }
            row_out[0] = grid.step_cell(0, z, factors);
            row_out[w - 1] = grid.step_cell(w - 1, z, factors);
            grid.step_interior_row(z, &mut row_out[1..w - 1], factors);
        }
        std::mem::swap(values, scratch);
        Ok(())
    }
}

/// Influence this small is dropped: left alone, fading tails would turn into subnormal floats,
/// which make every later pass over them many times slower.
pub(super) const NEGLIGIBLE: f32 = 1e-30;

/// The blend of one open cell, with negligible results flushed to 0.
#[inline]
fn blend(old: f32, spread: f32, f: Factors) -> f32 {
    // This lerp form is exact at both ends (momentum 0 keeps `old`, 1 gives `spread`).
    let v = old * (1.0 - f.momentum) + spread * f.momentum;
    if v.abs() < NEGLIGIBLE { 0.0 } else { v }
}

/// Read-only view of one layer and the walls during a step.
struct Grid<'a> {
    values: &'a [f32],
    blocked: &'a [u8],
    w: usize,
    h: usize,
}

impl Grid<'_> {
    /// Value at `(x + dx, z + dz)` and whether that cell is open; off-grid reads as a wall.
    #[inline]
    fn at(&self, x: usize, z: usize, dx: isize, dz: isize) -> (f32, bool) {
        let (nx, nz) = (x as isize + dx, z as isize + dz);
        if nx < 0 || nz < 0 || nx as usize >= self.w || nz as usize >= self.h {
            return (0.0, false);
        }
        let i = nz as usize * self.w + nx as usize;
        (self.values[i], self.blocked[i] == 0)
    }

    #[inline]
    fn step_cell(&self, x: usize, z: usize, f: Factors) -> f32 {
        let i = z * self.w + x;
        if self.blocked[i] != 0 {
            return 0.0;
        }
        let (west, west_open) = self.at(x, z, -1, 0);
        let (east, east_open) = self.at(x, z, 1, 0);
        let (south, south_open) = self.at(x, z, 0, -1);
        let (north, north_open) = self.at(x, z, 0, 1);
        // max(a·k, b·k) = max(a, b)·k for k > 0, so one multiply serves all four.
        let mut spread = west.max(east).max(south).max(north).max(0.0) * f.orthogonal;
        for (dx, dz, side_a, side_b) in [
            (-1, -1, west_open, south_open),
            (1, -1, east_open, south_open),
            (-1, 1, west_open, north_open),
            (1, 1, east_open, north_open),
        ] {
            if side_a && side_b {
                spread = spread.max(self.at(x, z, dx, dz).0 * f.diagonal);
            }
        }
        blend(self.values[i], spread, f)
    }

    /// `step_cell` for columns 1..w−1 of an interior row `z`, written without bounds checks or
    /// branches (selects) so the compiler can vectorise it. Same arithmetic, same results.
    fn step_interior_row(&self, z: usize, out: &mut [f32], f: Factors) {
        let (w, n) = (self.w, out.len());
        let cut = |r: usize, dx: usize| r * w + dx..r * w + dx + n;
        let (v, b) = (self.values, self.blocked);
        let (south_west, south, south_east) = (&v[cut(z - 1, 0)], &v[cut(z - 1, 1)], &v[cut(z - 1, 2)]);
        let (west, centre, east) = (&v[cut(z, 0)], &v[cut(z, 1)], &v[cut(z, 2)]);
        let (north_west, north, north_east) = (&v[cut(z + 1, 0)], &v[cut(z + 1, 1)], &v[cut(z + 1, 2)]);
        let (wall_s, wall_n) = (&b[cut(z - 1, 1)], &b[cut(z + 1, 1)]);
        let (wall_w, wall_c, wall_e) = (&b[cut(z, 0)], &b[cut(z, 1)], &b[cut(z, 2)]);
        // `if a > b` rather than `f32::max`: it maps onto the SIMD max instruction, and the
        // values are never NaN here (inputs are finite, factors positive).
        let max = |a: f32, b: f32| if a > b { a } else { b };
        for i in 0..n {
            let (open_w, open_e) = (wall_w[i] == 0, wall_e[i] == 0);
            let (open_s, open_n) = (wall_s[i] == 0, wall_n[i] == 0);
            let orthogonal = max(max(max(west[i], east[i]), max(south[i], north[i])), 0.0) * f.orthogonal;
            let gate = |open: bool, value: f32| if open { value } else { 0.0 };
            let diagonal = max(
                max(gate(open_w & open_s, south_west[i]), gate(open_e & open_s, south_east[i])),
                max(gate(open_w & open_n, north_west[i]), gate(open_e & open_n, north_east[i])),
            ) * f.diagonal;
            let v = blend(centre[i], max(orthogonal, diagonal), f);
            out[i] = if wall_c[i] != 0 { 0.0 } else { v };
        }
    }
}
