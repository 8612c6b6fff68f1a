//! Storage behind generational ids whose values sit densely in an order of the owner's choosing
//! (the world keeps its agents in spatial order, so a step reads them front to back with their
//! neighbours in space beside them). An id's index names a place in a sparse table that says
//! where its value is now; ids are handed out exactly as a [`Pool`] hands them out.

use super::{Pool, RETIRED_GENERATION, Slot, next_generation};

/// Where no value is.
const NOWHERE: u32 = u32::MAX;

/// A live value with the id it is stored under.
#[derive(Clone, Debug)]
pub struct Entry<T> {
    /// The id's slot index.
    pub index: u32,
    /// The id's generation.
    pub generation: u32,
    /// The value.
    pub value: T,
}

#[derive(Copy, Clone, Debug)]
struct Place {
    generation: u32,
    /// Position in `entries`, or `NOWHERE` while the slot is free.
    dense: u32,
}

/// A pool whose live values are packed in one array, in an order [`DensePool::permute`] sets.
#[derive(Clone, Debug)]
pub struct DensePool<T> {
    entries: Vec<Entry<T>>,
    places: Vec<Place>,
    free: Vec<u32>,
}

impl<T> Default for DensePool<T> {
    fn default() -> Self {
        DensePool { entries: Vec::new(), places: Vec::new(), free: Vec::new() }
    }
}

impl<T> DensePool<T> {
    /// Makes room for `additional` more values without reallocating; fails (changing nothing
    /// observable) when the memory is not available, instead of aborting.
    pub fn reserve(&mut self, additional: usize) -> std::result::Result<(), std::collections::TryReserveError> {
        self.entries.try_reserve_exact(additional)?;
        self.places.try_reserve_exact(additional.saturating_sub(self.free.len()))
    }

    /// Stores a value at the end of the dense order and returns its `(index, generation)`.
    pub fn insert(&mut self, value: T) -> (u32, u32) {
        let dense = self.entries.len() as u32;
        let index = match self.free.pop() {
            Some(index) => {
                self.places[index as usize].dense = dense;
                index
            }
            None => {
                self.places.push(Place { generation: 1, dense });
                self.places.len() as u32 - 1
            }
        };
        let generation = self.places[index as usize].generation;
        self.entries.push(Entry { index, generation, value });
        (index, generation)
    }

    fn position(&self, index: u32, generation: u32) -> Option<usize> {
        let place = self.places.get(index as usize)?;
        (place.generation == generation && place.dense != NOWHERE).then_some(place.dense as usize)
    }

    /// The live value at `(index, generation)`.
    pub fn get(&self, index: u32, generation: u32) -> Option<&T> {
        self.position(index, generation).map(|k| &self.entries[k].value)
    }

    /// The live value at `(index, generation)`, mutably.
    pub fn get_mut(&mut self, index: u32, generation: u32) -> Option<&mut T> {
        self.position(index, generation).map(|k| &mut self.entries[k].value)
    }

    /// The generation currently stored at a slot index.
    pub fn generation_at(&self, index: u32) -> u32 {
        self.places.get(index as usize).map_or(0, |p| p.generation)
    }

    /// Frees the value at `(index, generation)`; the slot's generation moves on, and the last
    /// value in the dense order takes the freed place.
    pub fn remove(&mut self, index: u32, generation: u32) -> Option<T> {
        let k = self.position(index, generation)?;
        let entry = self.entries.swap_remove(k);
        if let Some(moved) = self.entries.get(k) {
            self.places[moved.index as usize].dense = k as u32;
        }
        let place = &mut self.places[index as usize];
        place.dense = NOWHERE;
        place.generation = next_generation(generation);
        if place.generation != RETIRED_GENERATION {
            self.free.push(index);
        }
        Some(entry.value)
    }

    /// Number of live values.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The live values in their dense order.
    pub fn entries(&self) -> &[Entry<T>] {
        &self.entries
    }

    /// The live values in their dense order, mutably (their ids stay as they are).
    pub fn entries_mut(&mut self) -> &mut [Entry<T>] {
        &mut self.entries
    }

    /// Live values with their slot indices, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.places
            .iter()
            .enumerate()
            .filter(|(_, p)| p.dense != NOWHERE)
            .map(|(i, p)| (i as u32, &self.entries[p.dense as usize].value))
    }

    /// The indices of the live slots, in index order, without reading the values.
    pub fn live_indices(&self) -> impl Iterator<Item = u32> + '_ {
        self.places.iter().enumerate().filter(|(_, p)| p.dense != NOWHERE).map(|(i, _)| i as u32)
    }

    /// Every slot in index order, live or free: its generation and its value.
    pub fn slots(&self) -> impl ExactSizeIterator<Item = (u32, Option<&T>)> {
        self.places.iter().map(|p| (p.generation, self.entries.get(p.dense as usize).map(|e| &e.value)))
    }

    /// The free list, in reuse order (for snapshots).
    pub fn free_list(&self) -> &[u32] {
        &self.free
    }

    /// Reorders the values so that place `k` holds the one at `sources[k]`'s low 32 bits (a
    /// permutation of `0..len`; the high halves are ignored). `sources` is used up as scratch.
    pub fn permute(&mut self, sources: &mut [u64]) {
        debug_assert_eq!(sources.len(), self.entries.len());
        permute_in_place(&mut self.entries, sources);
        for (k, e) in self.entries.iter().enumerate() {
            self.places[e.index as usize].dense = k as u32;
        }
    }
}

impl<T> DensePool<T> {
    /// The pool's values in slot order, with the same ids and free list; fails (dropping the
    /// pool) when memory for the dense arrays is not available, instead of aborting.
    pub fn try_from_pool(pool: Pool<T>) -> std::result::Result<Self, std::collections::TryReserveError> {
        let mut free = Vec::new();
        free.try_reserve_exact(pool.free_list().len())?;
        free.extend_from_slice(pool.free_list());
        let mut dense = DensePool { entries: Vec::new(), places: Vec::new(), free };
        dense.entries.try_reserve_exact(pool.len())?;
        dense.places.try_reserve_exact(pool.slots().len())?;
        for (index, Slot { generation, value }) in pool.into_slots().into_iter().enumerate() {
            let place = match value {
                Some(value) => {
                    dense.entries.push(Entry { index: index as u32, generation, value });
                    dense.entries.len() as u32 - 1
                }
                None => NOWHERE,
            };
            dense.places.push(Place { generation, dense: place });
        }
        Ok(dense)
    }
}

/// Reorders `items` so that place `k` holds what was at the low 32 bits of `sources[k]`, by
/// following the permutation's cycles (no second array of items); `sources` is left marked.
fn permute_in_place<T>(items: &mut [T], sources: &mut [u64]) {
    const DONE: u64 = u64::MAX;
    for start in 0..items.len() {
        let mut k = start;
        loop {
            let word = sources[k];
            if word == DONE {
                break;
            }
            sources[k] = DONE;
            let from = word as u32 as usize;
            if from == start {
                break;
            }
            // Place `k` takes `from`'s item; what `start` held moves on to `from`.
            items.swap(k, from);
            k = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    #[test]
    fn permuting_in_place_gathers_every_source() {
        let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
        for n in [0usize, 1, 2, 5, 64, 1000] {
            let mut order: Vec<u64> = (0..n as u64).map(|i| (rng.next_u64() & 0xFFFF) << 32 | i).collect();
            order.sort_unstable();
            let items: Vec<usize> = (0..n).map(|i| i * 7).collect();
            let expected: Vec<usize> = order.iter().map(|&w| items[w as u32 as usize]).collect();
            let mut got = items.clone();
            permute_in_place(&mut got, &mut order);
            assert_eq!(got, expected, "{n} items");
        }
    }

    /// The same calls give the same ids as a plain pool, and every id finds its value whatever
    /// order the values are permuted into.
    #[test]
    fn ids_match_a_pool_and_survive_permutations() {
        let mut rng = Xorshift(0x2545_F491_4F6C_DD1D);
        let (mut pool, mut dense) = (Pool::default(), DensePool::default());
        let mut live: Vec<(u32, u32)> = Vec::new();
        for step in 0..2000u32 {
            if live.is_empty() || !rng.next_u64().is_multiple_of(3) {
                let id = pool.insert(step);
                assert_eq!(dense.insert(step), id);
                live.push(id);
            } else {
                let (index, generation) = live.swap_remove((rng.next_u64() % live.len() as u64) as usize);
                assert_eq!(pool.remove(index, generation), dense.remove(index, generation));
                assert_eq!(dense.remove(index, generation), None, "a stale id frees nothing");
            }
            if step % 97 == 0 {
                let mut order: Vec<u64> = (0..dense.len() as u64).map(|k| (rng.next_u64() & 0xFF) << 32 | k).collect();
                order.sort_unstable();
                dense.permute(&mut order);
            }
            assert_eq!(dense.len(), pool.len());
        }
        for &(index, generation) in &live {
            assert_eq!(dense.get(index, generation), pool.get(index, generation));
            assert_eq!(dense.generation_at(index), generation);
        }
        let (a, b): (Vec<_>, Vec<_>) = (dense.iter().collect(), pool.iter().collect());
        assert_eq!(a, b, "iteration is in slot order");
        assert_eq!(dense.free_list(), pool.free_list());
    }
}
