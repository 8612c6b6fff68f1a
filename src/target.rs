//! Targets and sounds through the C ABI.

use super::boundary::{FfiResult, check_cookie, input, invalid, output, peek, slice, with_world, with_world_ref};
use super::types::*;
use super::user_data;
use super::world::{ARGUS_MAX_BATCH, ArgusWorld};
use argus_core::hearing::SoundDef;
use argus_core::math::Vec3;
use argus_core::target::{MAX_CHECK_POINTS, TargetDef};

/// Most check points per target.
pub const ARGUS_MAX_CHECK_POINTS: u32 = 8;

/// Everything needed to create a target. Fill with `argus_default_target_def()`; copied.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusTargetDef {
    /// Feet position.
    pub position: ArgusVec3,
    /// Facing (normalised; zero is refused). Default +Z.
    pub forward: ArgusVec3,
    /// Team 0..63 (default 1, hostile to the agents' default team 0).
    pub team: u32,
    /// Layer bits matched against agents' target masks (default 1).
    pub layers: u32,
    /// Check point offsets from the position as x, y, z triples (a flat array so C# can hold
    /// it in a fixed buffer); the first `check_point_count` triples are used.
    pub check_point_offsets: [f32; 24],
    /// 1..8 (default 1: one point at chest height, 1.3 m).
    pub check_point_count: u32,
    /// Set by `argus_default_target_def()`; leave it alone.
    pub internal_cookie: u32,
    /// Non-zero: visible to agents (default 1).
    pub enabled: u8,
    /// Metres per second agents assume it can move at when they lose it: how fast a belief of
    /// where it can be spreads (default 1.4, a walk; 0 to 1000).
    pub top_speed: f32,
    /// The engine's value for this target (e.g. an object handle), echoed in events and
    /// queries; not interpreted, not saved in snapshots (default 0).
    pub user_data: u64,
}

/// A sound event. Fill with `argus_default_sound_def()`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusSoundDef {
    /// Where it happened.
    pub position: ArgusVec3,
    /// Radius in metres it can be heard at (running footstep 15, walking 6).
    pub loudness: f32,
    /// The target that made it, or null for an anonymous noise.
    pub source: ArgusTargetId,
    /// Team of whoever made it (default 1).
    pub team: u32,
    /// Layer bits matched against agents' sound masks (default 1).
    pub layers: u32,
    /// Set by `argus_default_sound_def()`; leave it alone.
    pub internal_cookie: u32,
}

/// Default target settings.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_target_def() -> ArgusTargetDef {
    to_c(&TargetDef::default())
}

pub(crate) fn to_c(d: &TargetDef) -> ArgusTargetDef {
    let mut check_point_offsets = [0.0; 24];
    for (slot, p) in check_point_offsets.chunks_exact_mut(3).zip(&d.check_points) {
        slot.copy_from_slice(&[p.x, p.y, p.z]);
    }
    ArgusTargetDef {
        position: d.position.into(),
        forward: d.forward.into(),
        team: d.team,
        layers: d.layers,
        check_point_offsets,
        check_point_count: d.check_points.len() as u32,
        internal_cookie: ARGUS_DEF_COOKIE,
        enabled: d.enabled as u8,
        top_speed: d.top_speed,
        user_data: 0,
    }
}

fn from_c(c: &ArgusTargetDef) -> FfiResult<TargetDef> {
    check_cookie(c.internal_cookie, "target_def")?;
    let n = c.check_point_count as usize;
    if n == 0 || n > MAX_CHECK_POINTS {
        return Err(invalid(format!("check_point_count must be 1..{MAX_CHECK_POINTS}, got {n}")));
    }
    Ok(TargetDef {
        position: c.position.into(),
        forward: c.forward.into(),
        team: c.team,
        layers: c.layers,
        check_points: c.check_point_offsets[..3 * n].chunks_exact(3).map(|p| Vec3::new(p[0], p[1], p[2])).collect(),
        enabled: flag(c.enabled),
        top_speed: c.top_speed,
    })
}

/// Creates a target from `def` (copied).
///
/// # Safety
/// `world` NULL or live; `def` NULL or readable; `out_target` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_create(
    world: *mut ArgusWorld,
    def: *const ArgusTargetDef,
    out_target: *mut ArgusTargetId,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out_target, "out_target")?;
        let c = input(def, "def")?;
        let def = from_c(c)?;
        let id = w.world.create_target(&def)?;
        user_data::set(&mut w.user.targets, id.index, c.user_data);
        *out = ArgusTargetId::abi(id, w.tag);
        Ok(())
    })
}

/// Destroys a target. Every agent's memory record of it is removed at once (no forget event: the
/// target is gone, not forgotten). Every brain focused on it (Investigating, Chasing or
/// Searching) gives up at the next step: it goes Idle, reported in that step's brain events
/// (with a null target, as every change to Idle), whatever time its timer had left, unless that
/// step's percepts gave it another target to chase.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_destroy(world: *mut ArgusWorld, target: ArgusTargetId) -> ArgusResult {
    with_world(world, |w| Ok(w.world.destroy_target(target.core(w.tag)?)?))
}

/// Non-zero if `target` names a live target of `world`.
/// 0 means "not known to be live": also for a NULL world, and when the world cannot be asked
/// right now: another thread is inside a call on it (`BUSY`), the call comes from inside its own
/// ray callback (`REENTRANT`), or it is poisoned. Those cases never prove the id dead; tell them
/// apart with any call that returns an `ArgusResult` (e.g. `argus_world_get_counts`), whose code
/// names the reason, and ask again when it is `OK`. (`argus_last_error` also names them.)
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_is_valid(world: *const ArgusWorld, target: ArgusTargetId) -> u8 {
    peek(world, |w| target.core(w.tag).is_ok_and(|id| w.world.is_target_valid(id)))
}

/// Replaces a target's settings and pose.
///
/// # Safety
/// `world` NULL or live; `def` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_set_def(
    world: *mut ArgusWorld,
    target: ArgusTargetId,
    def: *const ArgusTargetDef,
) -> ArgusResult {
    with_world(world, |w| {
        let c = input(def, "def")?;
        let def = from_c(c)?;
        let id = target.core(w.tag)?;
        w.world.set_target_def(id, &def)?;
        user_data::set(&mut w.user.targets, id.index, c.user_data);
        Ok(())
    })
}

/// The target's current settings and pose, as a def.
///
/// # Safety
/// `world` NULL or live; `out_def` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_get_def(
    world: *const ArgusWorld,
    target: ArgusTargetId,
    out_def: *mut ArgusTargetDef,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_def, "out_def")?;
        let id = target.core(w.tag)?;
        *out =
            ArgusTargetDef { user_data: user_data::get(&w.user.targets, id.index), ..to_c(&w.world.target(id)?.def()) };
        Ok(())
    })
}

/// Moves and turns one target.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_set_pose(
    world: *mut ArgusWorld,
    target: ArgusTargetId,
    position: ArgusVec3,
    forward: ArgusVec3,
) -> ArgusResult {
    with_world(world, |w| Ok(w.world.set_target_pose(target.core(w.tag)?, position.into(), forward.into())?))
}

/// Moves `count` targets in one call (`forwards` may be NULL to keep facing). All checked first;
/// `count` may not exceed the number of live targets.
///
/// # Safety
/// `world` NULL or live; arrays NULL (count 0 / optional forwards) or `count` readable items.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_set_poses(
    world: *mut ArgusWorld,
    targets: *const ArgusTargetId,
    positions: *const ArgusVec3,
    forwards: *const ArgusVec3,
    count: u32,
) -> ArgusResult {
    with_world(world, |w| {
        let limit = w.world.target_count().min(ARGUS_MAX_BATCH as usize);
        let ids = slice(targets, count, limit, "targets")?;
        let positions = slice(positions, count, limit, "positions")?;
        let forwards = if forwards.is_null() { None } else { Some(slice(forwards, count, limit, "forwards")?) };
        for id in ids {
            id.core(w.tag)?;
        }
        let pose = |i: usize| (ids[i].core_unchecked(), positions[i].into(), forwards.map(|f| f[i].into()));
        Ok(w.world.set_target_poses_by(ids.len(), pose)?)
    })
}

/// Shows (non-zero) or hides (0) a target from every agent's sight.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_set_enabled(
    world: *mut ArgusWorld,
    target: ArgusTargetId,
    enabled: u8,
) -> ArgusResult {
    with_world(world, |w| Ok(w.world.set_target_enabled(target.core(w.tag)?, flag(enabled))?))
}

/// Default sound settings (loudness 10, team 1, layer 1, no source).
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_sound_def() -> ArgusSoundDef {
    let d = SoundDef::default();
    ArgusSoundDef {
        position: d.position.into(),
        loudness: d.loudness,
        source: ArgusTargetId::default(),
        team: d.team,
        layers: d.layers,
        internal_cookie: ARGUS_DEF_COOKIE,
    }
}

/// Broadcasts a sound; every agent tests it at the next step.
///
/// # Safety
/// `world` NULL or live; `def` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_emit_sound(world: *mut ArgusWorld, def: *const ArgusSoundDef) -> ArgusResult {
    with_world(world, |w| {
        let c = input(def, "def")?;
        check_cookie(c.internal_cookie, "sound_def")?;
        let def = SoundDef {
            position: c.position.into(),
            loudness: c.loudness,
            source: c.source.core(w.tag)?,
            team: c.team,
            layers: c.layers,
        };
        Ok(w.world.emit_sound(&def)?)
    })
}

const _: () = assert!(ARGUS_MAX_CHECK_POINTS as usize == MAX_CHECK_POINTS);
const _: () = assert!(size_of::<ArgusTargetDef>() == 152);
const _: () = assert!(size_of::<ArgusSoundDef>() == 36);
