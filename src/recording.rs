//! Recording and replay through the C ABI (the format: docs/recording.md). A world records its
//! state when recording starts, then every input and every step's outputs; the bytes stay in the
//! world once it stops, for `argus_world_get_recording` to copy out, or go to a file or the
//! caller's callback as they are made, or to the flight recorder's ring of the last seconds. A
//! replay rebuilds the world from them and checks every step's outputs byte for byte.

use std::ffi::{CStr, c_char, c_void};
use std::io::{self, Write};

use super::boundary::{
    Fail, FfiResult, bytes64, check_cookie, copy_out64, fail, guard, input, invalid, output, peek, slice, with_world,
    with_world_ref,
};
use super::enums::{ArgusRecordTo, RawRecordTo};
use super::rays::RawResult;
use super::types::*;
use super::world::{ARGUS_MAX_BATCH, ArgusWorld, claim_world};
use argus_core::error::Error;
use argus_core::record::{RecordOptions, RecordTo, Replay};
use argus_core::world::World;

/// The longest path a recording's file may have, in bytes (without its NUL).
pub const ARGUS_MAX_PATH_BYTES: u32 = 4096;

/// Where a recording's bytes go, when `ArgusRecordDef.to` is `ARGUS_RECORD_TO_CALLBACK` (the
/// recording's bytes as they are made) or for `argus_world_write_flight_recording` (a saved
/// window): `size` bytes at `bytes`, valid during the call only, to be appended to what came
/// before; `user_data` passed through untouched. Return `ARGUS_RESULT_OK`; any other code stops
/// the writing (the call that ends it returns `ARGUS_RESULT_WRITE_FAILED`). A recording's callback
/// is called on the recording's own thread (never two calls at once, in order); a flight
/// recording's, on the thread that asked for it. Never let an exception unwind through it.
pub type ArgusWriteFn = Option<unsafe extern "C" fn(user_data: *mut c_void, bytes: *const u8, size: u64) -> RawResult>;

/// The callback's C signature.
type RawWriteFn = unsafe extern "C" fn(*mut c_void, *const u8, u64) -> RawResult;

/// The caller's write callback as a Rust writer.
struct CallbackWriter {
    write: RawWriteFn,
    user_data: *mut c_void,
}

// SAFETY: `ArgusWriteFn`'s contract: a recording's callback is called from the recording's own
// thread, one call at a time, which the caller accepts by choosing it.
unsafe impl Send for CallbackWriter {}

impl Write for CallbackWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        // SAFETY: `bytes` is valid for the call; the callback's contract is the caller's.
        let code = unsafe { (self.write)(self.user_data, bytes.as_ptr(), bytes.len() as u64) };
        if code.0 != ArgusResult::Ok as u32 {
            let raw = code.0;
            // SAFETY: `argus_result_name` returns a static NUL-terminated string.
            let name = unsafe { CStr::from_ptr(super::world::argus_result_name(raw)) }.to_string_lossy();
            return Err(io::Error::other(format!("the write callback returned {raw} ({name})")));
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A NUL-terminated UTF-8 path of at most `ARGUS_MAX_PATH_BYTES` bytes, never read past its NUL
/// or past the longest accepted length.
fn c_path(ptr: *const c_char, what: &str) -> FfiResult<String> {
    if ptr.is_null() {
        return Err(invalid(format!("{what} must not be NULL")));
    }
    let max = ARGUS_MAX_PATH_BYTES as usize;
    let mut len = 0;
    // SAFETY: the caller promises a NUL-terminated string; reading stops at its NUL or one byte
    // past the longest accepted path.
    while len <= max && unsafe { *ptr.add(len) } != 0 {
        len += 1;
    }
    if len > max {
        return Err(invalid(format!("{what} is longer than {max} bytes")));
    }
    if len == 0 {
        return Err(invalid(format!("{what} is empty")));
    }
    // SAFETY: `len` bytes before the NUL were just read.
    let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len) };
    std::str::from_utf8(bytes).map(str::to_owned).map_err(|_| invalid(format!("{what} is not UTF-8")))
}

/// Creates (or truncates) the file at `path`, buffered.
fn create_file(path: &str) -> FfiResult<io::BufWriter<std::fs::File>> {
    let file = std::fs::File::create(path)
        .map_err(|e| fail(ArgusResult::WriteFailed, format!("the recording's file {path:?} cannot be created: {e}")))?;
    Ok(io::BufWriter::with_capacity(1 << 20, file))
}

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
    /// Where the recording goes (default `ARGUS_RECORD_TO_MEMORY`).
    pub to: RawRecordTo,
    /// `ARGUS_RECORD_TO_FILE`: the file's path, UTF-8, NUL-terminated, at most
    /// `ARGUS_MAX_PATH_BYTES`; created (or truncated) when recording starts. Read during the call
    /// only. Ignored otherwise.
    pub path: *const c_char,
    /// `ARGUS_RECORD_TO_CALLBACK`: where the bytes go (see `ArgusWriteFn`). Ignored otherwise.
    pub write: ArgusWriteFn,
    /// Passed to `write` untouched.
    pub write_user_data: *mut c_void,
    /// `ARGUS_RECORD_TO_FLIGHT`: the seconds kept (of the steps' `dt`), in (0, 86400]; default 30.
    pub flight_seconds: f32,
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
        to: ArgusRecordTo::Memory.into(),
        path: std::ptr::null(),
        write: None,
        write_user_data: std::ptr::null_mut(),
        flight_seconds: 30.0,
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
/// world. Refused, with the world unchanged and still not recording (the kept bytes included, and
/// no file created): `def` NULL, a focus array NULL with a count, an unknown `to`, a path that is
/// NULL, empty, too long or not UTF-8, a NULL `write`, or `flight_seconds` out of (0, 86400] →
/// `INVALID_ARGUMENT`; `def` not from `argus_default_record_def()` → `DEF_NOT_INITIALIZED`; a
/// focus id that is null, stale or of another world → `INVALID_ID`; already recording →
/// `INVALID_ARGUMENT` (the recording under way goes on untouched); a two-phase step pending →
/// `STEP_IN_PROGRESS`; the file cannot be created → `WRITE_FAILED`. (Where the system gives no
/// thread, the stepping thread does the recording thread's work, callbacks included.)
///
/// `ARGUS_RECORD_TO_MEMORY` holds the recording in the world, growing with every input and step,
/// until it is stopped. A file or a callback gets the bytes as they are made, from a thread of
/// the recording's own (the world waits for it when it falls a few megabytes behind, so memory
/// stays bounded); the bytes are those a recording in memory would hold. The flight recorder
/// keeps the last `flight_seconds` (see `argus_world_save_flight_recording`).
///
/// # Safety
/// `world` NULL or live; `def` NULL or an `ArgusRecordDef` whose `focus` holds `focus_count` ids
/// and whose `path` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_start_recording(
    world: *mut ArgusWorld,
    def: *const ArgusRecordDef,
) -> ArgusResult {
    with_world(world, |w| {
        let def = input(def, "def")?;
        let options = record_options(def, w.tag)?;
        let to = def.to.get()?;
        // Everything the world would refuse is refused before a file is created.
        if w.world.is_recording() {
            return Err(invalid("this world is already recording"));
        }
        if w.world.is_step_in_progress() {
            return Err(Error::StepInProgress.into());
        }
        for &id in &options.focus {
            w.world.agent(id)?;
        }
        let to = match to {
            ArgusRecordTo::Memory => RecordTo::Memory,
            ArgusRecordTo::File => RecordTo::Stream(Box::new(create_file(&c_path(def.path, "path")?)?)),
            ArgusRecordTo::Callback => {
                let write = def.write.ok_or_else(|| invalid("write must not be NULL for ARGUS_RECORD_TO_CALLBACK"))?;
                RecordTo::Stream(Box::new(CallbackWriter { write, user_data: def.write_user_data }))
            }
            ArgusRecordTo::Flight => RecordTo::Flight { seconds: def.flight_seconds },
        };
        w.world.start_recording_to(&options, to)?;
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

/// Ends the recording (its `END` chunk written). A recording in memory keeps its bytes in the
/// world, for `argus_world_get_recording`, until the next `argus_world_start_recording` or the
/// world's destruction; a file's or a callback's gets its last bytes (the file is flushed and
/// closed); a flight recorder's ring is dropped (save it first). Refused, changing nothing (the
/// kept bytes included): not recording → `INVALID_ARGUMENT`; a two-phase step pending →
/// `STEP_IN_PROGRESS` (the recording goes on: finish or cancel the step, then stop). A file or
/// callback whose writing failed at any point → `WRITE_FAILED` naming the failure, a recording in
/// memory that memory ran out for (its bytes were let go then, the world stepping on) →
/// `OUT_OF_MEMORY`; either way the recording has ended (what was written is not a whole one).
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
/// destruction. No recording in memory stopped since the world was created or recording last
/// started (so also while recording, and after a recording to a file, a callback or the flight
/// recorder) → `INVALID_ARGUMENT` and `*out_size` untouched. Nothing in the world changes.
///
/// # Safety
/// `world` NULL or live; `buffer` `capacity` writable bytes (NULL if 0); `out_size` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_recording(
    world: *const ArgusWorld,
    buffer: *mut u8,
    capacity: u64,
    out_size: *mut u64,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let size = output(out_size, "out_size")?;
        if w.recording.is_empty() {
            let why = if w.world.is_recording() {
                "the world is recording: argus_world_stop_recording first"
            } else {
                "no recording in memory was stopped on this world (argus_world_start_recording with \
                 ARGUS_RECORD_TO_MEMORY, then argus_world_stop_recording)"
            };
            return Err(fail(ArgusResult::InvalidArgument, why));
        }
        copy_out64(&w.recording, buffer, capacity, size, "recording")
    })
}

/// Saves the flight recorder's window to the file at `path` (UTF-8, NUL-terminated, created or
/// truncated) as a recording of its own, which `argus_replay_verify`, the inspector and
/// `argus_world_create_from_recording` read alone: the last `flight_seconds` of steps, from the
/// key frame at or before them (all of it when the recording is shorter), its steps counted from
/// 0 there, its frames keeping the world clock. Writes its size to `*out_size` (NULL: not
/// wanted). The recording goes on; call it as often as wanted (a tester's "save the last 30 s"
/// key). Refused, changing nothing: the world is not recording to a flight recorder, or `path` is
/// NULL, empty, too long or not UTF-8 → `INVALID_ARGUMENT`; the file cannot be created or written
/// → `WRITE_FAILED`; memory ran out for the window → `OUT_OF_MEMORY` (the recorder let it go and
/// starts again at its next key frame, every `flight_seconds` / 8). The window is written to
/// `path` + `.partial` and renamed to `path` when whole: a save that fails part way (a full disk)
/// removes its partial file and leaves a file already at `path` as it was.
///
/// # Safety
/// `world` NULL or live; `path` NULL or NUL-terminated; `out_size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_save_flight_recording(
    world: *mut ArgusWorld,
    path: *const c_char,
    out_size: *mut u64,
) -> ArgusResult {
    with_world(world, |w| {
        let path = c_path(path, "path")?;
        if w.world.flight_recorder_bytes().is_none() {
            return Err(invalid("this world is not recording to a flight recorder (ARGUS_RECORD_TO_FLIGHT)"));
        }
        // Written beside it first, then renamed over it: a save that fails part way (a full
        // disk) leaves a file already at `path` (the last save of the same name) as it was.
        let partial = format!("{path}.partial");
        let mut file = create_file(&partial)?;
        let written = w.world.save_flight_recording(&mut file).and_then(|n| {
            file.flush().map_err(|e| Error::WriteFailed(format!("the flight recording: {e}")))?;
            drop(file);
            std::fs::rename(&partial, &path)
                .map_err(|e| Error::WriteFailed(format!("the flight recording cannot be moved to {path:?}: {e}")))?;
            Ok(n)
        });
        let n = written.inspect_err(|_| {
            drop(std::fs::remove_file(&partial));
        })?;
        // SAFETY: NULL or writable, as the caller promises.
        if let Some(size) = unsafe { out_size.as_mut() } {
            *size = n;
        }
        Ok(())
    })
}

/// `argus_world_save_flight_recording` to the caller's `write` callback (on this thread, before
/// this call returns) instead of a file. Refused, changing nothing: not recording to a flight
/// recorder or `write` NULL → `INVALID_ARGUMENT`; the callback returned another code than
/// `ARGUS_RESULT_OK` → `WRITE_FAILED` (what it was given is not a recording); memory ran out for
/// the window → `OUT_OF_MEMORY`, as for `argus_world_save_flight_recording`.
///
/// # Safety
/// `world` NULL or live; `write` callable as `ArgusWriteFn` describes; `out_size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_write_flight_recording(
    world: *mut ArgusWorld,
    write: ArgusWriteFn,
    user_data: *mut c_void,
    out_size: *mut u64,
) -> ArgusResult {
    with_world(world, |w| {
        let write = write.ok_or_else(|| invalid("write must not be NULL"))?;
        let n = w.world.save_flight_recording(&mut CallbackWriter { write, user_data })?;
        // SAFETY: NULL or writable, as the caller promises.
        if let Some(size) = unsafe { out_size.as_mut() } {
            *size = n;
        }
        Ok(())
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
pub unsafe extern "C" fn argus_replay_verify(bytes: *const u8, size: u64, out: *mut ArgusReplayReport) -> ArgusResult {
    guard(|| {
        let out = output(out, "out")?;
        let bytes = bytes64(bytes, size, "bytes")?;
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
    size: u64,
    steps: u32,
    out_world: *mut *mut ArgusWorld,
) -> ArgusResult {
    guard(|| {
        let out = output(out_world, "out_world")?;
        let bytes = bytes64(bytes, size, "bytes")?;
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
        let mut world = World::load(&replay.world().save()?).map_err(|e| match e {
            Error::BadSnapshot(why) => Error::OutOfMemory(why),
            e => e,
        })?;
        // Labels are not in a snapshot: the replayed world's, given to the copy.
        for (thing, label) in replay.world().labels() {
            world.set_label(thing, label)?;
        }
        *out = claim_world(world, Some(replay.world()))?;
        Ok(())
    })
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusRecordDef>() == 56);
#[cfg(target_pointer_width = "32")]
const _: () = assert!(size_of::<ArgusRecordDef>() == 36);
const _: () = assert!(size_of::<ArgusReplayReport>() == 12);
