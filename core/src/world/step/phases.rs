//! How long the last one-pass step spent in each of its phases: a test and benchmark hook (the
//! report's "serial fraction of the town step"), kept only with the `testing` feature. Without it
//! the clock is empty and its calls compile to nothing, so a shipped step reads no clock.

#[cfg(any(test, feature = "testing"))]
use std::time::Duration;

/// The phases of a one-pass step, in the order they run (see `step_one_pass`).
#[cfg(any(test, feature = "testing"))]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
#[doc(hidden)]
pub struct StepPhases {
    /// Serial: occluder upkeep, the targets' grid, the store's order, the step's sounds.
    pub prepare: Duration,
    /// The pass over the agents: the only phase shared between the worker threads.
    pub pass: Duration,
    /// Serial: the chunks' events joined, put into id order, beliefs updated.
    pub commit: Duration,
}

#[cfg(any(test, feature = "testing"))]
impl StepPhases {
    /// The phases run by the stepping thread alone.
    pub fn serial(&self) -> Duration {
        self.prepare + self.commit
    }

    pub fn total(&self) -> Duration {
        self.prepare + self.pass + self.commit
    }
}

/// Times the phases of the step in progress (see the module's comment).
#[derive(Default)]
pub(crate) struct PhaseClock {
    #[cfg(any(test, feature = "testing"))]
    lap_start: Option<std::time::Instant>,
    #[cfg(any(test, feature = "testing"))]
    pub last: StepPhases,
}

/// A phase of `StepPhases`, named by the field it fills.
#[derive(Copy, Clone)]
pub(crate) enum Phase {
    Prepare,
    Pass,
    Commit,
}

impl PhaseClock {
    /// The step's first phase starts now.
    #[inline]
    pub fn start(&mut self) {
        #[cfg(any(test, feature = "testing"))]
        {
            self.lap_start = Some(std::time::Instant::now());
        }
    }

    /// `phase` ends now, and the next one starts.
    #[inline]
    pub fn lap(&mut self, phase: Phase) {
        #[cfg(any(test, feature = "testing"))]
        {
            let now = std::time::Instant::now();
            let took = self.lap_start.map_or(Duration::ZERO, |t| now - t);
            self.lap_start = Some(now);
            *match phase {
                Phase::Prepare => &mut self.last.prepare,
                Phase::Pass => &mut self.last.pass,
                Phase::Commit => &mut self.last.commit,
            } = took;
        }
        #[cfg(not(any(test, feature = "testing")))]
        let _ = phase;
    }
}

#[cfg(any(test, feature = "testing"))]
impl super::super::World {
    /// How long the last one-pass step spent in each phase (zeros before one). A benchmark hook,
    /// not API: only with the `testing` feature.
    #[doc(hidden)]
    pub fn last_step_phases(&self) -> StepPhases {
        self.scratch.phases.last
    }
}
