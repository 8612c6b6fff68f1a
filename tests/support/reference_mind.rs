//! Memory (lesson §7) and the guard brain (lesson §8) for the reference, with the additions argus
//! makes to the lesson spelled out: one memory record per target, a focus target, an investigate
//! timeout and the engine's "arrived" report.

use glam::Vec3;

/// A target's identity: slot index and generation (zero generation is never issued).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefId {
    pub index: u32,
    pub generation: u32,
}

/// `PerceptionMemory` for one target.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RefRecord {
    pub target: RefId,
    pub last_known_position: Vec3,
    /// 1 = certain, 0 = forgotten.
    pub confidence: f32,
    /// Seen at the latest sight tick.
    pub seen: bool,
    /// World time of the last percept (argus's sample and hold counts decay from it).
    pub last_time: f32,
}

/// The record for `target`, if any.
pub fn record(records: &[RefRecord], target: RefId) -> Option<&RefRecord> {
    records.iter().find(|r| r.target == target)
}

/// `HandlePercept`: confidence snaps to 1 at the perceived position (a record is made if needed).
pub fn refresh(records: &mut Vec<RefRecord>, target: RefId, position: Vec3, time: f32) -> &mut RefRecord {
    let i = match records.iter().position(|r| r.target == target) {
        Some(i) => i,
        None => {
            records.push(RefRecord {
                target,
                last_known_position: Vec3::ZERO,
                confidence: 0.0,
                seen: false,
                last_time: 0.0,
            });
            records.len() - 1
        }
    };
    let rec = &mut records[i];
    rec.last_known_position = position;
    rec.confidence = 1.0;
    rec.last_time = time;
    rec
}

/// `PerceptionMemory.Update` for every record: decay, and below the threshold exactly 0.
/// Returns the records this call forgot.
pub fn decay(records: &mut [RefRecord], decay_per_second: f32, forget_threshold: f32, dt: f32) -> Vec<RefRecord> {
    decay_where(records, decay_per_second, forget_threshold, dt, |_| true)
}

/// [`decay`] for the records `which` picks.
pub fn decay_where(
    records: &mut [RefRecord],
    decay_per_second: f32,
    forget_threshold: f32,
    dt: f32,
    which: impl Fn(&RefRecord) -> bool,
) -> Vec<RefRecord> {
    let mut forgotten = Vec::new();
    for rec in records.iter_mut() {
        if rec.confidence <= 0.0 || !which(rec) {
            continue;
        }
        rec.confidence -= decay_per_second * dt;
        if rec.confidence < forget_threshold {
            rec.confidence = 0.0;
            forgotten.push(*rec);
        }
    }
    forgotten
}

/// `AIState`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RefState {
    Idle,
    Investigating,
    Chasing,
    Searching,
}

/// `EnemyBrain`'s tuning.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RefBrainConfig {
    pub enabled: bool,
    /// The lesson's `searchDuration` (4 s).
    pub search_duration: f32,
    /// Seconds Investigating before giving up on arriving (argus's addition; 10 s).
    pub investigate_timeout: f32,
}

impl Default for RefBrainConfig {
    fn default() -> Self {
        RefBrainConfig { enabled: true, search_duration: 4.0, investigate_timeout: 10.0 }
    }
}

/// `EnemyBrain`'s state.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RefBrain {
    pub state: RefState,
    /// The target chased or searched for (none for an anonymous sound).
    pub focus: Option<RefId>,
    /// The lesson's `investigateTarget`.
    pub investigate_position: Vec3,
    /// `searchTimer`, also used as the investigate timer.
    pub timer: f32,
    /// The engine reported arrival at the investigate position since the last step.
    pub arrived: bool,
    /// Investigating began during this step: its timer starts counting at the next step.
    pub just_started: bool,
}

impl Default for RefBrain {
    fn default() -> Self {
        RefBrain {
            state: RefState::Idle,
            focus: None,
            investigate_position: Vec3::ZERO,
            timer: 0.0,
            arrived: false,
            just_started: false,
        }
    }
}

/// The percepts one agent received this step, as the brain needs them.
#[derive(Copy, Clone, Debug)]
pub enum Heard {
    Sound { position: Vec3, source: Option<RefId> },
    Sight { target: RefId },
}

/// One step of the brain: `HandlePercept` for each percept, then `Update`.
pub fn think(brain: &mut RefBrain, cfg: &RefBrainConfig, records: &[RefRecord], me: Vec3, percepts: &[Heard], dt: f32) {
    // HandlePercept, Sound: only an idle guard goes to investigate.
    for p in percepts {
        if let Heard::Sound { position, source } = *p
            && brain.state == RefState::Idle
        {
            brain.state = RefState::Investigating;
            brain.investigate_position = position;
            brain.focus = source;
            brain.timer = cfg.investigate_timeout;
            brain.arrived = false;
            brain.just_started = true;
        }
    }
    // HandlePercept, Sight: chase. Which target: keep the focus if it was seen, else the seen
    // target whose remembered position is nearest (ties: lower slot index).
    let seen_now = |t: RefId| percepts.iter().any(|p| matches!(p, Heard::Sight { target } if *target == t));
    let mut chase: Option<(f32, RefId)> = None;
    if brain.focus.is_some_and(seen_now) {
        chase = brain.focus.map(|f| (0.0, f));
    } else {
        for p in percepts {
            let Heard::Sight { target } = *p else { continue };
            let Some(rec) = record(records, target) else { continue };
            let d2 = (rec.last_known_position - me).length_squared();
            let better = match chase {
                None => true,
                Some((best, id)) => d2 < best || (d2 == best && target.index < id.index),
            };
            if better {
                chase = Some((d2, target));
            }
        }
    }
    if let Some((_, target)) = chase {
        brain.state = RefState::Chasing;
        brain.focus = Some(target);
    }

    // Update.
    let (confidence, seen) = match brain.focus.and_then(|f| record(records, f)) {
        Some(r) => (r.confidence, r.seen),
        None => (0.0, false),
    };
    match brain.state {
        RefState::Chasing => {
            if confidence <= 0.0 {
                go_idle(brain);
            } else if !seen {
                brain.state = RefState::Searching;
                brain.timer = cfg.search_duration;
            }
        }
        RefState::Searching => {
            brain.timer -= dt;
            // An anonymous sound's search ends on the timer only.
            if (brain.focus.is_some() && confidence <= 0.0) || brain.timer <= 0.0 {
                go_idle(brain);
            }
        }
        RefState::Investigating => {
            if !brain.just_started {
                brain.timer -= dt;
            }
            if brain.arrived || brain.timer <= 0.0 {
                brain.state = RefState::Searching;
                brain.timer = cfg.search_duration;
            }
        }
        RefState::Idle => {}
    }
    brain.arrived = false;
    brain.just_started = false;
}

/// argus's rule for a destroyed focus target: a brain still focused on it after the next step's
/// thinking (in any state but Idle) gives up then.
pub fn focus_destroyed(brain: &mut RefBrain) {
    if brain.focus.is_some() && brain.state != RefState::Idle {
        go_idle(brain);
    }
}

fn go_idle(brain: &mut RefBrain) {
    brain.state = RefState::Idle;
    brain.focus = None;
    brain.timer = 0.0;
}
