//! Labels through the C ABI: the engine's names for agents, targets and occluders ("G1",
//! "player", "north wall"), which recordings keep and the inspector shows in place of `#3`. A
//! label changes nothing the world decides; a snapshot does not hold labels.

use std::ffi::c_char;

use super::boundary::{FfiResult, fail, invalid, output, with_world, with_world_ref};
use super::types::*;
use super::world::{ArgusWorld, WorldState};
use argus_core::world::{Labelled, MAX_LABEL_BYTES};

/// The longest label, in bytes of UTF-8 (without its NUL).
pub const ARGUS_MAX_LABEL_BYTES: u32 = 255;
const _: () = assert!(ARGUS_MAX_LABEL_BYTES as usize == MAX_LABEL_BYTES);

/// A NUL-terminated UTF-8 label of at most `ARGUS_MAX_LABEL_BYTES` bytes (NULL: none), never
/// read past its NUL or one byte past the longest accepted.
fn c_label(ptr: *const c_char) -> FfiResult<String> {
    if ptr.is_null() {
        return Ok(String::new());
    }
    let mut len = 0;
    // SAFETY: the caller promises a NUL-terminated string; reading stops at its NUL or one byte
    // past the longest accepted label.
    while len <= MAX_LABEL_BYTES && unsafe { *ptr.add(len) } != 0 {
        len += 1;
    }
    if len > MAX_LABEL_BYTES {
        return Err(invalid(format!("label is longer than {MAX_LABEL_BYTES} bytes")));
    }
    // SAFETY: `len` bytes before the NUL were just read.
    let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len) };
    std::str::from_utf8(bytes).map(str::to_owned).map_err(|_| invalid("label is not UTF-8"))
}

fn set(world: *mut ArgusWorld, thing: impl FnOnce(u16) -> FfiResult<Labelled>, label: *const c_char) -> ArgusResult {
    with_world(world, |w| {
        let thing = thing(w.tag)?;
        let label = c_label(label)?;
        w.world.set_label(thing, &label)?;
        Ok(())
    })
}

/// Copies a label with its NUL into `buffer` (`capacity` bytes) and its length without the NUL
/// to `*out_length`; too small → `BUFFER_TOO_SMALL` with the length in `*out_length`.
fn get(
    world: *const ArgusWorld,
    thing: impl FnOnce(&WorldState) -> FfiResult<Labelled>,
    buffer: *mut c_char,
    capacity: u32,
    out_length: *mut u32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let length = output(out_length, "out_length")?;
        let thing = thing(w)?;
        let label = w.world.label(thing).unwrap_or("");
        let n = label.len() as u32;
        if n + 1 > capacity {
            *length = n;
            return Err(fail(ArgusResult::BufferTooSmall, format!("the label needs {} bytes with its NUL", n + 1)));
        }
        if buffer.is_null() {
            return Err(invalid("buffer must not be NULL"));
        }
        // SAFETY: the caller promises `capacity > n` writable bytes at `buffer`.
        unsafe {
            std::ptr::copy_nonoverlapping(label.as_ptr(), buffer as *mut u8, label.len());
            *buffer.add(label.len()) = 0;
        }
        *length = n;
        Ok(())
    })
}

/// Names an agent (`label` NULL or empty: its name removed). Refused, changing nothing: a
/// null, stale or other world's id → `INVALID_ID`; a label longer than `ARGUS_MAX_LABEL_BYTES`,
/// not UTF-8 → `INVALID_ARGUMENT`. Recorded (a recording's `NAMES`); forgotten with the agent.
///
/// # Safety
/// `world` NULL or live; `label` NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_set_label(
    world: *mut ArgusWorld,
    agent: ArgusAgentId,
    label: *const c_char,
) -> ArgusResult {
    set(world, |tag| Ok(Labelled::Agent(agent.core(tag)?)), label)
}

/// Names a target, as `argus_agent_set_label`.
///
/// # Safety
/// `world` NULL or live; `label` NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_set_label(
    world: *mut ArgusWorld,
    target: ArgusTargetId,
    label: *const c_char,
) -> ArgusResult {
    set(world, |tag| Ok(Labelled::Target(target.core(tag)?)), label)
}

/// Names an occluder, as `argus_agent_set_label`.
///
/// # Safety
/// `world` NULL or live; `label` NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_occluder_set_label(
    world: *mut ArgusWorld,
    occluder: ArgusOccluderId,
    label: *const c_char,
) -> ArgusResult {
    set(world, |tag| Ok(Labelled::Occluder(occluder.core(tag)?)), label)
}

/// Copies an agent's label, NUL-terminated, into `buffer` (`capacity` bytes) and writes its
/// length without the NUL to `*out_length` (0: it has none, `buffer` then holds ""). Too small
/// (or NULL with capacity 0, to ask) → `BUFFER_TOO_SMALL` with the length in `*out_length`; a
/// null, stale or other world's id → `INVALID_ID`.
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable bytes (NULL if 0); `out_length` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_label(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    buffer: *mut c_char,
    capacity: u32,
    out_length: *mut u32,
) -> ArgusResult {
    let thing = |w: &WorldState| {
        let id = agent.core(w.tag)?;
        w.world.agent(id)?;
        Ok(Labelled::Agent(id))
    };
    get(world, thing, buffer, capacity, out_length)
}

/// A target's label, as `argus_agent_get_label`.
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable bytes (NULL if 0); `out_length` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_target_get_label(
    world: *const ArgusWorld,
    target: ArgusTargetId,
    buffer: *mut c_char,
    capacity: u32,
    out_length: *mut u32,
) -> ArgusResult {
    let thing = |w: &WorldState| {
        let id = target.core(w.tag)?;
        w.world.target(id)?;
        Ok(Labelled::Target(id))
    };
    get(world, thing, buffer, capacity, out_length)
}

/// An occluder's label, as `argus_agent_get_label`.
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable bytes (NULL if 0); `out_length` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_occluder_get_label(
    world: *const ArgusWorld,
    occluder: ArgusOccluderId,
    buffer: *mut c_char,
    capacity: u32,
    out_length: *mut u32,
) -> ArgusResult {
    let thing = |w: &WorldState| {
        let id = occluder.core(w.tag)?;
        if !w.world.is_occluder_valid(id) {
            return Err(argus_core::error::Error::InvalidId(argus_core::OccluderId::KIND).into());
        }
        Ok(Labelled::Occluder(id))
    };
    get(world, thing, buffer, capacity, out_length)
}
