//! Whole-layer arithmetic: combining layers into one, normalising, and decay over time.

use super::InfluenceMap;
use super::propagation::NEGLIGIBLE;
use crate::error::{Result, invalid};
use crate::math::check_range;

/// How [`InfluenceMap::combine`] folds its weighted inputs `wᵢ · layerᵢ` into the destination.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CombineOp {
    /// Σ wᵢ · layerᵢ (e.g. danger − allies with weights 1 and −1).
    #[default]
    WeightedSum,
    /// maxᵢ wᵢ · layerᵢ.
    Max,
    /// minᵢ wᵢ · layerᵢ.
    Min,
    /// Πᵢ wᵢ · layerᵢ (e.g. danger masked by a 0/1 visibility layer).
    Multiply,
    /// The weighted sum, then divided by its largest absolute value so the result lies in
    /// [−1, 1] and 0 stays 0 (an all-zero result stays all zero).
    Normalize,
}

/// One input of [`InfluenceMap::combine`]: a layer index and the factor its values are scaled by.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LayerWeight {
    /// Layer index.
    pub layer: usize,
    /// Factor applied to every value of that layer (finite; 1 = as is).
    pub weight: f32,
}

impl InfluenceMap {
    /// Writes `op` over the weighted `inputs` into layer `dest`. `dest` may be one of the
    /// inputs: every input is read before the destination is replaced. Needs at least one input.
    pub fn combine(&mut self, dest: usize, op: CombineOp, inputs: &[LayerWeight]) -> Result<()> {
        self.check_layer(dest)?;
        if inputs.is_empty() {
            return Err(invalid("combine needs at least one input layer"));
        }
        for input in inputs {
            self.check_layer(input.layer)?;
            if crate::math::check_magnitude(input.weight, "combine weight").is_err() {
                return Err(invalid(format!(
                    "combine weight of layer {} must be finite, got {}",
                    input.layer, input.weight
                )));
            }
        }
        let cells = self.cell_count();
        let InfluenceMap { layers, scratch, .. } = self;
        let out = InfluenceMap::scratch_for_layer(scratch, cells);
        let first = &inputs[0];
        for (o, &v) in out.iter_mut().zip(&layers[first.layer]) {
            *o = saturate(first.weight * v);
        }
        for input in &inputs[1..] {
            let (src, k) = (&layers[input.layer], input.weight);
            let pairs = out.iter_mut().zip(src);
            match op {
                CombineOp::WeightedSum | CombineOp::Normalize => pairs.for_each(|(o, &v)| *o = saturate(*o + k * v)),
                CombineOp::Max => pairs.for_each(|(o, &v)| *o = saturate(o.max(k * v))),
                CombineOp::Min => pairs.for_each(|(o, &v)| *o = saturate(o.min(k * v))),
                CombineOp::Multiply => pairs.for_each(|(o, &v)| *o = saturate(*o * k * v)),
            }
        }
        if op == CombineOp::Normalize {
            normalize_in_place(out);
        }
        std::mem::swap(&mut layers[dest], scratch);
        Ok(())
    }

    /// Divides `layer` by its largest absolute value, so it lies in [−1, 1]; an all-zero layer
    /// is left as is.
    pub fn normalize(&mut self, layer: usize) -> Result<()> {
        self.check_layer(layer)?;
        normalize_in_place(&mut self.layers[layer]);
        Ok(())
    }

    /// Time decay: multiplies `layer` by `keep_per_second ^ dt`. `keep_per_second` in [0, 1] is
    /// the fraction of influence left after one second (0.5 = halves every second) and `dt` ≥ 0
    /// is in seconds, so the result does not depend on how a second is split into frames.
    pub fn decay(&mut self, layer: usize, keep_per_second: f32, dt: f32) -> Result<()> {
        self.check_layer(layer)?;
        check_range(keep_per_second, 0.0, 1.0, "influence decay (fraction kept per second)")?;
        crate::math::check_non_negative(dt, "decay time step (seconds)")?;
        self.scale(layer, keep_per_second.powf(dt))
    }

    /// Multiplies every value of `layer` by a finite `factor`. Results below 1e-30 in magnitude
    /// become 0, so a layer left to decay reaches 0 instead of slow subnormal floats.
    pub fn scale(&mut self, layer: usize, factor: f32) -> Result<()> {
        self.check_layer(layer)?;
        crate::math::check_magnitude(factor, "scale factor")?;
        for v in self.layers[layer].iter_mut() {
            let scaled = saturate(*v * factor);
            *v = if scaled.abs() < NEGLIGIBLE { 0.0 } else { scaled };
        }
        Ok(())
    }
}

/// Map values stay within ±`MAX_MAGNITUDE`: with inputs bounded so, every product and sum above
/// is finite, and saturating keeps repeated operations from ever reaching infinity.
pub(crate) fn saturate(v: f32) -> f32 {
    v.clamp(-crate::math::MAX_MAGNITUDE, crate::math::MAX_MAGNITUDE)
}

/// Divides by the largest absolute value, if it is non-zero and finite.
fn normalize_in_place(values: &mut [f32]) {
    let peak = values.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if peak > 0.0 && peak.is_finite() {
        values.iter_mut().for_each(|v| *v /= peak);
    }
}
