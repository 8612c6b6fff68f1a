//! Each sense's settings through the C ABI: one plain struct per sense (nested in
//! `ArgusAgentDef`, and read or replaced alone with `argus_agent_get_<sense>` /
//! `argus_agent_set_<sense>`; memory's are `_memory_settings`, as `argus_agent_get_memory`
//! reads the records), mirroring the core's settings field for field and name for name.
//! They map onto the lesson's components: sight = `FieldOfViewSensor`, hearing =
//! `HearingSensor`, memory = `PerceptionMemory`, brain = `EnemyBrain`. Units: metres, degrees,
//! seconds. Flags are `uint8_t` (non-zero = on).

use super::boundary::{FfiResult, input, output, with_world, with_world_ref};
use super::enums::{ArgusHearingPath, ArgusSearchKind, RawHearingPath, RawSearchKind};
use super::types::*;
use super::world::ArgusWorld;
use argus_core::agent::{Agent, HearingConfig, SightConfig};
use argus_core::awareness::AwarenessConfig;
use argus_core::brain::BrainConfig;
use argus_core::id::AgentId;
use argus_core::memory::MemoryConfig;
use argus_core::world::World;

/// Vision (the lesson's `FieldOfViewSensor` and the vision-cone card).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusSightSettings {
    /// Eye relative to the agent's position (default 0, 1.6, 0).
    pub eye_offset: ArgusVec3,
    /// Sight range in metres (default 10).
    pub view_radius: f32,
    /// Full cone width in degrees (default 90; >= 360 = all around).
    pub view_angle: f32,
    /// Once seen, a target stays in range until this radius; 0 = off (default).
    pub lose_sight_radius: f32,
    /// Peripheral cone radius; 0 = off (default).
    pub peripheral_radius: f32,
    /// Peripheral cone full width in degrees (default 180).
    pub peripheral_angle: f32,
    /// Target layers this agent sees (Unity targetMask; default all).
    pub target_mask: u32,
    /// Occluder layers that block its sight (Unity obstacleMask; default all).
    pub obstacle_mask: u32,
    /// Sight ticks per second (default 10; 0 = every step), staggered across agents.
    pub rate_hz: f32,
    /// Non-zero: sight is tested (default 1).
    pub enabled: u8,
}

/// Hearing (the lesson's `HearingSensor`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusHearingSettings {
    /// Multiplier on sound radii (default 1).
    pub sensitivity: f32,
    /// Sound layers it listens to (default all).
    pub sound_mask: u32,
    /// Occluder layers that muffle sound (by the world's sound occlusion or their own sound
    /// transmission) and that hide a walk-heard sound's path from view (default all).
    pub obstacle_mask: u32,
    /// Which way sound travels to it (default `ARGUS_HEARING_PATH_WORLD`: the world's setting).
    pub path: RawHearingPath,
    /// Non-zero: hearing is tested (default 1).
    pub enabled: u8,
}

/// Memory (the lesson's `PerceptionMemory`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusMemorySettings {
    /// Confidence lost per second unperceived (default 0.2).
    pub decay_per_second: f32,
    /// Below this confidence a memory is forgotten (default 0.05).
    pub forget_threshold: f32,
}

/// The guard brain (the lesson's `EnemyBrain`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusBrainSettings {
    /// Seconds of searching before giving up (default 4).
    pub search_duration: f32,
    /// Seconds investigating before searching if arrival is never reported (default 10).
    pub investigate_timeout: f32,
    /// Non-zero: the Idle/Investigating/Chasing/Searching brain runs (default 1).
    pub enabled: u8,
    /// Belief search: non-zero = agents of one team keep one belief per target together and
    /// pick different search points (default 1); zero = the agent keeps its own.
    pub share_belief: u8,
    /// How a lost target is searched for (default `ARGUS_SEARCH_KIND_LAST_KNOWN_POSITION`, the
    /// lesson's; `ARGUS_SEARCH_KIND_BELIEF` needs the world's walk graph).
    pub search: RawSearchKind,
    /// Belief search gives up when no walk graph node holds more than this probability
    /// (default 0.002; 0 to 1).
    pub give_up_probability: f32,
}

/// Awareness meters (not in the lesson: off by default, the brain then chases on first sight).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusAwarenessSettings {
    /// Awareness gained per second at best visibility (default 2).
    pub rise_per_second: f32,
    /// Awareness lost per second unseen (default 0.25).
    pub fall_per_second: f32,
    /// Gain multiplier at the view radius (default 0.25).
    pub far_factor: f32,
    /// Gain multiplier at the cone edge (default 0.5).
    pub edge_factor: f32,
    /// Meter level of the suspicious stage (default 0.3).
    pub suspicious_threshold: f32,
    /// Meter level of the alert stage (default 0.7).
    pub alert_threshold: f32,
    /// Meter level of the aware stage (default 1).
    pub aware_threshold: f32,
    /// Non-zero: awareness meters gate chasing (default 0).
    pub enabled: u8,
}

// Conversions, both ways. Struct literals without `..`: a field added on either side fails
// to compile here until it is carried across.

impl From<&SightConfig> for ArgusSightSettings {
    fn from(s: &SightConfig) -> Self {
        let SightConfig {
            enabled,
            eye_offset,
            view_radius,
            view_angle,
            lose_sight_radius,
            peripheral_radius,
            peripheral_angle,
            target_mask,
            obstacle_mask,
            rate_hz,
        } = *s;
        ArgusSightSettings {
            eye_offset: eye_offset.into(),
            view_radius,
            view_angle,
            lose_sight_radius,
            peripheral_radius,
            peripheral_angle,
            target_mask,
            obstacle_mask,
            rate_hz,
            enabled: enabled as u8,
        }
    }
}

impl From<&ArgusSightSettings> for SightConfig {
    fn from(c: &ArgusSightSettings) -> Self {
        SightConfig {
            enabled: flag(c.enabled),
            eye_offset: c.eye_offset.into(),
            view_radius: c.view_radius,
            view_angle: c.view_angle,
            lose_sight_radius: c.lose_sight_radius,
            peripheral_radius: c.peripheral_radius,
            peripheral_angle: c.peripheral_angle,
            target_mask: c.target_mask,
            obstacle_mask: c.obstacle_mask,
            rate_hz: c.rate_hz,
        }
    }
}

impl From<&HearingConfig> for ArgusHearingSettings {
    fn from(h: &HearingConfig) -> Self {
        let HearingConfig { enabled, sensitivity, sound_mask, obstacle_mask, path } = *h;
        let path = ArgusHearingPath::from(path).into();
        ArgusHearingSettings { sensitivity, sound_mask, obstacle_mask, path, enabled: enabled as u8 }
    }
}

/// A sense's settings from the caller's struct, refused where a field names no choice. (Public
/// for the tests that check the structs field for field; not part of the C ABI.)
#[doc(hidden)]
pub trait FromC<C>: Sized {
    /// The core's settings, or the refusal.
    fn from_c(c: &C) -> Result<Self, String>;
}

/// [`FromC`] as the boundary uses it: a refusal is `INVALID_ARGUMENT` with its message.
fn settings_from_c<C, S: FromC<C>>(c: &C) -> FfiResult<S> {
    S::from_c(c).map_err(super::boundary::invalid)
}

macro_rules! from_c_infallible {
    ($($c:ty => $s:ty),*) => {
        $(impl FromC<$c> for $s {
            fn from_c(c: &$c) -> Result<Self, String> {
                Ok(c.into())
            }
        })*
    };
}
from_c_infallible!(ArgusSightSettings => SightConfig, ArgusMemorySettings => MemoryConfig,
    ArgusAwarenessSettings => AwarenessConfig);

impl FromC<ArgusHearingSettings> for HearingConfig {
    fn from_c(c: &ArgusHearingSettings) -> Result<Self, String> {
        Ok(HearingConfig {
            enabled: flag(c.enabled),
            sensitivity: c.sensitivity,
            sound_mask: c.sound_mask,
            obstacle_mask: c.obstacle_mask,
            path: c.path.get().map_err(|f| f.message)?.into(),
        })
    }
}

impl From<&MemoryConfig> for ArgusMemorySettings {
    fn from(m: &MemoryConfig) -> Self {
        let MemoryConfig { decay_per_second, forget_threshold } = *m;
        ArgusMemorySettings { decay_per_second, forget_threshold }
    }
}

impl From<&ArgusMemorySettings> for MemoryConfig {
    fn from(c: &ArgusMemorySettings) -> Self {
        MemoryConfig { decay_per_second: c.decay_per_second, forget_threshold: c.forget_threshold }
    }
}

impl From<&BrainConfig> for ArgusBrainSettings {
    fn from(b: &BrainConfig) -> Self {
        let BrainConfig { enabled, search_duration, investigate_timeout, search, give_up_probability, share_belief } =
            *b;
        ArgusBrainSettings {
            search_duration,
            investigate_timeout,
            enabled: enabled as u8,
            share_belief: share_belief as u8,
            search: ArgusSearchKind::from(search).into(),
            give_up_probability,
        }
    }
}

impl FromC<ArgusBrainSettings> for BrainConfig {
    fn from_c(c: &ArgusBrainSettings) -> Result<Self, String> {
        Ok(BrainConfig {
            enabled: flag(c.enabled),
            search_duration: c.search_duration,
            investigate_timeout: c.investigate_timeout,
            search: c.search.get().map_err(|f| f.message)?.into(),
            give_up_probability: c.give_up_probability,
            share_belief: flag(c.share_belief),
        })
    }
}

impl From<&AwarenessConfig> for ArgusAwarenessSettings {
    fn from(a: &AwarenessConfig) -> Self {
        let AwarenessConfig {
            enabled,
            rise_per_second,
            fall_per_second,
            far_factor,
            edge_factor,
            suspicious_threshold,
            alert_threshold,
            aware_threshold,
        } = *a;
        ArgusAwarenessSettings {
            rise_per_second,
            fall_per_second,
            far_factor,
            edge_factor,
            suspicious_threshold,
            alert_threshold,
            aware_threshold,
            enabled: enabled as u8,
        }
    }
}

impl From<&ArgusAwarenessSettings> for AwarenessConfig {
    fn from(c: &ArgusAwarenessSettings) -> Self {
        AwarenessConfig {
            enabled: flag(c.enabled),
            rise_per_second: c.rise_per_second,
            fall_per_second: c.fall_per_second,
            far_factor: c.far_factor,
            edge_factor: c.edge_factor,
            suspicious_threshold: c.suspicious_threshold,
            alert_threshold: c.alert_threshold,
            aware_threshold: c.aware_threshold,
        }
    }
}

/// Converts `settings` and hands them to the world's setter for one sense.
fn set_sense<C, S: FromC<C>>(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    settings: *const C,
    apply: impl FnOnce(&mut World, AgentId, &S) -> argus_core::Result<()>,
) -> ArgusResult {
    with_world(world, |w| {
        let agent = agent.core(w.tag)?;
        let settings = settings_from_c(input(settings, "settings")?)?;
        Ok(apply(&mut w.world, agent, &settings)?)
    })
}

/// Writes one sense of a live agent to `out`.
fn get_sense<C: for<'a> From<&'a S>, S>(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out: *mut C,
    read: impl FnOnce(&Agent) -> &S,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out, "out_settings")?;
        *out = C::from(read(w.world.agent(agent.core(w.tag)?)?));
        Ok(())
    })
}

/// Replaces an agent's sight settings, keeping its pose, other senses, memory, brain and
/// schedule. Checked as in `argus_agent_create`; refused → nothing changed.
///
/// # Safety
/// `world` NULL or live; `settings` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_sight(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    settings: *const ArgusSightSettings,
) -> ArgusResult {
    set_sense(world, agent, settings, |w, a, s: &SightConfig| w.set_agent_sight(a, s))
}

/// The agent's sight settings.
///
/// # Safety
/// `world` NULL or live; `out_settings` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_sight(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out_settings: *mut ArgusSightSettings,
) -> ArgusResult {
    get_sense(world, agent, out_settings, Agent::sight)
}

/// Replaces an agent's hearing settings, keeping everything else; refused → nothing changed.
///
/// # Safety
/// `world` NULL or live; `settings` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_hearing(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    settings: *const ArgusHearingSettings,
) -> ArgusResult {
    set_sense(world, agent, settings, |w, a, s: &HearingConfig| w.set_agent_hearing(a, s))
}

/// The agent's hearing settings.
///
/// # Safety
/// `world` NULL or live; `out_settings` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_hearing(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out_settings: *mut ArgusHearingSettings,
) -> ArgusResult {
    get_sense(world, agent, out_settings, Agent::hearing)
}

/// Replaces an agent's memory settings, keeping everything else (its records too); refused →
/// nothing changed. (`argus_agent_get_memory` reads the records themselves.)
///
/// # Safety
/// `world` NULL or live; `settings` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_memory_settings(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    settings: *const ArgusMemorySettings,
) -> ArgusResult {
    set_sense(world, agent, settings, |w, a, s: &MemoryConfig| w.set_agent_memory(a, s))
}

/// The agent's memory settings.
///
/// # Safety
/// `world` NULL or live; `out_settings` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_memory_settings(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out_settings: *mut ArgusMemorySettings,
) -> ArgusResult {
    get_sense(world, agent, out_settings, Agent::memory_config)
}

/// Replaces an agent's brain settings, keeping everything else (its state too); refused →
/// nothing changed.
///
/// # Safety
/// `world` NULL or live; `settings` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_brain(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    settings: *const ArgusBrainSettings,
) -> ArgusResult {
    set_sense(world, agent, settings, |w, a, s: &BrainConfig| w.set_agent_brain(a, s))
}

/// The agent's brain settings.
///
/// # Safety
/// `world` NULL or live; `out_settings` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_brain(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out_settings: *mut ArgusBrainSettings,
) -> ArgusResult {
    get_sense(world, agent, out_settings, Agent::brain_config)
}

/// Replaces an agent's awareness settings, keeping everything else; refused → nothing changed.
///
/// # Safety
/// `world` NULL or live; `settings` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_awareness(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    settings: *const ArgusAwarenessSettings,
) -> ArgusResult {
    set_sense(world, agent, settings, |w, a, s: &AwarenessConfig| w.set_agent_awareness(a, s))
}

/// The agent's awareness settings.
///
/// # Safety
/// `world` NULL or live; `out_settings` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_awareness(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out_settings: *mut ArgusAwarenessSettings,
) -> ArgusResult {
    get_sense(world, agent, out_settings, Agent::awareness)
}

const _: () = assert!(size_of::<ArgusSightSettings>() == 48);
const _: () = assert!(size_of::<ArgusHearingSettings>() == 20);
const _: () = assert!(size_of::<ArgusMemorySettings>() == 8);
const _: () = assert!(size_of::<ArgusBrainSettings>() == 20);
const _: () = assert!(size_of::<ArgusAwarenessSettings>() == 32);
