//! A hashed uniform grid over target positions, rebuilt each step by counting sort, so an agent
//! only visits targets near its view sphere instead of every target (the lesson's OverlapSphere).
//! The grid spans the two axes along which the targets spread most (the ground plane of a 3D
//! level, the screen plane of a 2D one); the third axis is left to the exact range test.

use crate::math::Vec3;

#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    cell: [i32; 2],
    target: u32,
}

/// The grid. Rebuilding reuses its buffers, so steady-state steps do not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct TargetGrid {
    inv_cell: f32,
    /// The two axes the grid spans.
    axes: [usize; 2],
    mask: usize,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    keyed: Vec<(u32, Entry)>,
    count: usize,
}

#[inline]
fn hash(c: [i32; 2]) -> u32 {
    (c[0] as u32).wrapping_mul(0x9E37_79B1) ^ (c[1] as u32).wrapping_mul(0x85EB_CA77)
}

impl TargetGrid {
    #[inline]
    fn cell_of(&self, p: Vec3) -> [i32; 2] {
        // Saturating casts keep absurd coordinates in range; they only cost extra candidates.
        let p = p.to_array();
        [(p[self.axes[0]] * self.inv_cell).floor() as i32, (p[self.axes[1]] * self.inv_cell).floor() as i32]
    }

    /// Rebuilds from `(slot index, position)` pairs with cells of `cell_size` metres.
    pub fn rebuild(&mut self, cell_size: f32, targets: &[(u32, Vec3)]) {
        self.inv_cell = 1.0 / cell_size.max(0.01);
        let (lo, hi) = targets.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), (_, p)| {
            (lo.min(*p), hi.max(*p))
        });
        let extent = (hi - lo).max(Vec3::ZERO).to_array();
        let flat = (0..3).min_by(|&a, &b| extent[a].total_cmp(&extent[b]).then(b.cmp(&a))).unwrap_or(1);
        self.axes = match flat {
            0 => [1, 2],
            1 => [0, 2],
            _ => [0, 1],
        };
        self.keyed.clear();
        for &(target, p) in targets {
            let cell = self.cell_of(p);
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

    /// The two axes the grid spans (indices into x, y, z).
    pub fn plane_axes(&self) -> [usize; 2] {
        self.axes
    }

    /// Calls `visit` for every target whose cell overlaps the sphere's bounding box; each target
    /// at most once. Falls back to all targets when the sphere spans more cells than there are.
    pub fn query(&self, center: Vec3, radius: f32, mut visit: impl FnMut(u32)) {
        if self.count == 0 {
            return;
        }
        let lo = self.cell_of(center - Vec3::splat(radius));
        let hi = self.cell_of(center + Vec3::splat(radius));
        let span = |a: i32, b: i32| (b as i64 - a as i64 + 1).max(0) as u64;
        let cells = span(lo[0], hi[0]).saturating_mul(span(lo[1], hi[1]));
        if cells > self.count as u64 {
            for e in &self.entries {
                visit(e.target);
            }
            return;
        }
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                let cell = [x, y];
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

#[cfg(test)]
mod tests {
    use super::*;

    fn check(points: &[(u32, Vec3)], center: Vec3, radius: f32, cell: f32) {
        let mut grid = TargetGrid::default();
        grid.rebuild(cell, points);
        let mut found = Vec::new();
        grid.query(center, radius, |t| found.push(t));
        let mut sorted = found.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), found.len(), "a target was visited twice");
        for (i, p) in points {
            if p.distance(center) <= radius {
                assert!(found.contains(i), "missed target {i} at {p}");
            }
        }
    }

    #[test]
    fn query_finds_each_nearby_target_once_on_the_ground_and_on_a_2d_plane() {
        let ground: Vec<(u32, Vec3)> =
            (0..200).map(|i| (i, Vec3::new((i % 20) as f32 * 3.0, (i % 3) as f32, (i / 20) as f32 * 3.0))).collect();
        check(&ground, Vec3::new(20.0, 0.0, 10.0), 6.0, 5.0);
        let screen: Vec<(u32, Vec3)> =
            (0..200).map(|i| (i, Vec3::new((i % 20) as f32 * 3.0, (i / 20) as f32 * 3.0, 0.0))).collect();
        check(&screen, Vec3::new(20.0, 10.0, 0.0), 6.0, 5.0);
    }

    #[test]
    fn far_targets_are_not_visited() {
        let mut grid = TargetGrid::default();
        let points: Vec<(u32, Vec3)> = (0..100).map(|i| (i, Vec3::new(i as f32 * 10.0, 0.0, 0.0))).collect();
        grid.rebuild(10.0, &points);
        let mut found = Vec::new();
        grid.query(Vec3::new(500.0, 0.0, 0.0), 5.0, |t| found.push(t));
        assert!(found.len() <= 3, "{found:?}");
    }
}
