//! What an agent remembers about each target: last known position and a confidence that
//! decays while the target goes unperceived (lesson §7).

use crate::awareness::AwarenessStage;
use crate::error::{Result, invalid};
use crate::id::TargetId;
use crate::math::{Vec3, check_non_negative, check_range};

crate::settings::settings! {
    /// How fast an agent forgets.
    #[doc(alias = "PerceptionMemory")]
    pub struct MemoryConfig {
        /// Confidence lost per second while unperceived (default 0.2).
        pub decay_per_second: f32 = 0.2,
        /// Below this, confidence becomes exactly 0: forgotten (default 0.05).
        pub forget_threshold: f32 = 0.05,
    }
}

impl MemoryConfig {
    pub(crate) fn validate(&self) -> Result<()> {
        check_non_negative(self.decay_per_second, "memory decay per second")?;
        check_range(self.forget_threshold, 0.0, 1.0, "memory forget threshold")?;
        Ok(())
    }
}

/// One agent's belief about one target.
#[doc(alias = "PerceptionMemory")]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MemoryRecord {
    /// The target this record is about.
    pub target: TargetId,
    /// Where the target was last perceived.
    pub last_known_position: Vec3,
    /// 1 = just perceived, 0 = forgotten. Sample and hold: while the target was seen at the
    /// agent's latest sight tick (`seen`) confidence holds at 1 (its value at that percept),
    /// however many frames pass between sight ticks. At the first sight tick that
    /// does not see it, confidence becomes what the lesson's decay gives from the last percept
    /// (the last tick that saw it, or a later sound): `1 − decay_per_second × (now −
    /// last_percept_time)` (below the forget threshold: exactly 0 and a forget event at that
    /// step); from then on it loses `decay_per_second × dt` per step. So decay is counted from
    /// the last percept, but shown only once a sight tick has confirmed the target is gone. With
    /// a sight tick every step nothing is ever held and this is exactly the lesson's per-frame
    /// decay. An agent whose sight is disabled has no ticks: what its last tick saw stays `seen`
    /// (as for awareness) and held, until a tick after sight is enabled again no longer sees it.
    pub confidence: f32,
    /// World time of the last percept.
    pub last_percept_time: f32,
    /// Whether the target was visible at the agent's latest sense tick.
    pub seen: bool,
    /// Visible fraction of the target's check points at the latest sense tick.
    pub visibility: f32,
    /// Awareness meter, 0..1 (stays 0 unless awareness is enabled for the agent).
    pub awareness: f32,
    /// Awareness stage for `awareness`.
    pub stage: AwarenessStage,
    /// How quickly awareness rises while seen (visibility × nearness × centrality).
    pub(crate) salience: f32,
}

impl MemoryRecord {
    pub(crate) fn new(target: TargetId) -> Self {
        MemoryRecord {
            target,
            last_known_position: Vec3::ZERO,
            confidence: 0.0,
            last_percept_time: 0.0,
            seen: false,
            visibility: 0.0,
            awareness: 0.0,
            stage: AwarenessStage::Unaware,
            salience: 0.0,
        }
    }

    /// A percept arrived: full confidence at the perceived position.
    pub(crate) fn refresh(&mut self, position: Vec3, time: f32) {
        self.last_known_position = position;
        self.confidence = 1.0;
        self.last_percept_time = time;
    }

    /// One step without a percept. Returns true when this call forgot the record.
    pub(crate) fn decay(&mut self, config: &MemoryConfig, dt: f32) -> bool {
        self.lose(config, config.decay_per_second * dt)
    }

    /// A sight tick (at `time`, a step of `dt` from `previous`) did not see the target it saw
    /// at the previous tick: the confidence held since the last percept now decays for all the
    /// time since then (see `confidence`): the time held before this step, then this step's
    /// `dt`, so that with a tick every step (nothing held) the arithmetic is exactly `decay`'s.
    /// Nothing when the target was perceived in this very step (a sound). Returns true when this
    /// call forgot the record.
    pub(crate) fn release(&mut self, config: &MemoryConfig, previous: f32, time: f32, dt: f32) -> bool {
        if self.last_percept_time >= time {
            return false;
        }
        let held = previous - self.last_percept_time;
        if held > 0.0 && self.lose(config, config.decay_per_second * held) {
            return true;
        }
        self.decay(config, dt)
    }

    fn lose(&mut self, config: &MemoryConfig, amount: f32) -> bool {
        if self.confidence <= 0.0 {
            return false;
        }
        self.confidence -= amount;
        if self.confidence < config.forget_threshold {
            self.confidence = 0.0;
            return true;
        }
        false
    }

    /// Nothing left worth keeping.
    pub(crate) fn is_empty(&self) -> bool {
        self.confidence <= 0.0 && self.awareness <= 0.0 && !self.seen
    }
}

/// Finds the record for `target` in an agent's small record list.
pub(crate) fn find(records: &[MemoryRecord], target: TargetId) -> Option<&MemoryRecord> {
    records.iter().find(|r| r.target == target)
}

/// Finds or creates the record for `target`.
pub(crate) fn find_or_insert(records: &mut Vec<MemoryRecord>, target: TargetId) -> &mut MemoryRecord {
    match records.iter().position(|r| r.target == target) {
        Some(i) => &mut records[i],
        None => {
            records.push(MemoryRecord::new(target));
            records.last_mut().expect("just pushed")
        }
    }
}

pub(crate) fn check_confidence(c: f32) -> Result<f32> {
    if (0.0..=1.0).contains(&c) { Ok(c) } else { Err(invalid(format!("confidence must be in [0, 1], got {c}"))) }
}
