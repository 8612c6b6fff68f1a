//! Recordings that go somewhere as they are made (#50): to a file, to the caller's write
//! callback (one that fails after some bytes, too), and the flight recorder, whose window is
//! saved to a file (`argus_world_save_flight_recording`) or handed to a callback
//! (`argus_world_write_flight_recording`), with bad paths, NULL callbacks, flight seconds out of
//! (0, 86400] and unknown `to` values, while not recording, while recording elsewhere and during
//! a pending two-phase step. Every whole recording that comes out (a file read back, a callback's
//! bytes, a flight window) must replay (`argus_replay_verify`) and joins the corpus the fuzzer
//! replays, damages and rebuilds worlds from; what a failing callback was given must not.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::*;

/// Where a world's recording goes (meaningful while the model says it is recording).
pub(crate) enum Dest {
    Memory,
    File(PathBuf),
    Callback(Arc<Sink>),
    Flight,
}

impl Dest {
    fn label(&self) -> &'static str {
        match self {
            Dest::Memory => "memory",
            Dest::File(_) => "file",
            Dest::Callback(_) => "callback",
            Dest::Flight => "flight",
        }
    }
}

/// What the write callback is handed: the bytes it took, and whether it refused some.
pub(crate) struct Sink {
    bytes: Mutex<Vec<u8>>,
    /// Refuses the call that would take its bytes past this many (`None`: never).
    fail_after: Option<u64>,
    /// The code it refuses with: any but OK, not always one `ArgusResult` names.
    code: u32,
    refused: AtomicBool,
    /// Calls after it refused (`ArgusWriteFn`: any other code stops the writing).
    calls_after: AtomicUsize,
}

impl Sink {
    fn new(fail_after: Option<u64>, code: u32) -> Arc<Sink> {
        Arc::new(Sink {
            bytes: Mutex::new(Vec::new()),
            fail_after,
            code,
            refused: AtomicBool::new(false),
            calls_after: AtomicUsize::new(0),
        })
    }
    fn refused(&self) -> bool {
        self.refused.load(Ordering::SeqCst)
    }
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.bytes.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// The `ArgusWriteFn` the fuzzer hands the library: `user` is a `Sink`.
unsafe extern "C" fn sink_write(user: *mut c_void, bytes: *const u8, size: u64) -> RawResult {
    // SAFETY: `user` is a `Sink` kept alive for as long as the library may call this.
    let sink = unsafe { &*(user as *const Sink) };
    if sink.refused() {
        sink.calls_after.fetch_add(1, Ordering::SeqCst);
        return RawResult(sink.code);
    }
    let mut got = sink.bytes.lock().unwrap_or_else(|e| e.into_inner());
    if sink.fail_after.is_some_and(|n| got.len() as u64 + size > n) {
        sink.refused.store(true, Ordering::SeqCst);
        return RawResult(sink.code);
    }
    if size > 0 {
        // SAFETY: the library hands `size` readable bytes.
        got.extend_from_slice(unsafe { std::slice::from_raw_parts(bytes, size as usize) });
    }
    RawResult(R::Ok as u32)
}

/// A callback set where it must be ignored (`to` is not `ARGUS_RECORD_TO_CALLBACK`).
unsafe extern "C" fn never_write(_user: *mut c_void, _bytes: *const u8, _size: u64) -> RawResult {
    IGNORED_WRITE_CALLED.store(true, Ordering::SeqCst);
    RawResult(R::Ok as u32)
}

static IGNORED_WRITE_CALLED: AtomicBool = AtomicBool::new(false);

/// The run's own temporary directory (removed with everything in it when the run ends), and
/// what the new calls answered.
pub(crate) struct Streams {
    dir: PathBuf,
    next: u64,
    /// (call, result code) -> how many times.
    counts: BTreeMap<(&'static str, u32), usize>,
    /// Whole recordings replayed without a fault: written to a file, handed to a callback,
    /// saved from a flight recorder (to a file or a callback).
    pub(crate) verified: [usize; 3],
    /// The size of the last flight window, to pick where a failing callback fails.
    last_window: u64,
}

impl Streams {
    pub(crate) fn new(seed: u64) -> Streams {
        let dir = std::env::temp_dir().join(format!("argus-ffi-fuzz-{}-{seed:x}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("the fuzzer's temporary directory");
        Streams { dir, next: 0, counts: BTreeMap::new(), verified: [0; 3], last_window: 4096 }
    }

    /// A path in the run's directory that nothing has used yet.
    fn fresh(&mut self) -> PathBuf {
        self.next += 1;
        self.dir.join(format!("rec-{}.argusrec", self.next))
    }

    fn count(&mut self, call: &'static str, r: ArgusResult) {
        *self.counts.entry((call, r as u32)).or_default() += 1;
    }

    /// How often each new call answered each code (printed by the fuzzer per seed).
    pub(crate) fn report(&self) -> String {
        let mut out = String::new();
        for ((call, code), n) in &self.counts {
            // SAFETY: a static string.
            let name = unsafe { CStr::from_ptr(argus_result_name(*code)) }.to_string_lossy();
            let name = name.trim_start_matches("ARGUS_RESULT_");
            out.push_str(&format!("    {n:>5}  {call:<42} {name}\n"));
        }
        out
    }

    /// Calls counted with this code, of calls whose name starts with `call`.
    fn seen(&self, call: &str, r: ArgusResult) -> usize {
        self.counts.iter().filter(|((c, code), _)| c.starts_with(call) && *code == r as u32).map(|(_, n)| n).sum()
    }
}

impl Drop for Streams {
    fn drop(&mut self) {
        drop(std::fs::remove_dir_all(&self.dir));
    }
}

// ---- paths -------------------------------------------------------------------------------------

/// A path argument: its NUL-terminated bytes (`None`: NULL), what it makes the call answer
/// once every other check passed, and the file a call that succeeds creates.
struct PathArg {
    bytes: Option<Vec<u8>>,
    fault: Option<ArgusResult>,
    file: Option<PathBuf>,
    /// A path whose file must not be created by a refused call (checked afterwards).
    watch: Option<PathBuf>,
    /// What the file held before the call (a file that exists is truncated by a call that
    /// succeeds, and left alone by one refused).
    old: Option<Vec<u8>>,
    label: &'static str,
}

fn nul(s: &[u8]) -> Vec<u8> {
    let mut v = s.to_vec();
    v.push(0);
    v
}

fn utf8(p: &Path) -> &str {
    p.to_str().expect("the temporary directory's path is UTF-8")
}

fn pick_path(cx: &mut Cx) -> PathArg {
    let st = &mut cx.streams;
    let fresh = st.fresh();
    let dir = utf8(&st.dir).to_owned();
    let none = |label| PathArg { bytes: None, fault: None, file: None, watch: None, old: None, label };
    let invalid = Some(R::InvalidArgument);
    let fails = Some(R::WriteFailed);
    match cx.rng.below(20) {
        0 => PathArg { fault: invalid, ..none("NULL") },
        1 => PathArg { bytes: Some(nul(b"")), fault: invalid, ..none("empty") },
        2 => {
            // Not UTF-8 (a file name Linux would take): refused before any file is made.
            let mut b = format!("{dir}/bad-").into_bytes();
            b.extend_from_slice(&[0xFF, 0xFE, b'x']);
            #[cfg(unix)]
            let watch = {
                use std::os::unix::ffi::OsStrExt;
                Some(PathBuf::from(std::ffi::OsStr::from_bytes(&b)))
            };
            #[cfg(not(unix))]
            let watch = None;
            PathArg { bytes: Some(nul(&b)), fault: invalid, watch, ..none("not UTF-8") }
        }
        3 => {
            let b = vec![b'a'; ARGUS_MAX_PATH_BYTES as usize + 1 + cx.rng.below(3) as usize];
            PathArg { bytes: Some(nul(&b)), fault: invalid, ..none("too long") }
        }
        4 => {
            let missing = format!("{dir}/missing-{}/x.argusrec", cx.rng.next());
            PathArg { bytes: Some(nul(missing.as_bytes())), fault: fails, ..none("in a missing directory") }
        }
        5 => PathArg { bytes: Some(nul(dir.as_bytes())), fault: fails, ..none("a directory") },
        6 => {
            // Exactly the longest accepted length: accepted, but no system makes such a name.
            let mut b = format!("{dir}/").into_bytes();
            b.resize(ARGUS_MAX_PATH_BYTES as usize, b'n');
            PathArg { bytes: Some(nul(&b)), fault: fails, ..none("a name too long for the system") }
        }
        k => {
            // A new file, or one that exists (truncated by the call that succeeds).
            let old = (k < 10).then(|| (0..1 + cx.rng.below(300)).map(|_| cx.rng.next() as u8).collect::<Vec<u8>>());
            if let Some(old) = &old {
                std::fs::write(&fresh, old).expect("a file in the fuzzer's temporary directory");
            }
            PathArg {
                bytes: Some(nul(utf8(&fresh).as_bytes())),
                fault: None,
                file: Some(fresh.clone()),
                watch: Some(fresh),
                old,
                label: if k < 10 { "an existing file" } else { "a new file" },
            }
        }
    }
}

impl PathArg {
    fn ptr(&self) -> *const std::ffi::c_char {
        self.bytes.as_ref().map_or(null(), |b| b.as_ptr().cast())
    }

    /// After a refused call: no file made, an existing one untouched.
    fn check_untouched(&self, cx: &Cx, what: &str) {
        let Some(path) = &self.watch else { return };
        let now = std::fs::read(path).ok();
        if now != self.old {
            cx.fail(&format!(
                "{what} was refused but the file {path:?} went from {:?} to {:?} bytes",
                self.old.as_ref().map(Vec::len),
                now.as_ref().map(Vec::len)
            ));
        }
        if self.old.is_some() {
            drop(std::fs::remove_file(path));
        }
    }
}

// ---- starting --------------------------------------------------------------------------------

/// Where a `start_recording` the fuzzer makes goes, and what that alone makes it answer.
pub(crate) struct Pick {
    to: Dest,
    /// The destination's own refusal (a bad path, a NULL `write`, flight seconds out of range,
    /// a file that cannot be created): the world checks it after everything else.
    pub(crate) fault: Option<ArgusResult>,
    /// `to` names no destination: refused with the def's other faults, before the world is asked.
    pub(crate) unknown_to: bool,
    path: Option<PathArg>,
    pub(crate) label: String,
}

/// Sets `def.to` and what it reads (`path`, `write`, `flight_seconds`), sometimes wrong; the
/// fields of other destinations are sometimes garbage, which must be ignored.
pub(crate) fn pick_destination(cx: &mut Cx, def: &mut ArgusRecordDef) -> Pick {
    let roll = cx.rng.below(100);
    pick_to(cx, def, roll)
}

/// `pick_destination` with its roll: 0-29 memory, 30-54 a file, 55-79 a callback, 80-96 the
/// flight recorder, 97-99 an unknown `to`.
fn pick_to(cx: &mut Cx, def: &mut ArgusRecordDef, roll: u64) -> Pick {
    let mut pick = Pick { to: Dest::Memory, fault: None, unknown_to: false, path: None, label: String::new() };
    match roll {
        0..=29 => pick.label = "memory".into(),
        30..=54 => {
            let path = pick_path(cx);
            def.to = ArgusRecordTo::File.into();
            def.path = path.ptr();
            pick.fault = path.fault;
            pick.label = format!("file ({})", path.label);
            if let Some(file) = &path.file {
                pick.to = Dest::File(file.clone());
            }
            pick.path = Some(path);
        }
        55..=79 => {
            def.to = ArgusRecordTo::Callback.into();
            if cx.rng.chance(10) {
                def.write = None;
                pick.fault = Some(R::InvalidArgument);
                pick.label = "callback (NULL write)".into();
            } else {
                // Fails after a few bytes (before the START is whole), after some, or never.
                let fail_after = match cx.rng.below(10) {
                    0..=2 => Some(cx.rng.below(64)),
                    3 | 4 => Some(cx.rng.below(64 << 10)),
                    _ => None,
                };
                let code = cx.rng.pick(&[R::InvalidArgument as u32, R::WriteFailed as u32, 13, 999, u32::MAX]);
                let sink = Sink::new(fail_after, code);
                // The world's recording thread may call it until the world is gone, which a
                // failing run never destroys: one count is left for it (a few bytes a recording).
                def.write = Some(sink_write);
                def.write_user_data = Arc::into_raw(Arc::clone(&sink)) as *mut c_void;
                pick.label = format!("callback (fails after {fail_after:?})");
                pick.to = Dest::Callback(sink);
            }
        }
        80..=96 => {
            def.to = ArgusRecordTo::Flight.into();
            if cx.rng.chance(25) {
                def.flight_seconds =
                    cx.rng.pick(&[0.0, -0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 86_400.01, f32::MAX]);
                pick.fault = Some(R::InvalidArgument);
            } else {
                def.flight_seconds = cx.rng.pick(&[f32::MIN_POSITIVE, 0.05, 0.2, 0.5, 1.0, 2.0, 30.0, 86_400.0]);
                pick.to = Dest::Flight;
            }
            pick.label = format!("flight ({}s)", def.flight_seconds);
        }
        _ => {
            def.to = RawRecordTo(cx.rng.pick(&[4, 5, 0x100, u32::MAX]));
            pick.unknown_to = true;
            pick.label = format!("unknown ({})", def.to.0);
        }
    }
    // What a destination other than the def's reads is ignored.
    if !matches!(roll, 30..=54) && cx.rng.chance(20) {
        def.path = c"\xFF not a path".as_ptr();
    }
    if !matches!(roll, 55..=79) && cx.rng.chance(20) {
        def.write = Some(never_write);
    }
    if !matches!(roll, 80..=96) && cx.rng.chance(20) {
        def.flight_seconds = cx.rng.bad();
    }
    pick
}

/// After `argus_world_start_recording` with `pick`: the file is there if and only if it started.
pub(crate) fn started(cx: &mut Cx, wi: usize, r: ArgusResult, pick: Pick) {
    let name = match pick.to {
        _ if pick.unknown_to => "start_recording to=unknown",
        Dest::Memory if pick.label == "memory" => "start_recording to=memory",
        Dest::File(_) => "start_recording to=file",
        Dest::Memory if pick.label.starts_with("file") => "start_recording to=file (bad path)",
        Dest::Callback(_) => "start_recording to=callback",
        Dest::Memory if pick.label.starts_with("callback") => "start_recording to=callback (NULL)",
        Dest::Flight => "start_recording to=flight",
        Dest::Memory => "start_recording to=flight (bad seconds)",
    };
    cx.streams.count(name, r);
    if IGNORED_WRITE_CALLED.load(Ordering::SeqCst) {
        cx.fail("a write callback set with another `to` was called");
    }
    if r == R::Ok {
        if let Dest::File(path) = &pick.to
            && !path.exists()
        {
            cx.fail(&format!("start_recording to a file succeeded but {path:?} is not there"));
        }
        cx.worlds[wi].dest = pick.to;
    } else if let Some(path) = &pick.path {
        path.check_untouched(cx, "start_recording");
    }
}

// ---- stopping ----------------------------------------------------------------------------------

/// `argus_world_stop_recording`, wherever the recording goes. A recording that ends is checked:
/// in memory, copied out (`copy_recording`); a file read back and a callback's bytes replayed
/// whole, or, when the callback refused some (the stop then answers `WRITE_FAILED`, the
/// recording ended all the same), found not to be a recording; after a file, a callback or a
/// flight recorder `argus_world_get_recording` has nothing to give.
pub(crate) fn stop_recording(cx: &mut Cx, wi: usize) {
    let w = &cx.worlds[wi];
    let p = w.ptr;
    let e = if w.poisoned {
        R::WorldPoisoned
    } else if !w.recording {
        R::InvalidArgument
    } else if w.pending.is_some() {
        R::StepInProgress
    } else {
        R::Ok
    };
    // A callback that refused bytes (on the recording's own thread, maybe only when the stop
    // hands it the last ones) makes the stop that ends the recording answer WRITE_FAILED.
    let sink = match &w.dest {
        Dest::Callback(s) if e == R::Ok => Some(s.clone()),
        _ => None,
    };
    let name = match &w.dest {
        _ if !w.recording => "stop_recording (not recording)",
        Dest::Memory => "stop_recording to=memory",
        Dest::File(_) => "stop_recording to=file",
        Dest::Callback(_) => "stop_recording to=callback",
        Dest::Flight => "stop_recording to=flight",
    };
    let expected = || if sink.as_ref().is_some_and(|s| s.refused()) { R::WriteFailed } else { e };
    // SAFETY: a live world.
    let r = cx.run_late(wi, name.into(), false, true, || unsafe { argus_world_stop_recording(p) }, expected);
    cx.streams.count(name, r);
    if r == R::Ok || r == R::WriteFailed {
        let mut counts = ArgusWorldCounts::default();
        // SAFETY: a live world and a local.
        unsafe { argus_world_get_counts(p, &mut counts) };
        cx.worlds[wi].recording = false;
        let failed_rays = cx.worlds[wi].failed_rays;
        match std::mem::replace(&mut cx.worlds[wi].dest, Dest::Memory) {
            Dest::Memory => {
                cx.worlds[wi].kept = Some(counts);
                copy_recording(cx, wi);
            }
            dest => {
                match &dest {
                    Dest::File(path) => {
                        let bytes = std::fs::read(path)
                            .unwrap_or_else(|e| cx.fail(&format!("the recording's file {path:?}: {e}")));
                        drop(std::fs::remove_file(path));
                        whole(cx, wi, bytes, counts, failed_rays, 0, "replay_verify file recording");
                    }
                    Dest::Callback(s) => {
                        let bytes = s.take();
                        check_stopped_calling(cx, s);
                        if r == R::Ok {
                            whole(cx, wi, bytes, counts, failed_rays, 1, "replay_verify callback recording");
                        } else {
                            not_whole(cx, wi, bytes, "replay_verify failed callback's bytes");
                        }
                    }
                    _ => {}
                }
                nothing_kept(cx, wi, dest.label());
            }
        }
    }
    // SAFETY: a live world.
    let is = unsafe { argus_world_is_recording(p) } != 0;
    if is != (cx.worlds[wi].recording && !cx.worlds[wi].poisoned) {
        cx.fail("argus_world_is_recording disagrees with the model");
    }
}

fn check_stopped_calling(cx: &Cx, sink: &Sink) {
    let after = sink.calls_after.load(Ordering::SeqCst);
    if after > 0 {
        cx.fail(&format!("the write callback was called {after} more times after it refused"));
    }
}

/// After a recording to a file, a callback or a flight recorder stopped: `get_recording` has
/// nothing (`INVALID_ARGUMENT`, `*out_size` untouched).
fn nothing_kept(cx: &mut Cx, wi: usize, to: &str) {
    let p = cx.worlds[wi].ptr;
    let e = if cx.worlds[wi].poisoned { R::WorldPoisoned } else { R::InvalidArgument };
    let mut size = 0x5EED_u64;
    let mut buffer = [0u8; 8];
    let capacity = cx.rng.pick(&[0u64, 8]);
    let bp = if capacity == 0 { null_mut() } else { buffer.as_mut_ptr() };
    // SAFETY: `capacity` writable bytes and a local.
    let r = cx.run(wi, format!("get_recording after a recording to {to}"), e, false, || unsafe {
        argus_world_get_recording(p, bp, capacity, &mut size)
    });
    cx.streams.count("get_recording after a stream", r);
    if size != 0x5EED {
        cx.fail("a refused get_recording wrote *out_size");
    }
}

/// A whole recording (a file read back, a callback's bytes, a flight window) must replay; it
/// joins the corpus of recordings replayed, damaged and rebuilt into worlds.
fn whole(
    cx: &mut Cx,
    wi: usize,
    bytes: Vec<u8>,
    counts: ArgusWorldCounts,
    failed_rays: bool,
    kind: usize,
    what: &'static str,
) {
    let mut report = ArgusReplayReport { step_count: 7, steps_replayed: 7, mismatch_step: 7 };
    let (ptr, len) = (if bytes.is_empty() { null() } else { bytes.as_ptr() }, bytes.len() as u64);
    // SAFETY: `len` readable bytes and a local report; no world is touched.
    let r = cx.run_checked(wi, format!("{what} ({len} bytes)"), R::Ok, false, false, || unsafe {
        argus_replay_verify(ptr, len, &mut report)
    });
    cx.streams.count(what, r);
    if report.steps_replayed != report.step_count || report.mismatch_step != ARGUS_NO_STEP {
        cx.fail(&format!("{what}: replay_verify wrote {report:?}"));
    }
    cx.streams.verified[kind] += 1;
    if cx.recordings.len() >= 3 {
        cx.recordings.remove(0);
    }
    cx.recordings.push((bytes, counts, failed_rays));
}

/// What a failing callback was given is not a recording: `BAD_RECORDING`, the report untouched.
fn not_whole(cx: &mut Cx, wi: usize, bytes: Vec<u8>, what: &'static str) {
    let mut report = ArgusReplayReport { step_count: 7, steps_replayed: 7, mismatch_step: 7 };
    let (ptr, len) = (if bytes.is_empty() { null() } else { bytes.as_ptr() }, bytes.len() as u64);
    // SAFETY: `len` readable bytes and a local report; no world is touched.
    let r = cx.run_checked(wi, format!("{what} ({len} bytes)"), R::BadRecording, false, false, || unsafe {
        argus_replay_verify(ptr, len, &mut report)
    });
    cx.streams.count(what, r);
    if report.step_count != 7 {
        cx.fail(&format!("{what}: a refused replay_verify wrote {report:?}"));
    }
}

// ---- the flight recorder's window --------------------------------------------------------------

/// The flight recorder's window saved to a file or handed to a callback: while recording to a
/// flight recorder (during a pending two-phase step too), to somewhere else or not at all, with
/// bad paths and NULL or failing callbacks. A window saved must replay on its own; nothing else
/// changes (the digest), the recording goes on.
pub(crate) fn op_flight(cx: &mut Cx, wi: usize) {
    if cx.rng.chance(50) { save_flight(cx, wi) } else { write_flight(cx, wi) }
}

/// The call's name for the counts: what state the world is in.
fn flight_name(cx: &Cx, wi: usize, call: u8) -> (&'static str, bool) {
    let w = &cx.worlds[wi];
    let flight = w.recording && matches!(w.dest, Dest::Flight);
    let names = [
        ["save_flight_recording (not recording)", "write_flight_recording (not recording)"],
        ["save_flight_recording (recording elsewhere)", "write_flight_recording (recording elsewhere)"],
        ["save_flight_recording (flight)", "write_flight_recording (flight)"],
        ["save_flight_recording (flight, pending step)", "write_flight_recording (flight, pending step)"],
    ];
    let state = match () {
        _ if !w.recording => 0,
        _ if !flight => 1,
        _ if w.pending.is_none() => 2,
        _ => 3,
    };
    (names[state][call as usize], flight)
}

fn save_flight(cx: &mut Cx, wi: usize) {
    let path = pick_path(cx);
    let (name, flight) = flight_name(cx, wi, 0);
    let (p, poisoned) = (cx.worlds[wi].ptr, cx.worlds[wi].poisoned);
    let e = if poisoned {
        R::WorldPoisoned
    } else if path.fault == Some(R::InvalidArgument) || !flight {
        R::InvalidArgument
    } else {
        path.fault.unwrap_or(R::Ok)
    };
    let want_size = cx.rng.chance(80);
    let mut size = 0xDEAD_BEEF_u64;
    let sp = if want_size { &mut size as *mut u64 } else { null_mut() };
    let pp = path.ptr();
    // SAFETY: a live world, a NUL-terminated path (or NULL) and a local (or NULL).
    let r = cx.run(wi, format!("{name} path={}", path.label), e, false, || unsafe {
        argus_world_save_flight_recording(p, pp, sp)
    });
    cx.streams.count(name, r);
    if r != R::Ok {
        if size != 0xDEAD_BEEF {
            cx.fail(&format!("{name}: refused with {r:?} but wrote *out_size"));
        }
        path.check_untouched(cx, name);
        return;
    }
    let file = path.file.as_ref().expect("only a good path saves");
    let bytes = std::fs::read(file).unwrap_or_else(|e| cx.fail(&format!("the flight window's file {file:?}: {e}")));
    drop(std::fs::remove_file(file));
    saved_window(cx, wi, (name, want_size.then_some(size)), bytes, "file");
}

/// A flight window saved whole (to a `to`: "file" or "callback"): `*out_size` (when asked for)
/// is its length, and it verifies.
fn saved_window(cx: &mut Cx, wi: usize, (name, size): (&str, Option<u64>), bytes: Vec<u8>, to: &str) {
    if let Some(size) = size.filter(|&s| s != bytes.len() as u64) {
        cx.fail(&format!("{name}: *out_size {size} but the {to} was given {} bytes", bytes.len()));
    }
    cx.streams.last_window = bytes.len() as u64;
    let counts = counts_now(cx, wi);
    let failed_rays = cx.worlds[wi].failed_rays;
    let what =
        if to == "file" { "replay_verify flight window (file)" } else { "replay_verify flight window (callback)" };
    whole(cx, wi, bytes, counts, failed_rays, 2, what);
}

fn write_flight(cx: &mut Cx, wi: usize) {
    let null_write = cx.rng.chance(10);
    // Fails somewhere in a window about the size of the last one, or never.
    let fail_after = cx.rng.chance(35).then(|| cx.rng.below(cx.streams.last_window.max(64) * 5 / 4));
    let code = cx.rng.pick(&[R::InvalidArgument as u32, R::WriteFailed as u32, 13, 999, u32::MAX]);
    let sink = Sink::new(fail_after, code);
    let (name, flight) = flight_name(cx, wi, 1);
    let (p, poisoned) = (cx.worlds[wi].ptr, cx.worlds[wi].poisoned);
    let e = if poisoned {
        R::WorldPoisoned
    } else if null_write || !flight {
        R::InvalidArgument
    } else {
        R::Ok
    };
    let want_size = cx.rng.chance(80);
    let mut size = 0xDEAD_BEEF_u64;
    let sp = if want_size { &mut size as *mut u64 } else { null_mut() };
    let f: ArgusWriteFn = if null_write { None } else { Some(sink_write) };
    let user = Arc::as_ptr(&sink) as *mut c_void;
    // The callback runs on this thread, before the call returns: its answers decide the code.
    let expected = || if e == R::Ok && sink.refused() { R::WriteFailed } else { e };
    let what = format!("{name} write={} fails_after={fail_after:?}", !null_write);
    // SAFETY: a live world, a callback whose `user` outlives the call, and a local (or NULL).
    let r =
        cx.run_late(wi, what, false, true, || unsafe { argus_world_write_flight_recording(p, f, user, sp) }, expected);
    cx.streams.count(name, r);
    let bytes = sink.take();
    check_stopped_calling(cx, &sink);
    if r != R::Ok && size != 0xDEAD_BEEF {
        cx.fail(&format!("{name}: refused with {r:?} but wrote *out_size"));
    }
    match r {
        R::Ok => {
            saved_window(cx, wi, (name, want_size.then_some(size)), bytes, "callback");
        }
        R::WriteFailed => not_whole(cx, wi, bytes, "replay_verify failed flight window"),
        _ if !bytes.is_empty() || sink.refused() => cx.fail(&format!("{name}: refused with {r:?} but called write")),
        _ => {}
    }
}

fn counts_now(cx: &Cx, wi: usize) -> ArgusWorldCounts {
    let mut counts = ArgusWorldCounts::default();
    // SAFETY: a live world and a local.
    unsafe { argus_world_get_counts(cx.worlds[wi].ptr, &mut counts) };
    counts
}

/// The flight recorder's two calls with a NULL world (refused before anything is read).
pub(crate) fn null_world_flight(cx: &mut Cx, wi: usize, save: bool) {
    let path = cx.streams.fresh();
    let cpath = nul(utf8(&path).as_bytes());
    let sink = Sink::new(None, 0);
    let mut size = 0xDEAD_BEEF_u64;
    let name = if save { "save_flight_recording (NULL world)" } else { "write_flight_recording (NULL world)" };
    // SAFETY: NULL worlds are refused before anything is read.
    let r = cx.run_checked(wi, name.into(), R::InvalidArgument, false, false, || unsafe {
        if save {
            argus_world_save_flight_recording(null_mut(), cpath.as_ptr().cast(), &mut size)
        } else {
            argus_world_write_flight_recording(
                null_mut(),
                Some(sink_write),
                Arc::as_ptr(&sink) as *mut c_void,
                &mut size,
            )
        }
    });
    cx.streams.count(name, r);
    if size != 0xDEAD_BEEF || path.exists() || !sink.take().is_empty() {
        cx.fail(&format!("{name}: refused but wrote *out_size, a file or to the callback"));
    }
}

// ---- a scripted session ------------------------------------------------------------------------

/// On a world neither recording nor stepping: a recording to a file, a callback (failing after
/// a few bytes, sometimes) or the flight recorder, through random calls on the world, a
/// two-phase step left pending while the flight recorder's window is saved and handed over,
/// then stopped and checked. So every seed ends such recordings, not only the random stops.
pub(crate) fn session(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let mut def = argus_default_record_def();
    def.explain = cx.rng.below(2) as u8;
    let roll = 30 + cx.rng.below(67);
    let to = pick_to(cx, &mut def, roll);
    let e = to.fault.unwrap_or(R::Ok);
    let what = format!("start_recording (session) to={}", to.label);
    // SAFETY: a local def whose path is NULL or NUL-terminated and whose callback's data
    // outlives the recording.
    let r = cx.run(wi, what, e, false, || unsafe { argus_world_start_recording(p, &def) });
    started(cx, wi, r, to);
    if r != R::Ok {
        return;
    }
    (cx.worlds[wi].recording, cx.worlds[wi].kept, cx.worlds[wi].failed_rays) = (true, None, false);
    for _ in 0..3 + cx.rng.below(10) {
        match cx.rng.below(10) {
            0..=4 => op_step(cx, wi),
            5 | 6 => op_set_pose(cx, wi),
            7 => op_create(cx, wi),
            _ => op_flight(cx, wi),
        }
        check_model(cx, wi);
    }
    if cx.worlds[wi].pending.is_none() {
        let mut rays = ArgusRayArray { items: null(), count: 0 };
        // SAFETY: a live world and a local.
        let r = cx.run(wi, "step_begin 0.05 (session)".into(), R::Ok, true, || unsafe {
            argus_world_step_begin(p, 0.05, &mut rays)
        });
        if r == R::Ok {
            cx.worlds[wi].pending = Some(rays.count);
        }
    }
    for _ in 0..cx.rng.below(3) {
        op_flight(cx, wi);
    }
    if let Some(n) = cx.worlds[wi].pending {
        let hits = vec![ArgusRayHit { hit: 0, distance: 0.0 }; n.max(1) as usize];
        // SAFETY: `n` readable hits.
        let r = cx.run(wi, format!("step_finish {n} (session)"), R::Ok, true, || unsafe {
            argus_world_step_finish(p, hits.as_ptr(), n)
        });
        if r == R::Ok {
            cx.worlds[wi].pending = None;
        }
    }
    if cx.rng.chance(50) {
        op_flight(cx, wi);
    }
    stop_recording(cx, wi);
}

/// After a full run of one seed: the new calls ran, and each kind of recording came out whole.
pub(crate) fn check_coverage(cx: &Cx) {
    let st = &cx.streams;
    let [file, callback, flight] = st.verified;
    let ok = file >= 1
        && callback >= 1
        && flight >= 1
        && st.seen("stop_recording to=callback", R::WriteFailed) >= 1
        && st.seen("save_flight_recording (not recording)", R::InvalidArgument) >= 1
        && st.seen("write_flight_recording (not recording)", R::InvalidArgument) >= 1
        && st.seen("start_recording to=file (bad path)", R::InvalidArgument) >= 1
        && st.seen("start_recording to=flight (bad seconds)", R::InvalidArgument) >= 1;
    if !ok {
        cx.fail(&format!("too few recordings to a file, a callback or the flight recorder:\n{}", st.report()));
    }
}
