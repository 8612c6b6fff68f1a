//! The lesson's influence map (§10) and tactical queries (§11), ported loop for loop over plain
//! data: a fresh array per blur pass, a square root per stamped cell, a ray per cover candidate
//! against every occluder in turn. These are the benchmark baselines, so they stay naive.
//!
//! Storage is row-major (`cells[z * width + x]`, column = X, row = Z): the lesson's `cells[x, z]`
//! in the same layout argus uses for its layers.

use glam::Vec3;

use super::geometry::{RefOccluder, normalized_or_zero, raycast};

/// An influence map: `width × height` square cells on the XZ plane starting at `origin`.
#[derive(Clone, Debug, PartialEq)]
pub struct RefGrid {
    pub width: usize,
    pub height: usize,
    pub cell_size: f32,
    pub origin: Vec3,
    /// Row-major values, `width * height` of them.
    pub cells: Vec<f32>,
}

impl RefGrid {
    /// A grid of zeros.
    pub fn new(width: usize, height: usize, cell_size: f32, origin: Vec3) -> RefGrid {
        RefGrid { width, height, cell_size, origin, cells: vec![0.0; width * height] }
    }

    /// The value of cell `(x, z)`.
    pub fn at(&self, x: usize, z: usize) -> f32 {
        self.cells[z * self.width + x]
    }
}

/// `WorldToCell`: floor of the offset from the origin in cells (may lie outside the grid).
pub fn world_to_cell(grid: &RefGrid, world: Vec3) -> (i32, i32) {
    let cx = ((world.x - grid.origin.x) / grid.cell_size).floor() as i32;
    let cz = ((world.z - grid.origin.z) / grid.cell_size).floor() as i32;
    (cx, cz)
}

/// `Clear`.
pub fn clear(grid: &mut RefGrid) {
    grid.cells.iter_mut().for_each(|c| *c = 0.0);
}

/// `AddInfluence`: every cell within `radius_cells` (Euclidean, in cells) of the source's cell
/// gains `value × (1 − dist / radius_cells)`. The lesson divides by the radius, so radius 0 would
/// write NaN; here radius 0 stamps the full value into the source's cell alone.
pub fn add_influence(grid: &mut RefGrid, world: Vec3, value: f32, radius_cells: i32) {
    let (cx, cz) = world_to_cell(grid, world);
    for dx in -radius_cells..=radius_cells {
        for dz in -radius_cells..=radius_cells {
            let x = cx + dx;
            let z = cz + dz;
            if x < 0 || x >= grid.width as i32 || z < 0 || z >= grid.height as i32 {
                continue;
            }
            let dist = ((dx * dx + dz * dz) as f32).sqrt();
            if dist > radius_cells as f32 {
                continue;
            }
            let falloff = if radius_cells > 0 { 1.0 - dist / radius_cells as f32 } else { 1.0 };
            grid.cells[z as usize * grid.width + x as usize] += value * falloff;
        }
    }
}

/// `Blur`: every cell becomes the average of itself and its up-to-four neighbours, summed in the
/// lesson's order (self, x − 1, x + 1, z − 1, z + 1), into a freshly allocated array.
pub fn blur(grid: &mut RefGrid) {
    let (w, h) = (grid.width, grid.height);
    let cells = &grid.cells;
    let mut result = vec![0.0f32; w * h];
    for x in 0..w {
        for z in 0..h {
            let mut sum = cells[z * w + x];
            let mut count = 1;
            if x > 0 {
                sum += cells[z * w + x - 1];
                count += 1;
            }
            if x < w - 1 {
                sum += cells[z * w + x + 1];
                count += 1;
            }
            if z > 0 {
                sum += cells[(z - 1) * w + x];
                count += 1;
            }
            if z < h - 1 {
                sum += cells[(z + 1) * w + x];
                count += 1;
            }
            result[z * w + x] = sum / count as f32;
        }
    }
    grid.cells = result;
}

/// `GetValue`: the value of the cell under `world`, 0 outside the grid.
pub fn get_value(grid: &RefGrid, world: Vec3) -> f32 {
    let (cx, cz) = world_to_cell(grid, world);
    if cx < 0 || cx >= grid.width as i32 || cz < 0 || cz >= grid.height as i32 {
        return 0.0;
    }
    grid.cells[cz as usize * grid.width + cx as usize]
}

/// `FindBestCover`: among candidates the threat's eye cannot see (a ray from the eye over the
/// full distance hits an occluder on `obstacle_mask`), the lowest `danger × 10 + travel`; strict
/// `<`, so the first of equals wins; `self_pos` when none qualifies. A candidate on the eye
/// (zero direction) cannot be hidden.
pub fn find_best_cover(
    self_pos: Vec3,
    threat_eye: Vec3,
    candidates: &[Vec3],
    danger_map: &RefGrid,
    occluders: &[RefOccluder],
    obstacle_mask: u32,
) -> Vec3 {
    let mut best = self_pos;
    let mut best_score = f32::MAX;
    for &candidate in candidates {
        let to_candidate = candidate - threat_eye;
        let dir = normalized_or_zero(to_candidate);
        let blocked =
            dir != Vec3::ZERO && raycast(occluders, threat_eye, dir, to_candidate.length(), obstacle_mask).is_some();
        if !blocked {
            continue;
        }
        let danger = get_value(danger_map, candidate);
        let travel_cost = self_pos.distance(candidate);
        let score = danger * 10.0 + travel_cost;
        if score < best_score {
            best_score = score;
            best = candidate;
        }
    }
    best
}

/// `FindFlankPosition`: candidates with `dot(enemy_forward, dir from enemy) ≤ 0.3`, best
/// `−dot − danger`; strict `>`; `enemy_pos` when none qualifies. A candidate on the enemy has a
/// zero direction (Unity's `normalized`), so its dot is 0.
pub fn find_flank_position(enemy_pos: Vec3, enemy_forward: Vec3, candidates: &[Vec3], danger_map: &RefGrid) -> Vec3 {
    let mut best = enemy_pos;
    let mut best_score = f32::MIN;
    for &candidate in candidates {
        let dir_from_enemy = normalized_or_zero(candidate - enemy_pos);
        let facing_dot = enemy_forward.dot(dir_from_enemy);
        if facing_dot > 0.3 {
            continue;
        }
        let danger = get_value(danger_map, candidate);
        let flank_score = -facing_dot - danger;
        if flank_score > best_score {
            best_score = flank_score;
            best = candidate;
        }
    }
    best
}
