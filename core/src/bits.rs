//! Sets of slots as a bit per slot (`Vec<u64>`): which agents a recording focuses on and which
//! agents and targets an input touched since the last frame; the sweep, the capture and the
//! recorder read them.

/// Is `slot` in `set` (a bit per slot; empty = every slot)? The recording's focus, as the sweep
/// and the capture read it.
#[inline]
pub(crate) fn in_slot_set(set: &[u64], slot: u32) -> bool {
    set.is_empty() || has_bit(set, slot)
}

/// Is bit `slot` of `set` (a bit per slot) set? An empty set has none.
#[inline]
pub(crate) fn has_bit(set: &[u64], slot: u32) -> bool {
    set.get(slot as usize / 64).is_some_and(|w| w >> (slot % 64) & 1 != 0)
}

/// The slots whose bit is set in `set`, in order.
pub(crate) fn bits_set(set: &[u64]) -> impl Iterator<Item = u32> + '_ {
    let words = set.iter().enumerate().filter(|(_, bits)| **bits != 0);
    words.flat_map(|(k, &bits)| (0..64u32).filter(move |b| bits >> b & 1 != 0).map(move |b| 64 * k as u32 + b))
}

/// Sets or clears bit `slot` of `set`, growing it as needed.
pub(crate) fn set_bit(set: &mut Vec<u64>, slot: u32, on: bool) {
    let word = slot as usize / 64;
    if set.len() <= word {
        set.resize(word + 1, 0);
    }
    let bit = 1u64 << (slot % 64);
    set[word] = if on { set[word] | bit } else { set[word] & !bit };
}
