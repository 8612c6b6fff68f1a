//! The sweep's visiting order: agents by the Z-order (Morton) key of their 8 m cell on the
//! level's plane, so consecutive agents share targets and occluder cells in cache (see
//! `sweep` and `step::order`).

use crate::math::{Vec3, floor_i64};

/// A position's 8 m cell on the plane of `axes`, for the visiting order.
#[inline]
pub(super) fn spatial_cell(p: Vec3, axes: [usize; 2]) -> [i32; 2] {
    let p = p.to_array();
    let cell = |v: f32| floor_i64(v / 8.0).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    [cell(p[axes[0]]), cell(p[axes[1]])]
}

/// Morton (Z-order) key of `cell` counted from `origin`, the lowest cell of the step's due
/// agents: the keys then vary only in their low bits, as few as the agents' spread needs, and
/// the radix sort skips the rest. (Counted from cell 0 instead, a world centred on the origin
/// has cells on both sides of zero whose keys differ in every byte: eight passes, not two.)
#[inline]
pub(super) fn spatial_key(cell: [i32; 2], origin: [i32; 2]) -> u64 {
    let from = |k: usize| (cell[k] as i64 - origin[k] as i64) as u32;
    spread(from(0)) | spread(from(1)) << 1
}

/// Into `out`, one word per cell of `cells()` (called once, or again with coarser keys): its
/// `spatial_key` from `origin` in the high half and its position in `cells()` in the low half,
/// so a sort by key keeps ties in that order and moves one word an item. A key needs more than
/// 32 bits only when the cells spread over more than 65,536 (524 km) on an axis: then every key
/// drops the same low bits, a coarser order of the same kind. Returns how many bits were dropped.
pub(super) fn pack_spatial_keys<I: Iterator<Item = [i32; 2]>>(
    cells: impl Fn() -> I,
    origin: [i32; 2],
    out: &mut Vec<u64>,
) -> u32 {
    let mut coarsen = 0;
    loop {
        out.clear();
        let mut all_bits = 0u64;
        out.extend(cells().enumerate().map(|(k, cell)| {
            let key = spatial_key(cell, origin) >> coarsen;
            all_bits |= key;
            key << 32 | k as u64
        }));
        if all_bits >> 32 == 0 {
            return coarsen;
        }
        coarsen = 32 - all_bits.leading_zeros();
    }
}

/// Spaces the 32 bits of `v` out to the even bits of a u64.
fn spread(v: u32) -> u64 {
    let mut x = v as u64;
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Agents spread over 20 × 20 cells around the world's origin: counted from their lowest
    /// cell, the keys fit in 10 bits (two radix passes, not eight), and they are the Z-order.
    #[test]
    fn keys_of_a_world_centred_on_the_origin_vary_only_in_their_low_bits() {
        let cells: Vec<[i32; 2]> = (-10..10).flat_map(|x| (-10..10).map(move |z| [x, z])).collect();
        let origin = cells.iter().fold([i32::MAX; 2], |lo, c| [lo[0].min(c[0]), lo[1].min(c[1])]);
        assert_eq!(origin, [-10, -10]);
        let keys: Vec<u64> = cells.iter().map(|&c| spatial_key(c, origin)).collect();
        assert!(keys.iter().all(|&k| k < 1 << 10), "a key above 10 bits: {:?}", keys.iter().max());
        assert_eq!(spatial_key([-10, -10], origin), 0);
        // Z-order: x on the even bits, z on the odd ones.
        assert_eq!(spatial_key([-9, -10], origin), 0b01);
        assert_eq!(spatial_key([-10, -9], origin), 0b10);
        assert_eq!(spatial_key([-8, -8], origin), 0b1100);
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "two cells share a key");
        // Cells at the ends of the i32 range still get distinct keys.
        assert_ne!(spatial_key([i32::MAX, 0], [i32::MIN, 0]), spatial_key([i32::MIN, 0], [i32::MIN, 0]));
        assert_eq!(spatial_cell(Vec3::new(-0.5, 3.0, 8.0), [0, 2]), [-1, 1]);
    }
}
