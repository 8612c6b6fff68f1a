//! The sweep's own sight decisions, kept while the world records (the recording's Sight ticks and
//! Why, `docs/recording.md`): each swept agent, the targets its broadphase passed with each
//! check point's status, and where each blocked ray stopped. Only the sweep's `TRACE` instance
//! fills it, so a world that does not record runs a sweep without a line of it; and recording
//! costs no second look at the level, only what the sweep decided anyway.

use crate::rays::RayHit;

/// How much a sweep keeps (its `TRACE`): nothing (not recording), the agents that ticked, or
/// also their pairs (recording the "why").
pub(crate) const TRACE_OFF: u8 = 0;
pub(crate) const TRACE_TICKS: u8 = 1;
pub(crate) const TRACE_WHY: u8 = 2;

/// A check point's status, 2 bits a point (the recording's codes).
pub(crate) const OUTSIDE_CONE: u16 = 1;
pub(crate) const BLOCKED: u16 = 2;
pub(crate) const VISIBLE: u16 = 3;
/// No occluder named: an engine answered the ray.
pub(crate) const NO_OCCLUDER: u32 = u32::MAX;

/// One swept agent: its id and its pairs, `first_pair..end_pair` of the trace's.
#[derive(Copy, Clone, Debug)]
pub(crate) struct TracedAgent {
    pub slot: u32,
    pub generation: u32,
    pub first_pair: u32,
    pub end_pair: u32,
}

/// One target its broadphase passed.
#[derive(Copy, Clone, Debug)]
pub(crate) struct TracedPair {
    /// The target's id slot.
    pub target: u32,
    /// Its blocked points' stops: `first_blocked..first_blocked + blocked` of the trace's.
    pub first_blocked: u32,
    pub blocked: u8,
    pub point_count: u8,
    /// Bit 0: the lose-sight radius applied; bits 4–7: the filter that refused it.
    pub flags: u8,
    /// Points whose ray is not answered yet (bit k: point k), VISIBLE until it is.
    pub pending: u8,
    pub statuses: u16,
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
    /// The stops of the blocked rays, in the order the rays were cast (pair by pair, each
    /// pair's in point order).
    pub blocked: Vec<TracedStop>,
    /// The answers to the pairs' rays when the sweep cast them itself, in cast order: applied
    /// to the pairs by `resolve_cast` when the frame is written, not in the sweep (an engine's
    /// answers are applied at `finish_step`).
    pub cast: Vec<RayHit>,
    /// When the engine casts: the chunk's rays (`start..end`) of the agents whose pairs are
    /// traced. The engine answers every agent's rays; only these answer the pairs.
    pub explained_rays: Vec<(u32, u32)>,
    /// Pairs before this one have every ray answered, and stops before this one a pair.
    resolved: usize,
    resolved_stops: usize,
}

impl SightTrace {
    pub fn clear(&mut self) {
        self.agents.clear();
        self.pairs.clear();
        self.blocked.clear();
        self.cast.clear();
        self.explained_rays.clear();
        (self.resolved, self.resolved_stops) = (0, 0);
    }

    /// Applies the answers the sweep kept in `cast` (a no-op once every pair is resolved).
    pub fn resolve_cast(&mut self) {
        let cast = std::mem::take(&mut self.cast);
        self.resolve(&cast, false);
        self.cast = cast;
    }

    /// Applies an engine's answers to every ray of the chunk (`hits`, in ray order): those of
    /// the explained agents' rays, to their pairs.
    pub fn resolve_engine(&mut self, hits: &[RayHit]) {
        let mut answers = std::mem::take(&mut self.cast);
        answers.clear();
        for &(start, end) in &self.explained_rays {
            answers.extend_from_slice(&hits[start as usize..end as usize]);
        }
        self.resolve(&answers, true);
        self.cast = answers;
    }

    /// Applies `hits`, the answers to the rays of the pairs not yet resolved (cast in pair
    /// order, each pair's in point order), to their pending points. The stops of the blocked
    /// ones are in `blocked` already (the sweep's own rays), or made from `hits` (`engine`: an
    /// engine's answers, naming no occluder).
    pub fn resolve(&mut self, hits: &[RayHit], engine: bool) {
        let mut hits = hits.iter();
        let mut stop = self.resolved_stops;
        for pair in &mut self.pairs[self.resolved..] {
            pair.first_blocked = stop as u32;
            let mut pending = pair.pending;
            while pending != 0 {
                let k = pending.trailing_zeros() as u16;
                pending &= pending - 1;
                let Some(h) = hits.next().filter(|h| h.hit) else { continue };
                pair.statuses = pair.statuses & !(3 << (2 * k)) | BLOCKED << (2 * k);
                pair.blocked += 1;
                if engine {
                    self.blocked.push(TracedStop { distance: h.distance, occluder: NO_OCCLUDER });
                }
                stop += 1;
            }
            pair.pending = 0;
        }
        debug_assert_eq!(stop, self.blocked.len(), "one stop per blocked ray");
        (self.resolved, self.resolved_stops) = (self.pairs.len(), stop);
    }
}
