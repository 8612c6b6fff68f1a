//! Save and load through the C ABI.

use super::boundary::{copy_out, output, slice, with_world};
use super::types::*;
use super::world::ArgusWorld;

/// Serialises the world into `buffer` (`capacity` bytes) and writes the snapshot's size to
/// `*out_size`. Too small (or NULL with capacity 0, to ask) → `BUFFER_TOO_SMALL` with the needed
/// size in `*out_size`. The format is versioned, little-endian and checksummed. Refused while a
/// two-phase step is pending, and with `OUT_OF_MEMORY` (the world unchanged) when the snapshot's
/// bytes cannot be had: a world loaded near the memory limit saves or refuses, never aborts.
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable bytes (NULL if 0); `out_size` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_save(
    world: *const ArgusWorld,
    buffer: *mut u8,
    capacity: u32,
    out_size: *mut u32,
) -> ArgusResult {
    with_world(world as *mut ArgusWorld, |w| {
        let size = output(out_size, "out_size")?;
        let bytes = w.world.save()?;
        copy_out(&bytes, buffer, capacity, size, "snapshot")
    })
}

/// Replaces the world's contents with a snapshot's (`size` bytes). A truncated, corrupted or
/// unsupported snapshot → `BAD_SNAPSHOT` with the reason in `argus_world_last_error`, and the
/// world is unchanged (so is a snapshot too large for the memory available: every allocation
/// of a load is fallible or checked for room first, so a load never aborts the process). Every
/// value is held to the range the API accepts for it (a schedule, a timer, a map cell) and ids
/// to what the world could have issued. Ids, memories,
/// brains, timers and the schedule continue exactly; the event arrays are empty until the next
/// step. Ids keep their index and generation but carry this world's tag: an id saved from
/// another world works here once its `world` field is set to `argus_world_tag(world)`.
/// `user_data` is not saved: every value reads 0 afterwards. The world keeps its own runtime
/// settings (ray backend, worker threads, ray callback): a snapshot carries state only, and
/// nothing is started before it is fully validated.
///
/// # Safety
/// `world` NULL or live; `bytes` `size` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_load(world: *mut ArgusWorld, bytes: *const u8, size: u32) -> ArgusResult {
    with_world(world, |w| {
        let bytes = slice(bytes, size, u32::MAX as usize, "bytes")?;
        w.world.load_into(bytes)?;
        w.user.clear();
        w.events.refresh(&w.world, w.tag, &w.user);
        Ok(())
    })
}
