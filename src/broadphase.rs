//! A hashed uniform grid over target positions, rebuilt each step by counting sort, so an agent
//! only visits targets near its view sphere instead of every target (the lesson's OverlapSphere).

use crate::math::Vec3;

#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    cell: [i32; 3],
    target: u32,
}

/// The grid. Rebuilding reuses its buffers, so steady-state steps do not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct TargetGrid {
    inv_cell: f32,
    mask: usize,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    keyed: Vec<(u32, Entry)>,
    count: usize,
}

#[inline]
fn cell_of(p: Vec3, inv_cell: f32) -> [i32; 3] {
    // Saturating casts keep absurd coordinates in range; they only cost extra candidates.
    [(p.x * inv_cell).floor() as i32, (p.y * inv_cell).floor() as i32, (p.z * inv_cell).floor() as i32]
}

#[inline]
fn hash(c: [i32; 3]) -> u32 {
    (c[0] as u32).wrapping_mul(0x9E37_79B1)
        ^ (c[1] as u32).wrapping_mul(0x85EB_CA77)
        ^ (c[2] as u32).wrapping_mul(0xC2B2_AE3D)
}

impl TargetGrid {
    /// Rebuilds from `(slot index, position)` pairs with cells of `cell_size` metres.
    pub fn rebuild(&mut self, cell_size: f32, targets: impl Iterator<Item = (u32, Vec3)>) {
        self.inv_cell = 1.0 / cell_size.max(0.01);
        self.keyed.clear();
        for (target, p) in targets {
            let cell = cell_of(p, self.inv_cell);
            self.keyed.push((0, Entry { cell, target }));
        }
        self.count = self.keyed.len();
        let buckets = (self.count * 2).next_power_of_two().max(64);
        self.mask = buckets - 1;
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        for (key, e) in self.keyed.iter_mut() {
            *key = hash(e.cell) & self.mask as u32;
            self.starts[*key as usize + 1] += 1;
        }
        for i in 0..buckets {
            self.starts[i + 1] += self.starts[i];
        }
        self.entries.clear();
        self.entries.resize(self.count, Entry::default());
        // Placing in input order keeps each bucket in slot order: deterministic visits.
        let mut cursor = std::mem::take(&mut self.starts);
        for (key, e) in &self.keyed {
            let slot = &mut cursor[*key as usize];
            self.entries[*slot as usize] = *e;
            *slot += 1;
        }
        // `cursor[k]` now holds the end of bucket k, i.e. the start of k + 1: shift back.
        for i in (1..=buckets).rev() {
            cursor[i] = cursor[i - 1];
        }
        cursor[0] = 0;
        self.starts = cursor;
    }

    /// Calls `visit` for every target whose cell overlaps the sphere's bounding box; each target
    /// at most once. Falls back to `all` when the sphere spans more cells than there are targets.
    pub fn query(&self, center: Vec3, radius: f32, mut visit: impl FnMut(u32)) {
        if self.count == 0 {
            return;
        }
        let lo = cell_of(center - Vec3::splat(radius), self.inv_cell);
        let hi = cell_of(center + Vec3::splat(radius), self.inv_cell);
        let span = |a: i32, b: i32| (b as i64 - a as i64 + 1).max(0) as u64;
        let cells = span(lo[0], hi[0]).saturating_mul(span(lo[1], hi[1])).saturating_mul(span(lo[2], hi[2]));
        if cells > self.count as u64 {
            for e in &self.entries {
                visit(e.target);
            }
            return;
        }
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    let cell = [x, y, z];
                    let key = (hash(cell) & self.mask as u32) as usize;
                    let (start, end) = (self.starts[key] as usize, self.starts[key + 1] as usize);
                    for e in &self.entries[start..end] {
                        if e.cell == cell {
                            visit(e.target);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_finds_each_nearby_target_once_and_skips_far_ones() {
        let mut grid = TargetGrid::default();
        let points: Vec<(u32, Vec3)> = (0..200)
            .map(|i| (i, Vec3::new((i % 20) as f32 * 3.0, 0.0, (i / 20) as f32 * 3.0)))
            .collect();
        grid.rebuild(5.0, points.iter().copied());
        let center = Vec3::new(20.0, 0.0, 10.0);
        let mut found = Vec::new();
        grid.query(center, 6.0, |t| found.push(t));
        let mut sorted = found.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), found.len(), "a target was visited twice");
        for (i, p) in &points {
            if p.distance(center) <= 6.0 {
                assert!(found.contains(i), "missed target {i} at {p}");
            }
            if p.distance(center) > 6.0 + 2.0 * 5.0 * 3f32.sqrt() {
                assert!(!found.contains(i), "visited far target {i}");
            }
        }
    }
}
