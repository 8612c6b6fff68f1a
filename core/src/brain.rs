//! The guard brain of lesson §8: Idle / Investigating / Chasing / Searching, driven only by
//! percepts and memory, never by the target's true position.

use crate::awareness::AwarenessStage;
use crate::error::Result;
use crate::id::TargetId;
use crate::math::{Vec3, check_non_negative};
use crate::memory::{self, MemoryRecord};
use crate::percept::{Percept, PerceptKind};
use crate::settings::{SettingsField, WordKind};

/// The brain's states.
#[doc(alias = "AIState")]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BrainState {
    /// Nothing going on.
    Idle = 0,
    /// Heard something (or, with awareness, glimpsed something); going to look.
    Investigating = 1,
    /// Sees (or is aware of) a target and goes after it.
    Chasing = 2,
    /// Lost the target; searching around the last known position until a timer runs out.
    Searching = 3,
}

impl BrainState {
    /// Decodes a stored value.
    pub fn from_u8(v: u8) -> Option<BrainState> {
        Some(match v {
            0 => BrainState::Idle,
            1 => BrainState::Investigating,
            2 => BrainState::Chasing,
            3 => BrainState::Searching,
            _ => return None,
        })
    }
}

/// How a brain searches for a target it lost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum SearchKind {
    /// The lesson's search: go to the last known position and wait there (the default).
    LastKnownPosition = 0,
    /// Search by a belief of where the target can be now, over the world's walk graph (see
    /// [`crate::belief`]): go from one search point to the next. Without a walk graph, the
    /// lesson's search.
    Belief = 1,
}

impl SearchKind {
    /// Decodes a stored value.
    pub fn from_u32(v: u32) -> Option<SearchKind> {
        match v {
            0 => Some(SearchKind::LastKnownPosition),
            1 => Some(SearchKind::Belief),
            _ => None,
        }
    }
}

impl SettingsField for SearchKind {
    const KINDS: &'static [WordKind] = &[WordKind::Choice(2)];
    fn push(&self, out: &mut Vec<u32>) {
        out.push(*self as u32);
    }
    fn take(words: &mut dyn Iterator<Item = u32>) -> Option<Self> {
        SearchKind::from_u32(words.next()?)
    }
}

crate::settings::settings! {
    /// Brain tuning (the lesson's `EnemyBrain` fields).
    #[doc(alias = "EnemyBrain")]
    pub struct BrainConfig {
        /// When false the agent still senses and remembers, but its state stays Idle (bring your
        /// own behaviour tree). Default true.
        pub enabled: bool = true,
        /// Seconds spent Searching before giving up (default 4, as in the lesson).
        pub search_duration: f32 = 4.0,
        /// Seconds Investigating before moving on to Searching if the engine never reports arrival
        /// (default 10).
        pub investigate_timeout: f32 = 10.0,
        /// How a lost target is searched for (default the lesson's last known position).
        pub search: SearchKind = SearchKind::LastKnownPosition,
        /// Belief search gives up when no node of the walk graph holds more than this
        /// probability: the target could be anywhere (default 0.002).
        pub give_up_probability: f32 = 0.002,
        /// Belief search: agents of one team with this on keep one belief per target together,
        /// each clearing what it sees, and pick different search points (default true); off,
        /// the agent keeps its own.
        pub share_belief: bool = true,
    }
}

impl BrainConfig {
    pub(crate) fn validate(&self) -> Result<()> {
        check_non_negative(self.search_duration, "brain search duration")?;
        check_non_negative(self.investigate_timeout, "brain investigate timeout")?;
        crate::math::check_range(self.give_up_probability, 0.0, 1.0, "brain give-up probability")?;
        Ok(())
    }
}

/// One agent's brain.
#[doc(alias = "EnemyBrain")]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Brain {
    /// Current state.
    pub state: BrainState,
    /// The target being chased or searched for (null when none, e.g. an anonymous sound).
    pub focus: TargetId,
    /// Where the sound (or glimpse) being investigated came from.
    pub investigate_position: Vec3,
    /// Seconds left in Searching or Investigating.
    pub timer: f32,
    /// The engine reported arrival at the investigate position since the last step.
    pub arrived: bool,
    /// Investigating began during this step's percepts: its timer starts with the next step,
    /// as the search timer does.
    pub just_started: bool,
    /// Belief search: the search point being walked to.
    pub search_point: Option<Vec3>,
    /// Belief search: a new search point chosen from the belief after the last step, taken up
    /// by the next step's thinking (so a step's record and the brain after it agree).
    pub next_search_point: Option<Vec3>,
    /// Belief search: the belief's highest node probability after the last step; negative while
    /// the brain has no belief (then it searches as the lesson does).
    pub belief_peak: f32,
}

impl Default for Brain {
    fn default() -> Self {
        Brain {
            state: BrainState::Idle,
            focus: TargetId::NULL,
            investigate_position: Vec3::ZERO,
            timer: 0.0,
            arrived: false,
            just_started: false,
            search_point: None,
            next_search_point: None,
            belief_peak: NO_BELIEF,
        }
    }
}

/// [`Brain::belief_peak`] of a brain without a belief.
pub const NO_BELIEF: f32 = -1.0;

/// What the focus target looks like to the brain this step.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FocusView {
    /// Memory confidence of the focus (0 when there is no record).
    pub confidence: f32,
    /// Seen at the agent's latest sense tick.
    pub seen: bool,
    /// Last known position, if remembered.
    pub last_known_position: Option<Vec3>,
}

impl Brain {
    /// A sighting that warrants a chase (lesson: any Sight percept).
    pub fn on_chase(&mut self, target: TargetId) {
        self.state = BrainState::Chasing;
        self.focus = target;
    }

    /// A sound (or, with awareness, a glimpse): investigated only from Idle, as in the lesson.
    pub fn on_investigate(&mut self, position: Vec3, source: TargetId, config: &BrainConfig) {
        if self.state == BrainState::Idle {
            self.state = BrainState::Investigating;
            self.investigate_position = position;
            self.focus = source;
            self.timer = config.investigate_timeout;
            self.arrived = false;
            self.just_started = true;
        }
    }

    /// The per-step update, after this step's percepts were handled.
    pub fn update(&mut self, config: &BrainConfig, dt: f32, focus: FocusView) {
        let has_focus = !self.focus.is_null();
        match self.state {
            BrainState::Chasing => {
                if focus.confidence <= 0.0 {
                    self.go_idle();
                } else if !focus.seen {
                    self.state = BrainState::Searching;
                    self.timer = config.search_duration;
                }
            }
            BrainState::Searching => {
                self.timer -= dt;
                // A belief search ends when the belief no longer says where to look (its memory
                // of the target fading does not end it: the belief is what it searches by).
                // Without a focus (an anonymous sound) only the timer ends the search.
                let given_up = if self.searches_by_belief(config) {
                    self.belief_peak < config.give_up_probability
                } else {
                    has_focus && focus.confidence <= 0.0
                };
                if given_up || self.timer <= 0.0 {
                    self.go_idle();
                }
            }
            BrainState::Investigating => {
                if !self.just_started {
                    self.timer -= dt;
                }
                if self.arrived || self.timer <= 0.0 {
                    self.state = BrainState::Searching;
                    self.timer = config.search_duration;
                }
            }
            BrainState::Idle => {}
        }
        self.arrived = false;
        self.just_started = false;
        if self.state == BrainState::Searching && self.searches_by_belief(config) {
            if let Some(point) = self.next_search_point.take() {
                self.search_point = Some(point);
            }
        } else {
            self.search_point = None;
            self.next_search_point = None;
        }
    }

    /// Searching by a belief now: the setting asks for it and the brain has one.
    pub fn searches_by_belief(&self, config: &BrainConfig) -> bool {
        config.search == SearchKind::Belief && self.belief_peak >= 0.0
    }

    /// One step of thinking (lesson §8): sounds start an investigation, a qualifying sighting
    /// starts or continues a chase ([`Brain::choose_chase`]), with awareness a glimpse makes an
    /// idle guard come and look; then the per-step [`Brain::update`]. `records` is the agent's
    /// memory after this step's percepts, `percepts` this step's percepts of this agent.
    #[doc(alias = "HandlePercept")]
    pub fn think(
        &mut self,
        config: &BrainConfig,
        awareness_on: bool,
        position: Vec3,
        records: &[MemoryRecord],
        percepts: &[Percept],
        dt: f32,
    ) {
        for p in percepts.iter().filter(|p| p.kind == PerceptKind::Sound) {
            self.on_investigate(p.position, p.target, config);
        }
        if let Some(target) = self.choose_chase(awareness_on, position, records, percepts) {
            self.on_chase(target);
        } else if awareness_on && self.state == BrainState::Idle {
            // With awareness, a glimpse below "aware" makes the guard come and look.
            let glimpse = nearest(position, records, |r| r.seen && r.stage >= AwarenessStage::Suspicious);
            if let Some(rec) = glimpse {
                self.on_investigate(rec.last_known_position, rec.target, config);
            }
        }
        let focus = self.focus_view(records);
        self.update(config, dt, focus);
    }

    /// Which target to chase: the current focus if it qualifies, else the nearest remembered
    /// target that does (ties by slot). Without awareness a target qualifies when it was seen in
    /// `percepts` (the lesson: any Sight percept); with awareness when it is seen and Aware, or
    /// is the focus being chased or searched for and seen again.
    pub fn choose_chase(
        &self,
        awareness_on: bool,
        position: Vec3,
        records: &[MemoryRecord],
        percepts: &[Percept],
    ) -> Option<TargetId> {
        let qualifies = |r: &MemoryRecord| {
            if awareness_on {
                let resuming =
                    r.target == self.focus && matches!(self.state, BrainState::Chasing | BrainState::Searching);
                r.seen && (r.stage == AwarenessStage::Aware || resuming)
            } else {
                percepts.iter().any(|p| p.kind == PerceptKind::Sight && p.target == r.target)
            }
        };
        if let Some(rec) = memory::find(records, self.focus).filter(|r| qualifies(r)) {
            return Some(rec.target);
        }
        nearest(position, records, qualifies).map(|r| r.target)
    }

    /// What this brain knows about its focus target, from the agent's memory `records`.
    pub fn focus_view(&self, records: &[MemoryRecord]) -> FocusView {
        match memory::find(records, self.focus) {
            Some(rec) if !self.focus.is_null() => FocusView {
                confidence: rec.confidence,
                seen: rec.seen,
                last_known_position: Some(rec.last_known_position),
            },
            _ => FocusView { confidence: 0.0, seen: false, last_known_position: None },
        }
    }

    /// The focus target was destroyed (the world calls this at the end of the brain's first
    /// step after, unless that step gave it a new focus): an Investigating, Chasing or Searching
    /// brain focused on it gives up at once and goes Idle, whatever its timer (an investigation
    /// used to run on for its whole timeout). A brain with no focus (investigating an anonymous
    /// sound) is not affected.
    pub fn on_focus_destroyed(&mut self) {
        if !self.focus.is_null() && self.state != BrainState::Idle {
            self.go_idle();
        }
    }

    fn go_idle(&mut self) {
        self.state = BrainState::Idle;
        self.focus = TargetId::NULL;
        self.timer = 0.0;
        self.search_point = None;
        self.next_search_point = None;
    }

    /// Where the agent should move: the remembered position of the target while chasing or
    /// searching (a belief search's search point once it has one), the sound's position while
    /// investigating, nothing while idle.
    pub fn move_target(&self, focus: &FocusView) -> Option<Vec3> {
        match self.state {
            BrainState::Idle => None,
            BrainState::Investigating => Some(self.investigate_position),
            BrainState::Chasing => focus.last_known_position.or(Some(self.investigate_position)),
            BrainState::Searching => {
                self.search_point.or(focus.last_known_position).or(Some(self.investigate_position))
            }
        }
    }
}

/// The record nearest to `position` (by last known position, ties by target slot) that `pick` accepts.
fn nearest(position: Vec3, records: &[MemoryRecord], pick: impl Fn(&MemoryRecord) -> bool) -> Option<&MemoryRecord> {
    records.iter().filter(|r| pick(r)).min_by(|a, b| {
        let da = a.last_known_position.distance_squared(position);
        let db = b.last_known_position.distance_squared(position);
        da.total_cmp(&db).then(a.target.index.cmp(&b.target.index))
    })
}
