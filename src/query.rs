//! Immediate sight queries through the C ABI.

use super::boundary::{fill, output, with_world};
use super::types::*;
use super::world::ArgusWorld;
use argus_core::sight::SightResult;

/// Check point farther than every radius.
pub const ARGUS_POINT_OUT_OF_RANGE: u32 = 0;
/// Check point in range but outside the cone(s).
pub const ARGUS_POINT_OUTSIDE_CONE: u32 = 1;
/// Check point in view but an occluder blocks the ray (`hit` says where).
pub const ARGUS_POINT_BLOCKED: u32 = 2;
/// Check point visible.
pub const ARGUS_POINT_VISIBLE: u32 = 3;

/// One check point's outcome.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusPointSight {
    /// `ARGUS_POINT_*`.
    pub status: u32,
    /// The check point in world space.
    pub point: ArgusVec3,
    /// Where the blocking ray hit (when `status` is `ARGUS_POINT_BLOCKED`).
    pub hit: ArgusVec3,
}

/// "Can this agent see that target right now?"
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusSightResult {
    /// The agent's eye.
    pub eye: ArgusVec3,
    /// Visible check points / all check points.
    pub fraction: f32,
    /// Number of check points (entries of `points` that are meaningful).
    pub point_count: u32,
    /// Per check point outcomes.
    pub points: [ArgusPointSight; 8],
    /// Non-zero if at least one check point is visible.
    pub seen: u8,
    /// Zero when filtered out before any geometry (sight off, target disabled, layers, attitude).
    pub perceivable: u8,
}

fn to_c(r: &SightResult) -> ArgusSightResult {
    let mut out = ArgusSightResult {
        eye: r.eye.into(),
        fraction: r.fraction,
        point_count: r.point_count as u32,
        seen: r.seen as u8,
        perceivable: r.perceivable as u8,
        ..Default::default()
    };
    for (slot, p) in out.points.iter_mut().zip(r.points()) {
        *slot = ArgusPointSight { status: p.status as u32, point: p.point.into(), hit: p.hit.into() };
    }
    out
}

/// Tests sight now, with current poses (range → cone → line of sight), without touching memory
/// or brain. Uses the ray callback if set; an engine-ray world without one → `NO_RAY_BACKEND`.
///
/// # Safety
/// `world` NULL or live; `out_result` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_can_see(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    target: ArgusTargetId,
    out_result: *mut ArgusSightResult,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out_result, "out_result")?;
        let result = w.with_rays(|world, rays| world.can_see_with(agent.into(), target.into(), rays))?;
        *out = to_c(&result);
        Ok(())
    })
}

/// Every target the agent can see now, in slot order, copied into `buffer`; the number goes to
/// `*out_count` (too small → `BUFFER_TOO_SMALL` with the needed number).
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable items (NULL if 0); `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_visible_targets(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    buffer: *mut ArgusTargetId,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world(world, |w| {
        let mut seen = Vec::new();
        w.with_rays(|world, rays| world.visible_targets_with(agent.into(), rays, &mut seen))?;
        let ids: Vec<ArgusTargetId> = seen.into_iter().map(Into::into).collect();
        fill(&ids, buffer, capacity, out_count)
    })
}

const _: () = assert!(size_of::<ArgusPointSight>() == 28);
const _: () = assert!(size_of::<ArgusSightResult>() == 248);
