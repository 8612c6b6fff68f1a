//! The registered agents and targets, by core id. The core hands out small slot indices and
//! reuses freed ones, so a dense array indexed by the id's slot is both smaller and faster than a
//! hash map: a lookup is a bounds check and an id compare, entries sit in slot order, and a loop
//! over ids in order can ask for the entries it will need next (`prefetch`).

use argus_core::{AgentId, TargetId};

/// An id whose `index` is a slot of the core's dense pools.
pub trait SlotId: Copy + Eq {
    fn slot(self) -> usize;
}

impl SlotId for AgentId {
    fn slot(self) -> usize {
        self.index as usize
    }
}

impl SlotId for TargetId {
    fn slot(self) -> usize {
        self.index as usize
    }
}

/// Values by id, one place per slot; an id whose generation is not the stored one finds nothing.
pub struct IdTable<K, V> {
    entries: Vec<Option<(K, V)>>,
    len: usize,
}

impl<K, V> Default for IdTable<K, V> {
    fn default() -> Self {
        IdTable { entries: Vec::new(), len: 0 }
    }
}

impl<K: SlotId, V> IdTable<K, V> {
    /// Stores `value` at `id`'s slot; returns what the slot held (a stale id's value included).
    pub fn insert(&mut self, id: K, value: V) -> Option<V> {
        let slot = id.slot();
        if self.entries.len() <= slot {
            self.entries.resize_with(slot + 1, || None);
        }
        let old = self.entries[slot].replace((id, value));
        self.len += old.is_none() as usize;
        old.map(|(_, v)| v)
    }

    pub fn get(&self, id: &K) -> Option<&V> {
        match self.entries.get(id.slot()) {
            Some(Some((k, v))) if k == id => Some(v),
            _ => None,
        }
    }

    pub fn get_mut(&mut self, id: &K) -> Option<&mut V> {
        match self.entries.get_mut(id.slot()) {
            Some(Some((k, v))) if k == id => Some(v),
            _ => None,
        }
    }

    pub fn remove(&mut self, id: &K) -> Option<V> {
        let entry = self.entries.get_mut(id.slot())?;
        if entry.as_ref().is_some_and(|(k, _)| k == id) {
            self.len -= 1;
            return entry.take().map(|(_, v)| v);
        }
        None
    }

    /// Entries in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().filter_map(|e| e.as_ref().map(|(k, v)| (k, v)))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> {
        self.entries.iter_mut().filter_map(|e| e.as_mut().map(|(k, v)| (&*k, v)))
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A cache hint for `id`'s entry (its first two lines), for a loop that reads it soon.
    pub fn prefetch(&self, id: &K) {
        if let Some(entry) = self.entries.get(id.slot()) {
            prefetch_offset(entry, 0);
            if std::mem::size_of_val(entry) > 64 {
                prefetch_offset(entry, 64);
            }
        }
    }
}

/// Asks the CPU to bring the cache line `offset` bytes past the start of `item` into every cache
/// level. Only a hint: it never faults and changes nothing the program can observe. (The core's
/// own copy is not its public API.)
#[inline(always)]
fn prefetch_offset<T>(item: &T, offset: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 is part of SSE, which every x86-64 CPU has; it reads no data into the
    // program and never faults, whatever the address (`wrapping_add` makes no claim about it).
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>().wrapping_add(offset));
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (item, offset);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(index: u32, generation: u32) -> TargetId {
        TargetId { index, generation }
    }

    #[test]
    fn a_stale_generation_finds_nothing_and_removes_nothing() {
        let mut table = IdTable::default();
        assert_eq!(table.insert(id(3, 1), "a"), None);
        assert_eq!(table.insert(id(0, 2), "b"), None);
        assert_eq!((table.len(), table.get(&id(3, 1)), table.get(&id(3, 2))), (2, Some(&"a"), None));
        assert_eq!(table.remove(&id(3, 2)), None);
        assert_eq!(table.len(), 2);
        assert_eq!(table.remove(&id(3, 1)), Some("a"));
        assert_eq!(table.remove(&id(3, 1)), None);
        assert_eq!((table.len(), table.get(&id(3, 1))), (1, None));
        // The core reuses the slot with the next generation.
        table.insert(id(3, 2), "c");
        *table.get_mut(&id(3, 2)).unwrap() = "d";
        let all: Vec<_> = table.iter().map(|(k, v)| (k.index, *v)).collect();
        assert_eq!(all, [(0, "b"), (3, "d")]);
        assert!(table.get(&id(99, 1)).is_none() && !table.is_empty());
    }
}
