//! The arrays a step leaves behind: percepts, brain state changes, forgotten memories,
//! awareness stage changes, and targets seen / lost at sight ticks. Owned by the world, valid
//! until the next step (or destroy).

use super::boundary::{output, with_world_ref};
use super::enums::*;
use super::types::*;
use super::user_data::{self, UserData};
use super::world::ArgusWorld;
use argus_core::id::TargetId;
use argus_core::world::World;

/// One piece of sensed information, the same shape for every sense.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusPercept {
    /// Which sense.
    pub kind: ArgusPerceptKind,
    /// Who perceived.
    pub agent: ArgusAgentId,
    /// The seen target, or the sound's source (null for an anonymous sound).
    pub target: ArgusTargetId,
    /// The target's position (sight); for hearing, where the sound seems to come from: its own
    /// position (straight-line hearing), or with walk hearing the last point of its walk the
    /// listener can see (the doorway it came through).
    pub position: ArgusVec3,
    /// World time of the step, in seconds.
    pub time: f32,
    /// Sight: visible fraction of check points. Sound: 1 − distance / hearing radius.
    pub strength: f32,
    /// Sound: which sound it was, its index in the order sounds were emitted
    /// (`argus_world_emit_sound`) since the previous step, 0 for the first; two sounds at one
    /// spot stay apart. Sight: `ARGUS_NO_SOUND`.
    pub sound_index: u32,
    /// Sound: the sound's loudness as emitted (its radius in metres). Sight: 0.
    pub loudness: f32,
    /// Sound: the metres it travelled to the listener, along the straight line or, heard around
    /// walls, along the walk. Sight: 0.
    pub distance: f32,
    /// Always 0 (keeps the user data 8-byte aligned on every target).
    pub reserved: u32,
    /// The agent's `user_data`.
    pub agent_user_data: u64,
    /// The target's `user_data` (0 when `target` is null); for a sound, its source's.
    pub target_user_data: u64,
}

/// `ArgusPercept::sound_index` of a sight percept.
pub const ARGUS_NO_SOUND: u32 = 0xFFFF_FFFF;
const _: () = assert!(ARGUS_NO_SOUND == argus_core::Percept::NO_SOUND);

/// A target came into an agent's sight (a seen event) or left it (a lost event) at the agent's
/// sight tick, against what it saw at its previous tick (like Box2D's sensor begin / end
/// events). A target disabled, or hidden, is lost at the first tick that does not see it; one
/// destroyed, or forgotten by hand (`argus_agent_forget`), between two ticks leaves no lost event.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusSightEvent {
    /// Whose sight.
    pub agent: ArgusAgentId,
    /// The target seen or lost.
    pub target: ArgusTargetId,
    /// Seen: where the target is. Lost: where it was last perceived.
    pub position: ArgusVec3,
    /// World time of the step.
    pub time: f32,
    /// The agent's `user_data`.
    pub agent_user_data: u64,
    /// The target's `user_data`.
    pub target_user_data: u64,
}

/// A brain changed state during the step.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusBrainEvent {
    /// Whose brain.
    pub agent: ArgusAgentId,
    /// Focus target after the change (null if none).
    pub target: ArgusTargetId,
    /// State before.
    pub from: ArgusBrainState,
    /// State after.
    pub to: ArgusBrainState,
    /// World time of the step.
    pub time: f32,
    /// The agent's `user_data`.
    pub agent_user_data: u64,
    /// The target's `user_data` (0 when `target` is null).
    pub target_user_data: u64,
}

/// A memory record's confidence fell below the forget threshold (now exactly 0).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusForgetEvent {
    /// Whose memory.
    pub agent: ArgusAgentId,
    /// The forgotten target.
    pub target: ArgusTargetId,
    /// Its last known position.
    pub position: ArgusVec3,
    /// World time of the step.
    pub time: f32,
    /// The agent's `user_data`.
    pub agent_user_data: u64,
    /// The target's `user_data` (0 when `target` is null).
    pub target_user_data: u64,
}

/// An awareness meter crossed a stage threshold.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusAwarenessEvent {
    /// Whose awareness.
    pub agent: ArgusAgentId,
    /// Of which target.
    pub target: ArgusTargetId,
    /// Stage before.
    pub from: ArgusAwarenessStage,
    /// Stage after.
    pub to: ArgusAwarenessStage,
    /// Meter level after the step (0..1).
    pub level: f32,
    /// World time of the step.
    pub time: f32,
    /// The agent's `user_data`.
    pub agent_user_data: u64,
    /// The target's `user_data` (0 when `target` is null).
    pub target_user_data: u64,
}

/// This step's percepts, in agent slot order (per agent: sounds in emission order, then sights in target slot order).
/// Owned by the world; valid until the next step, load or destroy.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusPerceptArray {
    /// First item (NULL when `count` is 0).
    pub items: *const ArgusPercept,
    /// Number of items.
    pub count: u32,
}

/// This step's brain state changes, in agent slot order.
/// Owned by the world; valid until the next step, load or destroy.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusBrainEventArray {
    /// First item (NULL when `count` is 0).
    pub items: *const ArgusBrainEvent,
    /// Number of items.
    pub count: u32,
}

/// This step's forgotten memory records.
/// Owned by the world; valid until the next step, load or destroy.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusForgetEventArray {
    /// First item (NULL when `count` is 0).
    pub items: *const ArgusForgetEvent,
    /// Number of items.
    pub count: u32,
}

/// This step's awareness stage changes.
/// Owned by the world; valid until the next step, load or destroy.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusAwarenessEventArray {
    /// First item (NULL when `count` is 0).
    pub items: *const ArgusAwarenessEvent,
    /// Number of items.
    pub count: u32,
}

/// This step's seen events (or lost events: each is its own array), in agent slot order, per
/// agent in target slot order. Owned by the world; valid until the next step, load or destroy.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusSightEventArray {
    /// First item (NULL when `count` is 0).
    pub items: *const ArgusSightEvent,
    /// Number of items.
    pub count: u32,
}

macro_rules! array_of {
    ($($array:ident: $item:ty),*) => {$(
        impl $array {
            fn of(items: &[$item]) -> $array {
                $array { items: if items.is_empty() { std::ptr::null() } else { items.as_ptr() }, count: items.len() as u32 }
            }
        }
    )*};
}

array_of!(
    ArgusPerceptArray: ArgusPercept,
    ArgusBrainEventArray: ArgusBrainEvent,
    ArgusForgetEventArray: ArgusForgetEvent,
    ArgusAwarenessEventArray: ArgusAwarenessEvent,
    ArgusSightEventArray: ArgusSightEvent
);

/// C copies of the core's step events, refreshed after every step.
#[derive(Default)]
pub(crate) struct EventBuffers {
    percepts: Vec<ArgusPercept>,
    brain: Vec<ArgusBrainEvent>,
    forgotten: Vec<ArgusForgetEvent>,
    awareness: Vec<ArgusAwarenessEvent>,
    seen: Vec<ArgusSightEvent>,
    lost: Vec<ArgusSightEvent>,
}

impl EventBuffers {
    pub(crate) fn refresh(&mut self, world: &World, tag: u16, user: &UserData) {
        let e = world.events();
        self.percepts.clear();
        self.percepts.extend(e.percepts.iter().map(|p| ArgusPercept {
            kind: p.kind.into(),
            agent: ArgusAgentId::abi(p.agent, tag),
            target: ArgusTargetId::abi(p.target, tag),
            position: p.position.into(),
            time: p.time,
            strength: p.strength,
            sound_index: p.sound,
            loudness: p.loudness,
            distance: p.distance,
            reserved: 0,
            agent_user_data: user_data::get(&user.agents, p.agent.index),
            target_user_data: target_data(user, p.target),
        }));
        self.brain.clear();
        self.brain.extend(e.brain.iter().map(|b| ArgusBrainEvent {
            agent: ArgusAgentId::abi(b.agent, tag),
            target: ArgusTargetId::abi(b.target, tag),
            agent_user_data: user_data::get(&user.agents, b.agent.index),
            target_user_data: target_data(user, b.target),
            from: b.from.into(),
            to: b.to.into(),
            time: b.time,
        }));
        self.forgotten.clear();
        self.forgotten.extend(e.forgotten.iter().map(|f| ArgusForgetEvent {
            agent: ArgusAgentId::abi(f.agent, tag),
            target: ArgusTargetId::abi(f.target, tag),
            agent_user_data: user_data::get(&user.agents, f.agent.index),
            target_user_data: target_data(user, f.target),
            position: f.position.into(),
            time: f.time,
        }));
        self.awareness.clear();
        self.awareness.extend(e.awareness.iter().map(|a| ArgusAwarenessEvent {
            agent: ArgusAgentId::abi(a.agent, tag),
            target: ArgusTargetId::abi(a.target, tag),
            agent_user_data: user_data::get(&user.agents, a.agent.index),
            target_user_data: target_data(user, a.target),
            from: a.from.into(),
            to: a.to.into(),
            level: a.level,
            time: a.time,
        }));
        self.seen.clear();
        self.lost.clear();
        for c in &e.sight_changes {
            let event = ArgusSightEvent {
                agent: ArgusAgentId::abi(c.agent, tag),
                target: ArgusTargetId::abi(c.target, tag),
                position: c.position.into(),
                time: c.time,
                agent_user_data: user_data::get(&user.agents, c.agent.index),
                target_user_data: target_data(user, c.target),
            };
            if c.seen { &mut self.seen } else { &mut self.lost }.push(event);
        }
    }
}

/// A target's `user_data`, 0 for the null id.
pub(crate) fn target_data(user: &UserData, target: TargetId) -> u64 {
    if target.is_null() { 0 } else { user_data::get(&user.targets, target.index) }
}

/// This step's percepts.
///
/// # Safety
/// `world` NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_percepts(
    world: *const ArgusWorld,
    out: *mut ArgusPerceptArray,
) -> ArgusResult {
    with_world_ref(world, |w| {
        *output(out, "out")? = ArgusPerceptArray::of(&w.events.percepts);
        Ok(())
    })
}

/// This step's brain state changes.
///
/// # Safety
/// `world` NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_brain_events(
    world: *const ArgusWorld,
    out: *mut ArgusBrainEventArray,
) -> ArgusResult {
    with_world_ref(world, |w| {
        *output(out, "out")? = ArgusBrainEventArray::of(&w.events.brain);
        Ok(())
    })
}

/// This step's forgotten memory records.
///
/// # Safety
/// `world` NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_forget_events(
    world: *const ArgusWorld,
    out: *mut ArgusForgetEventArray,
) -> ArgusResult {
    with_world_ref(world, |w| {
        *output(out, "out")? = ArgusForgetEventArray::of(&w.events.forgotten);
        Ok(())
    })
}

/// This step's awareness stage changes.
///
/// # Safety
/// `world` NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_awareness_events(
    world: *const ArgusWorld,
    out: *mut ArgusAwarenessEventArray,
) -> ArgusResult {
    with_world_ref(world, |w| {
        *output(out, "out")? = ArgusAwarenessEventArray::of(&w.events.awareness);
        Ok(())
    })
}

/// This step's seen events: a target an agent sees at this step's sight tick and did not see at
/// its previous one (the "target seen" signal of an engine wrapper; no wrapper need keep its
/// own seen set).
///
/// # Safety
/// `world` NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_seen_events(
    world: *const ArgusWorld,
    out: *mut ArgusSightEventArray,
) -> ArgusResult {
    with_world_ref(world, |w| {
        *output(out, "out")? = ArgusSightEventArray::of(&w.events.seen);
        Ok(())
    })
}

/// This step's lost events: a target an agent saw at its previous sight tick and does not see at
/// this step's (the "target lost" signal; `position` is where it was last perceived).
///
/// # Safety
/// `world` NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_lost_events(
    world: *const ArgusWorld,
    out: *mut ArgusSightEventArray,
) -> ArgusResult {
    with_world_ref(world, |w| {
        *output(out, "out")? = ArgusSightEventArray::of(&w.events.lost);
        Ok(())
    })
}

const _: () = assert!(size_of::<ArgusPercept>() == 72);
const _: () = assert!(size_of::<ArgusSightEvent>() == 48);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusSightEventArray>() == 16);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusPerceptArray>() == 16 && size_of::<ArgusBrainEventArray>() == 16);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusForgetEventArray>() == 16 && size_of::<ArgusAwarenessEventArray>() == 16);
const _: () = assert!(size_of::<ArgusBrainEvent>() == 48);
const _: () = assert!(size_of::<ArgusForgetEvent>() == 48);
const _: () = assert!(size_of::<ArgusAwarenessEvent>() == 48);
