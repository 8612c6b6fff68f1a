//! A cache hint for memory the next iterations will read: the core's only `unsafe`.
//!
//! The sweep, the conclusion and influence stamping visit memory in an order the hardware
//! prefetcher cannot guess (agents in spatial order, each agent's memory records on the heap,
//! the rows of scattered stamps). A plain load ahead would stall the pipeline until it arrives;
//! the prefetch instruction does not. Crate-private: not API (the Godot add-on keeps its own copy).

/// Asks the CPU to bring the cache line holding `item` into every cache level. Only a hint: it
/// never faults and changes nothing the program can observe.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    prefetch_offset(item, 0);
}

/// [`prefetch`] for the line `offset` bytes past the start of `item` (an item spanning several
/// lines). The address is never read by the program, and a prefetch of any address is harmless.
#[inline(always)]
pub(crate) fn prefetch_offset<T>(item: &T, offset: usize) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: PREFETCHT0 is part of SSE, which every x86-64 CPU has; it reads no data into the
    // program and never faults, whatever the address (`wrapping_add` makes no claim about it).
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>().wrapping_add(offset));
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (item, offset);
}
