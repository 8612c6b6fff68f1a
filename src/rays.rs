//! Engine rays through the C ABI: the batch callback and the two-phase step (take every ray of
//! a step, cast them in the engine, give the hits back), shaped for Unity's
//! `RaycastCommand.ScheduleBatch`, Godot's physics space or a C++ engine's own BVH.

use std::ffi::c_void;

use super::boundary::{fail, invalid, output, slice, with_world};
use super::events::target_data;
use super::types::*;
use super::user_data::{self, UserData};
use super::world::ArgusWorld;
use argus_core::Error;
use argus_core::rays::{RayHit, RayQuery, RaySource};

/// One line-of-sight ray for the engine to cast. Cast from `origin` along the unit `direction`
/// for at most `max_distance` against colliders on `layer_mask`, ignoring colliders that contain
/// `origin` and those of `agent` and `target` (both null for the rays of
/// `argus_world_find_cover`); report the first hit.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusRay {
    /// The agent's eye (cover: the threat's eye).
    pub origin: ArgusVec3,
    /// Unit direction toward the check point (cover: toward the candidate spot).
    pub direction: ArgusVec3,
    /// Distance to the check point minus 0.01 (cover: the full distance to the spot).
    pub max_distance: f32,
    /// The agent's sight obstacle mask (cover: the query's obstacle mask).
    pub layer_mask: u32,
    /// The looking agent.
    pub agent: ArgusAgentId,
    /// The looked-at target.
    pub target: ArgusTargetId,
    /// The agent's `user_data` (0 for a null agent): find its collider without a dictionary.
    pub agent_user_data: u64,
    /// The target's `user_data` (0 for a null target).
    pub target_user_data: u64,
}

/// The engine's answer to one ray.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusRayHit {
    /// Non-zero if something blocked the ray.
    pub hit: u32,
    /// Distance from the origin to the hit: ignored when `hit` is 0; otherwise it must be finite
    /// and within `[0, max_distance]` of its ray (a hit past the ray's end is refused like a NaN:
    /// the call that asked for the rays fails with `ARGUS_RESULT_INVALID_ARGUMENT`).
    pub distance: f32,
}

/// The rays of a step begun with `argus_world_step_begin`. Owned by the world; valid until
/// `argus_world_step_finish`, `argus_world_step_cancel` or `argus_world_destroy`. Listed agent
/// by agent in the agents' id order (a recording's replay gives each its own answers whatever
/// order the guards were created and destroyed in).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusRayArray {
    /// First ray (NULL when `count` is 0).
    pub items: *const ArgusRay,
    /// Number of rays.
    pub count: u32,
}

/// The engine's batch ray caster: fill `hits[i]` for `rays[i]`, `i < count`, and return
/// `ARGUS_RESULT_OK`. Called at most once per `argus_world_step` and once per immediate query,
/// cover query (`argus_world_find_cover`: every ray the query could need, in one batch) or debug
/// draw that needs rays (a debug draw calls it per agent and check point), on the thread that
/// made that call, never concurrently. `rays` and `hits` are valid only during the call.
/// `user_data` is passed through untouched.
///
/// When the engine cannot answer (its caster failed, a managed wrapper caught an exception),
/// return any other code (e.g. `ARGUS_RESULT_INVALID_ARGUMENT`): `hits` is then ignored and the
/// call that invoked the callback returns `ARGUS_RESULT_CALLBACK_FAILED` with the world
/// unchanged (a failed `argus_world_step` is as if never called: a save before and after is
/// byte-identical). Never let an exception unwind through this callback.
pub type ArgusRayBatchFn = Option<
    unsafe extern "C" fn(
        rays: *const ArgusRay,
        count: u32,
        hits: *mut ArgusRayHit,
        user_data: *mut c_void,
    ) -> RawResult,
>;

/// The callback's C signature.
pub(crate) type RawRayBatchFn = unsafe extern "C" fn(*const ArgusRay, u32, *mut ArgusRayHit, *mut c_void) -> RawResult;

// An `ArgusResult` as the callback returned it: any `u32` (a C caller may return a value that
// names no variant, which must not be read as the Rust enum). Made by a macro so cbindgen, which
// renames it to `ArgusResult` in the header (cbindgen.toml), does not define it a second time.
macro_rules! raw_result {
    () => {
        /// An `ArgusResult` as the engine's ray callback returned it: any `u32` (0 = OK).
        #[repr(transparent)]
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct RawResult(pub u32);
    };
}
raw_result!();

impl From<ArgusResult> for RawResult {
    fn from(r: ArgusResult) -> RawResult {
        RawResult(r as u32)
    }
}
const _: () = assert!(size_of::<RawResult>() == size_of::<ArgusResult>());

/// Adapts the C callback to the core's ray source.
pub(crate) struct CallbackSource<'a> {
    pub(crate) callback: RawRayBatchFn,
    pub(crate) user_data: *mut c_void,
    pub(crate) rays: &'a mut Vec<ArgusRay>,
    pub(crate) hits: &'a mut Vec<ArgusRayHit>,
    /// The world's tag, stamped into the rays' agent and target ids.
    pub(crate) tag: u16,
    /// The engine's values, copied into the rays.
    pub(crate) user: &'a UserData,
}

impl RaySource for CallbackSource<'_> {
    fn cast_rays(&mut self, rays: &[RayQuery], hits: &mut [RayHit]) -> argus_core::Result<()> {
        if rays.is_empty() {
            return Ok(());
        }
        self.rays.clear();
        self.rays.extend(rays.iter().map(|r| ray_to_c(r, self.tag, self.user)));
        self.hits.clear();
        self.hits.resize(rays.len(), ArgusRayHit::default());
        // SAFETY: both buffers hold `rays.len()` items for the duration of the call.
        let code =
            unsafe { (self.callback)(self.rays.as_ptr(), rays.len() as u32, self.hits.as_mut_ptr(), self.user_data) };
        if code.0 != ArgusResult::Ok as u32 {
            let raw = code.0;
            // SAFETY: `argus_result_name` returns a static NUL-terminated string.
            let name = unsafe { std::ffi::CStr::from_ptr(super::world::argus_result_name(raw)) }.to_string_lossy();
            return Err(Error::RaySourceFailed(format!(
                "the ray callback returned {raw} ({name}) instead of ARGUS_RESULT_OK"
            )));
        }
        for (out, h) in hits.iter_mut().zip(self.hits.iter()) {
            *out = RayHit { hit: h.hit != 0, distance: h.distance };
        }
        Ok(())
    }
}

pub(crate) fn ray_to_c(r: &RayQuery, tag: u16, user: &UserData) -> ArgusRay {
    ArgusRay {
        origin: r.origin.into(),
        direction: r.direction.into(),
        max_distance: r.max_distance,
        layer_mask: r.layer_mask,
        agent: ArgusAgentId::abi(r.agent, tag),
        target: ArgusTargetId::abi(r.target, tag),
        agent_user_data: if r.agent.is_null() { 0 } else { user_data::get(&user.agents, r.agent.index) },
        target_user_data: target_data(user, r.target),
    }
}

/// Sets (or, with NULL, removes) the engine's ray caster. While set, it answers every
/// line-of-sight ray of `argus_world_step`, `argus_agent_can_see`, `argus_agent_get_visible_targets`,
/// `argus_world_debug_draw` and `argus_world_find_cover`, whatever the backend. If it returns
/// anything but `ARGUS_RESULT_OK`, that call returns `ARGUS_RESULT_CALLBACK_FAILED` and changes
/// nothing.
///
/// # Safety
/// `world` NULL or live; `callback` NULL or a function valid while set.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_set_ray_callback(
    world: *mut ArgusWorld,
    callback: ArgusRayBatchFn,
    user_data: *mut c_void,
) -> ArgusResult {
    with_world(world, |w| {
        w.callback = callback;
        w.user_data = if callback.is_some() { user_data } else { std::ptr::null_mut() };
        Ok(())
    })
}

/// First half of a two-phase step: senses up to line of sight and exposes every ray the step
/// needs in `*out_rays` (count known before the engine is asked). Cast them (e.g. with
/// `RaycastCommand.ScheduleBatch`) and call `argus_world_step_finish`. Until then the world
/// refuses changes with `STEP_IN_PROGRESS`; nothing observable changes before finish.
///
/// # Safety
/// `world` NULL or live; `out_rays` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_step_begin(
    world: *mut ArgusWorld,
    dt: f32,
    out_rays: *mut ArgusRayArray,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out_rays, "out_rays")?;
        let rays = w.world.begin_step(dt)?;
        w.step_rays.clear();
        let (tag, user) = (w.tag, &w.user);
        w.step_rays.extend(rays.iter().map(|r| ray_to_c(r, tag, user)));
        *out = ArgusRayArray {
            items: if w.step_rays.is_empty() { std::ptr::null() } else { w.step_rays.as_ptr() },
            count: w.step_rays.len() as u32,
        };
        Ok(())
    })
}

/// Second half of a two-phase step: `hits[i]` answers ray `i`; `count` must equal the ray count.
/// A wrong count or a hit with a bad distance (not finite, negative, or beyond its ray's
/// `max_distance`) is refused with `ARGUS_RESULT_INVALID_ARGUMENT` and the step stays pending.
///
/// # Safety
/// `world` NULL or live; `hits` NULL (only with count 0) or `count` readable items.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_step_finish(
    world: *mut ArgusWorld,
    hits: *const ArgusRayHit,
    count: u32,
) -> ArgusResult {
    with_world(world, |w| {
        // Checked before the pointer is read: a wrong count must not read past the caller's buffer.
        if !w.world.is_step_in_progress() {
            return Err(fail(ArgusResult::NoStepInProgress, "no step is waiting for ray results"));
        }
        let expected = w.world.pending_rays().len();
        if count as usize != expected {
            return Err(invalid(format!("{count} ray results given for {expected} rays")));
        }
        let hits = slice(hits, count, expected, "hits")?;
        let converted: Vec<RayHit> = hits.iter().map(|h| RayHit { hit: h.hit != 0, distance: h.distance }).collect();
        w.world.finish_step(&converted)?;
        w.events.refresh(&w.world, w.tag, &w.user);
        Ok(())
    })
}

/// Abandons a step begun with `argus_world_step_begin`; the world is exactly as before it.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_step_cancel(world: *mut ArgusWorld) -> ArgusResult {
    with_world(world, |w| {
        if !w.world.is_step_in_progress() {
            return Err(fail(ArgusResult::NoStepInProgress, "no step is waiting for ray results"));
        }
        w.world.cancel_step();
        Ok(())
    })
}

const _: () = assert!(size_of::<ArgusRay>() == 64);
const _: () = assert!(size_of::<ArgusRayHit>() == 8);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusRayArray>() == 16);
