//! LSD radix sort of packed `key << 32 | index` words by key, for the sweep's spatial order:
//! linear in the count, where a comparison sort is n log n (a big world's step sorts tens of
//! thousands). One word an item, not a `(u64, u32)` pair's 16 bytes: half the memory each pass
//! moves, which a 100,000-agent step's sort felt (its buffers outgrew the core's cache).

/// Sorts `items`, each a key in its high half above an index in its low half, by key, ties in
/// their input order: with indices given in ascending order this is exactly `sort_unstable`.
/// Only the key bytes that differ between items are sorted on (a town's spatial keys differ in
/// two of four). `scratch` is reused.
pub(crate) fn sort_by_key(items: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    let Some(&first) = items.first() else { return };
    let varying = items.iter().fold(0u64, |acc, &x| acc | (x ^ first)) >> 32;
    scratch.clear();
    scratch.resize(items.len(), 0);
    for byte in 0..4 {
        if (varying >> (byte * 8)) & 0xFF == 0 {
            continue;
        }
        let shift = 32 + byte * 8;
        let mut starts = [0usize; 257];
        for &x in items.iter() {
            starts[((x >> shift) & 0xFF) as usize + 1] += 1;
        }
        for b in 0..256 {
            starts[b + 1] += starts[b];
        }
        for &x in items.iter() {
            let b = ((x >> shift) & 0xFF) as usize;
            scratch[starts[b]] = x;
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
    fn sorts_exactly_as_a_comparison_sort_of_the_words() {
        let mut rng = Xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut next = || rng.next_u64();
        let mut scratch = Vec::new();
        for (n, spread) in [(0, 0u64), (1, 0), (7, 3), (500, 0xFF), (3000, 0xFFFF_FFFF), (2000, u64::MAX)] {
            // Few distinct keys (many ties) and keys varying in high bytes only, too.
            let key = |i: usize, r: u64| ((r & spread) << if i.is_multiple_of(2) { 0 } else { 8 }) & 0xFFFF_FFFF;
            let mut items: Vec<u64> = (0..n).map(|i| key(i, next()) << 32 | i as u64).collect();
            let mut expected = items.clone();
            expected.sort_unstable();
            sort_by_key(&mut items, &mut scratch);
            assert_eq!(items, expected, "{n} items, spread {spread:#x}");
        }
    }
}
