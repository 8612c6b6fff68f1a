//! Agents through the C ABI: a def with one settings struct per sense (`settings.rs`), poses (one or many at a
//! time), the brain's outputs and the memory records.

use super::boundary::{
    FfiResult, check_cookie, fail, fill, input, invalid, output, peek, slice, with_world, with_world_ref,
};
use super::enums::*;
use super::events::target_data;
use super::settings::*;
use super::types::*;
use super::user_data;
use super::world::{ARGUS_MAX_BATCH, ArgusWorld, WorldState};
use argus_core::agent::{AgentDef, HearingConfig};
use argus_core::brain::BrainConfig;
use argus_core::id::AgentId;

/// Perceive hostile teams (the default detect mask).
pub const ARGUS_DETECT_HOSTILE: u32 = 1;
/// Perceive neutral teams.
pub const ARGUS_DETECT_NEUTRAL: u32 = 2;
/// Perceive friendly teams.
pub const ARGUS_DETECT_FRIENDLY: u32 = 4;

/// Everything needed to create an agent. Fill with `argus_default_agent_def()`; the world copies it.
/// Units: metres, degrees, seconds.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusAgentDef {
    /// Feet position.
    pub position: ArgusVec3,
    /// Facing (normalised; zero is refused). Default +Z.
    pub forward: ArgusVec3,
    /// Team 0..63 (default 0).
    pub team: u32,
    /// `ARGUS_DETECT_*` bits (default hostile only).
    pub detect_mask: u32,
    /// Vision (the lesson's `FieldOfViewSensor`).
    pub sight: ArgusSightSettings,
    /// Hearing (the lesson's `HearingSensor`).
    pub hearing: ArgusHearingSettings,
    /// Memory (the lesson's `PerceptionMemory`).
    pub memory: ArgusMemorySettings,
    /// The guard brain (the lesson's `EnemyBrain`).
    pub brain: ArgusBrainSettings,
    /// Awareness meters (off by default).
    pub awareness: ArgusAwarenessSettings,
    /// Set by `argus_default_agent_def()`; leave it alone.
    pub internal_cookie: u32,
    /// The engine's value for this agent (e.g. an object handle), echoed in events and
    /// queries; not interpreted, not saved in snapshots (default 0).
    pub user_data: u64,
}

/// An agent's pose and brain outputs.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusAgentState {
    /// Feet position.
    pub position: ArgusVec3,
    /// Unit facing.
    pub forward: ArgusVec3,
    /// Eye position.
    pub eye: ArgusVec3,
    /// Where the brain wants to go (valid when `has_move_target`).
    pub move_target: ArgusVec3,
    /// The brain's state.
    pub brain_state: ArgusBrainState,
    /// The target chased or searched for (null if none).
    pub focus: ArgusTargetId,
    /// Seconds left searching or investigating.
    pub brain_timer: f32,
    /// Number of memory records.
    pub memory_count: u32,
    /// Non-zero when `move_target` is meaningful (not Idle).
    pub has_move_target: u8,
    /// The agent's `user_data`.
    pub user_data: u64,
    /// The focus target's `user_data` (0 when `focus` is null).
    pub focus_user_data: u64,
}

/// One agent's per-frame outputs, as `argus_world_get_agent_states` lists them.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusAgentStateEntry {
    /// Which agent.
    pub agent: ArgusAgentId,
    /// Its pose and brain outputs.
    pub state: ArgusAgentState,
}

/// One memory record of an agent.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusMemoryRecord {
    /// The remembered target.
    pub target: ArgusTargetId,
    /// Where it was last perceived.
    pub last_known_position: ArgusVec3,
    /// 1 = just perceived, 0 = forgotten. Sample and hold: a target seen at the agent's latest
    /// sight tick (`seen`) reads exactly 1 until a tick does not see it, however many steps pass
    /// between ticks; at that tick it becomes 1 − decay_per_second × (now − last_percept_time)
    /// (decay counted from the last percept; below the forget threshold: 0 and a forget event),
    /// then loses decay_per_second × dt per step. With a sight tick every step this is the
    /// lesson's per-frame decay exactly.
    pub confidence: f32,
    /// World time of the last percept.
    pub last_percept_time: f32,
    /// Visible fraction at the latest sight tick.
    pub visibility: f32,
    /// Awareness meter 0..1.
    pub awareness: f32,
    /// The awareness meter's stage.
    pub awareness_stage: ArgusAwarenessStage,
    /// Non-zero if seen at the latest sight tick.
    pub seen: u8,
    /// The target's `user_data`.
    pub target_user_data: u64,
}

/// Default agent settings (the lesson's: radius 10, 90° cone, decay 0.2/s, search 4 s).
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_agent_def() -> ArgusAgentDef {
    to_c(&AgentDef::default())
}

pub(crate) fn to_c(d: &AgentDef) -> ArgusAgentDef {
    ArgusAgentDef {
        position: d.position.into(),
        forward: d.forward.into(),
        team: d.team,
        detect_mask: d.detect,
        sight: (&d.sight).into(),
        hearing: (&d.hearing).into(),
        memory: (&d.memory).into(),
        brain: (&d.brain).into(),
        awareness: (&d.awareness).into(),
        internal_cookie: ARGUS_DEF_COOKIE,
        user_data: 0,
    }
}

pub(crate) fn from_c(c: &ArgusAgentDef) -> FfiResult<AgentDef> {
    check_cookie(c.internal_cookie, "agent_def")?;
    Ok(AgentDef {
        position: c.position.into(),
        forward: c.forward.into(),
        team: c.team,
        detect: c.detect_mask,
        sight: (&c.sight).into(),
        hearing: HearingConfig::from_c(&c.hearing).map_err(invalid)?,
        memory: (&c.memory).into(),
        brain: BrainConfig::from_c(&c.brain).map_err(invalid)?,
        awareness: (&c.awareness).into(),
    })
}

/// Creates an agent from `def` (copied). Its first sight tick is staggered within one period.
///
/// # Safety
/// `world` NULL or live; `def` NULL or readable; `out_agent` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_create(
    world: *mut ArgusWorld,
    def: *const ArgusAgentDef,
    out_agent: *mut ArgusAgentId,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out_agent, "out_agent")?;
        let c = input(def, "def")?;
        let def = from_c(c)?;
        let id = w.world.create_agent(&def)?;
        user_data::set(&mut w.user.agents, id.index, c.user_data);
        *out = ArgusAgentId::abi(id, w.tag);
        Ok(())
    })
}

/// Destroys an agent and its memory. A stale id is refused with `INVALID_ID`.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_destroy(world: *mut ArgusWorld, agent: ArgusAgentId) -> ArgusResult {
    with_world(world, |w| Ok(w.world.destroy_agent(agent.core(w.tag)?)?))
}

/// Non-zero if `agent` names a live agent of `world`.
/// 0 means "not known to be live": also for a NULL world, and when the world cannot be asked
/// right now: another thread is inside a call on it (`BUSY`), the call comes from inside its own
/// ray callback (`REENTRANT`), or it is poisoned. Those cases never prove the id dead; tell them
/// apart with any call that returns an `ArgusResult` (e.g. `argus_world_get_counts`), whose code
/// names the reason, and ask again when it is `OK`. (`argus_last_error` also names them.)
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_is_valid(world: *const ArgusWorld, agent: ArgusAgentId) -> u8 {
    peek(world, |w| agent.core(w.tag).is_ok_and(|id| w.world.is_agent_valid(id)))
}

/// Replaces an agent's settings and pose from `def`, keeping its memory, brain and schedule.
///
/// # Safety
/// `world` NULL or live; `def` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_def(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    def: *const ArgusAgentDef,
) -> ArgusResult {
    with_world(world, |w| {
        let c = input(def, "def")?;
        let def = from_c(c)?;
        let id = agent.core(w.tag)?;
        w.world.set_agent_def(id, &def)?;
        user_data::set(&mut w.user.agents, id.index, c.user_data);
        Ok(())
    })
}

/// The agent's current settings and pose, as a def (round-trips through `argus_agent_set_def`).
///
/// # Safety
/// `world` NULL or live; `out_def` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_def(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out_def: *mut ArgusAgentDef,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_def, "out_def")?;
        let id = agent.core(w.tag)?;
        *out = ArgusAgentDef { user_data: user_data::get(&w.user.agents, id.index), ..to_c(&w.world.agent(id)?.def()) };
        Ok(())
    })
}

/// Moves and turns one agent.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_pose(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    position: ArgusVec3,
    forward: ArgusVec3,
) -> ArgusResult {
    with_world(world, |w| Ok(w.world.set_agent_pose(agent.core(w.tag)?, position.into(), forward.into())?))
}

/// Moves `count` agents in one call: `positions[i]` (and `forwards[i]`, or keep facing when
/// `forwards` is NULL) for `agents[i]`. All are checked before any moves; `count` may not exceed
/// the number of live agents.
///
/// # Safety
/// `world` NULL or live; the arrays NULL (count 0 / optional forwards) or `count` readable items.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_poses(
    world: *mut ArgusWorld,
    agents: *const ArgusAgentId,
    positions: *const ArgusVec3,
    forwards: *const ArgusVec3,
    count: u32,
) -> ArgusResult {
    with_world(world, |w| {
        let limit = w.world.agent_count().min(ARGUS_MAX_BATCH as usize);
        let ids = slice(agents, count, limit, "agents")?;
        let positions = slice(positions, count, limit, "positions")?;
        let forwards = if forwards.is_null() { None } else { Some(slice(forwards, count, limit, "forwards")?) };
        for id in ids {
            id.core(w.tag)?;
        }
        let pose = |i: usize| (ids[i].core_unchecked(), positions[i].into(), forwards.map(|f| f[i].into()));
        Ok(w.world.set_agent_poses_by(ids.len(), pose)?)
    })
}

/// Pose and brain outputs of an agent.
///
/// # Safety
/// `world` NULL or live; `out_state` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_state(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out_state: *mut ArgusAgentState,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_state, "out_state")?;
        *out = state_of(w, agent.core(w.tag)?)?;
        Ok(())
    })
}

fn state_of(w: &WorldState, id: AgentId) -> FfiResult<ArgusAgentState> {
    let a = w.world.agent(id)?;
    let goal = w.world.move_target(id)?;
    let focus = a.brain().focus;
    Ok(ArgusAgentState {
        position: a.position().into(),
        forward: a.forward().into(),
        eye: a.eye().into(),
        move_target: goal.unwrap_or_default().into(),
        brain_state: a.brain().state.into(),
        focus: ArgusTargetId::abi(focus, w.tag),
        brain_timer: a.brain().timer,
        memory_count: a.memory().len() as u32,
        has_move_target: goal.is_some() as u8,
        user_data: user_data::get(&w.user.agents, id.index),
        focus_user_data: target_data(&w.user, focus),
    })
}

/// Every live agent's state in one call, in slot order, copied into `buffer` (`capacity`
/// entries); the number goes to `*out_count` (too small → `BUFFER_TOO_SMALL` with the needed
/// number, nothing else written). `argus_world_get_counts().agents` is the number needed.
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable items (NULL if 0); `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_agent_states(
    world: *const ArgusWorld,
    buffer: *mut ArgusAgentStateEntry,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let count = output(out_count, "out_count")?;
        let needed = w.world.agent_count();
        if needed > capacity as usize {
            *count = needed as u32;
            return Err(fail(ArgusResult::BufferTooSmall, format!("buffer holds {capacity}, {needed} needed")));
        }
        if needed > 0 && buffer.is_null() {
            return Err(invalid("buffer must not be NULL"));
        }
        for (i, (id, _)) in w.world.agents().enumerate() {
            let entry = ArgusAgentStateEntry { agent: ArgusAgentId::abi(id, w.tag), state: state_of(w, id)? };
            // SAFETY: the caller promises `capacity` >= `needed` writable entries at `buffer`.
            unsafe { buffer.add(i).write(entry) };
        }
        *count = needed as u32;
        Ok(())
    })
}

/// The engine reports the agent reached its investigate position (Investigating → Searching at
/// the next step).
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_report_arrived(world: *mut ArgusWorld, agent: ArgusAgentId) -> ArgusResult {
    with_world(world, |w| Ok(w.world.report_arrived(agent.core(w.tag)?)?))
}

/// Copies the agent's memory records into `buffer` (capacity `capacity`) and writes their number
/// to `*out_count`; too small → `BUFFER_TOO_SMALL` with the needed number in `*out_count`.
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable items (NULL if 0); `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_memory(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    buffer: *mut ArgusMemoryRecord,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let records: Vec<ArgusMemoryRecord> = w
            .world
            .agent(agent.core(w.tag)?)?
            .memory()
            .iter()
            .map(|r| ArgusMemoryRecord {
                target: ArgusTargetId::abi(r.target, w.tag),
                last_known_position: r.last_known_position.into(),
                confidence: r.confidence,
                last_percept_time: r.last_percept_time,
                visibility: r.visibility,
                awareness: r.awareness,
                awareness_stage: r.stage.into(),
                seen: r.seen as u8,
                target_user_data: target_data(&w.user, r.target),
            })
            .collect();
        fill(&records, buffer, capacity, out_count)
    })
}

/// Sets a memory record by hand (a radio call between guards): `confidence` in [0, 1].
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_remember(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    target: ArgusTargetId,
    position: ArgusVec3,
    confidence: f32,
) -> ArgusResult {
    with_world(world, |w| Ok(w.world.remember(agent.core(w.tag)?, target.core(w.tag)?, position.into(), confidence)?))
}

/// Drops an agent's record of a target (no event). Unknown target ids (destroyed, or never
/// issued, such as a generation-0 id of this world) are ignored; another world's id is refused
/// with `INVALID_ID`.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_forget(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    target: ArgusTargetId,
) -> ArgusResult {
    with_world(world, |w| Ok(w.world.forget(agent.core(w.tag)?, target.core(w.tag)?)?))
}

const _: () = assert!(size_of::<ArgusAgentDef>() == 176);
const _: () = assert!(std::mem::offset_of!(ArgusAgentDef, sight) == 32);
const _: () = assert!(std::mem::offset_of!(ArgusAgentDef, awareness) == 128);
const _: () = assert!(std::mem::offset_of!(ArgusAgentDef, internal_cookie) == 160);
const _: () = assert!(std::mem::offset_of!(ArgusAgentDef, user_data) == 168);
const _: () = assert!(size_of::<ArgusAgentState>() == 88);
const _: () = assert!(size_of::<ArgusAgentStateEntry>() == 96);
const _: () = assert!(size_of::<ArgusMemoryRecord>() == 56);
