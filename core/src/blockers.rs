//! What stopped an agent's sight rays at its last tick: for a few targets, the occluder that
//! blocked the ray to them. Sight is asked again every tick for the same pairs, and a wall
//! between a guard and a target mostly stays between them, so the sweep tries that occluder
//! before walking the ray (a shadow cache). Only a guess: a remembered occluder that no longer
//! blocks costs one test, and one that blocks proves the answer the walk would give.

/// How many targets an agent remembers a blocker for (a town agent casts ~3 rays a tick).
pub(crate) const REMEMBERED: usize = 4;

/// A free place's target and rank. No target has this slot; were one to, the rank is past every
/// occluder's and is ignored.
const NONE: u32 = u32::MAX;

/// `(target slot, occluder grid rank)` pairs, the first ones blocked at the last tick.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct RememberedBlockers([(u32, u32); REMEMBERED]);

impl Default for RememberedBlockers {
    fn default() -> Self {
        RememberedBlockers([(NONE, NONE); REMEMBERED])
    }
}

impl RememberedBlockers {
    /// Whether these differ from `before`. (Places fill in order: when neither has its first
    /// filled, both are empty, the common case, found without comparing the rest.)
    #[inline]
    pub fn differ_from(&self, before: &RememberedBlockers) -> bool {
        (self.0[0].0 != NONE || before.0[0].0 != NONE) && self != before
    }

    /// The occluder remembered for the target in `slot`.
    #[inline]
    pub fn of(&self, slot: u32) -> Option<u32> {
        self.0.iter().find(|&&(t, _)| t == slot).map(|&(_, rank)| rank)
    }

    /// Remembers `rank` for the target in `slot` while there is room (the first rays of a tick
    /// win; a target with several check points keeps its first blocker).
    #[inline]
    pub fn remember(&mut self, slot: u32, rank: u32) {
        // Places fill in order, so a place already holding this target comes before any free one.
        if let Some(place) = self.0.iter_mut().find(|(t, _)| *t == NONE || *t == slot)
            && place.0 == NONE
        {
            *place = (slot, rank);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_first_blockers_one_per_target_while_there_is_room() {
        let mut memo = RememberedBlockers::default();
        assert_eq!(memo.of(7), None);
        memo.remember(7, 40);
        memo.remember(7, 41); // the same target's second point keeps the first blocker
        assert_eq!(memo.of(7), Some(40));
        for k in 0..REMEMBERED as u32 + 2 {
            memo.remember(100 + k, k);
        }
        let kept = (0..REMEMBERED as u32 + 2).filter(|&k| memo.of(100 + k) == Some(k)).count();
        assert_eq!(kept, REMEMBERED - 1, "room for {} more after target 7", REMEMBERED - 1);
        assert_eq!(memo.of(100 + REMEMBERED as u32 + 1), None);
        assert_eq!(memo.of(7), Some(40));
    }
}
