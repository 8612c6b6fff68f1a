//! Immediate sight queries through the C ABI.

use super::boundary::{fill, output, with_world};
use super::enums::ArgusPointStatus;
use super::events::target_data;
use super::types::*;
use super::world::ArgusWorld;
use argus_core::sight::SightResult;

/// "Can this agent see that target right now?"
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusSightResult {
    /// The agent's eye.
    pub eye: ArgusVec3,
    /// Visible check points / all check points.
    pub fraction: f32,
    /// Number of check points (entries of the arrays below that are meaningful).
    pub point_count: u32,
    /// Per check point: an `ArgusPointStatus` value (a plain `uint32_t` array so C# can hold it
    /// in a fixed buffer).
    pub point_status: [u32; 8],
    /// Per check point: its world position as x, y, z triples.
    pub point_positions: [f32; 24],
    /// Per check point: where the blocking ray hit (x, y, z), when its status is
    /// `ARGUS_POINT_STATUS_BLOCKED`.
    pub point_hits: [f32; 24],
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
    for (i, p) in r.points().iter().enumerate() {
        out.point_status[i] = ArgusPointStatus::from(p.status) as u32;
        out.point_positions[3 * i..3 * i + 3].copy_from_slice(&[p.point.x, p.point.y, p.point.z]);
        out.point_hits[3 * i..3 * i + 3].copy_from_slice(&[p.hit.x, p.hit.y, p.hit.z]);
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
        let (agent, target) = (agent.core(w.tag)?, target.core(w.tag)?);
        let result = w.with_rays(|world, rays| world.can_see_with(agent, target, rays))?;
        *out = to_c(&result);
        Ok(())
    })
}

/// A target named by a query: its id and its `user_data`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusTargetRef {
    /// The target.
    pub target: ArgusTargetId,
    /// Its `user_data`.
    pub user_data: u64,
}

/// Every target the agent can see now, in slot order, copied into `buffer` with their
/// `user_data`; the number goes to `*out_count` (too small → `BUFFER_TOO_SMALL` with the needed
/// number).
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable items (NULL if 0); `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_visible_targets(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    buffer: *mut ArgusTargetRef,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world(world, |w| {
        let agent = agent.core(w.tag)?;
        let mut seen = Vec::new();
        w.with_rays(|world, rays| world.visible_targets_with(agent, rays, &mut seen))?;
        let ids: Vec<ArgusTargetRef> = seen
            .into_iter()
            .map(|t| ArgusTargetRef { target: ArgusTargetId::abi(t, w.tag), user_data: target_data(&w.user, t) })
            .collect();
        fill(&ids, buffer, capacity, out_count)
    })
}

const _: () = assert!(size_of::<ArgusSightResult>() == 248);
const _: () = assert!(size_of::<ArgusTargetRef>() == 16);
