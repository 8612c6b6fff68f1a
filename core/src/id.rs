//! Generational ids: a handle is `{index, generation}`; zero is null and a stale handle is
//! rejected by its generation, never dereferenced.

mod dense;

pub use dense::{DensePool, Entry};

macro_rules! define_id {
    ($(#[$doc:meta])* $name:ident, $kind:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name {
            /// Slot index inside the world.
            pub index: u32,
            /// Generation of the slot when the id was issued; never 0 for a live thing.
            pub generation: u32,
        }

        impl $name {
            /// The null id (`{0, 0}`), never issued.
            pub const NULL: $name = $name { index: 0, generation: 0 };
            /// What this id names, for error messages.
            pub const KIND: &'static str = $kind;

            /// True for the null id `{0, 0}` only; any other id with generation 0 is simply
            /// invalid (never issued).
            pub fn is_null(self) -> bool {
                self.index == 0 && self.generation == 0
            }
        }
    };
}

define_id!(
    /// A guard: something that perceives.
    AgentId, "agent");
define_id!(
    /// Something agents can perceive (the player, a body, a thrown bottle).
    TargetId, "target");
define_id!(
    /// A piece of level geometry that can block sight and sound.
    OccluderId, "occluder");
define_id!(
    /// An influence map owned by a world.
    InfluenceMapId, "influence map");

/// The largest generation a slot reaches: generations fit 16 bits, so the C ABI's ids
/// (`{index, world, generation}`, 8 bytes as in Box2D) carry them exactly. A slot is never
/// wrapped back to generation 1 (that would make a stale id valid again): when the value issued
/// with `MAX_GENERATION` is freed, the slot is retired for good and never handed out again
/// (Box2D does the same). A world loses one slot (a few dozen bytes) per 65,535 reuses of it.
pub const MAX_GENERATION: u32 = 0xFFFF;

/// The generation a retired slot holds: above every generation an id can carry, so no id ever
/// matches it, and every generation `1..=MAX_GENERATION` of the slot counts as issued.
pub const RETIRED_GENERATION: u32 = MAX_GENERATION + 1;

/// The generation a slot takes when the value issued with `generation` is freed:
/// the next one, or [`RETIRED_GENERATION`] after the last.
pub(crate) fn next_generation(generation: u32) -> u32 {
    if generation >= MAX_GENERATION { RETIRED_GENERATION } else { generation + 1 }
}

/// One slot of a [`Pool`].
#[derive(Clone, Debug)]
pub struct Slot<T> {
    /// Bumped each time the slot is freed, so old ids stop matching; [`RETIRED_GENERATION`]
    /// once the slot is retired.
    pub generation: u32,
    /// The live value, if any.
    pub value: Option<T>,
}

/// Storage with stable slot indices and generation checks. Freed slots are reused last-in
/// first-out, so the same sequence of calls always hands out the same ids; a slot whose
/// generation is used up is retired (left off the free list) instead of wrapping.
#[derive(Clone, Debug)]
pub struct Pool<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    live: usize,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool { slots: Vec::new(), free: Vec::new(), live: 0 }
    }
}

impl<T> Pool<T> {
    /// Makes room for `additional` more values without reallocating; fails (changing nothing)
    /// when the memory is not available, instead of aborting.
    pub fn reserve(&mut self, additional: usize) -> std::result::Result<(), std::collections::TryReserveError> {
        let need = additional.saturating_sub(self.free.len());
        self.slots.try_reserve_exact(need)
    }

    /// Stores a value and returns its `(index, generation)`.
    pub fn insert(&mut self, value: T) -> (u32, u32) {
        self.live += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.value = Some(value);
            (index, slot.generation)
        } else {
            let index = self.slots.len() as u32;
            self.slots.push(Slot { generation: 1, value: Some(value) });
            (index, 1)
        }
    }

    /// The live value at `(index, generation)`.
    pub fn get(&self, index: u32, generation: u32) -> Option<&T> {
        let slot = self.slots.get(index as usize)?;
        if slot.generation == generation { slot.value.as_ref() } else { None }
    }

    /// The live value at `(index, generation)`, mutably.
    pub fn get_mut(&mut self, index: u32, generation: u32) -> Option<&mut T> {
        let slot = self.slots.get_mut(index as usize)?;
        if slot.generation == generation { slot.value.as_mut() } else { None }
    }

    /// The live value at a slot index regardless of generation.
    pub fn at(&self, index: u32) -> Option<&T> {
        self.slots.get(index as usize)?.value.as_ref()
    }

    /// The generation currently stored at a slot index.
    pub fn generation_at(&self, index: u32) -> u32 {
        self.slots.get(index as usize).map_or(0, |s| s.generation)
    }

    /// Frees the value at `(index, generation)`; the slot's generation moves on.
    pub fn remove(&mut self, index: u32, generation: u32) -> Option<T> {
        let slot = self.slots.get_mut(index as usize)?;
        if slot.generation != generation || slot.value.is_none() {
            return None;
        }
        let value = slot.value.take();
        slot.generation = next_generation(slot.generation);
        if slot.generation != RETIRED_GENERATION {
            self.free.push(index);
        }
        self.live -= 1;
        value
    }

    /// Number of live values.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// All slots, live or free, in index order.
    pub fn slots(&self) -> &[Slot<T>] {
        &self.slots
    }

    /// All slots, mutably, for sweeps that split the array between threads.
    pub fn slots_mut(&mut self) -> &mut [Slot<T>] {
        &mut self.slots
    }

    /// Live values with their slot indices, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.value.as_ref().map(|v| (i as u32, v)))
    }

    /// Live values with their slot indices, mutably, in index order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (u32, &mut T)> {
        self.slots.iter_mut().enumerate().filter_map(|(i, s)| s.value.as_mut().map(|v| (i as u32, v)))
    }

    /// The free list, in reuse order (for snapshots).
    pub fn free_list(&self) -> &[u32] {
        &self.free
    }

    /// The slots, live or free, in index order.
    pub fn into_slots(self) -> Vec<Slot<T>> {
        self.slots
    }

    /// Rebuilds a pool from saved slots and free list (for snapshots, and for tests that start
    /// a slot near its last generation). The caller checks that the free list names every free,
    /// unretired slot once.
    pub fn from_parts(slots: Vec<Slot<T>>, free: Vec<u32>) -> Self {
        let live = slots.iter().filter(|s| s.value.is_some()).count();
        Pool { slots, free, live }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot's generations run 1..=MAX_GENERATION, never wrap, and then the slot is retired:
    /// the next insert takes a new slot and every id ever issued in the old one stays stale.
    #[test]
    fn a_used_up_slot_is_retired_never_wrapped() {
        let mut pool = Pool::default();
        let (index, mut generation) = pool.insert(());
        let mut issued = vec![generation];
        loop {
            pool.remove(index, generation).unwrap();
            let (again, next) = pool.insert(());
            if again != index {
                assert_eq!(generation, MAX_GENERATION, "retired only when used up");
                assert_eq!(next, 1, "a new slot starts at 1");
                break;
            }
            assert_eq!(next, generation + 1, "generation {next}");
            generation = next;
            issued.push(generation);
        }
        assert_eq!(issued.len(), MAX_GENERATION as usize);
        assert_eq!(pool.generation_at(index), RETIRED_GENERATION);
        assert!(pool.free_list().is_empty());
        for g in [0, 1, 2, MAX_GENERATION, RETIRED_GENERATION] {
            assert!(pool.get(index, g).is_none() && pool.remove(index, g).is_none(), "generation {g}");
        }
        // A pool rebuilt one reuse before the end (the test hook) retires the same way.
        let mut pool: Pool<u8> = Pool::from_parts(vec![Slot { generation: MAX_GENERATION, value: None }], vec![0]);
        assert_eq!(pool.insert(7), (0, MAX_GENERATION));
        assert_eq!(pool.remove(0, MAX_GENERATION), Some(7));
        assert_eq!(pool.insert(8), (1, 1));
        assert!(pool.get(0, MAX_GENERATION).is_none());
    }
}
