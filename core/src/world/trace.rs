//! The sweep's own sight decisions, kept while the world records (the recording's Sight ticks and
//! Why, `docs/recording.md`): each swept agent, the targets its broadphase passed with each
//! check point's status, and where each blocked ray stopped. Only the sweep's `TRACE` instance
//! fills it, so a world that does not record runs a sweep without a line of it; and recording
//! costs no second look at the level, only what the sweep decided anyway.

use crate::rays::RayHit;

/// A check point's status, 2 bits a point (the recording's codes).
pub(crate) const OUTSIDE_CONE: u16 = 1;
pub(crate) const BLOCKED: u16 = 2;
pub(crate) const VISIBLE: u16 = 3;
/// No occluder named: an engine answered the ray.
pub(crate) const NO_OCCLUDER: u32 = u32::MAX;

/// One swept agent: its id's slot and its pairs, `first_pair..end_pair` of the trace's.
#[derive(Copy, Clone, Debug)]
pub(crate) struct TracedAgent {
    pub slot: u32,
    pub first_pair: u32,
    pub end_pair: u32,
}

/// One target its broadphase passed.
#[derive(Copy, Clone, Debug)]
pub(crate) struct TracedPair {
    /// The target's id slot.
    pub target: u32,
    /// Its blocked points' stops: `first_blocked..` of the trace's, one per point whose status
    /// is `BLOCKED`.
    pub first_blocked: u32,
    pub point_count: u8,
    /// Bit 0: the lose-sight radius applied; bits 4–7: the filter that refused it.
    pub flags: u8,
    pub statuses: u16,
    /// Points whose ray is not answered yet (bit k: point k), VISIBLE until it is.
    pub pending: u8,
}

impl TracedPair {
    /// How many of its points are blocked.
    pub fn blocked_count(&self) -> usize {
        (0..self.point_count as u16).filter(|k| self.statuses >> (2 * k) & 3 == BLOCKED).count()
    }
}

/// Where a blocked ray stopped: how far from the eye, and at which occluder (its id slot).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct TracedStop {
    pub distance: f32,
    pub occluder: u32,
}

/// One sweep chunk's trace of a step.
#[derive(Default)]
pub(crate) struct SightTrace {
    pub agents: Vec<TracedAgent>,
    pub pairs: Vec<TracedPair>,
    pub blocked: Vec<TracedStop>,
    /// Answers to rays cast and not yet applied (`None`: clear), in the order they were cast.
    pub answers: Vec<Option<TracedStop>>,
    /// Pairs before this one have every ray answered.
    resolved: usize,
}

impl SightTrace {
    pub fn clear(&mut self) {
        self.agents.clear();
        self.pairs.clear();
        self.blocked.clear();
        self.answers.clear();
        self.resolved = 0;
    }

    /// Applies `answers` in order to the pending points of the pairs not yet resolved (the rays
    /// were cast in pair order, each pair's in point order).
    pub fn resolve(&mut self) {
        let mut answers = self.answers.drain(..);
        for pair in &mut self.pairs[self.resolved..] {
            pair.first_blocked = self.blocked.len() as u32;
            if pair.pending == 0 {
                continue;
            }
            for k in 0..pair.point_count as u16 {
                if pair.pending >> k & 1 == 0 {
                    continue;
                }
                if let Some(Some(stop)) = answers.next() {
                    pair.statuses = pair.statuses & !(3 << (2 * k)) | BLOCKED << (2 * k);
                    self.blocked.push(stop);
                }
            }
            pair.pending = 0;
        }
        self.resolved = self.pairs.len();
    }

    /// An engine's answers to this chunk's rays (no occluder named), then [`Self::resolve`].
    pub fn resolve_with(&mut self, hits: &[RayHit]) {
        self.answers.clear();
        self.answers
            .extend(hits.iter().map(|h| h.hit.then_some(TracedStop { distance: h.distance, occluder: NO_OCCLUDER })));
        self.resolve();
    }
}
