//! Seeded random abuse of the C ABI, called the way C calls it: raw pointers into
//! `argus` (the C ABI), real and garbage arguments (NULL, stale and forged ids, NaN and infinities,
//! huge counts, misaligned arrays, too-small buffers, defs without their cookie), two-phase
//! steps left pending while other calls come in, double destroys, poisoned worlds, snapshots
//! loaded into other worlds. Several worlds live at once.
//!
//! A small model of each world (live and stale ids, pending step, poisoned, ray callback)
//! predicts every call's exact result code. Around every call that must not change anything (a
//! refusal, or a query) a digest of everything the ABI can observe (counts, time, agent states,
//! defs and memories, target defs, occluder validity, event arrays, attitudes, pending step) must
//! stay the same, and after every call the model's live counts must match the world's.
//!
//! Recordings to a file, to a write callback and to the flight recorder, and the flight
//! recorder's saved windows, are in `ffi_fuzz/streams.rs`.
//!
//! `ARGUS_FUZZ_SEED=<n>` and `ARGUS_FUZZ_CALLS=<n>` rerun one seed; failures print the seed, the
//! call number and the last calls.

use std::collections::VecDeque;
use std::ffi::{CStr, c_void};
use std::ptr::{null, null_mut};

use ArgusResult as R;
use argus::*;
use argus_core::settings::{SettingsWords, WordKind};
use argus_core::{AwarenessConfig, BrainConfig, HearingConfig, MemoryConfig, SightConfig};

#[path = "ffi_fuzz/streams.rs"]
mod streams;

const SEEDS: [u64; 3] = [0x5EED_0001, 0xA5A5_1234_DEAD_BEEF, 0x0BAD_F00D_CAFE_0042];
const CALLS_PER_SEED: usize = 10_000;
const WORLDS: usize = 4;
const MAX_LIVE: usize = 6;
const MAX_STALE: usize = 4;
/// Result codes counted (every code up to `ARGUS_RESULT_WRITE_FAILED`).
const CODES: usize = R::WriteFailed as usize + 1;
const NULL_AGENT: ArgusAgentId = ArgusAgentId { index: 0, world: 0, generation: 0 };

// ---- a tiny deterministic RNG ------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn f32_in(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
    fn vec3(&mut self, r: f32) -> ArgusVec3 {
        ArgusVec3 { x: self.f32_in(-r, r), y: self.f32_in(0.0, 2.0), z: self.f32_in(-r, r) }
    }
    fn dir(&mut self) -> ArgusVec3 {
        let a = self.f32_in(0.0, std::f32::consts::TAU);
        ArgusVec3 { x: a.sin(), y: 0.0, z: a.cos() }
    }
    fn bad(&mut self) -> f32 {
        self.pick(&[f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -f32::NAN])
    }
}

// ---- the model ---------------------------------------------------------------------------------

#[derive(Clone, Default)]
struct Model {
    agents: Vec<ArgusAgentId>,
    targets: Vec<ArgusTargetId>,
    occluders: Vec<ArgusOccluderId>,
    stale_agents: Vec<ArgusAgentId>,
    stale_targets: Vec<ArgusTargetId>,
    stale_occluders: Vec<ArgusOccluderId>,
}

impl Model {
    /// A snapshot's ids continue in the world it is loaded into, under that world's tag.
    fn restamp(&mut self, tag: u16) {
        for a in self.agents.iter_mut().chain(&mut self.stale_agents) {
            a.world = tag;
        }
        for t in self.targets.iter_mut().chain(&mut self.stale_targets) {
            t.world = tag;
        }
        for o in self.occluders.iter_mut().chain(&mut self.stale_occluders) {
            o.world = tag;
        }
    }
}

fn retire<T: PartialEq + Copy>(live: &mut Vec<T>, stale: &mut Vec<T>, id: T) {
    live.retain(|x| *x != id);
    stale.push(id);
    if stale.len() > MAX_STALE {
        stale.remove(0);
    }
}

struct World {
    ptr: *mut ArgusWorld,
    /// The world's id tag, stamped into every id the fuzzer builds for it.
    tag: u16,
    engine: bool,
    callback: bool,
    /// The ray callback set is `failing_cast`: a step or query that asks it answers
    /// `CALLBACK_FAILED` and changes nothing (one that needs no ray never asks it).
    callback_fails: bool,
    poisoned: bool,
    pending: Option<u32>,
    m: Model,
    /// Between a successful start and stop of a recording.
    recording: bool,
    /// A stopped recording's bytes are kept (`argus_world_get_recording` answers), with the
    /// world's counts when it stopped.
    kept: Option<ArgusWorldCounts>,
    /// The recording under way (or kept) saw a ray callback fail (the failed call changed
    /// nothing and left no trace: the recording must still replay).
    failed_rays: bool,
    /// Where the recording under way goes.
    dest: streams::Dest,
}

/// A save and the model it captured. The ray backend is not part of it: a world that loads a
/// snapshot keeps its own.
struct Snapshot {
    bytes: Vec<u8>,
    model: Model,
}

/// What a call must return.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Nothing wrong with the arguments.
    None,
    /// Refused by the boundary before the core is asked (NULL pointers, cookies, counts, enums).
    Ffi(ArgusResult),
    /// Refused by the core, after it checks for a pending step if the call changes the world.
    Core(ArgusResult),
}

struct Cx {
    rng: Rng,
    seed: u64,
    call: usize,
    worlds: Vec<World>,
    snapshots: Vec<Snapshot>,
    /// Recordings copied out, with the counts of their world when they stopped and whether a
    /// ray callback failed while they were made.
    recordings: Vec<(Vec<u8>, ArgusWorldCounts, bool)>,
    /// Whole recordings replayed without a fault (verified, or rebuilt into a world), and of
    /// those, the ones inside which a ray callback failed.
    replayed: usize,
    replayed_failed_rays: usize,
    /// Beliefs read back (`argus_agent_get_belief_info` answering that one is kept).
    beliefs_seen: usize,
    log: VecDeque<String>,
    base_live: u32,
    /// How often each result code came back, to show the run exercised every kind of answer.
    seen: [usize; CODES],
    /// The run's temporary files and what the stream and flight recorder calls answered.
    streams: streams::Streams,
}

/// A deterministic engine: some rays hit halfway.
unsafe extern "C" fn engine_cast(
    rays: *const ArgusRay,
    count: u32,
    hits: *mut ArgusRayHit,
    _user: *mut c_void,
) -> RawResult {
    for i in 0..count as usize {
        // SAFETY: the library hands `count` rays and `count` hits.
        let (ray, hit) = unsafe { (&*rays.add(i), &mut *hits.add(i)) };
        let blocked = (ray.origin.x.to_bits() ^ ray.direction.z.to_bits()).count_ones() % 3 == 0;
        *hit = ArgusRayHit { hit: blocked as u32, distance: ray.max_distance * 0.5 };
    }
    ArgusResult::Ok.into()
}

/// An engine whose caster fails (its physics scene is gone, say): every batch is refused.
unsafe extern "C" fn failing_cast(
    _rays: *const ArgusRay,
    _count: u32,
    _hits: *mut ArgusRayHit,
    _user: *mut c_void,
) -> RawResult {
    ArgusResult::InvalidArgument.into()
}

fn last_error(w: *const ArgusWorld) -> String {
    // SAFETY: NULL or a live world; the text is copied at once.
    unsafe { CStr::from_ptr(argus_world_last_error(w)) }.to_string_lossy().into_owned()
}

// ---- the digest of everything observable --------------------------------------------------------

struct Hasher(u64);

impl Hasher {
    fn u32(&mut self, v: u32) {
        for b in v.to_le_bytes() {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn u64(&mut self, v: u64) {
        self.u32(v as u32);
        self.u32((v >> 32) as u32);
    }
    fn f(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    fn v(&mut self, v: ArgusVec3) {
        self.f(v.x);
        self.f(v.y);
        self.f(v.z);
    }
    fn r(&mut self, r: ArgusResult) {
        self.u32(r as u32);
    }
    fn id(&mut self, index: u32, generation: u16) {
        self.u32(index);
        self.u32(generation as u32);
    }
}

fn digest(w: &World) -> u64 {
    let p = w.ptr;
    let mut h = Hasher(0xCBF2_9CE4_8422_2325);
    // SAFETY: `p` is a live world; every out-pointer is a local.
    unsafe {
        let mut counts = ArgusWorldCounts::default();
        h.r(argus_world_get_counts(p, &mut counts));
        h.u32(counts.agents);
        h.u32(counts.targets);
        h.u32(counts.occluders);
        h.u32(counts.influence_maps);
        let mut time = 0.0f64;
        h.r(argus_world_get_time(p, &mut time));
        h.u64(time.to_bits());
        for a in w.m.agents.iter().chain(&w.m.stale_agents) {
            h.u32(argus_agent_is_valid(p, *a) as u32);
            let mut s = ArgusAgentState::default();
            h.r(argus_agent_get_state(p, *a, &mut s));
            for v in [s.position, s.forward, s.eye, s.move_target] {
                h.v(v);
            }
            h.u32(s.brain_state as u32);
            h.id(s.focus.index, s.focus.generation);
            h.f(s.brain_timer);
            h.u32(s.memory_count);
            h.u32(s.has_move_target as u32);
            let mut d = argus_default_agent_def();
            h.r(argus_agent_get_def(p, *a, &mut d));
            hash_agent_def(&mut h, &d);
            let mut records = [ArgusMemoryRecord::default(); 16];
            let mut n = 0u32;
            h.r(argus_agent_get_memory(p, *a, records.as_mut_ptr(), 16, &mut n));
            h.u32(n);
            for r in records.iter().take(n.min(16) as usize) {
                h.id(r.target.index, r.target.generation);
                h.v(r.last_known_position);
                for x in [r.confidence, r.last_percept_time, r.visibility, r.awareness] {
                    h.f(x);
                }
                h.u32(r.awareness_stage as u32);
                h.u32(r.seen as u32);
            }
        }
        for t in w.m.targets.iter().chain(&w.m.stale_targets) {
            h.u32(argus_target_is_valid(p, *t) as u32);
            let mut d = argus_default_target_def();
            h.r(argus_target_get_def(p, *t, &mut d));
            h.v(d.position);
            h.v(d.forward);
            h.u32(d.team);
            h.u32(d.layers);
            for c in d.check_point_offsets {
                h.f(c);
            }
            h.u32(d.check_point_count);
            h.u32(d.enabled as u32);
            h.u64(d.user_data);
        }
        for o in w.m.occluders.iter().chain(&w.m.stale_occluders) {
            h.u32(argus_occluder_is_valid(p, *o) as u32);
            let mut data = 0u64;
            h.r(argus_occluder_get_user_data(p, *o, &mut data));
            h.u64(data);
        }
        let mut walk = ArgusWalkGraphInfo::default();
        h.r(argus_world_get_walk_graph_info(p, &mut walk));
        h.u32(walk.kind as u32);
        h.u32(walk.node_count);
        h.u32(walk.edge_count);
        h.f(walk.snap_distance);
        let mut pa = ArgusPerceptArray { items: null(), count: 0 };
        h.r(argus_world_get_percepts(p, &mut pa));
        h.u64(pa.items as u64);
        h.u32(pa.count);
        for i in 0..pa.count as usize {
            let e = &*pa.items.add(i);
            h.u32(e.kind as u32);
            h.id(e.agent.index, e.agent.generation);
            h.id(e.target.index, e.target.generation);
            h.v(e.position);
            h.f(e.time);
            h.f(e.strength);
        }
        let mut ba = ArgusBrainEventArray { items: null(), count: 0 };
        h.r(argus_world_get_brain_events(p, &mut ba));
        h.u64(ba.items as u64);
        h.u32(ba.count);
        for i in 0..ba.count as usize {
            let e = &*ba.items.add(i);
            h.id(e.agent.index, e.agent.generation);
            h.u32(e.from as u32);
            h.u32(e.to as u32);
        }
        let mut fa = ArgusForgetEventArray { items: null(), count: 0 };
        h.r(argus_world_get_forget_events(p, &mut fa));
        h.u64(fa.items as u64);
        h.u32(fa.count);
        let mut wa = ArgusAwarenessEventArray { items: null(), count: 0 };
        h.r(argus_world_get_awareness_events(p, &mut wa));
        h.u64(wa.items as u64);
        h.u32(wa.count);
        for (a, b) in [(0, 1), (1, 0), (2, 2), (5, 63)] {
            let mut att = ArgusAttitude::Hostile;
            h.r(argus_world_get_attitude(p, a, b, &mut att));
            h.u32(att as u32);
        }
        // A pending step shows as STEP_IN_PROGRESS when re-setting an attitude to its value.
        let mut att = ArgusAttitude::Hostile;
        if argus_world_get_attitude(p, 0, 0, &mut att) == R::Ok {
            h.r(argus_world_set_attitude(p, 0, 0, att.into()));
        }
    }
    h.0
}

fn hash_agent_def(h: &mut Hasher, d: &ArgusAgentDef) {
    h.u64(d.user_data);
    h.v(d.position);
    h.v(d.forward);
    h.u32(d.team);
    h.u32(d.detect_mask);
    // Every sense's every field, from the core's one field list per sense.
    let mut words = Vec::new();
    SightConfig::from(&d.sight).write_words(&mut words);
    match HearingConfig::from_c(&d.hearing) {
        Ok(hearing) => hearing.write_words(&mut words),
        Err(_) => words.push(d.hearing.path.0),
    }
    MemoryConfig::from(&d.memory).write_words(&mut words);
    match BrainConfig::from_c(&d.brain) {
        Ok(brain) => brain.write_words(&mut words),
        Err(_) => words.push(d.brain.search.0),
    }
    AwarenessConfig::from(&d.awareness).write_words(&mut words);
    for w in words {
        h.u32(w);
    }
}

/// `c` with one of its float fields (picked from the core's field list) set to `bad`.
fn poke_float<S, C>(c: &C, rng: &mut Rng, bad: f32) -> C
where
    S: SettingsWords + FromC<C>,
    C: for<'a> From<&'a S>,
{
    let mut words = S::from_c(c).expect("a def the fuzzer made").words();
    let floats: Vec<usize> =
        S::word_kinds().iter().enumerate().filter(|k| *k.1 == WordKind::Float).map(|k| k.0).collect();
    words[floats[rng.below(floats.len() as u64) as usize]] = bad.to_bits();
    C::from(&S::read_words(&mut words.into_iter()).expect("the same words back"))
}

/// Sets one float of the def (pose or any sense's) to `bad`.
fn poke_agent_float(d: &mut ArgusAgentDef, rng: &mut Rng, bad: f32) {
    match rng.below(7) {
        0 => d.position.x = bad,
        1 => d.forward.y = bad,
        2 => d.sight = poke_float::<SightConfig, _>(&d.sight, rng, bad),
        3 => d.hearing = poke_float::<HearingConfig, _>(&d.hearing, rng, bad),
        4 => d.memory = poke_float::<MemoryConfig, _>(&d.memory, rng, bad),
        5 => d.brain = poke_float::<BrainConfig, _>(&d.brain, rng, bad),
        _ => d.awareness = poke_float::<AwarenessConfig, _>(&d.awareness, rng, bad),
    }
}

// ---- running one call ----------------------------------------------------------------------

impl Cx {
    fn fail(&self, what: &str) -> ! {
        let recent: Vec<&String> = self.log.iter().collect();
        panic!(
            "ffi fuzz failure (seed {:#x}, call {}): {what}\nlast calls, oldest first:\n  {}",
            self.seed,
            self.call,
            recent.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n  ")
        );
    }

    fn expected(&self, wi: usize, fault: Fault, mutator: bool) -> ArgusResult {
        let w = &self.worlds[wi];
        if w.poisoned {
            return R::WorldPoisoned;
        }
        match fault {
            Fault::Ffi(code) => code,
            _ if mutator && w.pending.is_some() => R::StepInProgress,
            Fault::Core(code) => code,
            Fault::None => R::Ok,
        }
    }

    /// Runs `call` on world `wi`, checks its result against `expected`, and checks the digest
    /// did not move unless the call succeeded and `changes` says it may change things.
    fn run(
        &mut self,
        wi: usize,
        what: String,
        expected: ArgusResult,
        changes: bool,
        call: impl FnOnce() -> ArgusResult,
    ) -> ArgusResult {
        self.run_checked(wi, what, expected, changes, true, call)
    }

    fn run_checked(
        &mut self,
        wi: usize,
        what: String,
        expected: ArgusResult,
        changes: bool,
        explains: bool,
        call: impl FnOnce() -> ArgusResult,
    ) -> ArgusResult {
        self.run_late(wi, what, changes, explains, call, move || expected)
    }

    /// `run_checked` with the code expected known only after the call: one decided by what a
    /// write callback answered (on the recording's own thread, maybe while the call waits).
    fn run_late(
        &mut self,
        wi: usize,
        what: String,
        changes: bool,
        explains: bool,
        call: impl FnOnce() -> ArgusResult,
        expected: impl FnOnce() -> ArgusResult,
    ) -> ArgusResult {
        self.log.push_back(format!("w{wi} {what}"));
        if self.log.len() > 12 {
            self.log.pop_front();
        }
        let before = digest(&self.worlds[wi]);
        let got = call();
        let expected = expected();
        if let Some(line) = self.log.back_mut() {
            line.push_str(&format!(" -> expect {expected:?}"));
        }
        // A failing ray callback fails a call that asked it for rays, which the model does
        // not foresee: that call must then change nothing (checked below).
        let expected = if got == R::CallbackFailed && expected == R::Ok && self.worlds[wi].callback_fails {
            got
        } else {
            expected
        };
        self.seen[got as usize] += 1;
        if got == R::CallbackFailed && self.worlds[wi].recording {
            self.worlds[wi].failed_rays = true;
        }
        if got != expected {
            let why = last_error(self.worlds[wi].ptr);
            self.fail(&format!("{what}: returned {got:?}, expected {expected:?} (last_error: {why:?})"));
        }
        if explains && got != R::Ok && !self.worlds[wi].poisoned && last_error(self.worlds[wi].ptr).is_empty() {
            self.fail(&format!("{what}: refused with {got:?} but last_error is empty"));
        }
        // A caught panic poisons the world: the one refusal that changes what can be observed.
        if (got != R::Ok && got != R::Panic) || !changes {
            let after = digest(&self.worlds[wi]);
            if before != after {
                self.fail(&format!("{what}: returned {got:?} but the world's observable state changed"));
            }
        }
        got
    }

    fn pick_world(&mut self) -> usize {
        self.rng.below(WORLDS as u64) as usize
    }
}

/// A live id (if any), a stale one, or a forged one; `true` when it names a live thing.
fn pick_id(rng: &mut Rng, live: &[(u32, u16)], stale: &[(u32, u16)]) -> ((u32, u16), bool) {
    match rng.below(10) {
        0..=5 if !live.is_empty() => (rng.pick(live), true),
        6 | 7 if !stale.is_empty() => (rng.pick(stale), false),
        _ => {
            let base = if live.is_empty() { (0, 1) } else { rng.pick(live) };
            let forged = rng.pick(&[
                (0, 0),
                (base.0, base.1.wrapping_add(1)),
                (base.0, 0),
                (1_000_000, 1),
                (u32::MAX, u16::MAX),
            ]);
            let valid = live.contains(&forged);
            (forged, valid)
        }
    }
}

macro_rules! id_picker {
    ($name:ident, $ty:ident, $live:ident, $stale:ident) => {
        fn $name(cx: &mut Cx, wi: usize) -> ($ty, bool) {
            let m = &cx.worlds[wi].m;
            let live: Vec<(u32, u16)> = m.$live.iter().map(|i| (i.index, i.generation)).collect();
            let stale: Vec<(u32, u16)> = m.$stale.iter().map(|i| (i.index, i.generation)).collect();
            let ((index, generation), ok) = pick_id(&mut cx.rng, &live, &stale);
            // Every id carries its world's tag, except the null id.
            let world = if index == 0 && generation == 0 { 0 } else { cx.worlds[wi].tag };
            ($ty { index, world, generation }, ok)
        }
    };
}
id_picker!(pick_agent, ArgusAgentId, agents, stale_agents);
id_picker!(pick_target, ArgusTargetId, targets, stale_targets);
id_picker!(pick_occluder, ArgusOccluderId, occluders, stale_occluders);

fn id_fault(valid: bool) -> Fault {
    if valid { Fault::None } else { Fault::Core(R::InvalidId) }
}

// ---- defs with at most one thing wrong --------------------------------------------------------

fn agent_def(rng: &mut Rng) -> (ArgusAgentDef, Fault) {
    let mut d = argus_default_agent_def();
    d.user_data = rng.next();
    d.position = rng.vec3(10.0);
    d.forward = rng.dir();
    d.sight.view_radius = rng.f32_in(2.0, 14.0);
    d.sight.view_angle = rng.pick(&[60.0, 90.0, 180.0, 360.0]);
    d.sight.rate_hz = rng.pick(&[0.0, 5.0, 10.0, 30.0]);
    d.team = rng.below(3) as u32;
    d.awareness.enabled = rng.below(2) as u8;
    d.brain.search = RawSearchKind(rng.below(2) as u32);
    d.brain.share_belief = rng.below(2) as u8;
    let fault = match rng.below(16) {
        0 => {
            d.internal_cookie = rng.pick(&[0, 1, 0xDEAD_BEEF]);
            Fault::Ffi(R::DefNotInitialized)
        }
        1 | 2 => {
            let bad = rng.bad();
            poke_agent_float(&mut d, rng, bad);
            Fault::Core(R::InvalidArgument)
        }
        3 => {
            let negative = -rng.f32_in(0.1, 5.0);
            match rng.below(4) {
                0 => d.sight.view_radius = negative,
                1 => d.sight.rate_hz = negative,
                2 => d.hearing.sensitivity = negative,
                _ => d.memory.decay_per_second = negative,
            }
            Fault::Core(R::InvalidArgument)
        }
        4 => {
            // Beyond 360 is all around; beyond ARGUS_MAX_MAGNITUDE is refused.
            d.sight.view_angle = rng.f32_in(1.5 * ARGUS_MAX_MAGNITUDE, 3.0e38);
            Fault::Core(R::InvalidArgument)
        }
        5 => {
            d.team = rng.pick(&[64, 65, 1000, u32::MAX]);
            Fault::Core(R::InvalidArgument)
        }
        6 => {
            d.forward = ArgusVec3 { x: 0.0, y: 0.0, z: 0.0 };
            Fault::Core(R::InvalidArgument)
        }
        7 => {
            d.sight.lose_sight_radius = d.sight.view_radius * 0.5;
            Fault::Core(R::InvalidArgument)
        }
        9 => {
            d.brain.search = RawSearchKind(rng.pick(&[2, 3, u32::MAX]));
            Fault::Ffi(R::InvalidArgument)
        }
        10 => {
            d.brain.give_up_probability = rng.pick(&[-0.5, 1.5]);
            Fault::Core(R::InvalidArgument)
        }
        8 => {
            d.detect_mask = 8 << rng.below(20);
            Fault::Core(R::InvalidArgument)
        }
        _ => Fault::None,
    };
    (d, fault)
}

fn target_def(rng: &mut Rng) -> (ArgusTargetDef, Fault) {
    let mut d = argus_default_target_def();
    d.user_data = rng.next();
    d.position = rng.vec3(10.0);
    d.forward = rng.dir();
    d.check_point_count = 1 + rng.below(8) as u32;
    for c in d.check_point_offsets.chunks_exact_mut(3) {
        let v = rng.vec3(0.5);
        c.copy_from_slice(&[v.x, v.y, v.z]);
    }
    d.team = rng.below(3) as u32;
    d.top_speed = rng.pick(&[0.0, 1.4, 6.0]);
    let fault = match rng.below(13) {
        0 => {
            d.internal_cookie = 0;
            Fault::Ffi(R::DefNotInitialized)
        }
        1 => {
            d.check_point_count = rng.pick(&[0, 9, 100, u32::MAX]);
            Fault::Ffi(R::InvalidArgument)
        }
        2 => {
            d.position.y = rng.bad();
            Fault::Core(R::InvalidArgument)
        }
        3 => {
            let k = rng.below(d.check_point_count as u64) as usize;
            d.check_point_offsets[3 * k + 2] = rng.bad();
            Fault::Core(R::InvalidArgument)
        }
        4 => {
            d.forward = ArgusVec3 { x: 0.0, y: 0.0, z: if rng.chance(50) { 0.0 } else { f32::NAN } };
            Fault::Core(R::InvalidArgument)
        }
        5 => {
            d.team = 64 + rng.below(1000) as u32;
            Fault::Core(R::InvalidArgument)
        }
        6 => {
            d.top_speed = rng.pick(&[-1.0, f32::NAN, f32::INFINITY]);
            Fault::Core(R::InvalidArgument)
        }
        _ => Fault::None,
    };
    (d, fault)
}

/// An occluder def and the mesh arrays it points at (kept alive by the caller).
fn occluder_def(rng: &mut Rng, mesh: &mut (Vec<ArgusVec3>, Vec<u32>)) -> (ArgusOccluderDef, Fault) {
    let mut d = argus_default_occluder_def();
    d.user_data = rng.next();
    d.position = rng.vec3(15.0);
    d.shape = RawShapeKind(rng.below(4) as u32);
    d.half_extents = ArgusVec3 { x: rng.f32_in(0.1, 2.0), y: rng.f32_in(0.1, 2.0), z: rng.f32_in(0.1, 2.0) };
    d.radius = rng.f32_in(0.1, 2.0);
    d.half_height = rng.f32_in(0.0, 2.0);
    *mesh = (
        vec![
            ArgusVec3 { x: 0.0, y: 0.0, z: 0.0 },
            ArgusVec3 { x: 1.0, y: 0.0, z: 0.0 },
            ArgusVec3 { x: 0.0, y: 1.0, z: 0.0 },
            ArgusVec3 { x: 1.0, y: 1.0, z: 0.0 },
        ],
        vec![0, 1, 2, 1, 3, 2],
    );
    d.vertices = mesh.0.as_ptr();
    d.indices = mesh.1.as_ptr();
    d.vertex_count = 4;
    d.index_count = 6;
    let fault = match rng.below(16) {
        0 => {
            d.internal_cookie = 0;
            Fault::Ffi(R::DefNotInitialized)
        }
        1 => {
            d.shape = RawShapeKind(rng.pick(&[4, 5, 1000, u32::MAX]));
            Fault::Ffi(R::InvalidArgument)
        }
        2 => {
            d.shape = ArgusShapeKind::Mesh.into();
            match rng.below(4) {
                0 => d.vertex_count = rng.pick(&[(1 << 24) + 1, u32::MAX]),
                1 => d.index_count = rng.pick(&[3 * (1 << 24) + 3, u32::MAX]),
                2 => d.index_count = rng.pick(&[4, 5, 7]),
                _ => d.vertices = null(),
            }
            Fault::Ffi(R::InvalidArgument)
        }
        3 => {
            d.position.x = rng.bad();
            Fault::Core(R::InvalidArgument)
        }
        4 => {
            d.rotation = if rng.chance(50) {
                ArgusQuat { x: 0.0, y: 0.0, z: 0.0, w: 0.0 }
            } else {
                ArgusQuat { x: 0.0, y: rng.bad(), z: 0.0, w: 1.0 }
            };
            Fault::Core(R::InvalidArgument)
        }
        5 => {
            match d.shape.0 {
                x if x == ArgusShapeKind::Box as u32 => d.half_extents.y = rng.pick(&[0.0, -1.0, f32::NAN]),
                x if x == ArgusShapeKind::Mesh as u32 => d.indices = [5u32, 0, 1].as_ptr(), // index out of range; static data
                _ => d.radius = rng.pick(&[0.0, -1.0, f32::INFINITY]),
            }
            Fault::Core(R::InvalidArgument)
        }
        _ => Fault::None,
    };
    if d.shape == ArgusShapeKind::Mesh.into()
        && d.indices != mesh.1.as_ptr()
        && d.index_count > 3
        && d.index_count != u32::MAX
    {
        d.index_count = 3;
    }
    (d, fault)
}

fn sound_def(cx: &mut Cx, wi: usize) -> (ArgusSoundDef, Fault) {
    let mut d = argus_default_sound_def();
    d.position = cx.rng.vec3(10.0);
    d.loudness = cx.rng.f32_in(0.0, 20.0);
    let fault = match cx.rng.below(10) {
        0 => {
            d.internal_cookie = 0;
            Fault::Ffi(R::DefNotInitialized)
        }
        1 => {
            d.loudness = if cx.rng.chance(50) { -1.0 } else { cx.rng.bad() };
            Fault::Core(R::InvalidArgument)
        }
        2 => {
            d.position.z = cx.rng.bad();
            Fault::Core(R::InvalidArgument)
        }
        3 => {
            d.team = 64;
            Fault::Core(R::InvalidArgument)
        }
        4 | 5 => {
            let (t, ok) = pick_target(cx, wi);
            d.source = t;
            if t.index == 0 && t.generation == 0 { Fault::None } else { id_fault(ok) } // {0, 0} is null: anonymous
        }
        _ => Fault::None,
    };
    (d, fault)
}

// ---- the operations ----------------------------------------------------------------------------

fn op_create(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let kind = cx.rng.below(3);
    let null_def = cx.rng.chance(5);
    let null_out = cx.rng.chance(5);
    match kind {
        0 => {
            let (mut def, mut fault) = agent_def(&mut cx.rng);
            if cx.worlds[wi].m.agents.len() >= MAX_LIVE {
                def.internal_cookie = 0;
                fault = Fault::Ffi(R::DefNotInitialized);
            }
            if null_def || null_out {
                fault = Fault::Ffi(R::InvalidArgument);
            }
            let expected = cx.expected(wi, fault, true);
            let mut out = ArgusAgentId { index: 0xDEAD, world: 0xBEEF, generation: 0xBEEF };
            let (dp, op) = (
                if null_def { null() } else { &def as *const _ },
                if null_out { null_mut() } else { &mut out as *mut _ },
            );
            // SAFETY: NULL or pointers to locals.
            let r = cx.run(wi, format!("agent_create fault={fault:?}"), expected, true, || unsafe {
                argus_agent_create(p, dp, op)
            });
            if r == R::Ok {
                cx.worlds[wi].m.agents.push(out);
            } else if out.index != 0xDEAD || out.generation != 0xBEEF {
                cx.fail("agent_create wrote its out-parameter on failure");
            }
        }
        1 => {
            let (mut def, mut fault) = target_def(&mut cx.rng);
            if cx.worlds[wi].m.targets.len() >= MAX_LIVE {
                def.internal_cookie = 0;
                fault = Fault::Ffi(R::DefNotInitialized);
            }
            if null_def || null_out {
                fault = Fault::Ffi(R::InvalidArgument);
            }
            let expected = cx.expected(wi, fault, true);
            let mut out = ArgusTargetId { index: 0xDEAD, world: 0xBEEF, generation: 0xBEEF };
            let (dp, op) = (
                if null_def { null() } else { &def as *const _ },
                if null_out { null_mut() } else { &mut out as *mut _ },
            );
            // SAFETY: as above.
            let r = cx.run(wi, format!("target_create fault={fault:?}"), expected, true, || unsafe {
                argus_target_create(p, dp, op)
            });
            if r == R::Ok {
                cx.worlds[wi].m.targets.push(out);
            } else if out.index != 0xDEAD {
                cx.fail("target_create wrote its out-parameter on failure");
            }
        }
        _ => {
            let mut mesh = (Vec::new(), Vec::new());
            let (mut def, mut fault) = occluder_def(&mut cx.rng, &mut mesh);
            if cx.worlds[wi].m.occluders.len() >= MAX_LIVE - 2 {
                def.internal_cookie = 0;
                fault = Fault::Ffi(R::DefNotInitialized);
            }
            if null_def || null_out {
                fault = Fault::Ffi(R::InvalidArgument);
            }
            let expected = cx.expected(wi, fault, true);
            let mut out = ArgusOccluderId { index: 0xDEAD, world: 0xBEEF, generation: 0xBEEF };
            let (dp, op) = (
                if null_def { null() } else { &def as *const _ },
                if null_out { null_mut() } else { &mut out as *mut _ },
            );
            // SAFETY: as above; the mesh arrays outlive the call.
            let r = cx.run(
                wi,
                format!("occluder_create shape={} fault={fault:?}", def.shape.0),
                expected,
                true,
                || unsafe { argus_occluder_create(p, dp, op) },
            );
            if r == R::Ok {
                cx.worlds[wi].m.occluders.push(out);
            } else if out.index != 0xDEAD {
                cx.fail("occluder_create wrote its out-parameter on failure");
            }
        }
    }
}

fn op_destroy(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    match cx.rng.below(3) {
        0 => {
            let (id, ok) = pick_agent(cx, wi);
            let e = cx.expected(wi, id_fault(ok), true);
            // SAFETY: a live world.
            if cx.run(wi, format!("agent_destroy {id:?}"), e, true, || unsafe { argus_agent_destroy(p, id) }) == R::Ok {
                let m = &mut cx.worlds[wi].m;
                retire(&mut m.agents, &mut m.stale_agents, id);
            }
        }
        1 => {
            let (id, ok) = pick_target(cx, wi);
            let e = cx.expected(wi, id_fault(ok), true);
            // SAFETY: a live world.
            if cx.run(wi, format!("target_destroy {id:?}"), e, true, || unsafe { argus_target_destroy(p, id) }) == R::Ok
            {
                let m = &mut cx.worlds[wi].m;
                retire(&mut m.targets, &mut m.stale_targets, id);
            }
        }
        _ => {
            let (id, ok) = pick_occluder(cx, wi);
            let e = cx.expected(wi, id_fault(ok), true);
            // SAFETY: a live world.
            if cx.run(wi, format!("occluder_destroy {id:?}"), e, true, || unsafe { argus_occluder_destroy(p, id) })
                == R::Ok
            {
                let m = &mut cx.worlds[wi].m;
                retire(&mut m.occluders, &mut m.stale_occluders, id);
            }
        }
    }
}

/// A position and forward with at most one fault, for set_pose.
fn pose(rng: &mut Rng, valid_id: bool) -> (ArgusVec3, ArgusVec3, Fault) {
    let (mut pos, mut fwd) = (rng.vec3(10.0), rng.dir());
    let fault = match rng.below(8) {
        0 => {
            pos.x = rng.bad();
            Fault::Core(R::InvalidArgument)
        }
        1 => {
            fwd = if rng.chance(50) {
                ArgusVec3 { x: 0.0, y: 0.0, z: 0.0 }
            } else {
                ArgusVec3 { x: rng.bad(), y: 0.0, z: 1.0 }
            };
            Fault::Core(R::InvalidArgument)
        }
        _ => Fault::None,
    };
    match fault {
        Fault::None => (pos, fwd, id_fault(valid_id)),
        _ if valid_id => (pos, fwd, fault),
        _ => {
            pos = rng.vec3(10.0);
            fwd = rng.dir();
            (pos, fwd, id_fault(false))
        }
    }
}

fn op_set_pose(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    match cx.rng.below(3) {
        0 => {
            let (id, ok) = pick_agent(cx, wi);
            let (pos, fwd, fault) = pose(&mut cx.rng, ok);
            let e = cx.expected(wi, fault, true);
            // SAFETY: a live world.
            cx.run(wi, format!("agent_set_pose {id:?} {fault:?}"), e, true, || unsafe {
                argus_agent_set_pose(p, id, pos, fwd)
            });
        }
        1 => {
            let (id, ok) = pick_target(cx, wi);
            let (pos, fwd, fault) = pose(&mut cx.rng, ok);
            let e = cx.expected(wi, fault, true);
            // SAFETY: a live world.
            cx.run(wi, format!("target_set_pose {id:?} {fault:?}"), e, true, || unsafe {
                argus_target_set_pose(p, id, pos, fwd)
            });
        }
        _ => {
            let (id, ok) = pick_occluder(cx, wi);
            let mut pos = cx.rng.vec3(15.0);
            let mut rot = ArgusQuat { x: 0.0, y: cx.rng.f32_in(-1.0, 1.0), z: 0.0, w: 1.0 };
            let mut fault = id_fault(ok);
            if ok {
                match cx.rng.below(6) {
                    0 => (pos.y, fault) = (cx.rng.bad(), Fault::Core(R::InvalidArgument)),
                    1 => (rot, fault) = (ArgusQuat { x: 0.0, y: 0.0, z: 0.0, w: 0.0 }, Fault::Core(R::InvalidArgument)),
                    2 => (rot.w, fault) = (cx.rng.bad(), Fault::Core(R::InvalidArgument)),
                    _ => {}
                }
            }
            let e = cx.expected(wi, fault, true);
            // SAFETY: a live world.
            cx.run(wi, format!("occluder_set_pose {id:?} {fault:?}"), e, true, || unsafe {
                argus_occluder_set_pose(p, id, pos, rot)
            });
            if cx.rng.chance(30) {
                let (id, ok) = pick_occluder(cx, wi);
                let e = cx.expected(wi, id_fault(ok), true);
                let layers = cx.rng.next() as u32;
                // SAFETY: a live world.
                cx.run(wi, format!("occluder_set_layers {id:?}"), e, true, || unsafe {
                    argus_occluder_set_layers(p, id, layers)
                });
            }
        }
    }
}

fn op_set_poses(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let agents = cx.rng.chance(50);
    let live = if agents { cx.worlds[wi].m.agents.len() } else { cx.worlds[wi].m.targets.len() } as u32;
    let (count, mut fault) = match cx.rng.below(10) {
        0 => (0, Fault::None),
        1 => (live + 1 + cx.rng.below(3) as u32, Fault::Ffi(R::InvalidArgument)),
        2 => (
            cx.rng.pick(&[u32::MAX, 0x8000_0000, ARGUS_MAX_BATCH, ARGUS_MAX_BATCH + 1]),
            Fault::Ffi(R::InvalidArgument),
        ),
        _ => (if live == 0 { 0 } else { 1 + cx.rng.below(live as u64) as u32 }, Fault::None),
    };
    let real = if count as usize > MAX_LIVE + 4 { 1 } else { count.max(1) as usize }; // huge counts get a 1-item buffer
    let mut ids: Vec<(u32, u16)> = Vec::with_capacity(real);
    for _ in 0..real {
        let id = if agents {
            pick_agent(cx, wi).0
        } else {
            let t = pick_target(cx, wi).0;
            ArgusAgentId { index: t.index, world: t.world, generation: t.generation }
        };
        ids.push((id.index, id.generation));
    }
    // Every id must be live unless this call is about a bad one.
    let live_ids: Vec<(u32, u16)> = if agents {
        cx.worlds[wi].m.agents.iter().map(|i| (i.index, i.generation)).collect()
    } else {
        cx.worlds[wi].m.targets.iter().map(|i| (i.index, i.generation)).collect()
    };
    if !live_ids.is_empty() {
        for id in ids.iter_mut() {
            *id = cx.rng.pick(&live_ids);
        }
    }
    let mut positions: Vec<ArgusVec3> = (0..real).map(|_| cx.rng.vec3(10.0)).collect();
    let mut forwards: Vec<ArgusVec3> = (0..real).map(|_| cx.rng.dir()).collect();
    let with_forwards = cx.rng.chance(60);
    let mut null_ids = false;
    let mut null_positions = false;
    let mut misaligned = false;
    if matches!(fault, Fault::None) && count > 0 {
        let k = cx.rng.below(count as u64) as usize;
        match cx.rng.below(12) {
            0 => (null_ids, fault) = (true, Fault::Ffi(R::InvalidArgument)),
            1 => (null_positions, fault) = (true, Fault::Ffi(R::InvalidArgument)),
            2 => (misaligned, fault) = (true, Fault::Ffi(R::InvalidArgument)),
            3 => {
                let stale: Vec<(u32, u16)> = if agents {
                    cx.worlds[wi].m.stale_agents.iter().map(|i| (i.index, i.generation)).collect()
                } else {
                    cx.worlds[wi].m.stale_targets.iter().map(|i| (i.index, i.generation)).collect()
                };
                ids[k] = if stale.is_empty() || cx.rng.chance(50) {
                    (ids[k].0, ids[k].1.wrapping_add(7))
                } else {
                    cx.rng.pick(&stale)
                };
                if live_ids.contains(&ids[k]) {
                    ids[k] = (1_000_000, 1);
                }
                fault = Fault::Core(R::InvalidId);
            }
            4 => (positions[k].y, fault) = (cx.rng.bad(), Fault::Core(R::InvalidArgument)),
            5 if with_forwards => {
                (forwards[k], fault) = (ArgusVec3 { x: 0.0, y: 0.0, z: 0.0 }, Fault::Core(R::InvalidArgument))
            }
            _ => {}
        }
    }
    let e = cx.expected(wi, fault, true);
    // The ids as the C ABI lays them out, stamped with the world's tag (null stays all zero).
    let tag = cx.worlds[wi].tag;
    let abi_ids: Vec<ArgusAgentId> = ids
        .iter()
        .map(|&(index, generation)| {
            let world = if index == 0 && generation == 0 { 0 } else { tag };
            ArgusAgentId { index, world, generation }
        })
        .collect();
    // Misaligned arrays live one byte into a u32 buffer.
    let backing = vec![0u32; real * 4 + 2];
    let odd = unsafe { (backing.as_ptr() as *const u8).add(1) };
    let id_ptr: *const ArgusAgentId = if null_ids {
        null()
    } else if misaligned && cx.rng.chance(50) {
        odd.cast()
    } else {
        abi_ids.as_ptr()
    };
    let pos_ptr: *const ArgusVec3 = if null_positions {
        null()
    } else if misaligned && id_ptr != odd.cast() {
        odd.cast()
    } else {
        positions.as_ptr()
    };
    let fwd_ptr: *const ArgusVec3 = if with_forwards { forwards.as_ptr() } else { null() };
    let what =
        format!("{}_set_poses count={count} live={live} fault={fault:?}", if agents { "agent" } else { "target" });
    // SAFETY: every non-NULL array holds `count` items, or `count` exceeds what the boundary
    // accepts before reading (huge counts), or the pointer is misaligned (refused unread).
    cx.run(wi, what, e, true, || unsafe {
        if agents {
            argus_agent_set_poses(p, id_ptr, pos_ptr, fwd_ptr, count)
        } else {
            argus_target_set_poses(p, id_ptr.cast(), pos_ptr, fwd_ptr, count)
        }
    });
}

fn op_query(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let (a, a_ok) = pick_agent(cx, wi);
    let (t, t_ok) = pick_target(cx, wi);
    let null_out = cx.rng.chance(8);
    let no_rays = cx.worlds[wi].engine && !cx.worlds[wi].callback;
    match cx.rng.below(7) {
        0 => {
            let fault = if null_out { Fault::Ffi(R::InvalidArgument) } else { id_fault(a_ok) };
            let e = cx.expected(wi, fault, false);
            let mut s = ArgusAgentState::default();
            let sp = if null_out { null_mut() } else { &mut s as *mut _ };
            // SAFETY: NULL or a local.
            cx.run(wi, format!("agent_get_state {a:?}"), e, false, || unsafe { argus_agent_get_state(p, a, sp) });
        }
        1 => {
            let fault = if null_out { Fault::Ffi(R::InvalidArgument) } else { id_fault(a_ok) };
            let e = cx.expected(wi, fault, false);
            let mut d = argus_default_agent_def();
            d.team = 0xABAB;
            let dp = if null_out { null_mut() } else { &mut d as *mut _ };
            // SAFETY: NULL or a local.
            let r = cx.run(wi, format!("agent_get_def {a:?}"), e, false, || unsafe { argus_agent_get_def(p, a, dp) });
            if r != R::Ok && d.team != 0xABAB {
                cx.fail("agent_get_def wrote its out-parameter on failure");
            }
            if r == R::Ok && !null_out && cx.rng.chance(50) {
                // A def read back is always accepted again.
                let e = cx.expected(wi, Fault::None, true);
                // SAFETY: a local def.
                cx.run(wi, format!("agent_set_def(get_def) {a:?}"), e, true, || unsafe {
                    argus_agent_set_def(p, a, &d)
                });
            }
        }
        2 => {
            // The two-call idiom: ask for the count, then fill.
            let mut needed = 0u32;
            let e = cx.expected(wi, id_fault(a_ok), false);
            // SAFETY: NULL buffer with capacity 0 (BUFFER_TOO_SMALL is the expected answer when
            // there are records, counted as OK here).
            let r = cx.run(wi, format!("agent_get_memory(count) {a:?}"), e, false, || unsafe {
                let r = argus_agent_get_memory(p, a, null_mut(), 0, &mut needed);
                if r == R::BufferTooSmall { R::Ok } else { r }
            });
            if r != R::Ok {
                return;
            }
            let mut state = ArgusAgentState::default();
            // SAFETY: a local.
            unsafe { argus_agent_get_state(p, a, &mut state) };
            if needed != state.memory_count {
                cx.fail(&format!("get_memory needs {needed}, state says {}", state.memory_count));
            }
            let capacity = cx.rng.below(needed as u64 + 3) as u32;
            let mut buffer =
                vec![ArgusMemoryRecord { target_user_data: 0xCDCD, ..Default::default() }; capacity as usize + 1];
            let null_buffer = capacity > 0 && cx.rng.chance(10);
            let null_count = cx.rng.chance(5);
            let fault = if null_count || (null_buffer && needed > 0 && capacity >= needed) {
                Fault::Ffi(R::InvalidArgument)
            } else if capacity < needed {
                Fault::Ffi(R::BufferTooSmall)
            } else {
                Fault::None
            };
            let e = cx.expected(wi, fault, false);
            let mut n = 0xFFFF_u32;
            let (bp, np) = (
                if null_buffer { null_mut() } else { buffer.as_mut_ptr() },
                if null_count { null_mut() } else { &mut n as *mut u32 },
            );
            // SAFETY: `capacity` writable records (the buffer has one more), or NULL.
            let r = cx.run(wi, format!("agent_get_memory cap={capacity} needed={needed}"), e, false, || unsafe {
                argus_agent_get_memory(p, a, bp, capacity, np)
            });
            if (r == R::Ok || r == R::BufferTooSmall) && n != needed {
                cx.fail(&format!("get_memory reported {n}, needed {needed}"));
            }
            if r != R::Ok && buffer.iter().any(|x| x.target_user_data != 0xCDCD) {
                cx.fail("get_memory wrote its buffer on failure");
            }
            if buffer[capacity as usize].target_user_data != 0xCDCD {
                cx.fail("get_memory wrote past its capacity");
            }
        }
        3 => {
            let fault = if null_out {
                Fault::Ffi(R::InvalidArgument)
            } else if no_rays {
                Fault::Core(R::NoRayBackend)
            } else if !a_ok {
                Fault::Core(R::InvalidId)
            } else {
                id_fault(t_ok)
            };
            let e = cx.expected(wi, fault, false);
            let mut s = ArgusSightResult::default();
            let sp = if null_out { null_mut() } else { &mut s as *mut _ };
            // SAFETY: NULL or a local.
            let r = cx.run(wi, format!("agent_can_see {a:?} {t:?}"), e, false, || unsafe {
                argus_agent_can_see(p, a, t, sp)
            });
            if r == R::Ok
                && (s.point_count == 0
                    || s.point_count > 8
                    || !(0.0..=1.0).contains(&s.fraction)
                    || (s.seen != 0) != (s.fraction > 0.0))
            {
                cx.fail(&format!("can_see answered nonsense: {s:?}"));
            }
        }
        4 => {
            let fault = if no_rays { Fault::Core(R::NoRayBackend) } else { id_fault(a_ok) };
            let e = cx.expected(wi, fault, false);
            let mut needed = 0u32;
            // SAFETY: NULL buffer with capacity 0.
            let r = cx.run(
                wi,
                format!("visible_targets(count) {a:?}"),
                if e == R::Ok { R::Ok } else { e },
                false,
                || unsafe {
                    let r = argus_agent_get_visible_targets(p, a, null_mut(), 0, &mut needed);
                    if r == R::BufferTooSmall { R::Ok } else { r }
                },
            );
            if r != R::Ok {
                return;
            }
            let capacity = cx.rng.below(needed as u64 + 2) as u32;
            let sentinel = ArgusTargetId { index: 0xCDCD, world: 0xCDCD, generation: 0xCDCD };
            let mut buffer = vec![ArgusTargetRef { target: sentinel, user_data: 0xCDCD }; capacity as usize + 1];
            let e = cx.expected(wi, if capacity < needed { Fault::Ffi(R::BufferTooSmall) } else { Fault::None }, false);
            let mut n = 0u32;
            // SAFETY: `capacity` writable ids.
            let r = cx.run(wi, format!("visible_targets cap={capacity} needed={needed}"), e, false, || unsafe {
                argus_agent_get_visible_targets(p, a, buffer.as_mut_ptr(), capacity, &mut n)
            });
            if n != needed || buffer[capacity as usize].target.index != 0xCDCD {
                cx.fail(&format!("visible_targets: {r:?} with {n} of {needed}, or wrote past capacity"));
            }
            let live = &cx.worlds[wi].m.targets;
            // Each echoed user_data is the one the target's def holds.
            let echoed = |t: &ArgusTargetRef| {
                let mut d = argus_default_target_def();
                // SAFETY: a live world and a local.
                let r = unsafe { argus_target_get_def(p, t.target, &mut d) };
                r == R::Ok && d.user_data == t.user_data
            };
            if r == R::Ok && buffer[..n as usize].iter().any(|t| !live.contains(&t.target) || !echoed(t)) {
                cx.fail("visible_targets named a target that is not live");
            }
        }
        5 => {
            let null_opts = cx.rng.chance(5);
            let mut o = argus_default_debug_draw_options();
            o.flags = cx.rng.next() as u32;
            o.circle_segments = cx.rng.below(200) as u32; // bounded: see the hostile.c finding
            let mut fault = if null_out || null_opts { Fault::Ffi(R::InvalidArgument) } else { Fault::None };
            if cx.rng.chance(40) && matches!(fault, Fault::None) {
                o.agent = a;
                // Only {0, 0} is null; any other id with generation 0 is invalid.
                if (a.index != 0 || a.generation != 0) && !a_ok {
                    fault = Fault::Core(R::InvalidId);
                }
            }
            let e = cx.expected(wi, fault, false);
            let mut d = ArgusDebugDraw { lines: null(), line_count: 0, points: null(), point_count: 0 };
            let (opp, dp) =
                (if null_opts { null() } else { &o as *const _ }, if null_out { null_mut() } else { &mut d as *mut _ });
            // SAFETY: NULL or locals.
            let r = cx.run(wi, format!("debug_draw flags={:#x} agent={:?}", o.flags, o.agent), e, false, || unsafe {
                argus_world_debug_draw(p, opp, dp)
            });
            if r == R::Ok && ((d.line_count == 0) != d.lines.is_null() || (d.point_count == 0) != d.points.is_null()) {
                cx.fail("debug_draw: NULL arrays must go with zero counts");
            }
        }
        _ => {
            // The event arrays and the world-level queries.
            let e = cx.expected(wi, if null_out { Fault::Ffi(R::InvalidArgument) } else { Fault::None }, false);
            let which = cx.rng.below(6);
            let mut pa = ArgusPerceptArray { items: null(), count: 0 };
            let mut counts = ArgusWorldCounts::default();
            let mut time = 0.0f64;
            // SAFETY: NULL or locals.
            let r = cx.run(wi, format!("world query #{which}"), e, false, || unsafe {
                match which {
                    0 => argus_world_get_percepts(p, if null_out { null_mut() } else { &mut pa }),
                    1 => argus_world_get_counts(p, if null_out { null_mut() } else { &mut counts }),
                    2 => argus_world_get_time(p, if null_out { null_mut() } else { &mut time }),
                    3 => {
                        let mut a = ArgusBrainEventArray { items: null(), count: 0 };
                        argus_world_get_brain_events(p, if null_out { null_mut() } else { &mut a })
                    }
                    4 => {
                        let mut a = ArgusForgetEventArray { items: null(), count: 0 };
                        argus_world_get_forget_events(p, if null_out { null_mut() } else { &mut a })
                    }
                    _ => {
                        let mut a = ArgusAwarenessEventArray { items: null(), count: 0 };
                        argus_world_get_awareness_events(p, if null_out { null_mut() } else { &mut a })
                    }
                }
            });
            if r == R::Ok && which == 0 && (pa.count == 0) != pa.items.is_null() {
                cx.fail("percepts: NULL items must go with a zero count");
            }
        }
    }
}

fn op_mind(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let (a, a_ok) = pick_agent(cx, wi);
    let (t, t_ok) = pick_target(cx, wi);
    match cx.rng.below(6) {
        0 => {
            let mut pos = cx.rng.vec3(10.0);
            let mut confidence = cx.rng.f32_in(0.0, 1.0);
            let mut fault = if !a_ok || !t_ok { Fault::Core(R::InvalidId) } else { Fault::None };
            if a_ok && t_ok {
                match cx.rng.below(5) {
                    0 => {
                        (confidence, fault) =
                            (cx.rng.pick(&[-0.01, 1.01, f32::NAN, f32::INFINITY]), Fault::Core(R::InvalidArgument))
                    }
                    1 => (pos.x, fault) = (cx.rng.bad(), Fault::Core(R::InvalidArgument)),
                    _ => {}
                }
            }
            let e = cx.expected(wi, fault, true);
            // SAFETY: a live world.
            cx.run(wi, format!("agent_remember {a:?} {t:?} {fault:?}"), e, true, || unsafe {
                argus_agent_remember(p, a, t, pos, confidence)
            });
        }
        1 => {
            let e = cx.expected(wi, id_fault(a_ok), true); // an unknown target is ignored
            // SAFETY: a live world.
            cx.run(wi, format!("agent_forget {a:?} {t:?}"), e, true, || unsafe { argus_agent_forget(p, a, t) });
        }
        2 => {
            let e = cx.expected(wi, id_fault(a_ok), true);
            // SAFETY: a live world.
            cx.run(wi, format!("agent_report_arrived {a:?}"), e, true, || unsafe { argus_agent_report_arrived(p, a) });
        }
        3 => {
            let e = cx.expected(wi, id_fault(t_ok), true);
            let on = cx.rng.below(3) as u8 * 100;
            // SAFETY: a live world.
            cx.run(wi, format!("target_set_enabled {t:?} {on}"), e, true, || unsafe {
                argus_target_set_enabled(p, t, on)
            });
        }
        4 => {
            let (def, fault) = if cx.rng.chance(50) {
                let (d, f) = agent_def(&mut cx.rng);
                let f = if matches!(f, Fault::None) { id_fault(a_ok) } else { f };
                // SAFETY: a local def.
                let e = cx.expected(wi, f, true);
                cx.run(wi, format!("agent_set_def {a:?} {f:?}"), e, true, || unsafe { argus_agent_set_def(p, a, &d) });
                return;
            } else {
                target_def(&mut cx.rng)
            };
            let fault = if matches!(fault, Fault::None) { id_fault(t_ok) } else { fault };
            let e = cx.expected(wi, fault, true);
            // SAFETY: a local def.
            cx.run(wi, format!("target_set_def {t:?} {fault:?}"), e, true, || unsafe {
                argus_target_set_def(p, t, &def)
            });
        }
        _ => {
            let (d, fault) = sound_def(cx, wi);
            let null_def = cx.rng.chance(5);
            let fault = if null_def { Fault::Ffi(R::InvalidArgument) } else { fault };
            let e = cx.expected(wi, fault, true);
            let dp = if null_def { null() } else { &d as *const _ };
            // SAFETY: NULL or a local.
            cx.run(wi, format!("emit_sound {fault:?}"), e, true, || unsafe { argus_world_emit_sound(p, dp) });
        }
    }
}

/// The walk graph: a grid or the engine's graph (sound or broken), cleared, or a walk asked for.
fn op_walk(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let v = |x: f32, z: f32| ArgusVec3 { x, y: 0.0, z };
    match cx.rng.below(4) {
        0 => {
            let mut d = argus_default_walk_grid_def();
            d.origin = v(-20.0, -20.0);
            d.width = 8 + cx.rng.below(40) as u32;
            d.depth = 8 + cx.rng.below(40) as u32;
            d.cell_size = 0.5 + cx.rng.below(3) as f32 * 0.5;
            let fault = match cx.rng.below(10) {
                0 => {
                    d.cell_size = cx.rng.pick(&[0.0, -1.0, f32::NAN, 1e-4]);
                    Fault::Core(R::InvalidArgument)
                }
                1 => {
                    d.internal_cookie = 0;
                    Fault::Ffi(R::DefNotInitialized)
                }
                2 => {
                    (d.width, d.depth) = (1 << 13, 1 << 12);
                    Fault::Core(R::InvalidArgument)
                }
                _ => Fault::None,
            };
            let e = cx.expected(wi, fault, true);
            // SAFETY: a local def.
            cx.run(wi, format!("set_walk_grid {fault:?}"), e, true, || unsafe { argus_world_set_walk_grid(p, &d) });
        }
        1 => {
            let n = 2 + cx.rng.below(6) as usize;
            let mut nodes: Vec<ArgusVec3> = (0..n).map(|i| v(i as f32 * 3.0, (i % 2) as f32)).collect();
            let mut edges: Vec<ArgusWalkEdge> =
                (1..n as u32).map(|b| ArgusWalkEdge { a: b - 1, b, length: 4.0 }).collect();
            let mut null_nodes = false;
            let fault = match cx.rng.below(10) {
                0 => {
                    edges[0].b = n as u32 + 3;
                    Fault::Core(R::InvalidArgument)
                }
                1 => {
                    edges[0].length = cx.rng.pick(&[-1.0, f32::NAN, f32::INFINITY, 0.5]);
                    Fault::Core(R::InvalidArgument)
                }
                2 => {
                    nodes[0].x = f32::NAN;
                    Fault::Core(R::InvalidArgument)
                }
                3 => {
                    null_nodes = true;
                    Fault::Ffi(R::InvalidArgument)
                }
                _ => Fault::None,
            };
            let e = cx.expected(wi, fault, true);
            let np = if null_nodes { null() } else { nodes.as_ptr() };
            // SAFETY: NULL or locals of the counts given.
            cx.run(wi, format!("set_walk_graph {fault:?}"), e, true, || unsafe {
                argus_world_set_walk_graph(p, np, n as u32, edges.as_ptr(), edges.len() as u32, 1.5)
            });
        }
        2 => {
            let e = cx.expected(wi, Fault::None, true);
            // SAFETY: a live world.
            cx.run(wi, "clear_walk_graph".into(), e, true, || unsafe { argus_world_clear_walk_graph(p) });
        }
        _ => {
            let mut info = ArgusWalkGraphInfo::default();
            // SAFETY: a local out-pointer.
            let has_graph = unsafe { argus_world_get_walk_graph_info(p, &mut info) } == R::Ok
                && info.kind != ArgusWalkGraphKind::None;
            let bad_limit = cx.rng.chance(10);
            let limit = if bad_limit { cx.rng.pick(&[-1.0, f32::NAN]) } else { 50.0 };
            let fault = if bad_limit || !has_graph { Fault::Core(R::InvalidArgument) } else { Fault::None };
            let e = cx.expected(wi, fault, false);
            let (mut distance, mut nodes, mut count) = (0.0f32, [0u32; 256], 0u32);
            // SAFETY: locals of the capacity given.
            cx.run(wi, format!("find_walk {fault:?}"), e, false, || unsafe {
                argus_world_find_walk(
                    p,
                    v(-5.0, -5.0),
                    v(10.0, 3.0),
                    limit,
                    &mut distance,
                    nodes.as_mut_ptr(),
                    256,
                    &mut count,
                )
            });
        }
    }
}

/// Beliefs: what an agent believes (summary, every node, at a position, where to search) with
/// good arguments and with one thing wrong (NULL outputs, stale and forged ids, capacities too
/// small, NULL buffers, NaN positions); brain settings read and written (searching by belief or
/// not, shared or not; unknown search kinds, give-up probabilities out of range); and now and
/// then a guard made to chase a player and lose it, so that beliefs are kept.
fn op_belief(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let (a, a_ok) = pick_agent(cx, wi);
    match cx.rng.below(10) {
        0 => belief_info(cx, wi, a, a_ok),
        1 | 2 => belief_arrays(cx, wi, a, a_ok),
        3 => {
            let null_out = cx.rng.chance(15);
            let bad = cx.rng.chance(15);
            let position = if bad { ArgusVec3 { x: cx.rng.bad(), y: 0.0, z: 0.0 } } else { cx.rng.vec3(20.0) };
            // A NaN position is refused only by a belief that looks it up.
            let has = a_ok && keeps_belief(cx, wi, a);
            let fault = if null_out {
                Fault::Ffi(R::InvalidArgument)
            } else if !a_ok {
                Fault::Core(R::InvalidId)
            } else if bad && has {
                Fault::Core(R::InvalidArgument)
            } else {
                Fault::None
            };
            let e = cx.expected(wi, fault, false);
            let mut at = -7.0f32;
            let out = if null_out { null_mut() } else { &mut at as *mut f32 };
            // SAFETY: NULL or a local.
            let r = cx.run(wi, format!("get_belief_at {a:?} {fault:?}"), e, false, || unsafe {
                argus_agent_get_belief_at(p, a, position, out)
            });
            if (r == R::Ok && !(0.0..=1.0).contains(&at)) || (r != R::Ok && at != -7.0) {
                cx.fail(&format!("get_belief_at: {r:?} with {at}"));
            }
        }
        4..=7 => brain_settings(cx, wi, a, a_ok),
        8 => lost_player(cx, wi),
        _ => {
            let mut b = ArgusBrainSettings::default();
            let null_out = cx.rng.chance(20);
            let fault = if null_out { Fault::Ffi(R::InvalidArgument) } else { id_fault(a_ok) };
            let e = cx.expected(wi, fault, false);
            let out = if null_out { null_mut() } else { &mut b as *mut _ };
            // SAFETY: NULL or a local.
            let r = cx.run(wi, format!("get_brain {a:?} {fault:?}"), e, false, || unsafe {
                argus_agent_get_brain(p, a, out)
            });
            if r == R::Ok && (b.search.0 > 1 || !(0.0..=1.0).contains(&b.give_up_probability)) {
                cx.fail(&format!("get_brain gave {b:?}"));
            }
        }
    }
}

/// Whether live agent `a` keeps a belief now (asked without checks).
fn keeps_belief(cx: &Cx, wi: usize, a: ArgusAgentId) -> bool {
    let (mut info, mut has) = (ArgusBeliefInfo::default(), 0u8);
    // SAFETY: a live world and locals.
    let r = unsafe { argus_agent_get_belief_info(cx.worlds[wi].ptr, a, &mut info, &mut has) };
    r == R::Ok && has == 1
}

fn belief_info(cx: &mut Cx, wi: usize, a: ArgusAgentId, a_ok: bool) {
    let p = cx.worlds[wi].ptr;
    let (null_info, null_has) = (cx.rng.chance(10), cx.rng.chance(10));
    let fault = if null_info || null_has { Fault::Ffi(R::InvalidArgument) } else { id_fault(a_ok) };
    let e = cx.expected(wi, fault, false);
    let blank = ArgusBeliefInfo { owner_count: 0xDEAD, ..Default::default() };
    let (mut info, mut has) = (blank, 7u8);
    let (ip, hp) = (
        if null_info { null_mut() } else { &mut info as *mut _ },
        if null_has { null_mut() } else { &mut has as *mut u8 },
    );
    // SAFETY: NULL or locals.
    let r = cx.run(wi, format!("get_belief_info {a:?} {fault:?}"), e, false, || unsafe {
        argus_agent_get_belief_info(p, a, ip, hp)
    });
    match (r, has) {
        (R::Ok, 0) if info == blank => {}
        (R::Ok, 1) => {
            cx.beliefs_seen += 1;
            let mut graph = ArgusWalkGraphInfo::default();
            // SAFETY: a live world and a local.
            unsafe { argus_world_get_walk_graph_info(p, &mut graph) };
            let sane = info.node_count == graph.node_count
                && (0.0..=1.0).contains(&info.peak)
                && info.owner_count >= 1
                && info.target.world == cx.worlds[wi].tag
                && info.has_search_point <= 1;
            if !sane {
                cx.fail(&format!("get_belief_info gave {info:?} on a graph of {graph:?}"));
            }
        }
        (R::Ok, _) => cx.fail(&format!("get_belief_info: has {has}, info {info:?}")),
        (_, 7) if info == blank => {}
        _ => cx.fail(&format!("get_belief_info {r:?} wrote its outputs")),
    }
}

/// `argus_agent_get_belief` or `argus_agent_get_search_points`, capacity too small or enough.
fn belief_arrays(cx: &mut Cx, wi: usize, a: ArgusAgentId, a_ok: bool) {
    let p = cx.worlds[wi].ptr;
    let nodes = if a_ok && keeps_belief(cx, wi, a) {
        let mut n = 0u32;
        // SAFETY: a live world and a local; NULL with capacity 0 asks for the count.
        unsafe { argus_agent_get_belief(p, a, null_mut(), 0, &mut n) };
        n as usize
    } else {
        0
    };
    let points = cx.rng.chance(50);
    let capacity = match cx.rng.below(4) {
        0 => 0,
        1 => nodes.saturating_sub(1) as u32,
        2 => 4,
        _ => nodes as u32 + 4,
    };
    let (null_count, null_buffer) = (cx.rng.chance(10), cx.rng.chance(10));
    let mut floats = vec![-1.0f32; capacity as usize + 1];
    let mut spots = vec![ArgusSearchPoint { probability: -1.0, ..Default::default() }; capacity as usize + 1];
    // A NULL buffer is refused only when there is something to write; a small one says how
    // many are needed (the search points are cut to the capacity instead).
    let fault = if !a_ok {
        Fault::Core(R::InvalidId)
    } else if null_count {
        Fault::Ffi(R::InvalidArgument)
    } else if !points && nodes > capacity as usize {
        Fault::Core(R::BufferTooSmall)
    } else if null_buffer && nodes > 0 && (capacity > 0 || !points) {
        Fault::Ffi(R::InvalidArgument)
    } else {
        Fault::None
    };
    let e = cx.expected(wi, fault, false);
    let mut count = 0xDEADu32;
    let cp = if null_count { null_mut() } else { &mut count as *mut u32 };
    let r = if points {
        let bp = if null_buffer { null_mut() } else { spots.as_mut_ptr() };
        // SAFETY: NULL or `capacity` writable items (one more allocated).
        cx.run(wi, format!("get_search_points {a:?} cap={capacity} {fault:?}"), e, false, || unsafe {
            argus_agent_get_search_points(p, a, bp, capacity, cp)
        })
    } else {
        let bp = if null_buffer { null_mut() } else { floats.as_mut_ptr() };
        // SAFETY: as above.
        cx.run(wi, format!("get_belief {a:?} cap={capacity} nodes={nodes} {fault:?}"), e, false, || unsafe {
            argus_agent_get_belief(p, a, bp, capacity, cp)
        })
    };
    let cap = capacity as usize;
    let ok = match r {
        R::Ok if points => {
            let got = &spots[..(count as usize).min(cap)];
            count as usize <= cap
                && spots[cap].probability == -1.0
                && got.windows(2).all(|w| w[0].probability >= w[1].probability)
                && got.iter().all(|s| (0.0..=1.0).contains(&s.probability))
        }
        R::Ok => {
            let total: f64 = floats[..(count as usize).min(cap)].iter().map(|&f| f as f64).sum();
            count as usize == nodes && floats[cap] == -1.0 && (nodes == 0 || (total - 1.0).abs() < 1e-3)
        }
        R::BufferTooSmall => count as usize == nodes && floats.iter().all(|&f| f == -1.0),
        _ => count == 0xDEAD,
    };
    if !ok {
        cx.fail(&format!("belief arrays: {r:?}, count {count}, {nodes} nodes, capacity {capacity}"));
    }
}

/// `argus_agent_set_brain`: good settings (by belief or not, shared or not), or one thing wrong.
fn brain_settings(cx: &mut Cx, wi: usize, a: ArgusAgentId, a_ok: bool) {
    let p = cx.worlds[wi].ptr;
    let mut b = ArgusBrainSettings::default();
    if a_ok {
        // SAFETY: a live world and a local.
        unsafe { argus_agent_get_brain(p, a, &mut b) };
    } else {
        b.enabled = 1;
        b.give_up_probability = 0.002;
    }
    b.search = RawSearchKind(cx.rng.below(2) as u32);
    b.share_belief = cx.rng.below(2) as u8;
    b.give_up_probability = cx.rng.pick(&[0.0, 0.002, 0.05, 1.0]);
    b.search_duration = cx.rng.pick(&[0.5, 4.0, 30.0]);
    let mut null_settings = false;
    // One thing wrong at most; settings faults only with a live agent (its id is looked up
    // first, before a pending step is).
    let fault = match cx.rng.below(8) {
        0 if a_ok => {
            b.search = RawSearchKind(cx.rng.pick(&[2, 7, u32::MAX]));
            Fault::Ffi(R::InvalidArgument)
        }
        1 if a_ok => {
            null_settings = true;
            Fault::Ffi(R::InvalidArgument)
        }
        2 if a_ok => {
            b.give_up_probability = cx.rng.pick(&[-0.01, 1.01, f32::NAN, f32::INFINITY]);
            Fault::Core(R::InvalidArgument)
        }
        _ => id_fault(a_ok),
    };
    let w = &cx.worlds[wi];
    let e = match fault {
        _ if w.poisoned => R::WorldPoisoned,
        Fault::Ffi(code) => code,
        Fault::Core(R::InvalidId) => R::InvalidId,
        _ if w.pending.is_some() => R::StepInProgress,
        Fault::Core(code) => code,
        Fault::None => R::Ok,
    };
    let sp = if null_settings { null() } else { &b as *const _ };
    // SAFETY: NULL or a local.
    cx.run(wi, format!("set_brain {a:?} search={} {fault:?}", b.search.0), e, true, || unsafe {
        argus_agent_set_brain(p, a, sp)
    });
}

/// A guard that searches by belief chases a player over a walk grid, then loses it: it keeps a
/// belief. Away from where the fuzzer puts things (within 10 m of the origin), in teams of their
/// own made hostile (an engine-ray world is left alone: its steps need the callback).
fn lost_player(cx: &mut Cx, wi: usize) {
    let w = &cx.worlds[wi];
    let (p, m) = (w.ptr, &w.m);
    if w.engine || w.poisoned || w.pending.is_some() || m.agents.len() >= MAX_LIVE || m.targets.len() >= MAX_LIVE {
        return;
    }
    let at = |x: f32, z: f32| ArgusVec3 { x, y: 0.0, z };
    let mut grid = argus_default_walk_grid_def();
    grid.origin = at(30.0, 30.0);
    (grid.width, grid.depth) = (40, 40);
    let mut guard = argus_default_agent_def();
    (guard.position, guard.forward, guard.team) = (at(40.0, 35.0), at(0.0, 1.0), 40);
    guard.brain.search = RawSearchKind(ArgusSearchKind::Belief as u32);
    guard.brain.search_duration = 30.0;
    (guard.sight.view_radius, guard.sight.view_angle, guard.sight.rate_hz) = (15.0, 120.0, 0.0);
    let mut player = argus_default_target_def();
    (player.position, player.team, player.top_speed) = (at(40.0, 39.0), 41, 2.0);
    let (mut a, mut t) = (NULL_AGENT, ArgusTargetId::default());
    // SAFETY: a live world and locals (every call below).
    cx.run(wi, "set_walk_grid (lost player)".into(), R::Ok, true, || unsafe { argus_world_set_walk_grid(p, &grid) });
    // SAFETY: as above.
    cx.run(wi, "set_attitude (lost player)".into(), R::Ok, true, || unsafe {
        argus_world_set_attitude(p, 40, 41, RawAttitude(ArgusAttitude::Hostile as u32))
    });
    // SAFETY: as above.
    if cx.run(wi, "agent_create (lost player)".into(), R::Ok, true, || unsafe { argus_agent_create(p, &guard, &mut a) })
        == R::Ok
    {
        cx.worlds[wi].m.agents.push(a);
    }
    // SAFETY: as above.
    if cx.run(wi, "target_create (lost player)".into(), R::Ok, true, || unsafe {
        argus_target_create(p, &player, &mut t)
    }) == R::Ok
    {
        cx.worlds[wi].m.targets.push(t);
    }
    for k in 0..8 {
        if k == 3 {
            // SAFETY: as above.
            cx.run(wi, "target_set_pose (lost player)".into(), R::Ok, true, || unsafe {
                argus_target_set_pose(p, t, at(65.0, 65.0), at(0.0, 1.0))
            });
        }
        // SAFETY: as above.
        cx.run(wi, "step (lost player)".into(), R::Ok, true, || unsafe { argus_world_step(p, 0.2) });
    }
    belief_info(cx, wi, a, true);
}

fn op_teams(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let team = |rng: &mut Rng| if rng.chance(85) { rng.below(64) as u32 } else { rng.pick(&[64, 100, u32::MAX]) };
    let (a, b) = (team(&mut cx.rng), team(&mut cx.rng));
    let attitude = if cx.rng.chance(85) { cx.rng.below(3) as u32 } else { cx.rng.pick(&[3, 7, u32::MAX]) };
    let bad_team = a >= 64 || b >= 64;
    if cx.rng.chance(50) {
        let fault = if attitude > 2 {
            Fault::Ffi(R::InvalidArgument)
        } else if bad_team {
            Fault::Core(R::InvalidArgument)
        } else {
            Fault::None
        };
        let e = cx.expected(wi, fault, true);
        // SAFETY: a live world.
        cx.run(wi, format!("set_attitude {a} {b} {attitude}"), e, true, || unsafe {
            argus_world_set_attitude(p, a, b, RawAttitude(attitude))
        });
    } else {
        let null_out = cx.rng.chance(10);
        let fault = if null_out {
            Fault::Ffi(R::InvalidArgument)
        } else if bad_team {
            Fault::Core(R::InvalidArgument)
        } else {
            Fault::None
        };
        let e = cx.expected(wi, fault, false);
        let mut out = 77u32;
        // A u32 behind the enum pointer, so the untouched sentinel 77 is readable.
        let op = if null_out { null_mut() } else { &mut out as *mut u32 as *mut ArgusAttitude };
        // SAFETY: NULL or a local.
        let r =
            cx.run(wi, format!("get_attitude {a} {b}"), e, false, || unsafe { argus_world_get_attitude(p, a, b, op) });
        if (r == R::Ok && out > 2) || (r != R::Ok && out != 77) {
            cx.fail(&format!("get_attitude: {r:?} with {out}"));
        }
    }
}

fn op_step(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let mut dt = cx.rng.pick(&[0.0, 0.016, 0.05, 0.1, 0.25]);
    let bad_dt = cx.rng.chance(10);
    if bad_dt {
        dt = cx.rng.pick(&[-0.1, -f32::MIN_POSITIVE, f32::NAN, f32::INFINITY, f32::NEG_INFINITY]);
    }
    let (engine, callback, pending) = (cx.worlds[wi].engine, cx.worlds[wi].callback, cx.worlds[wi].pending);
    // A pending step is usually answered soon, as an engine would.
    let choice =
        if pending.is_some() && cx.rng.chance(60) { 3 + (cx.rng.below(5) == 0) as u64 } else { cx.rng.below(5) };
    match choice {
        0 | 1 => {
            let e = if cx.worlds[wi].poisoned {
                R::WorldPoisoned
            } else if pending.is_some() {
                R::StepInProgress
            } else if bad_dt {
                R::InvalidArgument
            } else if engine && !callback {
                R::NoRayBackend
            } else {
                R::Ok
            };
            // SAFETY: a live world.
            cx.run(wi, format!("step {dt}"), e, true, || unsafe { argus_world_step(p, dt) });
        }
        2 => {
            let null_out = cx.rng.chance(5);
            let fault = if null_out {
                Fault::Ffi(R::InvalidArgument)
            } else if bad_dt {
                Fault::Core(R::InvalidArgument)
            } else {
                Fault::None
            };
            let e = cx.expected(wi, fault, true);
            let mut rays = ArgusRayArray { items: null(), count: 0xFFFF };
            let rp = if null_out { null_mut() } else { &mut rays as *mut _ };
            // SAFETY: NULL or a local.
            let r = cx.run(wi, format!("step_begin {dt}"), e, true, || unsafe { argus_world_step_begin(p, dt, rp) });
            if r == R::Ok {
                if (rays.count == 0) != rays.items.is_null() {
                    cx.fail("step_begin: NULL rays must go with a zero count");
                }
                cx.worlds[wi].pending = Some(rays.count);
            }
        }
        3 => {
            let n = pending.unwrap_or(0);
            let (count, real) = match cx.rng.below(8) {
                0 => (cx.rng.pick(&[u32::MAX, ARGUS_MAX_BATCH + 1]), 1usize), // refused before reading
                1 => (n + 1 + cx.rng.below(3) as u32, 0),
                2 if n > 0 => (n - 1, 0),
                _ => (n, 0),
            };
            let real = if real == 1 { 1 } else { count as usize };
            let mut hits: Vec<ArgusRayHit> = (0..real.max(1))
                // Distance 0 is within every ray (a hit must lie within [0, max_distance]).
                .map(|_| ArgusRayHit { hit: cx.rng.below(2) as u32, distance: 0.0 })
                .collect();
            let mut bad_hit = false;
            if count > 0 && (count as usize) <= hits.len() && cx.rng.chance(10) {
                let k = cx.rng.below(count as u64) as usize;
                hits[k] = ArgusRayHit { hit: 1, distance: cx.rng.pick(&[-1.0, f32::NAN, f32::INFINITY, f32::MAX]) };
                bad_hit = true;
            }
            let null_hits = count > 0 && cx.rng.chance(5);
            let e = if cx.worlds[wi].poisoned {
                R::WorldPoisoned
            } else if pending.is_none() {
                R::NoStepInProgress
            } else if count != n || null_hits || bad_hit {
                R::InvalidArgument
            } else {
                R::Ok
            };
            let hp = if null_hits { null() } else { hits.as_ptr() };
            // SAFETY: `count` readable hits, or a count the boundary refuses before reading.
            let r = cx.run(
                wi,
                format!("step_finish count={count} rays={n} pending={}", pending.is_some()),
                e,
                true,
                || unsafe { argus_world_step_finish(p, hp, count) },
            );
            if r == R::Ok {
                cx.worlds[wi].pending = None;
            }
        }
        _ => {
            let e = if cx.worlds[wi].poisoned {
                R::WorldPoisoned
            } else if pending.is_some() {
                R::Ok
            } else {
                R::NoStepInProgress
            };
            // SAFETY: a live world.
            if cx.run(wi, "step_cancel".into(), e, true, || unsafe { argus_world_step_cancel(p) }) == R::Ok {
                cx.worlds[wi].pending = None;
            }
        }
    }
}

fn op_world(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    match cx.rng.below(12) {
        0..=2 => {
            // A ray callback on (answering, or failing every batch) or off.
            let on = cx.rng.chance(60);
            let fails = on && cx.rng.chance(25);
            let e = cx.expected(wi, Fault::None, false);
            let f: ArgusRayBatchFn = match (on, fails) {
                (false, _) => None,
                (true, false) => Some(engine_cast),
                (true, true) => Some(failing_cast),
            };
            // SAFETY: functions valid for the whole test.
            if cx.run(wi, format!("set_ray_callback {on} failing {fails}"), e, false, || unsafe {
                argus_world_set_ray_callback(p, f, null_mut())
            }) == R::Ok
            {
                cx.worlds[wi].callback = on;
                cx.worlds[wi].callback_fails = fails;
            }
        }
        3..=5 => {
            let mut size = 0u32;
            let e = if cx.worlds[wi].poisoned {
                R::WorldPoisoned
            } else if cx.worlds[wi].pending.is_some() {
                R::StepInProgress
            } else {
                R::BufferTooSmall
            };
            // SAFETY: NULL with capacity 0 asks for the size.
            let r =
                cx.run(wi, "save(size)".into(), e, false, || unsafe { argus_world_save(p, null_mut(), 0, &mut size) });
            if r != R::BufferTooSmall {
                return;
            }
            let mut bytes = vec![0xEEu8; size as usize + 1];
            let short = cx.rng.chance(20);
            let capacity = if short { size - 1 } else { size + cx.rng.below(2) as u32 };
            let mut again = 0u32;
            let e = if short { R::BufferTooSmall } else { R::Ok };
            // SAFETY: `capacity` writable bytes (the buffer has size + 1).
            let r = cx.run(wi, format!("save cap={capacity}"), e, false, || unsafe {
                argus_world_save(p, bytes.as_mut_ptr(), capacity, &mut again)
            });
            if again != size {
                cx.fail(&format!("save reported {again} then {size} bytes"));
            }
            if r == R::Ok {
                bytes.truncate(size as usize);
                let snapshot = Snapshot { bytes, model: cx.worlds[wi].m.clone() };
                if cx.snapshots.len() >= 4 {
                    cx.snapshots.remove(0);
                }
                cx.snapshots.push(snapshot);
            }
        }
        6..=8 if !cx.snapshots.is_empty() => {
            let k = cx.rng.below(cx.snapshots.len() as u64) as usize;
            let mut bytes = cx.snapshots[k].bytes.clone();
            let damage = cx.rng.below(4);
            match damage {
                0 => {
                    let i = cx.rng.below(bytes.len() as u64) as usize;
                    bytes[i] ^= 1 << cx.rng.below(8);
                }
                1 => bytes.truncate(cx.rng.below(bytes.len() as u64) as usize),
                _ => {}
            }
            let e = if cx.worlds[wi].poisoned {
                R::WorldPoisoned
            } else if cx.worlds[wi].pending.is_some() {
                R::StepInProgress
            } else if damage < 2 {
                R::BadSnapshot
            } else {
                R::Ok
            };
            let (ptr, len) = (if bytes.is_empty() { null() } else { bytes.as_ptr() }, bytes.len() as u32);
            // SAFETY: `len` readable bytes.
            if cx.run(wi, format!("load snapshot {k} damage={damage} len={len}"), e, true, || unsafe {
                argus_world_load(p, ptr, len)
            }) == R::Ok
            {
                cx.worlds[wi].m = cx.snapshots[k].model.clone();
                let tag = cx.worlds[wi].tag;
                cx.worlds[wi].m.restamp(tag);
            }
        }
        9 => {
            // Garbage that is not a snapshot, and NULL with a size.
            let garbage: Vec<u8> = (0..cx.rng.below(64)).map(|_| cx.rng.next() as u8).collect();
            let null_bytes = cx.rng.chance(30);
            let e = if cx.worlds[wi].poisoned {
                R::WorldPoisoned
            } else if null_bytes {
                R::InvalidArgument
            } else if cx.worlds[wi].pending.is_some() {
                R::StepInProgress
            } else {
                R::BadSnapshot
            };
            let (ptr, len) = if null_bytes { (null(), 16) } else { (garbage.as_ptr(), garbage.len() as u32) };
            // SAFETY: `len` readable bytes, or NULL (refused).
            cx.run(wi, format!("load garbage len={len}"), e, true, || unsafe { argus_world_load(p, ptr, len) });
        }
        10 if cx.rng.chance(5) => {
            let e = if cx.worlds[wi].poisoned { R::WorldPoisoned } else { R::Panic };
            // SAFETY: a live world.
            cx.run(wi, "testing_trigger_panic".into(), e, true, || unsafe { argus_testing_trigger_panic(p) });
            cx.worlds[wi].poisoned = true;
        }
        _ => {
            // Start this world over (always, once poisoned), checking the live count.
            if cx.worlds[wi].poisoned || cx.rng.chance(10) {
                cx.log.push_back(format!("w{wi} recreate"));
                // SAFETY: destroyed once, replaced at once.
                unsafe { argus_world_destroy(p) };
                cx.worlds[wi] = new_world(&mut cx.rng);
                let live = argus_live_world_count();
                if live != cx.base_live + WORLDS as u32 {
                    cx.fail(&format!("{live} live worlds, expected {}", cx.base_live + WORLDS as u32));
                }
            }
        }
    }
}

/// Recording: start (with faulty defs and focus ids), stop, copy out, and replays of the
/// recordings copied out, whole, damaged or rebuilt into a new world.
fn op_record(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let (poisoned, recording, pending) = (cx.worlds[wi].poisoned, cx.worlds[wi].recording, cx.worlds[wi].pending);
    // A flight recorder's window is saved often while there is one.
    let flight = recording && matches!(cx.worlds[wi].dest, streams::Dest::Flight);
    let roll = if flight && cx.rng.chance(30) { 10 } else { cx.rng.below(13) };
    match roll {
        0..=2 => {
            let mut def = argus_default_record_def();
            def.explain = cx.rng.below(2) as u8;
            let mut focus = Vec::new();
            let mut fault = Fault::None;
            for _ in 0..cx.rng.below(3) {
                let (id, ok) = pick_agent(cx, wi);
                focus.push(id);
                if !ok && matches!(fault, Fault::None) {
                    fault = Fault::Core(R::InvalidId);
                }
            }
            def.focus = if focus.is_empty() { null() } else { focus.as_ptr() };
            def.focus_count = focus.len() as u32;
            let null_def = cx.rng.chance(5);
            match cx.rng.below(12) {
                0 => {
                    def.internal_cookie = 0;
                    fault = Fault::Ffi(R::DefNotInitialized);
                }
                1 => {
                    def.focus = null();
                    def.focus_count = 1 + cx.rng.below(4) as u32;
                    fault = Fault::Ffi(R::InvalidArgument);
                }
                _ => {}
            }
            if null_def {
                fault = Fault::Ffi(R::InvalidArgument);
            }
            // Memory, a file, a callback, the flight recorder or an unknown `to`, sometimes with
            // a bad path, a NULL `write` or flight seconds out of range.
            let to = streams::pick_destination(cx, &mut def);
            let e = match fault {
                _ if poisoned => R::WorldPoisoned,
                Fault::Ffi(code) => code,
                _ if to.unknown_to => R::InvalidArgument,
                _ if recording => R::InvalidArgument,
                _ if pending.is_some() => R::StepInProgress,
                Fault::Core(code) => code,
                Fault::None => to.fault.unwrap_or(R::Ok),
            };
            let dp = if null_def { null() } else { &def as *const _ };
            let what = format!("start_recording fault={fault:?} focus={} to={}", focus.len(), to.label);
            // SAFETY: NULL or a local def whose focus points at `focus` (or NULL, refused), whose
            // path is NULL or NUL-terminated and whose callback's data outlives the recording.
            let r = cx.run(wi, what, e, false, || unsafe { argus_world_start_recording(p, dp) });
            streams::started(cx, wi, r, to);
            if r == R::Ok {
                cx.worlds[wi].recording = true;
                cx.worlds[wi].kept = None;
                cx.worlds[wi].failed_rays = false;
            }
        }
        3..=5 => streams::stop_recording(cx, wi),
        6 if recording && cx.worlds[wi].engine && !poisoned => failing_batch(cx, wi),
        6 if !recording && cx.worlds[wi].engine && !poisoned && pending.is_none() => recorded_failing_batch(cx, wi),
        6 => copy_recording(cx, wi),
        11 | 12 if !recording && !poisoned && pending.is_none() => streams::session(cx, wi),
        10..=12 => streams::op_flight(cx, wi),
        _ if cx.recordings.is_empty() => {}
        _ => {
            let k = cx.rng.below(cx.recordings.len() as u64) as usize;
            let mut bytes = cx.recordings[k].0.clone();
            let (counts, failed_rays) = (cx.recordings[k].1, cx.recordings[k].2);
            let damage = cx.rng.below(3);
            match damage {
                0 => {
                    let i = cx.rng.below(bytes.len() as u64) as usize;
                    bytes[i] ^= 1 << cx.rng.below(8);
                }
                1 => bytes.truncate(cx.rng.below(bytes.len() as u64) as usize),
                _ => {}
            }
            let e = if damage < 2 { R::BadRecording } else { R::Ok };
            cx.replayed += (e == R::Ok) as usize;
            cx.replayed_failed_rays += (e == R::Ok && failed_rays) as usize;
            let (ptr, len) = (if bytes.is_empty() { null() } else { bytes.as_ptr() }, bytes.len() as u64);
            if cx.rng.chance(50) {
                let mut report = ArgusReplayReport { step_count: 7, steps_replayed: 7, mismatch_step: 7 };
                // SAFETY: `len` readable bytes and a local report; no world is touched.
                cx.run_checked(wi, format!("replay_verify {k} damage={damage}"), e, false, false, || unsafe {
                    argus_replay_verify(ptr, len, &mut report)
                });
                let whole = report.steps_replayed == report.step_count && report.mismatch_step == ARGUS_NO_STEP;
                if (e == R::Ok) != whole || (e != R::Ok && report.step_count != 7) {
                    cx.fail(&format!("replay_verify wrote {report:?}"));
                }
            } else {
                let mut out = null_mut();
                let live = argus_live_world_count();
                // SAFETY: `len` readable bytes and a local out-pointer; no world is touched.
                cx.run_checked(wi, format!("create_from_recording {k} damage={damage}"), e, false, false, || unsafe {
                    argus_world_create_from_recording(ptr, len, u32::MAX, &mut out)
                });
                if e == R::Ok {
                    let mut got = ArgusWorldCounts::default();
                    // SAFETY: the world just created, destroyed once.
                    unsafe {
                        argus_world_get_counts(out, &mut got);
                        argus_world_destroy(out);
                    }
                    let same = (got.agents, got.targets, got.occluders, got.influence_maps)
                        == (counts.agents, counts.targets, counts.occluders, counts.influence_maps);
                    if !same {
                        cx.fail(&format!("a world rebuilt from a recording has {got:?}, its original had {counts:?}"));
                    }
                } else if !out.is_null() {
                    cx.fail("a refused create_from_recording wrote its out-parameter");
                }
                if argus_live_world_count() != live {
                    cx.fail("create_from_recording leaked or lost a world");
                }
            }
        }
    }
}

/// `argus_world_get_recording` (size query, then a copy) on world `wi`, keeping what it copies.
fn copy_recording(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let w = &cx.worlds[wi];
    let e = if w.poisoned {
        R::WorldPoisoned
    } else if w.kept.is_none() {
        R::InvalidArgument
    } else {
        R::BufferTooSmall
    };
    let mut size = 0u64;
    // SAFETY: NULL with capacity 0 asks for the size.
    let r = cx.run(wi, "get_recording(size)".into(), e, false, || unsafe {
        argus_world_get_recording(p, null_mut(), 0, &mut size)
    });
    if r != R::BufferTooSmall {
        return;
    }
    let mut bytes = vec![0u8; size as usize];
    let mut again = 0u64;
    // SAFETY: `size` writable bytes.
    cx.run(wi, format!("get_recording cap={size}"), R::Ok, false, || unsafe {
        argus_world_get_recording(p, bytes.as_mut_ptr(), size, &mut again)
    });
    if again != size {
        cx.fail(&format!("get_recording reported {size} then {again} bytes"));
    }
    let counts = cx.worlds[wi].kept.expect("kept");
    if cx.recordings.len() >= 3 {
        cx.recordings.remove(0);
    }
    cx.recordings.push((bytes, counts, cx.worlds[wi].failed_rays));
}

/// In an engine-ray world, a recording made with a guard that sees a player: steps answered by
/// the engine, steps whose ray callback fails (until one asks for rays), a step answered again;
/// stopped and copied out, to be replayed whole later. So the corpus always holds recordings
/// with failed ray batches inside.
fn recorded_failing_batch(cx: &mut Cx, wi: usize) {
    let p = cx.worlds[wi].ptr;
    let m = &cx.worlds[wi].m;
    if m.agents.len() >= MAX_LIVE || m.targets.len() >= MAX_LIVE {
        return;
    }
    // SAFETY: a live world and a local def (every call below: locals and a live world).
    if cx.run(wi, "start_recording (scripted)".into(), R::Ok, false, || unsafe {
        argus_world_start_recording(p, &argus_default_record_def())
    }) != R::Ok
    {
        return;
    }
    (cx.worlds[wi].recording, cx.worlds[wi].kept, cx.worlds[wi].failed_rays) = (true, None, false);
    let (mut a, mut t) = (NULL_AGENT, ArgusTargetId::default());
    let mut target = argus_default_target_def();
    target.position = ArgusVec3 { x: 0.0, y: 0.0, z: 4.0 };
    // SAFETY: as above.
    if cx.run(wi, "agent_create (scripted)".into(), R::Ok, true, || unsafe {
        argus_agent_create(p, &argus_default_agent_def(), &mut a)
    }) == R::Ok
    {
        cx.worlds[wi].m.agents.push(a);
    }
    // SAFETY: as above.
    if cx.run(wi, "target_create (scripted)".into(), R::Ok, true, || unsafe { argus_target_create(p, &target, &mut t) })
        == R::Ok
    {
        cx.worlds[wi].m.targets.push(t);
    }
    for _ in 0..8 {
        failing_batch(cx, wi);
        if cx.worlds[wi].failed_rays {
            break;
        }
    }
    // SAFETY: as above.
    if cx.run(wi, "stop_recording (scripted)".into(), R::Ok, false, || unsafe { argus_world_stop_recording(p) })
        == R::Ok
    {
        let mut counts = ArgusWorldCounts::default();
        // SAFETY: as above.
        unsafe { argus_world_get_counts(p, &mut counts) };
        (cx.worlds[wi].recording, cx.worlds[wi].kept) = (false, Some(counts));
        copy_recording(cx, wi);
    }
}

/// In an engine-ray world that is recording: a step whose ray callback fails (the engine's
/// physics scene is gone, say), between the world's own callback's steps. Refused with
/// `CALLBACK_FAILED` and changing nothing when it asks for rays; the recording goes on, and
/// must still replay (checked when it is replayed whole).
fn failing_batch(cx: &mut Cx, wi: usize) {
    let (p, pending) = (cx.worlds[wi].ptr, cx.worlds[wi].pending);
    let (callback, fails) = (cx.worlds[wi].callback, cx.worlds[wi].callback_fails);
    let set = |f: ArgusRayBatchFn| {
        // SAFETY: a live world and functions valid for the whole test.
        unsafe { argus_world_set_ray_callback(p, f, null_mut()) }
    };
    if pending.is_some() || set(Some(failing_cast)) != R::Ok {
        return;
    }
    cx.worlds[wi].callback_fails = true;
    cx.worlds[wi].callback = true;
    // SAFETY: a live world.
    cx.run(wi, "step with a failing ray callback".into(), R::Ok, true, || unsafe { argus_world_step(p, 0.05) });
    // The world's own callback back, as it was.
    let own: ArgusRayBatchFn = match (callback, fails) {
        (false, _) => None,
        (true, false) => Some(engine_cast),
        (true, true) => Some(failing_cast),
    };
    if set(own) != R::Ok {
        cx.fail("set_ray_callback refused to put the world's callback back");
    }
    (cx.worlds[wi].callback, cx.worlds[wi].callback_fails) = (callback, fails);
}

/// Calls with a NULL world, which must be refused without touching any world.
fn op_null_world(cx: &mut Cx) {
    let which = cx.rng.below(15);
    let wi = cx.pick_world();
    if which >= 13 {
        streams::null_world_flight(cx, wi, which == 13);
        return;
    }
    let rd = argus_default_record_def();
    let mut size = 0u64;
    let ad = argus_default_agent_def();
    let mut id = ArgusAgentId::default();
    let mut counts = ArgusWorldCounts::default();
    let mut rays = ArgusRayArray { items: null(), count: 0 };
    let pos = ArgusVec3 { x: 1.0, y: 0.0, z: 1.0 };
    // SAFETY: NULL worlds are refused before anything is read.
    cx.run_checked(wi, format!("NULL world #{which}"), R::InvalidArgument, false, false, || unsafe {
        let w = null_mut();
        match which {
            0 => argus_agent_create(w, &ad, &mut id),
            1 => argus_world_step(w, 0.1),
            2 => argus_world_get_counts(w, &mut counts),
            3 => argus_world_step_begin(w, 0.1, &mut rays),
            4 => argus_world_step_finish(w, null(), 0),
            5 => argus_agent_set_pose(w, NULL_AGENT, pos, pos),
            6 => argus_testing_trigger_panic(w),
            7 => argus_world_set_ray_callback(w, Some(engine_cast), null_mut()),
            8 => argus_world_load(w, null(), 0),
            9 => argus_world_start_recording(w, &rd),
            10 => argus_world_stop_recording(w),
            11 => argus_world_get_recording(w, null_mut(), 0, &mut size),
            _ => argus_agent_set_poses(w, &NULL_AGENT, &pos, null(), u32::MAX),
        }
    });
    // SAFETY: NULL is accepted by these.
    unsafe {
        argus_world_destroy(null_mut());
        if argus_agent_is_valid(null(), NULL_AGENT) != 0
            || argus_world_is_recording(null()) != 0
            || *argus_world_last_error(null()) != 0
        {
            cx.fail("NULL world: is_valid must be 0 and last_error empty");
        }
    }
}

fn new_world(rng: &mut Rng) -> World {
    let mut def = argus_default_world_def();
    let engine = rng.chance(40);
    def.ray_backend = if engine { ArgusRayBackend::Engine } else { ArgusRayBackend::Builtin }.into();
    def.worker_threads = rng.pick(&[0, 1, 1, 2]);
    def.max_sight_ticks_per_step = rng.pick(&[0, 0, 1, 3]);
    let mut ptr = null_mut();
    // SAFETY: a local def and out-pointer.
    let r = unsafe { argus_world_create(&def, &mut ptr) };
    assert_eq!(r, R::Ok);
    // SAFETY: `ptr` is NULL or the world just created.
    let tag = unsafe { argus_world_tag(ptr) };
    World {
        ptr,
        tag,
        engine,
        callback: false,
        callback_fails: false,
        poisoned: false,
        pending: None,
        m: Model::default(),
        recording: false,
        kept: None,
        failed_rays: false,
        dest: streams::Dest::Memory,
    }
}

/// After every call: the model's ids and counts match the world's.
fn check_model(cx: &mut Cx, wi: usize) {
    let w = &cx.worlds[wi];
    if w.poisoned {
        return;
    }
    let mut counts = ArgusWorldCounts::default();
    // SAFETY: a live world and a local.
    let r = unsafe { argus_world_get_counts(w.ptr, &mut counts) };
    let m = &w.m;
    let (a, t, o) = (m.agents.len() as u32, m.targets.len() as u32, m.occluders.len() as u32);
    if r != R::Ok || counts.agents != a || counts.targets != t || counts.occluders != o {
        cx.fail(&format!("counts {counts:?} ({r:?}), model says {a} agents, {t} targets, {o} occluders"));
    }
    // SAFETY: a live world.
    let ids_ok = unsafe {
        m.agents.iter().all(|&x| argus_agent_is_valid(w.ptr, x) == 1)
            && m.stale_agents.iter().all(|&x| argus_agent_is_valid(w.ptr, x) == 0)
            && m.targets.iter().all(|&x| argus_target_is_valid(w.ptr, x) == 1)
            && m.stale_targets.iter().all(|&x| argus_target_is_valid(w.ptr, x) == 0)
            && m.occluders.iter().all(|&x| argus_occluder_is_valid(w.ptr, x) == 1)
            && m.stale_occluders.iter().all(|&x| argus_occluder_is_valid(w.ptr, x) == 0)
    };
    if !ids_ok {
        cx.fail("a live id is invalid or a stale id is valid");
    }
}

/// The digest sees a change of pose, memory and time (so an unchanged digest means something).
fn digest_sees_changes() {
    let mut rng = Rng(7);
    let mut w = new_world(&mut rng);
    // SAFETY: replaced by a built-in-ray world.
    unsafe { argus_world_destroy(w.ptr) };
    let def = argus_default_world_def();
    // SAFETY: a local def and out-pointer.
    assert_eq!(unsafe { argus_world_create(&def, &mut w.ptr) }, R::Ok);
    let p = w.ptr;
    let mut a = NULL_AGENT;
    let mut t = ArgusTargetId::default();
    let here = ArgusVec3 { x: 1.0, y: 0.0, z: 1.0 };
    let ahead = ArgusVec3 { x: 0.0, y: 0.0, z: 1.0 };
    // SAFETY: a live world and locals.
    unsafe {
        assert_eq!(argus_agent_create(p, &argus_default_agent_def(), &mut a), R::Ok);
        assert_eq!(argus_target_create(p, &argus_default_target_def(), &mut t), R::Ok);
        w.m.agents.push(a);
        w.m.targets.push(t);
        let d0 = digest(&w);
        assert_eq!(argus_agent_set_pose(p, a, here, ahead), R::Ok);
        let d1 = digest(&w);
        assert_eq!(argus_agent_remember(p, a, t, here, 0.5), R::Ok);
        let d2 = digest(&w);
        assert_eq!(argus_world_step(p, 0.1), R::Ok);
        let d3 = digest(&w);
        assert!(d0 != d1 && d1 != d2 && d2 != d3, "the digest misses changes");
        assert_eq!(d3, digest(&w), "the digest is not stable");
        argus_world_destroy(p);
    }
}

fn fuzz(seed: u64, calls: usize) -> [usize; CODES] {
    let mut rng = Rng(seed | 1);
    let base_live = argus_live_world_count();
    let worlds = (0..WORLDS).map(|_| new_world(&mut rng)).collect();
    let mut cx = Cx {
        rng,
        seed,
        call: 0,
        worlds,
        snapshots: Vec::new(),
        recordings: Vec::new(),
        replayed: 0,
        replayed_failed_rays: 0,
        beliefs_seen: 0,
        log: VecDeque::new(),
        base_live,
        seen: [0; CODES],
        streams: streams::Streams::new(seed),
    };
    while cx.call < calls {
        let wi = cx.pick_world();
        let roll = if cx.worlds[wi].pending.is_some() && cx.rng.chance(15) { 75 } else { cx.rng.below(100) };
        match roll {
            0..=13 => op_create(&mut cx, wi),
            14..=21 => op_destroy(&mut cx, wi),
            22..=33 => op_set_pose(&mut cx, wi),
            34..=41 => op_set_poses(&mut cx, wi),
            42..=57 => op_query(&mut cx, wi),
            58 | 59 => op_belief(&mut cx, wi),
            60..=69 => op_mind(&mut cx, wi),
            70..=72 => op_teams(&mut cx, wi),
            73 | 74 => op_walk(&mut cx, wi),
            75..=89 => op_step(&mut cx, wi),
            90..=94 => op_world(&mut cx, wi),
            95..=97 => op_record(&mut cx, wi),
            _ => op_null_world(&mut cx),
        }
        check_model(&mut cx, wi);
        cx.call += 1;
    }
    for w in &cx.worlds {
        // SAFETY: each world destroyed once.
        unsafe { argus_world_destroy(w.ptr) };
    }
    assert_eq!(argus_live_world_count(), base_live, "worlds leaked");
    if calls >= CALLS_PER_SEED {
        assert!(cx.replayed >= 10, "only {} whole recordings were replayed", cx.replayed);
        let failed = cx.replayed_failed_rays;
        assert!(failed >= 1, "no recording with a failed ray callback inside was replayed whole ({failed})");
        assert!(cx.beliefs_seen >= 1, "no belief was read back");
        streams::check_coverage(&cx);
    }
    println!("ffi fuzz seed {seed:#x}: recordings to a file, a callback, the flight recorder\n{}", cx.streams.report());
    cx.seen
}

#[test]
fn random_calls_through_the_c_abi_never_corrupt_a_world() {
    // The deliberate panics of argus_testing_trigger_panic are expected: keep them quiet.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info.payload().downcast_ref::<&str>().copied().unwrap_or("");
        if !text.contains("argus_testing_trigger_panic") {
            default_hook(info);
        }
    }));
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let calls = env("ARGUS_FUZZ_CALLS").map_or(CALLS_PER_SEED, |c| c as usize);
    digest_sees_changes();
    let started = std::time::Instant::now();
    let seeds: Vec<u64> = env("ARGUS_FUZZ_SEED").map_or(SEEDS.to_vec(), |s| vec![s]);
    let mut seen = [0usize; CODES];
    for &seed in &seeds {
        for (total, n) in seen.iter_mut().zip(fuzz(seed, calls)) {
            *total += n;
        }
    }
    let total = calls * seeds.len();
    println!(
        "ffi fuzz: {total} calls ({} checked library calls) in {:.2?}",
        seen.iter().sum::<usize>(),
        started.elapsed()
    );
    for (code, n) in seen.iter().enumerate() {
        // SAFETY: a static string.
        let name = unsafe { CStr::from_ptr(argus_result_name(code as u32)) };
        println!("  {:>6}  {}", n, name.to_string_lossy());
    }
    if env("ARGUS_FUZZ_CALLS").is_none() {
        assert!(total >= 20_000);
        // Every kind of answer came up, and most calls did something.
        // (REENTRANT, BUSY, OUT_OF_MEMORY and REPLAY_MISMATCH have tests of their own.)
        let expected = (0..=10).chain([R::BadRecording, R::CallbackFailed, R::WriteFailed].map(|r| r as usize));
        assert!(expected.into_iter().all(|c| seen[c] > 0), "some result code never came up: {seen:?}");
        assert!(seen[R::Ok as usize] * 4 > total, "too few successful calls: {seen:?}");
    }
}
