//! The one shape every sense reports through, and the other per-step events.

use crate::awareness::AwarenessStage;
use crate::brain::BrainState;
use crate::id::{AgentId, TargetId};
use crate::math::Vec3;

/// Which sense produced a percept.
#[doc(alias = "PerceptType")]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PerceptKind {
    /// The agent saw a target (at one of its sense ticks).
    Sight = 0,
    /// The agent heard a sound event.
    Sound = 1,
}

/// One piece of sensed information: what, where, when, how strongly.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Percept {
    /// The sense.
    pub kind: PerceptKind,
    /// Who perceived it.
    pub agent: AgentId,
    /// What was perceived: the seen target, or the sound's source (null for an anonymous sound).
    pub target: TargetId,
    /// Where: the target's position for sight; for hearing, where the sound seems to come
    /// from: the sound's own position (straight-line hearing), or with walk hearing the last
    /// point of its walk the listener can see (the doorway it came through).
    pub position: Vec3,
    /// World time of the step that produced it, in seconds.
    pub time: f32,
    /// Sight: visible fraction of the target's check points. Sound: 1 − distance / hearing
    /// radius (1 at the source, 0 at the edge).
    pub strength: f32,
    /// Sound: which sound it was, its index in the order the sounds were emitted since the
    /// previous step (0 = the first `emit_sound` after it), so two sounds at one spot stay
    /// apart. Sight: [`Percept::NO_SOUND`].
    pub sound: u32,
    /// Sound: the sound's loudness (its radius in metres, before the listener's sensitivity).
    /// Sight: 0.
    pub loudness: f32,
    /// Sound: the metres it travelled to the listener, along the straight line or, heard
    /// around walls, along the walk. Sight: 0.
    pub distance: f32,
}

impl Percept {
    /// The `sound` of a sight percept (no sound).
    pub const NO_SOUND: u32 = u32::MAX;
}

/// A brain changed state.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BrainEvent {
    /// Whose brain.
    pub agent: AgentId,
    /// State before the step.
    pub from: BrainState,
    /// State after the step.
    pub to: BrainState,
    /// The target the brain is focused on after the change (null if none).
    pub target: TargetId,
    /// World time of the step.
    pub time: f32,
}

/// A memory record's confidence fell below the forget threshold and became exactly 0.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ForgetEvent {
    /// Whose memory.
    pub agent: AgentId,
    /// The forgotten target.
    pub target: TargetId,
    /// The last known position, no longer trusted.
    pub position: Vec3,
    /// World time of the step.
    pub time: f32,
}

/// An awareness meter crossed a stage threshold.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AwarenessEvent {
    /// Whose awareness.
    pub agent: AgentId,
    /// Of which target.
    pub target: TargetId,
    /// Stage before the step.
    pub from: AwarenessStage,
    /// Stage after the step.
    pub to: AwarenessStage,
    /// Meter value after the step (0..1).
    pub level: f32,
    /// World time of the step.
    pub time: f32,
}

/// A target came into an agent's sight, or left it, at the agent's sight tick: what the agent
/// sees now against what it saw at its previous tick (a target destroyed or forgotten by hand in
/// between leaves no `lost` change).
#[doc(alias = "OnTargetSeen")]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SightChange {
    /// Whose sight.
    pub agent: AgentId,
    /// The target seen or lost.
    pub target: TargetId,
    /// True: seen now and not at the previous tick. False: lost, seen then and not now.
    pub seen: bool,
    /// Seen: where it is. Lost: where it was last perceived.
    pub position: Vec3,
    /// World time of the step.
    pub time: f32,
}

/// Everything a step reported, in a deterministic order (agent slot order, then sounds in
/// emission order before sights in target slot order). Valid until the next step.
#[doc(alias = "PerceptionSystem", alias = "OnPercept", alias = "OnHeardSound")]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepEvents {
    /// Percepts from every sense.
    pub percepts: Vec<Percept>,
    /// Brain state changes.
    pub brain: Vec<BrainEvent>,
    /// Forgotten memory records.
    pub forgotten: Vec<ForgetEvent>,
    /// Awareness stage changes.
    pub awareness: Vec<AwarenessEvent>,
    /// Agents whose sight ticked this step, in slot order: what each of them sees now is exactly
    /// its sight percepts of this step (none: it sees nothing). A test hook for the scheduling
    /// tests, not API: only with the `testing` feature (which the workspace's tests turn on);
    /// what changed at the ticks is `sight_changes`.
    #[cfg(any(test, feature = "testing"))]
    #[doc(hidden)]
    pub sight_ticks: Vec<AgentId>,
    /// Targets seen or lost at this step's sight ticks, per agent in target slot order: the
    /// "target seen" / "target lost" signals of an engine wrapper, without keeping its own sets.
    pub sight_changes: Vec<SightChange>,
}

impl StepEvents {
    pub(crate) fn clear(&mut self) {
        self.percepts.clear();
        self.brain.clear();
        self.forgotten.clear();
        self.awareness.clear();
        #[cfg(any(test, feature = "testing"))]
        self.sight_ticks.clear();
        self.sight_changes.clear();
    }

    pub(crate) fn append(&mut self, other: &mut StepEvents) {
        self.percepts.append(&mut other.percepts);
        self.brain.append(&mut other.brain);
        self.forgotten.append(&mut other.forgotten);
        self.awareness.append(&mut other.awareness);
        #[cfg(any(test, feature = "testing"))]
        self.sight_ticks.append(&mut other.sight_ticks);
        self.sight_changes.append(&mut other.sight_changes);
    }
}
