//! `InfluenceMap`: a grid of values over the ground plane (danger, control, scent) for Godot,
//! wrapping the core's influence map. 3D positions use (x, z); 2D positions (x, y) map to the
//! core's (x, 0, y), so both dimensions share one class.

use argus_core::influence::PropagationParams;
use argus_core::{InfluenceMapDef, Vec3};
use godot::classes::{IRefCounted, Image, RefCounted, image::Format};
use godot::prelude::*;

use crate::convert::{from_core, plane_to_core, to_core};

/// A layered grid of influence values on the ground plane (the lesson's influence map): stamp
/// sources with `add_influence`, spread them with `blur` or `propagate`, read them back with
/// `get_value`, and turn a layer into a heat-map `Image` with `to_image`. Accepts Vector3 (the
/// XZ plane) or Vector2 (a 2D point (x, y) is the plane point (x, 0, y)) positions.
#[derive(GodotClass)]
#[class(base = RefCounted)]
pub struct InfluenceMap {
    map: argus_core::InfluenceMap,
    base: Base<RefCounted>,
}

#[godot_api]
impl IRefCounted for InfluenceMap {
    fn init(base: Base<RefCounted>) -> Self {
        Self { map: argus_core::InfluenceMap::new(&InfluenceMapDef::default()).expect("default def is valid"), base }
    }
}

fn position_of(v: &Variant) -> Option<Vec3> {
    if let Ok(p) = v.try_to::<Vector3>() { Some(to_core(p)) } else { v.try_to::<Vector2>().ok().map(plane_to_core) }
}

#[godot_api]
impl InfluenceMap {
    /// Resets the map: `width` × `height` cells of `cell_size`, cell (0, 0)'s corner at `origin`
    /// (Vector3, or Vector2 for 2D), `layer_count` layers all 0. Returns false on bad settings.
    #[func]
    pub fn setup(&mut self, width: i64, height: i64, cell_size: f32, origin: Variant, layer_count: i64) -> bool {
        let def = InfluenceMapDef {
            width: width.clamp(0, u32::MAX as i64) as u32,
            height: height.clamp(0, u32::MAX as i64) as u32,
            cell_size,
            origin: position_of(&origin).unwrap_or(Vec3::ZERO),
            layer_count: layer_count.clamp(0, u32::MAX as i64) as u32,
            ..Default::default()
        };
        match argus_core::InfluenceMap::new(&def) {
            Ok(map) => {
                self.map = map;
                true
            }
            Err(e) => {
                godot_error!("InfluenceMap.setup: {e}");
                false
            }
        }
    }

    /// Columns.
    #[func]
    pub fn get_width(&self) -> i64 {
        self.map.width() as i64
    }

    /// Rows.
    #[func]
    pub fn get_height(&self) -> i64 {
        self.map.height() as i64
    }

    /// Layers.
    #[func]
    pub fn get_layer_count(&self) -> i64 {
        self.map.layer_count() as i64
    }

    /// Adds `value` at `position` on `layer`, falling off linearly to 0 over `radius_cells` cells.
    #[func]
    pub fn add_influence(&mut self, layer: i64, position: Variant, value: f32, radius_cells: i64) -> bool {
        let Some(p) = position_of(&position) else { return false };
        let r = self.map_layer(layer).and_then(|l| {
            self.map
                .add_influence(l, p, value, radius_cells.clamp(0, i32::MAX as i64) as i32)
                .map_err(|e| e.to_string())
        });
        self.report(r)
    }

    /// One box blur of `layer` (each cell becomes the mean of its 3×3 neighbourhood).
    #[func]
    pub fn blur(&mut self, layer: i64) -> bool {
        let r = self.map_layer(layer).and_then(|l| self.map.blur(l).map_err(|e| e.to_string()));
        self.report(r)
    }

    /// One propagation step: influence spreads to neighbours, attenuated by `decay` per metre,
    /// blended in with `momentum` (0..1); blocked cells stop it.
    #[func]
    pub fn propagate(&mut self, layer: i64, decay: f32, momentum: f32) -> bool {
        let params = PropagationParams { decay, momentum };
        let r = self.map_layer(layer).and_then(|l| self.map.propagate(l, &params).map_err(|e| e.to_string()));
        self.report(r)
    }

    /// Marks a cell as a wall for `propagate`.
    #[func]
    pub fn set_blocked(&mut self, cell: Vector2i, blocked: bool) -> bool {
        let r = self.map.set_blocked(cell.x, cell.y, blocked).map_err(|e| e.to_string());
        self.report(r)
    }

    /// Sets every cell of `layer` to 0.
    #[func]
    pub fn clear_layer(&mut self, layer: i64) -> bool {
        let r = self.map_layer(layer).and_then(|l| self.map.clear_layer(l).map_err(|e| e.to_string()));
        self.report(r)
    }

    /// The value of the cell containing `position` on `layer` (0 outside the grid).
    #[func]
    pub fn get_value(&self, layer: i64, position: Variant) -> f32 {
        let Some(p) = position_of(&position) else { return 0.0 };
        self.map_layer(layer).ok().and_then(|l| self.map.value(l, p).ok()).unwrap_or(0.0)
    }

    /// The value of one cell (0 outside the grid).
    #[func]
    pub fn get_cell_value(&self, layer: i64, cell: Vector2i) -> f32 {
        self.map_layer(layer).ok().and_then(|l| self.map.cell(l, cell.x, cell.y).ok().flatten()).unwrap_or(0.0)
    }

    /// The (column, row) of the cell containing `position` (may lie outside the grid).
    #[func]
    pub fn world_to_cell(&self, position: Variant) -> Vector2i {
        position_of(&position)
            .and_then(|p| self.map.world_to_cell(p).ok())
            .map(|(c, r)| Vector2i::new(c, r))
            .unwrap_or(Vector2i::new(i32::MIN, i32::MIN))
    }

    /// The centre of a cell as a Vector3 on the plane.
    #[func]
    pub fn cell_to_world(&self, cell: Vector2i) -> Vector3 {
        from_core(self.map.cell_center(cell.x, cell.y))
    }

    /// Names a layer (for `get_layer_index`).
    #[func]
    pub fn set_layer_name(&mut self, layer: i64, name: GString) -> bool {
        let name = name.to_string();
        let r = self.map_layer(layer).and_then(|l| self.map.set_layer_name(l, &name).map_err(|e| e.to_string()));
        self.report(r)
    }

    /// The layer with this name, or -1.
    #[func]
    pub fn get_layer_index(&self, name: GString) -> i64 {
        self.map.layer_index(&name.to_string()).map(|i| i as i64).unwrap_or(-1)
    }

    /// A heat map of `layer`: one pixel per cell (column → x, row → y), `low` and below black,
    /// rising through red and yellow to white at `high` and above.
    #[func]
    pub fn to_image(&self, layer: i64, low: f32, high: f32) -> Option<Gd<Image>> {
        let l = self.map_layer(layer).ok()?;
        let values = self.map.layer(l).ok()?;
        let span = (high - low).max(1e-12);
        let mut bytes = Vec::with_capacity(values.len() * 3);
        for v in values {
            let t = ((v - low) / span).clamp(0.0, 1.0) * 3.0;
            let channel = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
            bytes.extend([channel(t), channel(t - 1.0), channel(t - 2.0)]);
        }
        let (w, h) = (self.map.width() as i32, self.map.height() as i32);
        Image::create_from_data(w, h, false, Format::RGB8, &PackedByteArray::from(bytes))
    }
}

impl InfluenceMap {
    /// The core map (for tactical queries).
    pub fn core(&self) -> &argus_core::InfluenceMap {
        &self.map
    }

    fn map_layer(&self, layer: i64) -> Result<usize, String> {
        let l = usize::try_from(layer).map_err(|_| format!("layer {layer} is negative"))?;
        self.map.check_layer(l).map_err(|e| e.to_string())?;
        Ok(l)
    }

    fn report(&self, r: Result<(), String>) -> bool {
        match r {
            Ok(()) => true,
            Err(e) => {
                godot_error!("InfluenceMap: {e}");
                false
            }
        }
    }
}
