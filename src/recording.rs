//! Recording and replay through the C ABI (the format: docs/recording.md). A world records its
//! state when recording starts, then every input and every step's outputs; the bytes stay in the
//! world once it stops, for `argus_world_get_recording` to copy out. A replay rebuilds the world
//! from them and checks every step's outputs byte for byte.

use super::boundary::{
    Fail, FfiResult, check_cookie, copy_out, fail, guard, input, output, peek, slice, with_world, with_world_ref,
};
use super::types::*;
use super::world::{ARGUS_MAX_BATCH, ArgusWorld, claim_world};
use argus_core::error::Error;
use argus_core::record::{RecordOptions, Replay};
use argus_core::world::World;

/// `mismatch_step` of an `ArgusReplayReport` in which every step matched.
pub const ARGUS_NO_STEP: u32 = 0xFFFF_FFFF;

/// How to record. Fill with `argus_default_record_def()`; the world copies it (and the focus ids)
/// when recording starts.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusRecordDef {
    /// The agents in focus, whose memory and sight decisions ("why") every frame records;
    /// `focus_count` ids, each a live agent of this world. Read during the call only. NULL with
    /// `focus_count` 0 (the default) = every agent, those created while recording included.
    pub focus: *const ArgusAgentId,
    /// Number of ids at `focus` (at most `ARGUS_MAX_BATCH`).
    pub focus_count: u32,
    /// Non-zero (default 1): record the "why" of every sight decision of the agents in focus. 0:
    /// frames hold poses, events and memories only (smaller files; the replay checks the same).
    pub explain: u8,
    /// Set by `argus_default_record_def()`; leave it alone.
    pub internal_cookie: u32,
}

/// What `argus_replay_verify` found.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgusReplayReport {
    /// Steps the recording holds.
    pub step_count: u32,
    /// Steps replayed whose outputs matched the recording's, byte for byte.
    pub steps_replayed: u32,
    /// The first step (0 = the first one recorded) whose outputs differ from the recording's;
    /// `ARGUS_NO_STEP` when every step matched.
    pub mismatch_step: u32,
}

/// Default recording: every agent in focus, sight decisions explained.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_record_def() -> ArgusRecordDef {
    let d = RecordOptions::default();
    ArgusRecordDef {
        focus: std::ptr::null(),
        focus_count: 0,
        explain: d.explain as u8,
        internal_cookie: ARGUS_DEF_COOKIE,
    }
}

fn record_options(def: &ArgusRecordDef, tag: u16) -> FfiResult<RecordOptions> {
    check_cookie(def.internal_cookie, "record_def")?;
    let focus = slice(def.focus, def.focus_count, ARGUS_MAX_BATCH as usize, "focus")?;
    let focus = focus.iter().map(|id| id.core(tag)).collect::<FfiResult<Vec<_>>>()?;
    Ok(RecordOptions { focus, explain: flag(def.explain) })
}

/// Starts recording this world: its state now, then every input and every step's outputs, until
/// `argus_world_stop_recording`. Starting discards the bytes of the previous recording kept by the
/// world. Refused, with the world unchanged and still not recording (the kept bytes included):
/// `def` NULL or a focus array NULL with a count → `INVALID_ARGUMENT`; `def` not from
/// `argus_default_record_def()` → `DEF_NOT_INITIALIZED`; a focus id that is null, stale or of
/// another world → `INVALID_ID`; already recording → `INVALID_ARGUMENT` (the recording under way
/// goes on untouched); a two-phase step pending → `STEP_IN_PROGRESS`. The world holds the
/// recording in memory, growing with every input and step, until it is stopped.
///
/// # Safety
/// `world` NULL or live; `def` NULL or an `ArgusRecordDef` whose `focus` holds `focus_count` ids.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_start_recording(
    world: *mut ArgusWorld,
    def: *const ArgusRecordDef,
) -> ArgusResult {
    with_world(world, |w| {
        let options = record_options(input(def, "def")?, w.tag)?;
        w.world.start_recording(&options)?;
        w.recording = Vec::new();
        Ok(())
    })
}

/// 1 while the world is recording (from `argus_world_start_recording` to
/// `argus_world_stop_recording`); 0 otherwise, and for NULL, a busy or a poisoned world.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_is_recording(world: *const ArgusWorld) -> u8 {
    peek(world, |w| w.world.is_recording())
}

/// Ends the recording (its `END` chunk written) and keeps its bytes in the world, for
/// `argus_world_get_recording`, until the next `argus_world_start_recording` or the world's
/// destruction. Refused, changing nothing (the kept bytes included): not recording →
/// `INVALID_ARGUMENT`; a two-phase step pending → `STEP_IN_PROGRESS` (the recording goes on: finish
/// or cancel the step, then stop).
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_stop_recording(world: *mut ArgusWorld) -> ArgusResult {
    with_world(world, |w| {
        w.recording = w.world.stop_recording()?;
        Ok(())
    })
}

/// Copies the bytes of the last recording stopped on this world into `buffer` (`capacity` bytes)
/// and writes their count to `*out_size`; the same convention as `argus_world_save`: too small (or
/// NULL with capacity 0, to ask) → `BUFFER_TOO_SMALL` with the needed size in `*out_size`. The
/// world keeps the bytes (ask again at will) until the next `argus_world_start_recording` or its
/// destruction. No recording stopped since the world was created or recording last started (so
/// also while recording) → `INVALID_ARGUMENT` and `*out_size` untouched. A recording larger than
/// 4 GiB - 1 cannot be copied out (`INVALID_ARGUMENT`). Nothing in the world changes.
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable bytes (NULL if 0); `out_size` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_recording(
    world: *const ArgusWorld,
    buffer: *mut u8,
    capacity: u32,
    out_size: *mut u32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let size = output(out_size, "out_size")?;
        if w.recording.is_empty() {
            let why = if w.world.is_recording() {
                "the world is recording: argus_world_stop_recording first"
            } else {
                "no recording was stopped on this world (argus_world_start_recording, then argus_world_stop_recording)"
            };
            return Err(fail(ArgusResult::InvalidArgument, why));
        }
        copy_out(&w.recording, buffer, capacity, size, "recording")
    })
}

/// A replay's failure: a damaged recording (reported by the core as a refused snapshot, the
/// recording's own or one inside it) is `BAD_RECORDING`; the rest keep their code.
fn replay_fail(e: Error) -> Fail {
    match e {
        Error::BadSnapshot(why) => fail(ArgusResult::BadRecording, format!("recording rejected: {why}")),
        e => e.into(),
    }
}

/// Replays a recording (`size` bytes, read during the call only) from its first step to its last,
/// checking that every step gives the recorded outputs byte for byte, and writes what it found to
/// `*out`. Every step matched → `OK`. A step gave other outputs → `REPLAY_MISMATCH`: `*out` is
/// written too (its `mismatch_step` names the step) and `argus_last_error` says what differed.
/// A truncated, corrupted or unsupported recording → `BAD_RECORDING` with the reason in
/// `argus_last_error`; `bytes` NULL with a size, or `out` NULL → `INVALID_ARGUMENT`. On those
/// failures `*out` is untouched. Touches no world (a replay builds its own and drops it).
///
/// # Safety
/// `bytes` `size` readable bytes; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_replay_verify(bytes: *const u8, size: u32, out: *mut ArgusReplayReport) -> ArgusResult {
    guard(|| {
        let out = output(out, "out")?;
        let bytes = slice(bytes, size, u32::MAX as usize, "bytes")?;
        let mut replay = Replay::new(bytes).map_err(replay_fail)?;
        let result = replay.run_to_end();
        let mismatch = match result {
            Err(Error::ReplayMismatch { step, .. }) => step,
            _ => ARGUS_NO_STEP,
        };
        if result.is_ok() || mismatch != ARGUS_NO_STEP {
            *out = ArgusReplayReport {
                step_count: replay.step_count(),
                steps_replayed: replay.steps_done(),
                mismatch_step: mismatch,
            };
        }
        result.map_err(replay_fail)
    })
}

/// Creates a world as the recording's world was right after its first `steps` steps (0: when
/// recording started; `UINT32_MAX`: when recording stopped, every input after the last step
/// applied too), replayed and checked step by step on the way, and writes it to `*out_world`: the
/// caller owns it and passes it to `argus_world_destroy`. Its event arrays hold that step's events
/// (none for 0). It is an ordinary world, not recording, to query or step on: with the built-in
/// ray backend and default runtime settings (worker threads; set a ray callback for an engine-ray
/// scene), `user_data` 0 everywhere (the engine's, not recorded), and the recording's ids under
/// its own tag (set their `world` to `argus_world_tag`). Failures create nothing and leave
/// `*out_world` untouched: `BAD_RECORDING` (truncated, corrupted, unsupported), `REPLAY_MISMATCH`
/// (a step on the way gave other outputs; the step is in `argus_last_error`), `INVALID_ARGUMENT`
/// (`bytes` NULL with a size, `out_world` NULL, `steps` beyond the recording's step count and not
/// `UINT32_MAX`), `OUT_OF_MEMORY` (also when 65,535 worlds are alive).
///
/// # Safety
/// `bytes` `size` readable bytes; `out_world` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_create_from_recording(
    bytes: *const u8,
    size: u32,
    steps: u32,
    out_world: *mut *mut ArgusWorld,
) -> ArgusResult {
    guard(|| {
        let out = output(out_world, "out_world")?;
        let bytes = slice(bytes, size, u32::MAX as usize, "bytes")?;
        let mut replay = Replay::new(bytes).map_err(replay_fail)?;
        let total = replay.step_count();
        if steps != u32::MAX && steps > total {
            return Err(fail(
                ArgusResult::InvalidArgument,
                format!("steps is {steps} but the recording holds {total} steps (UINT32_MAX: all of them)"),
            ));
        }
        if steps == u32::MAX {
            replay.run_to_end().map_err(replay_fail)?;
        } else {
            while replay.steps_done() < steps {
                replay.next_step().map_err(replay_fail)?;
            }
        }
        // The replay's world records (that is how it checks each step): the caller's is a copy
        // that does not, holding the replayed step's events.
        // Its own snapshot, just saved, can only be refused for want of memory.
        let world = World::load(&replay.world().save()?).map_err(|e| match e {
            Error::BadSnapshot(why) => Error::OutOfMemory(why),
            e => e,
        })?;
        *out = claim_world(world, Some(replay.world()))?;
        Ok(())
    })
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusRecordDef>() == 24);
const _: () = assert!(size_of::<ArgusReplayReport>() == 12);
