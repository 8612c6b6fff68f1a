//! Cover in two phases through the C ABI, shaped like the two-phase step: `_begin` exposes
//! every ray the query needs in one array, the engine casts them in one batch (Unity's
//! `RaycastCommand.ScheduleBatch`, Godot's physics space), `_finish` answers with the hits.
//! The answer equals `argus_world_find_cover`'s for the same ray answers; `rays_cast` is the
//! batch size. A flank query casts no rays, so it has no two-phase form: `argus_world_find_flank`
//! answers in one call in every world, with or without a ray callback (ABI 2 had
//! `argus_world_find_flank_begin` / `_finish` / `_cancel`, which handed out an always-empty ray
//! array; ABI 3 dropped them). The pending query owns copies of everything it needs: the query's arrays may be
//! freed after `_begin`, and the world may change in between (it is not locked, unlike a step).

use super::boundary::{FfiResult, fail, input, invalid, output, slice, with_world};
use super::rays::{ArgusRayArray, ArgusRayHit, ray_to_c};
use super::tactics::{cover_from_c, deliver};
use super::tactics_query::*;
use super::types::*;
use super::world::ArgusWorld;
use argus_core::rays::RayHit;

fn hits_from_c(hits: *const ArgusRayHit, count: u32, expected: usize) -> FfiResult<Vec<RayHit>> {
    // Checked before the pointer is read: a wrong count must not read past the caller's buffer.
    if count as usize != expected {
        return Err(invalid(format!("{count} ray results given for {expected} rays")));
    }
    let hits = slice(hits, count, expected, "hits")?;
    Ok(hits.iter().map(|h| RayHit { hit: h.hit != 0, distance: h.distance }).collect())
}

fn not_begun(what: &str) -> super::boundary::Fail {
    fail(ArgusResult::NoStepInProgress, format!("no {what} query is waiting for ray results"))
}

/// First half of a two-phase cover query: validates `query` as `argus_world_find_cover` does and
/// exposes in `*out_rays` every ray it could need (threat eye → candidate spot, null agent and
/// target ids, `max_distance` the full distance), owned by the world and valid until
/// `argus_world_find_cover_finish` succeeds, `argus_world_find_cover_cancel`, the next
/// `argus_world_find_cover_begin` (which abandons a pending one) or `argus_world_destroy`.
/// More than 1048576 rays (ranked candidates × threats) → `INVALID_ARGUMENT`. Works in any
/// world, with or without a ray callback. The query and its arrays are read during the call only.
///
/// # Safety
/// `world` NULL or live; `query` NULL or readable (with its arrays); `out_rays` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_find_cover_begin(
    world: *mut ArgusWorld,
    query: *const ArgusCoverQuery,
    out_rays: *mut ArgusRayArray,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out_rays, "out_rays")?;
        let c = input(query, "query")?;
        let (mut threats, mut points) = (Vec::new(), Vec::new());
        let q = cover_from_c(&w.world, w.tag, c, &mut threats, &mut points)?;
        let pending = w.world.begin_cover(&q)?;
        w.cover_rays.clear();
        let (tag, user) = (w.tag, &w.user);
        w.cover_rays.extend(pending.rays().iter().map(|r| ray_to_c(r, tag, user)));
        w.pending_cover = Some(pending);
        *out = ArgusRayArray {
            items: if w.cover_rays.is_empty() { std::ptr::null() } else { w.cover_rays.as_ptr() },
            count: w.cover_rays.len() as u32,
        };
        Ok(())
    })
}

/// Second half of a two-phase cover query: `hits[i]` answers ray `i` of
/// `argus_world_find_cover_begin` (`count` must equal the ray count; a hit needs a finite
/// distance within `[0, max_distance]` of its ray: past the ray's end is refused too). Results, count and answer are written exactly as `argus_world_find_cover`
/// writes them. A wrong count, a bad hit or a too-small `results` buffer is refused and the
/// query stays pending (answer again); success ends it. None pending → `NO_STEP_IN_PROGRESS`.
///
/// # Safety
/// `world` NULL or live; `hits` NULL (only with count 0) or `count` readable items; `results`
/// `capacity` writable items (NULL if 0); `out_count`, `out_answer` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_find_cover_finish(
    world: *mut ArgusWorld,
    hits: *const ArgusRayHit,
    count: u32,
    results: *mut ArgusTacticalResult,
    capacity: u32,
    out_count: *mut u32,
    out_answer: *mut ArgusTacticalAnswer,
) -> ArgusResult {
    with_world(world, |w| {
        output(out_count, "out_count")?;
        let out_answer = output(out_answer, "out_answer")?;
        let pending = w.pending_cover.as_ref().ok_or_else(|| not_begun("cover"))?;
        let hits = hits_from_c(hits, count, pending.rays().len())?;
        let mut out = Vec::new();
        let answer = pending.finish_ref(&hits, &mut out)?;
        deliver(&out, answer, results, capacity, out_count, out_answer)?;
        w.pending_cover = None;
        w.cover_rays = Vec::new();
        Ok(())
    })
}

/// Abandons a cover query begun with `argus_world_find_cover_begin` (its rays die with it).
/// None pending → `NO_STEP_IN_PROGRESS`.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_find_cover_cancel(world: *mut ArgusWorld) -> ArgusResult {
    with_world(world, |w| {
        w.pending_cover.take().ok_or_else(|| not_begun("cover"))?;
        w.cover_rays = Vec::new();
        Ok(())
    })
}
