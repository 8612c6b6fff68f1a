//! LSD radix sort of `(key, index)` pairs by key, for the sweep's spatial order: linear in the
//! count, where a comparison sort is n log n (a big world's step sorts tens of thousands).

/// Sorts `items` by key, ties in their input order: with unique indices given in ascending order
/// this is exactly `sort_unstable` of the pairs. Only the key bytes that differ between items
/// are sorted on (a town's spatial keys differ in two or three of eight). `scratch` is reused.
pub(crate) fn sort_by_key(items: &mut Vec<(u64, u32)>, scratch: &mut Vec<(u64, u32)>) {
    let Some(&(first, _)) = items.first() else { return };
    let varying = items.iter().fold(0u64, |acc, &(k, _)| acc | (k ^ first));
    scratch.clear();
    scratch.resize(items.len(), (0, 0));
    for byte in 0..8 {
        let shift = byte * 8;
        if (varying >> shift) & 0xFF == 0 {
            continue;
        }
        let mut starts = [0usize; 257];
        for &(k, _) in items.iter() {
            starts[((k >> shift) & 0xFF) as usize + 1] += 1;
        }
        for b in 0..256 {
            starts[b + 1] += starts[b];
        }
        for &item in items.iter() {
            let b = ((item.0 >> shift) & 0xFF) as usize;
            scratch[starts[b]] = item;
            starts[b] += 1;
        }
        std::mem::swap(items, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    #[test]
    fn sorts_exactly_as_a_comparison_sort_of_the_pairs() {
        let mut rng = Xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut next = || rng.next_u64();
        let mut scratch = Vec::new();
        for (n, spread) in [(0, 0u64), (1, 0), (7, 3), (500, 0xFF), (3000, 0xFFFF_FFFF), (2000, u64::MAX)] {
            // Few distinct keys (many ties) and keys varying in high bytes only, too.
            let mut items: Vec<(u64, u32)> =
                (0..n).map(|i| ((next() & spread) << if i % 2 == 0 { 0 } else { 8 }, i as u32)).collect();
            let mut expected = items.clone();
            expected.sort_unstable();
            sort_by_key(&mut items, &mut scratch);
            assert_eq!(items, expected, "{n} items, spread {spread:#x}");
        }
    }
}
