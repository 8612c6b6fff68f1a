//! The settings an influence map is created from, the plane it lies on, and the size limits.

use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite, check_positive};

/// Most cells (width × height) one map may have: 16 Mi cells, 64 MiB per layer.
pub const MAX_CELLS: u64 = 1 << 24;

/// Most layers one map may have.
pub const MAX_LAYERS: u32 = 32;

/// Most values (cells × layers) one map may hold: 64 Mi values, 256 MiB.
pub const MAX_VALUES: u64 = 1 << 26;

/// Which two world axes the grid spans. Columns always follow +X; rows follow +Z or +Y.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Plane {
    /// The ground plane of a 3D game with +Y up (the lesson's grid): rows follow +Z.
    #[default]
    XZ,
    /// The screen plane of a 2D game: rows follow +Y, and Z is ignored.
    XY,
}

impl Plane {
    /// The point's coordinates on the plane: (along columns, along rows), in metres.
    #[inline]
    pub fn project(self, p: Vec3) -> (f32, f32) {
        match self {
            Plane::XZ => (p.x, p.z),
            Plane::XY => (p.x, p.y),
        }
    }

    /// The point's coordinate along the plane's normal (Y for `XZ`, Z for `XY`).
    #[inline]
    pub fn normal_coordinate(self, p: Vec3) -> f32 {
        match self {
            Plane::XZ => p.y,
            Plane::XY => p.z,
        }
    }

    /// The point with plane coordinates `(u, v)` and normal coordinate `n`.
    #[inline]
    pub fn unproject(self, u: f32, v: f32, n: f32) -> Vec3 {
        match self {
            Plane::XZ => Vec3::new(u, n, v),
            Plane::XY => Vec3::new(u, v, n),
        }
    }
}

/// Everything needed to create an influence map; the map copies it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct InfluenceMapDef {
    /// Number of columns (cells along +X), at least 1 (default 64).
    pub width: u32,
    /// Number of rows (cells along +Z, or +Y on the `XY` plane), at least 1 (default 64).
    pub height: u32,
    /// Edge length of one square cell, in metres, > 0 (default 1).
    pub cell_size: f32,
    /// World position of the corner of cell (0, 0) — the minimum corner of the grid. Its
    /// coordinate along the plane normal is the height of every cell centre (default origin).
    pub origin: Vec3,
    /// Which world axes the grid spans (default `XZ`).
    pub plane: Plane,
    /// Number of layers, 1 to [`MAX_LAYERS`] (default 1). Each is one f32 per cell.
    pub layer_count: u32,
}

impl Default for InfluenceMapDef {
    fn default() -> Self {
        InfluenceMapDef { width: 64, height: 64, cell_size: 1.0, origin: Vec3::ZERO, plane: Plane::XZ, layer_count: 1 }
    }
}

impl InfluenceMapDef {
    /// Checks every field against the limits; nothing is allocated before this passes.
    pub fn validate(&self) -> Result<()> {
        if self.width == 0 || self.height == 0 {
            return Err(invalid(format!(
                "influence map width and height must be at least 1, got {} x {}",
                self.width, self.height
            )));
        }
        let cells = self.width as u64 * self.height as u64;
        if cells > MAX_CELLS {
            return Err(invalid(format!(
                "influence map has {cells} cells ({} x {}); the limit is {MAX_CELLS}",
                self.width, self.height
            )));
        }
        check_positive(self.cell_size, "influence map cell size")?;
        check_finite(self.origin, "influence map origin")?;
        if self.layer_count == 0 || self.layer_count > MAX_LAYERS {
            return Err(invalid(format!(
                "influence map layer count must be 1 to {MAX_LAYERS}, got {}",
                self.layer_count
            )));
        }
        if cells * self.layer_count as u64 > MAX_VALUES {
            return Err(invalid(format!(
                "influence map would hold {} values ({cells} cells x {} layers); the limit is {MAX_VALUES}",
                cells * self.layer_count as u64,
                self.layer_count
            )));
        }
        Ok(())
    }
}
