//! Influence maps (lesson §9–10): a grid over the level where every cell holds one number per
//! layer — danger, ally presence, visibility — that sources stamp in, blur smooths, propagation
//! spreads, and tactical queries read back in one lookup.
//!
//! Storage is one row-major `f32` buffer per layer (row = Z, or Y on the [`Plane::XY`] plane;
//! column = X), so [`InfluenceMap::layer`] can be uploaded as a heat-map texture as is. One
//! scratch buffer is shared by blur, propagation and combine: after the first call none of them
//! allocates.
//!
//! ```
//! use argus_core::influence::{InfluenceMap, InfluenceMapDef};
//! use argus_core::Vec3;
//! let mut map = InfluenceMap::new(&InfluenceMapDef { width: 5, height: 5, ..Default::default() }).unwrap();
//! map.add_influence(0, Vec3::new(2.5, 0.0, 2.5), 10.0, 2).unwrap();
//! map.blur(0).unwrap();
//! assert_eq!(map.value(0, Vec3::new(2.5, 0.0, 2.5)).unwrap(), 6.0); // the lesson's trace
//! ```

mod blur;
mod combine;
mod def;
mod grid;
mod layers;
mod propagation;
mod sampling;
mod stamp;

pub use combine::{CombineOp, LayerWeight};
pub use def::{InfluenceMapDef, MAX_CELLS, MAX_LAYERS, MAX_VALUES, Plane};
pub use layers::MAX_LAYER_NAME_BYTES;
pub use propagation::PropagationParams;
pub use sampling::{CellValue, Extremum};
pub use stamp::MAX_CACHED_STAMP_RADIUS;

use crate::error::{Result, invalid};
use stamp::StampCache;

/// A grid of `width × height` square cells with one or more layers of values.
///
/// Every call that takes a layer index, a position or a tuning value validates it first and
/// returns [`crate::Error::InvalidArgument`] without changing anything when it is unusable.
#[derive(Clone)]
pub struct InfluenceMap {
    def: InfluenceMapDef,
    width: usize,
    height: usize,
    /// One row-major buffer of `width * height` values per layer.
    layers: Vec<Vec<f32>>,
    /// Optional layer names ("" = unnamed), for lookup by name.
    names: Vec<String>,
    /// Reused output buffer for blur / propagation / combine; swapped with the layer after.
    scratch: Vec<f32>,
    /// 1 where a cell blocks propagation (a wall), row-major like the layers.
    blocked: Vec<u8>,
    /// Falloff stamps for `add_influence`, built once per radius.
    stamps: StampCache,
    /// Reused by `add_influences` to stamp sources in row order.
    order: Vec<(i32, i32, u32)>,
}

impl InfluenceMap {
    /// Creates a map with every value 0 and no blocked cells.
    pub fn new(def: &InfluenceMapDef) -> Result<InfluenceMap> {
        def.validate()?;
        let (width, height) = (def.width as usize, def.height as usize);
        let cells = width * height;
        // Up to MAX_VALUES values (256 MB): allocated fallibly, so a map larger than the memory
        // available is `Error::OutOfMemory`, never an abort.
        let out_of_memory =
            || crate::error::Error::OutOfMemory(format!("cannot allocate an influence map of {cells} cells"));
        let zeros = |n: usize| -> Result<Vec<f32>> {
            let mut v = Vec::new();
            v.try_reserve_exact(n).map_err(|_| out_of_memory())?;
            v.resize(n, 0.0);
            Ok(v)
        };
        let mut layers = Vec::new();
        layers.try_reserve_exact(def.layer_count as usize).map_err(|_| out_of_memory())?;
        for _ in 0..def.layer_count {
            layers.push(zeros(cells)?);
        }
        let mut blocked = Vec::new();
        blocked.try_reserve_exact(cells).map_err(|_| out_of_memory())?;
        blocked.resize(cells, 0);
        Ok(InfluenceMap {
            def: *def,
            width,
            height,
            layers,
            names: vec![String::new(); def.layer_count as usize],
            scratch: Vec::new(),
            blocked,
            stamps: StampCache::default(),
            order: Vec::new(),
        })
    }

    /// The settings this map was created with.
    pub fn def(&self) -> &InfluenceMapDef {
        &self.def
    }

    /// Number of columns (cells along +X).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows (cells along +Z, or +Y on the `XY` plane).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells per layer (`width * height`).
    pub fn cell_count(&self) -> usize {
        self.width * self.height
    }

    /// Edge length of a cell, in metres.
    pub fn cell_size(&self) -> f32 {
        self.def.cell_size
    }

    /// Number of layers.
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// Rejects a layer index that does not exist.
    pub fn check_layer(&self, layer: usize) -> Result<()> {
        if layer < self.layers.len() {
            Ok(())
        } else {
            Err(invalid(format!(
                "influence map layer {layer} does not exist (the map has {} layers)",
                self.layers.len()
            )))
        }
    }

    /// The scratch buffer sized to one layer (allocated on first use only).
    fn scratch_for_layer(scratch: &mut Vec<f32>, cells: usize) -> &mut [f32] {
        scratch.resize(cells, 0.0);
        scratch
    }
}

impl Default for InfluenceMap {
    /// A map made from [`InfluenceMapDef::default`] (64 × 64 cells of 1 m, one layer).
    fn default() -> Self {
        InfluenceMap::new(&InfluenceMapDef::default()).expect("default influence map def is valid")
    }
}

impl std::fmt::Debug for InfluenceMap {
    /// A summary: the values themselves would flood a log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InfluenceMap")
            .field("def", &self.def)
            .field("names", &self.names)
            .field("blocked_cells", &self.blocked.iter().filter(|&&b| b != 0).count())
            .finish()
    }
}
