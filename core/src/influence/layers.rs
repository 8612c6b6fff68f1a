//! Layers: raw access for engines (heat-map textures), names, clearing and filling.

use super::InfluenceMap;
use crate::error::{Result, invalid};

/// Longest layer name accepted, in bytes (UTF-8).
pub const MAX_LAYER_NAME_BYTES: usize = 64;

impl InfluenceMap {
    /// All values of `layer`, row-major: index `row * width + column`, row along +Z (or +Y on
    /// the `XY` plane), column along +X. Ready to upload as a one-channel float texture.
    pub fn layer(&self, layer: usize) -> Result<&[f32]> {
        self.check_layer(layer)?;
        Ok(&self.layers[layer])
    }

    /// All values of `layer`, mutably, for the crate's own writers (which keep every value
    /// finite and within ±`MAX_MAGNITUDE`); callers use the checked setters below.
    pub(crate) fn layer_mut(&mut self, layer: usize) -> Result<&mut [f32]> {
        self.check_layer(layer)?;
        Ok(&mut self.layers[layer])
    }

    /// Replaces every value of `layer` (same layout as [`InfluenceMap::layer`]). Every value must
    /// be finite and within ±[`crate::math::MAX_MAGNITUDE`]; otherwise nothing changes.
    pub fn set_layer(&mut self, layer: usize, values: &[f32]) -> Result<()> {
        self.check_layer(layer)?;
        if values.len() != self.layers[layer].len() {
            return Err(invalid(format!("{} values given for {} cells", values.len(), self.layers[layer].len())));
        }
        for (i, &v) in values.iter().enumerate() {
            crate::math::check_magnitude(v, &format!("value {i}"))?;
        }
        self.layers[layer].copy_from_slice(values);
        Ok(())
    }

    /// Sets one cell (column along +X, row along +Z, or +Y on `XY`) to a finite `value` within
    /// ±[`crate::math::MAX_MAGNITUDE`]. A cell outside the grid is an error.
    pub fn set_cell(&mut self, layer: usize, column: i32, row: i32, value: f32) -> Result<()> {
        self.check_layer(layer)?;
        crate::math::check_magnitude(value, "cell value")?;
        let i = self
            .cell_index(column, row)
            .ok_or_else(|| invalid(format!("cell ({column}, {row}) is outside the grid")))?;
        self.layers[layer][i] = value;
        Ok(())
    }

    /// Value of one cell, `None` outside the grid.
    pub fn cell(&self, layer: usize, column: i32, row: i32) -> Result<Option<f32>> {
        self.check_layer(layer)?;
        Ok(self.cell_index(column, row).map(|i| self.layers[layer][i]))
    }

    /// Sets every value of every layer to 0, as the lesson's `Clear` (blocked cells stay).
    pub fn clear(&mut self) {
        for values in &mut self.layers {
            values.fill(0.0);
        }
    }

    /// Sets every value of `layer` to 0.
    pub fn clear_layer(&mut self, layer: usize) -> Result<()> {
        self.fill(layer, 0.0)
    }

    /// Sets every value of `layer` to a finite `value`.
    pub fn fill(&mut self, layer: usize, value: f32) -> Result<()> {
        self.check_layer(layer)?;
        crate::math::check_magnitude(value, "fill value")?;
        self.layers[layer].fill(value);
        Ok(())
    }

    /// Names a layer ("danger", "allies", ...) for [`InfluenceMap::layer_index`]. An empty name
    /// removes the name. Names are unique within a map and at most 64 bytes.
    pub fn set_layer_name(&mut self, layer: usize, name: &str) -> Result<()> {
        self.check_layer(layer)?;
        if name.len() > MAX_LAYER_NAME_BYTES {
            return Err(invalid(format!(
                "layer name must be at most {MAX_LAYER_NAME_BYTES} bytes, got {}",
                name.len()
            )));
        }
        if let Some(other) = self.layer_index(name).filter(|&i| i != layer && !name.is_empty()) {
            return Err(invalid(format!("layer name {name:?} is already used by layer {other}")));
        }
        self.names[layer] = name.to_owned();
        Ok(())
    }

    /// A layer's name ("" when unnamed).
    pub fn layer_name(&self, layer: usize) -> Result<&str> {
        self.check_layer(layer)?;
        Ok(&self.names[layer])
    }

    /// The index of the layer with this name, if any (never matches the empty name).
    pub fn layer_index(&self, name: &str) -> Option<usize> {
        if name.is_empty() {
            return None;
        }
        self.names.iter().position(|n| n == name)
    }
}
