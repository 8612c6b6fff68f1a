//! The arrays a step leaves behind: percepts, brain state changes, forgotten memories and
//! awareness stage changes. Owned by the world, valid until the next step (or destroy).

use super::boundary::{output, with_world_ref};
use super::types::*;
use super::world::ArgusWorld;
use argus_core::world::World;

/// A percept came from sight.
pub const ARGUS_PERCEPT_SIGHT: u32 = 0;
/// A percept came from hearing.
pub const ARGUS_PERCEPT_SOUND: u32 = 1;

/// Brain state: nothing going on.
pub const ARGUS_BRAIN_IDLE: u32 = 0;
/// Brain state: going to look at a sound (or glimpse).
pub const ARGUS_BRAIN_INVESTIGATING: u32 = 1;
/// Brain state: chasing a seen target.
pub const ARGUS_BRAIN_CHASING: u32 = 2;
/// Brain state: searching the last known position until a timer runs out.
pub const ARGUS_BRAIN_SEARCHING: u32 = 3;

/// Awareness stage: below the suspicious threshold.
pub const ARGUS_AWARENESS_UNAWARE: u32 = 0;
/// Awareness stage: suspicious.
pub const ARGUS_AWARENESS_SUSPICIOUS: u32 = 1;
/// Awareness stage: alert.
pub const ARGUS_AWARENESS_ALERT: u32 = 2;
/// Awareness stage: aware (the brain chases from here).
pub const ARGUS_AWARENESS_AWARE: u32 = 3;

/// One piece of sensed information, the same shape for every sense.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusPercept {
    /// `ARGUS_PERCEPT_SIGHT` or `ARGUS_PERCEPT_SOUND`.
    pub kind: u32,
    /// Who perceived.
    pub agent: ArgusAgentId,
    /// The seen target, or the sound's source (null for an anonymous sound).
    pub target: ArgusTargetId,
    /// The target's position (sight) or the sound's position (hearing).
    pub position: ArgusVec3,
    /// World time of the step, in seconds.
    pub time: f32,
    /// Sight: visible fraction of check points. Sound: 1 − distance / hearing radius.
    pub strength: f32,
}

/// A brain changed state during the step.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusBrainEvent {
    /// Whose brain.
    pub agent: ArgusAgentId,
    /// Focus target after the change (null if none).
    pub target: ArgusTargetId,
    /// `ARGUS_BRAIN_*` before.
    pub from: u32,
    /// `ARGUS_BRAIN_*` after.
    pub to: u32,
    /// World time of the step.
    pub time: f32,
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
}

/// An awareness meter crossed a stage threshold.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusAwarenessEvent {
    /// Whose awareness.
    pub agent: ArgusAgentId,
    /// Of which target.
    pub target: ArgusTargetId,
    /// `ARGUS_AWARENESS_*` before.
    pub from: u32,
    /// `ARGUS_AWARENESS_*` after.
    pub to: u32,
    /// Meter level after the step (0..1).
    pub level: f32,
    /// World time of the step.
    pub time: f32,
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
    ArgusAwarenessEventArray: ArgusAwarenessEvent
);

/// C copies of the core's step events, refreshed after every step.
#[derive(Default)]
pub(crate) struct EventBuffers {
    percepts: Vec<ArgusPercept>,
    brain: Vec<ArgusBrainEvent>,
    forgotten: Vec<ArgusForgetEvent>,
    awareness: Vec<ArgusAwarenessEvent>,
}

impl EventBuffers {
    pub(crate) fn refresh(&mut self, world: &World) {
        let e = world.events();
        self.percepts.clear();
        self.percepts.extend(e.percepts.iter().map(|p| ArgusPercept {
            kind: p.kind as u32,
            agent: p.agent.into(),
            target: p.target.into(),
            position: p.position.into(),
            time: p.time,
            strength: p.strength,
        }));
        self.brain.clear();
        self.brain.extend(e.brain.iter().map(|b| ArgusBrainEvent {
            agent: b.agent.into(),
            target: b.target.into(),
            from: b.from as u32,
            to: b.to as u32,
            time: b.time,
        }));
        self.forgotten.clear();
        self.forgotten.extend(e.forgotten.iter().map(|f| ArgusForgetEvent {
            agent: f.agent.into(),
            target: f.target.into(),
            position: f.position.into(),
            time: f.time,
        }));
        self.awareness.clear();
        self.awareness.extend(e.awareness.iter().map(|a| ArgusAwarenessEvent {
            agent: a.agent.into(),
            target: a.target.into(),
            from: a.from as u32,
            to: a.to as u32,
            level: a.level,
            time: a.time,
        }));
    }
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

const _: () = assert!(size_of::<ArgusPercept>() == 40);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusPerceptArray>() == 16 && size_of::<ArgusBrainEventArray>() == 16);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusForgetEventArray>() == 16 && size_of::<ArgusAwarenessEventArray>() == 16);
const _: () = assert!(size_of::<ArgusBrainEvent>() == 28);
const _: () = assert!(size_of::<ArgusForgetEvent>() == 32);
const _: () = assert!(size_of::<ArgusAwarenessEvent>() == 32);
