//! World lifetime, stepping (built-in or engine rays), versions and diagnostics.

use std::cell::UnsafeCell;
use std::ffi::{CString, c_char, c_void};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};

use super::boundary::{
    FfiResult, c_message, check_cookie, fail, guard, input, output, thread_error, with_world, with_world_ref,
};
use super::enums::{ArgusAttitude, ArgusHearingPath, ArgusRayBackend, RawAttitude, RawHearingPath, RawRayBackend};
use super::events::EventBuffers;
use super::rays::{ArgusRay, ArgusRayBatchFn, ArgusRayHit, CallbackSource};
use super::types::*;
use super::user_data::UserData;
use argus_core::debug_draw::DebugDraw;
use argus_core::rays::{RayBackend, Rays};
use argus_core::tactics::PendingCover;
use argus_core::team::Attitude;
use argus_core::world::{World, WorldDef};

/// The most rays one step may hand to the engine, and the most ids one bulk call may take.
pub const ARGUS_MAX_BATCH: u32 = 67108864;

/// World-wide settings. Fill with `argus_default_world_def()`, then change what you need.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusWorldDef {
    /// Who answers line-of-sight rays (default `ARGUS_RAY_BACKEND_BUILTIN`).
    pub ray_backend: RawRayBackend,
    /// Threads `argus_world_step` splits its work between, up to 256: the caller's and
    /// `worker_threads - 1` of the world's own pool (started with the world, stopped by destroy);
    /// 0 or 1 = the caller's thread only. Results are identical for every count.
    pub worker_threads: u32,
    /// Each sound-muffling occluder crossed multiplies a sound's radius by this (1 = off).
    pub sound_occlusion: f32,
    /// Broadphase cell size in metres; 0 = automatic.
    pub broadphase_cell_size: f32,
    /// Most agents that run a sight tick per step; 0 = unlimited (overdue agents go first).
    pub max_sight_ticks_per_step: u32,
    /// How sound travels to agents whose hearing path is `ARGUS_HEARING_PATH_WORLD`:
    /// `ARGUS_HEARING_PATH_STRAIGHT` (default, the lesson) or `ARGUS_HEARING_PATH_WALK` (around
    /// walls along the walk graph; the straight line while the world has none).
    pub hearing_path: RawHearingPath,
    /// Set by `argus_default_world_def()`; leave it alone.
    pub internal_cookie: u32,
}

/// Live object counts, for wrappers checking that create/destroy loops return to zero.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusWorldCounts {
    /// Live agents.
    pub agents: u32,
    /// Live targets.
    pub targets: u32,
    /// Live occluders.
    pub occluders: u32,
    /// Live influence maps.
    pub influence_maps: u32,
}

static LIVE_WORLDS: AtomicU32 = AtomicU32::new(0);
/// The tags of the live worlds. An id carries only 16 bits of its world (the 8-byte id layout is
/// fixed by the ABI), so a tag cannot be unique forever; it is unique among the worlds alive,
/// which is what keeps one world from accepting another's ids. That needs one set shared by every
/// world of the process: the only process-wide state of the library besides the live-world count,
/// and unavoidable (a world cannot know which tags other worlds hold). It holds nothing but those
/// bits, so a host that never unloads the library (Unity) keeps a correct set: a world leaked
/// across a domain reload keeps its tag reserved exactly as long as it lives.
static LIVE_TAGS: TagSet = TagSet::new();

/// A set of the tags 1..=65535 in use, claimed and released with atomic bit operations (no lock to
/// poison). New tags are taken round-robin from a cursor, so a destroyed world's tag is reissued
/// as late as possible (after every other free tag), which keeps ids kept past their world's
/// destruction from matching a new world for as long as 16 bits allow.
pub(crate) struct TagSet {
    words: [AtomicU64; 1024],
    cursor: AtomicU32,
}

impl TagSet {
    pub(crate) const fn new() -> TagSet {
        TagSet { words: [const { AtomicU64::new(0) }; 1024], cursor: AtomicU32::new(0) }
    }

    /// A tag no live world holds, now held; `None` when all 65,535 are in use.
    pub(crate) fn claim(&self) -> Option<u16> {
        let start = self.cursor.fetch_add(1, Ordering::Relaxed);
        for k in 0..0xFFFFu32 {
            let tag = (start.wrapping_add(k) % 0xFFFF + 1) as u16;
            let (word, bit) = (tag as usize / 64, 1u64 << (tag % 64));
            if self.words[word].fetch_or(bit, Ordering::AcqRel) & bit == 0 {
                return Some(tag);
            }
        }
        None
    }

    /// Gives `tag` back (its world is gone).
    pub(crate) fn release(&self, tag: u16) {
        self.words[tag as usize / 64].fetch_and(!(1u64 << (tag % 64)), Ordering::AcqRel);
    }
}

/// The opaque world handle. `owner` names the thread inside a call on this world (0 = none),
/// set by one atomic exchange for the duration of every call: a call made from inside the
/// world's own ray callback is refused (`REENTRANT`), and so is a call from a second thread
/// (`BUSY`), instead of aliasing the state the first call is using.
pub struct ArgusWorld {
    pub(crate) owner: AtomicUsize,
    pub(crate) state: UnsafeCell<WorldState>,
}

/// Everything behind the handle: the core world plus the buffers the C side reads.
pub struct WorldState {
    pub(crate) world: World,
    /// Stamped into every id this world hands out and checked on every id it is given.
    pub(crate) tag: u16,
    /// The engine's value of each agent, target and occluder.
    pub(crate) user: UserData,
    pub(crate) poisoned: bool,
    last_error: CString,
    pub(crate) callback: ArgusRayBatchFn,
    pub(crate) user_data: *mut c_void,
    pub(crate) ray_buffer: Vec<ArgusRay>,
    pub(crate) hit_buffer: Vec<ArgusRayHit>,
    /// The rays `argus_world_step_begin` handed out; kept apart from the callback's scratch so
    /// immediate queries cannot overwrite them before `step_finish`.
    pub(crate) step_rays: Vec<ArgusRay>,
    /// The cover query `argus_world_find_cover_begin` started, and the rays it handed out.
    pub(crate) pending_cover: Option<PendingCover>,
    pub(crate) cover_rays: Vec<ArgusRay>,
    pub(crate) events: EventBuffers,
    pub(crate) debug: DebugDraw,
    pub(crate) debug_lines: Vec<super::debug::ArgusDebugLine>,
    pub(crate) debug_points: Vec<super::debug::ArgusDebugPoint>,
    /// The bytes of the last recording stopped (`argus_world_get_recording`); empty when none.
    pub(crate) recording: Vec<u8>,
}

impl WorldState {
    pub(crate) fn set_error(&mut self, message: &str) {
        self.last_error = c_message(message);
    }

    pub(crate) fn clear_error(&mut self) {
        if !self.last_error.as_bytes().is_empty() {
            self.last_error = CString::default();
        }
    }

    /// Runs `f` with the engine's callback as the ray source when one is set, else the world's
    /// own backend: the core ([`Rays`]) decides who answers, never this crate.
    pub(crate) fn with_rays<R>(&mut self, f: impl FnOnce(&mut World, Rays) -> R) -> R {
        match self.callback {
            Some(callback) => {
                let mut source = CallbackSource {
                    callback,
                    user_data: self.user_data,
                    rays: &mut self.ray_buffer,
                    hits: &mut self.hit_buffer,
                    tag: self.tag,
                    user: &self.user,
                };
                f(&mut self.world, Rays::Engine(&mut source))
            }
            None => f(&mut self.world, Rays::World),
        }
    }
}

/// Packed library version: `major << 16 | minor << 8 | patch`.
#[unsafe(no_mangle)]
pub extern "C" fn argus_version() -> u32 {
    ARGUS_VERSION_MAJOR << 16 | ARGUS_VERSION_MINOR << 8 | ARGUS_VERSION_PATCH
}

/// The library version as a static NUL-terminated string, e.g. "0.1.0".
#[unsafe(no_mangle)]
pub extern "C" fn argus_version_string() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// The ABI version the library was built with; compare with `ARGUS_ABI_VERSION`.
#[unsafe(no_mangle)]
pub extern "C" fn argus_abi_version() -> u32 {
    ARGUS_ABI_VERSION
}

/// A static NUL-terminated name for a result code ("ARGUS_RESULT_..."), or "ARGUS_RESULT_UNKNOWN".
#[unsafe(no_mangle)]
pub extern "C" fn argus_result_name(result: u32) -> *const c_char {
    let all = [
        ArgusResult::Ok,
        ArgusResult::InvalidArgument,
        ArgusResult::InvalidId,
        ArgusResult::BufferTooSmall,
        ArgusResult::StepInProgress,
        ArgusResult::NoStepInProgress,
        ArgusResult::NoRayBackend,
        ArgusResult::BadSnapshot,
        ArgusResult::DefNotInitialized,
        ArgusResult::Panic,
        ArgusResult::WorldPoisoned,
        ArgusResult::Reentrant,
        ArgusResult::Busy,
        ArgusResult::OutOfMemory,
        ArgusResult::CallbackFailed,
        ArgusResult::BadRecording,
        ArgusResult::ReplayMismatch,
        ArgusResult::WriteFailed,
    ];
    match all.iter().find(|r| **r as u32 == result) {
        Some(r) => r.name().as_ptr(),
        None => c"ARGUS_RESULT_UNKNOWN".as_ptr(),
    }
}

/// Default world settings.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_world_def() -> ArgusWorldDef {
    let d = WorldDef::default();
    ArgusWorldDef {
        ray_backend: ArgusRayBackend::from(d.ray_backend).into(),
        worker_threads: d.worker_threads,
        sound_occlusion: d.sound_occlusion,
        broadphase_cell_size: d.broadphase_cell_size,
        max_sight_ticks_per_step: d.max_sight_ticks_per_step,
        hearing_path: ArgusHearingPath::from(d.hearing_path).into(),
        internal_cookie: ARGUS_DEF_COOKIE,
    }
}

fn world_def(def: &ArgusWorldDef) -> FfiResult<WorldDef> {
    check_cookie(def.internal_cookie, "world_def")?;
    let ray_backend: RayBackend = def.ray_backend.get()?.into();
    Ok(WorldDef {
        ray_backend,
        worker_threads: def.worker_threads,
        sound_occlusion: def.sound_occlusion,
        broadphase_cell_size: def.broadphase_cell_size,
        max_sight_ticks_per_step: def.max_sight_ticks_per_step,
        hearing_path: def.hearing_path.get()?.into(),
    })
}

/// Creates a world from `def` (copied) and writes it to `*out_world`. The caller owns the world
/// and must pass it to `argus_world_destroy`. Worlds are independent; the one thing they share is
/// the set of tags in use (see `argus_world_tag`): no two live worlds have the same tag, so
/// `ARGUS_RESULT_OUT_OF_MEMORY` also when 65,535 worlds are alive at once.
///
/// # Safety
/// `def` must be NULL or point at an `ArgusWorldDef`; `out_world` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_create(def: *const ArgusWorldDef, out_world: *mut *mut ArgusWorld) -> ArgusResult {
    guard(|| {
        let out = output(out_world, "out_world")?;
        let def = world_def(input(def, "def")?)?;
        let world = World::new(&def)?;
        *out = claim_world(world, None)?;
        Ok(())
    })
}

/// Wraps a core world in a new handle under a free tag: the one way a handle is made (create, and
/// create from a recording). Its event arrays hold the latest step's events of `events_of` (of
/// `world` when `None`).
pub(crate) fn claim_world(world: World, events_of: Option<&World>) -> FfiResult<*mut ArgusWorld> {
    let tag = LIVE_TAGS.claim().ok_or_else(|| {
        fail(ArgusResult::OutOfMemory, "65535 worlds are alive: every world tag is in use; destroy one first")
    })?;
    let mut state = WorldState {
        world,
        tag,
        user: UserData::default(),
        poisoned: false,
        last_error: CString::default(),
        callback: None,
        user_data: std::ptr::null_mut(),
        ray_buffer: Vec::new(),
        hit_buffer: Vec::new(),
        step_rays: Vec::new(),
        pending_cover: None,
        cover_rays: Vec::new(),
        events: EventBuffers::default(),
        debug: DebugDraw::default(),
        debug_lines: Vec::new(),
        debug_points: Vec::new(),
        recording: Vec::new(),
    };
    state.events.refresh(events_of.unwrap_or(&state.world), state.tag, &state.user);
    let handle = Box::new(ArgusWorld { owner: AtomicUsize::new(0), state: UnsafeCell::new(state) });
    LIVE_WORLDS.fetch_add(1, Ordering::Relaxed);
    Ok(Box::into_raw(handle))
}

/// Destroys a world and everything it owns. NULL is accepted and ignored, and so is a call
/// while the world is in use (from inside its own ray callback, or while another thread is in a
/// call on it). Every pointer the world handed out (event arrays, rays, debug draw, error text)
/// dies with it.
///
/// # Safety
/// `world` must be NULL or a live world not destroyed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_destroy(world: *mut ArgusWorld) {
    // SAFETY: NULL or a live world; only the atomic `owner` is touched here.
    if unsafe { world.as_ref() }.is_none_or(|w| crate::boundary::enter(w).is_err()) {
        return;
    }
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: the caller passes a pointer from `argus_world_create`, destroyed once.
        let world = unsafe { Box::from_raw(world) };
        // SAFETY: this thread owns the world (entered above); nothing else reads it.
        LIVE_TAGS.release(unsafe { &*world.state.get() }.tag);
        drop(world);
        LIVE_WORLDS.fetch_sub(1, Ordering::Relaxed);
    }));
}

/// Number of worlds created and not yet destroyed in this process (a leak check for wrappers).
#[unsafe(no_mangle)]
pub extern "C" fn argus_live_world_count() -> u32 {
    LIVE_WORLDS.load(Ordering::Relaxed)
}

/// Makes room for `agents` more agents and `targets` more targets (each at most 2^26), so
/// creating them does not reallocate. A hint, never required. `ARGUS_RESULT_OUT_OF_MEMORY` when
/// the memory is not available (the allocation is fallible: the process is never aborted).
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_reserve(world: *mut ArgusWorld, agents: u32, targets: u32) -> ArgusResult {
    with_world(world, |w| Ok(w.world.reserve(agents as usize, targets as usize)?))
}

/// Live object counts of a world.
///
/// # Safety
/// `world` NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_counts(world: *const ArgusWorld, out: *mut ArgusWorldCounts) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out, "out")?;
        let world = &w.world;
        *out = ArgusWorldCounts {
            agents: world.agent_count() as u32,
            targets: world.target_count() as u32,
            occluders: world.occluders().len() as u32,
            influence_maps: world.influence_map_count() as u32,
        };
        Ok(())
    })
}

/// The message of the last failed call on this world ("" after a success). Owned by the world;
/// valid until the next call on it. NULL world → "".
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_last_error(world: *const ArgusWorld) -> *const c_char {
    // SAFETY: NULL or a live world; its state is only read while this call owns it.
    let Some(w) = (unsafe { world.as_ref() }) else {
        return c"".as_ptr();
    };
    match crate::boundary::enter(w) {
        Ok(()) => {
            // SAFETY: `enter` made this thread the world's only user until `leave`.
            let text = unsafe { &*w.state.get() }.last_error.as_ptr();
            crate::boundary::leave(w);
            text
        }
        Err(ArgusResult::Reentrant) => c"argus was called from inside this world's ray callback".as_ptr(),
        Err(_) => c"another thread is inside a call on this world".as_ptr(),
    }
}

/// The message of the last failed call on the calling thread, whatever the world (or none:
/// `argus_world_create`, a NULL world, `argus_world_load` into a fresh world all report here);
/// "" if no call on this thread has failed yet. Successful calls leave it unchanged. Owned by the
/// library (thread-local storage): valid until the next failing call on the same thread or the
/// thread's exit; copy it to keep it.
#[unsafe(no_mangle)]
pub extern "C" fn argus_last_error() -> *const c_char {
    thread_error()
}

/// The tag this world stamps into every id it issues (the ids' `world` field), 1..65535;
/// 0 for NULL. Needed only to reuse ids saved from another world after `argus_world_load`.
/// No two live worlds share a tag, so one world never accepts another live world's ids. A
/// destroyed world's tag is reissued only after every other free tag has been (about 65,535
/// world creations later): ids kept past their world's destruction are the caller's to drop.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_tag(world: *const ArgusWorld) -> u16 {
    let mut tag = 0;
    with_world_ref(world, |w| {
        tag = w.tag;
        Ok(())
    });
    tag
}

/// Seconds simulated so far.
///
/// # Safety
/// `world` NULL or live; `out_time` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_time(world: *const ArgusWorld, out_time: *mut f64) -> ArgusResult {
    with_world_ref(world, |w| {
        *output(out_time, "out_time")? = w.world.time();
        Ok(())
    })
}

/// Advances the world by `dt` seconds (finite, >= 0). A step that would take the world time past
/// `ARGUS_MAX_WORLD_TIME` is refused (`INVALID_ARGUMENT`, nothing changed), so the clock stays
/// finite and every save loads. Afterwards the event arrays hold this step's events. An
/// engine-ray world needs a ray callback here (else `NO_RAY_BACKEND`), or use
/// `argus_world_step_begin` / `argus_world_step_finish`. A ray callback that returns anything
/// but `ARGUS_RESULT_OK` ends the step with `ARGUS_RESULT_CALLBACK_FAILED`: the step did not
/// happen (clock, memories, brains, schedule, pending sounds and the previous step's event
/// arrays are as they were; a save before and after is byte-identical), so the same step can
/// be retried. The step's working memory is reserved (or checked available) before it starts:
/// when it cannot be had the step is refused with `OUT_OF_MEMORY` and nothing changed, so a
/// world loaded near the memory limit steps or refuses rather than aborting (see docs/abi.md
/// for what the check covers).
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_step(world: *mut ArgusWorld, dt: f32) -> ArgusResult {
    with_world(world, |w| {
        w.with_rays(|world, rays| world.step_with(dt, rays))?;
        w.events.refresh(&w.world, w.tag, &w.user);
        Ok(())
    })
}

/// Sets how team `observer` regards team `other` (one direction; teams 0..63). By default a team is friendly to itself and hostile to others.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_set_attitude(
    world: *mut ArgusWorld,
    observer: u32,
    other: u32,
    attitude: RawAttitude,
) -> ArgusResult {
    with_world(world, |w| {
        let attitude: Attitude = attitude.get()?.into();
        w.world.set_attitude(observer, other, attitude)?;
        Ok(())
    })
}

/// How team `observer` regards team `other`.
///
/// # Safety
/// `world` NULL or live; `out_attitude` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_attitude(
    world: *const ArgusWorld,
    observer: u32,
    other: u32,
    out_attitude: *mut ArgusAttitude,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_attitude, "out_attitude")?;
        *out = w.world.attitude(observer, other)?.into();
        Ok(())
    })
}

/// Test builds only (cargo feature `testing`; not in the shipped library, not in argus.h: a
/// test declares it itself). Deliberately panics inside the library, to let binding test suites
/// check the panic firewall:
/// returns `ARGUS_RESULT_PANIC`, poisons the world and leaves the panic's message in
/// `argus_world_last_error`. Argus installs no panic hook (no process-wide state), so the
/// default hook also prints it to stderr unless the host installs its own. Never call it in a game.
///
/// # Safety
/// `world` NULL or live.
#[cfg(feature = "testing")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_testing_trigger_panic(world: *mut ArgusWorld) -> ArgusResult {
    with_world(world, |_| panic!("argus_testing_trigger_panic was called"))
}

const _: () = assert!(size_of::<ArgusWorldDef>() == 28);
const _: () = assert!(size_of::<ArgusWorldCounts>() == 16);

#[cfg(test)]
mod tests {
    use super::TagSet;

    /// Tags are unique among the holders, the set fills up at 65,535 and a released tag is
    /// taken again only once the others have been offered.
    #[test]
    fn live_tags_are_never_reissued() {
        let set = TagSet::new();
        let mut seen = vec![false; 0x10000];
        for _ in 0..0xFFFF {
            let tag = set.claim().expect("a free tag");
            assert!(tag != 0 && !seen[tag as usize], "tag {tag} issued twice");
            seen[tag as usize] = true;
        }
        assert_eq!(set.claim(), None, "every tag is in use");
        set.release(777);
        assert_eq!(set.claim(), Some(777));
        assert_eq!(set.claim(), None);
        let set = TagSet::new();
        let first = set.claim().unwrap();
        set.release(first);
        for _ in 0..0xFFFE {
            let tag = set.claim().unwrap();
            assert_ne!(tag, first, "a released tag waits for every other tag");
            set.release(tag);
        }
        assert_eq!(set.claim(), Some(first));
    }
}
