//! The lesson's box blur: every cell becomes the average of itself and its up-to-four
//! neighbours (fewer at the edges). Written into the scratch buffer and swapped in, row by row
//! with the interior columns as one branch-free loop so the compiler vectorises it.

use super::InfluenceMap;
use crate::error::Result;

impl InfluenceMap {
    /// One blur pass over `layer`. The sum is taken in the lesson's order (centre, −X, +X,
    /// −row, +row) and divided by the neighbour count, so results match the lesson exactly.
    #[doc(alias = "Blur")]
    pub fn blur(&mut self, layer: usize) -> Result<()> {
        self.check_layer(layer)?;
        let (w, h) = (self.width, self.height);
        let InfluenceMap { layers, scratch, .. } = self;
        let src = &layers[layer];
        let out = InfluenceMap::scratch_for_layer(scratch, w * h);
        for z in 0..h {
            let row = |r: usize| &src[r * w..(r + 1) * w];
            let up = (z > 0).then(|| row(z - 1));
            let down = (z + 1 < h).then(|| row(z + 1));
            blur_row(&mut out[z * w..(z + 1) * w], row(z), up, down);
        }
        std::mem::swap(&mut layers[layer], scratch);
        Ok(())
    }
}

/// Blurs one row. `up` / `down` are the rows before and after it, absent at the grid's edges.
fn blur_row(out: &mut [f32], mid: &[f32], up: Option<&[f32]>, down: Option<&[f32]>) {
    let w = mid.len();
    let vertical = up.is_some() as u32 + down.is_some() as u32;
    // Edge columns (and 1-wide grids): the general formula with whichever neighbours exist.
    let edge = |x: usize| {
        let mut sum = mid[x];
        let mut count = 1 + vertical;
        if x > 0 {
            sum += mid[x - 1];
            count += 1;
        }
        if x + 1 < w {
            sum += mid[x + 1];
            count += 1;
        }
        if let Some(u) = up {
            sum += u[x];
        }
        if let Some(d) = down {
            sum += d[x];
        }
        sum / count as f32
    };
    out[0] = edge(0);
    if w == 1 {
        return;
    }
    out[w - 1] = edge(w - 1);
    if w == 2 {
        return;
    }
    // Interior columns: every slice has length n, so the loops carry no bounds checks.
    let n = w - 2;
    let o = &mut out[1..w - 1];
    let (left, centre, right) = (&mid[..n], &mid[1..w - 1], &mid[2..]);
    match (up, down) {
        (Some(u), Some(d)) => {
            let (u, d) = (&u[1..w - 1], &d[1..w - 1]);
            for i in 0..n {
                o[i] = (centre[i] + left[i] + right[i] + u[i] + d[i]) / 5.0;
            }
        }
        (Some(v), None) | (None, Some(v)) => {
            let v = &v[1..w - 1];
            for i in 0..n {
                o[i] = (centre[i] + left[i] + right[i] + v[i]) / 4.0;
            }
        }
        (None, None) => {
            for i in 0..n {
                o[i] = (centre[i] + left[i] + right[i]) / 3.0;
            }
        }
    }
}
