//! Recordings (`docs/recording.md`): the world's state when recording started, every input
//! after it, and each step's outputs with the "why" of the sight decisions of the agents in
//! focus. [`Replay`] rebuilds the world from a recording and checks every step's outputs, byte
//! for byte.
//!
//! A recording goes to memory, to a stream (a file, the caller's callback) as it is made, or to
//! the flight recorder's ring of the last seconds ([`RecordTo`]); its bytes are the same.
//!
//! Off, a recording costs the step nothing: the world holds `Option<Box<Recorder>>`, each input
//! hook is one `if let` after the call succeeded, and the step runs its `TRACE_OFF` instance of
//! the sweep and of the one pass (the plain step). On, the step runs the instance that keeps what
//! the recording needs as it goes (`world::trace`: which agents ticked, the pairs and stops of
//! those explained, each agent's frame records right after its conclusion), and `record_step`
//! writes the frame from it.

mod beliefs;
mod capture;
mod deferred;
mod delta;
pub(crate) mod frame;
mod hearing;
pub(crate) mod inputs;
mod names;
mod replay;
mod ring;
mod scene;
mod sink;
mod ticks;
mod why;
mod writer;

pub(crate) use capture::{AgentCapture, CaptureInput, CapturedMemory};
#[cfg(any(test, feature = "testing"))]
pub use hearing::HearingRecord;
pub(crate) use inputs::call;
pub use replay::{Replay, reseal};
#[cfg(any(test, feature = "testing"))]
pub use replay::{frame_sections, hearing_sections};
pub use why::{PointExplanation, SightExplanation, SightFilterReason};

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result, invalid};
use crate::id::{AgentId, InfluenceMapId};
use crate::rays::RayHit;
use crate::world::World;
use sink::{Gathered, Place};
use writer::{ChunkKind, Writer};

/// Magic of every recording.
pub const MAGIC: &[u8; 8] = b"ARGUSREC";
/// Format version written by this library.
pub const FORMAT_VERSION: u32 = 6;
/// The oldest format version this library reads (3: no `NAMES`, Targets without team and layers).
pub const OLDEST_FORMAT_VERSION: u32 = 3;

/// What a recording keeps besides the inputs and the world-wide outputs.
#[derive(Clone, Debug)]
pub struct RecordOptions {
    /// Agents whose memory and "why" are recorded; empty = every agent.
    pub focus: Vec<AgentId>,
    /// Record the "why" section (default true).
    pub explain: bool,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions { focus: Vec::new(), explain: true }
    }
}

/// Where a recording's bytes go (the bytes are the same in each).
pub enum RecordTo {
    /// Kept in memory; [`World::stop_recording`] returns them.
    Memory,
    /// Written as they are made, from a thread of the recording's own (memory stays bounded:
    /// the world waits when the writer falls a few megabytes behind); `stop_recording` writes
    /// the `END` and flushes.
    Stream(Box<dyn Write + Send>),
    /// The flight recorder: only the last `seconds` (and at most one segment more: an eighth of
    /// the window, or the 60 steps between key frames when those take longer) are kept, in
    /// segments cut at key frames; [`World::save_flight_recording`] writes them as a recording
    /// of their own.
    Flight {
        /// The window, in seconds of the world clock (more than 0, at most [`MAX_FLIGHT_SECONDS`]).
        seconds: f32,
    },
}

/// The longest flight recorder window: a day.
pub const MAX_FLIGHT_SECONDS: f32 = 86_400.0;

/// The flight recorder's ring and when it cuts. Its clock is the seconds stepped since recording
/// started (the world clock can go back, when a snapshot is loaded).
pub(crate) struct Flight {
    ring: Arc<Mutex<ring::Ring>>,
    /// Seconds stepped so far, between cuts (an eighth of the window), and at the last cut.
    clock: f64,
    every: f64,
    last_cut: f64,
}

/// The agents in focus, sorted; empty = every agent.
#[derive(Clone)]
pub(crate) struct Focus(Vec<AgentId>);

impl Focus {
    pub(crate) fn contains(&self, id: AgentId) -> bool {
        self.0.is_empty() || self.0.binary_search(&id).is_ok()
    }
}

/// A recording in progress (held by the world while recording).
pub(crate) struct Recorder {
    /// This step's chunks (and the inputs since the last), until the sink takes them.
    pub(crate) out: Writer,
    /// What takes the bytes where they go (`None`: they stay in `out`, as in a replay).
    sink: Option<sink::Sink>,
    /// The flight recorder's ring (`RecordTo::Flight`).
    flight: Option<Flight>,
    /// What it keeps of the Why (the sink's thread has a copy).
    pub(crate) why: deferred::WhyScope,
    pub(crate) steps: u32,
    /// The occluders changed since the last SCENE.
    pub(crate) scene_dirty: bool,
    /// Maps changed through `influence_map_mut` (their state is written at the next boundary).
    pub(crate) maps_state: Vec<InfluenceMapId>,
    /// Maps created or changed since the previous frame, and those destroyed.
    pub(crate) maps_changed: Vec<InfluenceMapId>,
    pub(crate) maps_gone: Vec<InfluenceMapId>,
    /// Tactical queries asked since the previous frame: their count and records.
    pub(crate) tactics: Mutex<(u32, Vec<u8>)>,
    /// The focus as a bit per agent slot (empty: every agent), for the sweep.
    pub(crate) focus_slots: Vec<u64>,
    /// A bit per agent slot and per target slot: an input changed it since the last frame (see
    /// `capture` and `delta`).
    pub(crate) touched_agents: Vec<u64>,
    pub(crate) touched_targets: Vec<u64>,
    /// What the frames last wrote of each agent, target and memory (frames hold what changed).
    pub(crate) written: delta::Written,
    /// Scratch of each frame: the agents that ticked, and their next ticks by slot.
    pub(crate) ticks: ticks::Ticks,
    pub(crate) next_in: Vec<f32>,
    /// Where the last FRAME's payload starts in `out` (the replay compares it).
    pub(crate) last_frame: usize,
    /// The Hearing section's search memory (see `hearing`).
    pub(crate) hearing: hearing::HearingScratch,
    /// What the Beliefs section listed (see `beliefs`).
    pub(crate) beliefs: beliefs::BeliefScratch,
}

impl Recorder {
    /// Whether the next frame is a key frame (see `delta`).
    pub(crate) fn next_frame_is_key(&self) -> bool {
        self.written.key_next || self.steps.is_multiple_of(delta::KEY_FRAME_EVERY)
    }

    /// What the step's pass compares each agent's frame records with; `time`: after the step.
    pub(crate) fn capture_input(&self, time: f64) -> CaptureInput<'_> {
        self.written.capture_input(&self.focus_slots, &self.touched_agents, self.next_frame_is_key(), time)
    }

    /// A START was just written (the world's state as it is now, `maps` its maps): the next
    /// frame is a key frame listing every map.
    fn restarted(&mut self, maps: Vec<InfluenceMapId>) {
        self.scene_dirty = false;
        self.written.key_next = true;
        self.maps_state.clear();
        self.maps_changed = maps;
    }

    pub(crate) fn map_touched(&mut self, id: InfluenceMapId, state: bool) {
        if state && !self.maps_state.contains(&id) {
            self.maps_state.push(id);
        }
        if !self.maps_changed.contains(&id) {
            self.maps_changed.push(id);
        }
    }
}

impl World {
    /// Starts recording this world: its state now (a snapshot), then every input and every
    /// step's outputs until [`World::stop_recording`]. Refused (changing nothing) while
    /// recording already, while a step waits for its rays, or when a focus id is not a live
    /// agent.
    pub fn start_recording(&mut self, options: &RecordOptions) -> Result<()> {
        self.begin_recording(options, Some(RecordTo::Memory))
    }

    /// [`World::start_recording`] with its bytes going `to` memory, a stream or the flight
    /// recorder. Refused as `start_recording` is, and when `seconds` is not in (0,
    /// [`MAX_FLIGHT_SECONDS`]]. (Where the system gives no thread, the stepping thread writes.)
    pub fn start_recording_to(&mut self, options: &RecordOptions, to: RecordTo) -> Result<()> {
        self.begin_recording(options, Some(to))
    }

    /// [`World::start_recording_to`], or with `to` `None` the bytes kept in the recorder (a
    /// replay compares each step's there).
    pub(crate) fn begin_recording(&mut self, options: &RecordOptions, to: Option<RecordTo>) -> Result<()> {
        if self.recorder.is_some() {
            return Err(invalid("this world is already recording"));
        }
        self.check_idle()?;
        for &id in &options.focus {
            self.agent(id)?;
        }
        if let Some(RecordTo::Flight { seconds }) = &to
            && !(*seconds > 0.0 && *seconds <= MAX_FLIGHT_SECONDS)
        {
            return Err(invalid(format!("flight recorder seconds {seconds} is not in (0, {MAX_FLIGHT_SECONDS}]")));
        }
        let focus = {
            let mut focus = options.focus.clone();
            focus.sort_unstable();
            focus.dedup();
            Focus(focus)
        };
        let why = deferred::WhyScope { explain: options.explain, focus };
        let start = self.save()?;
        let (sink, flight) = match to {
            None => (None, None),
            Some(RecordTo::Memory) => {
                (Some(sink::Sink::start(why.clone(), Place::Memory { all: Vec::new(), failed: None })), None)
            }
            Some(RecordTo::Stream(out)) => {
                (Some(sink::Sink::start(why.clone(), Place::Stream { out, failed: None })), None)
            }
            Some(RecordTo::Flight { seconds }) => {
                let mut w = Writer::default();
                w.chunk(ChunkKind::Input, |w| inputs::write_options(w, options));
                let ring = Arc::new(Mutex::new(ring::Ring::new(seconds as f64, w.into_bytes())));
                let mut sink = sink::Sink::start(why.clone(), Place::Ring(ring.clone()));
                sink.cut_next(0.0, 0);
                (Some(sink), Some(Flight { ring, clock: 0.0, every: seconds as f64 / 8.0, last_cut: 0.0 }))
            }
        };
        let mut rec = Recorder {
            out: Writer::default(),
            sink,
            flight,
            why,
            steps: 0,
            scene_dirty: false,
            maps_state: Vec::new(),
            maps_changed: self.influence_map_ids(),
            maps_gone: Vec::new(),
            tactics: Mutex::new((0, Vec::new())),
            focus_slots: Vec::new(),
            touched_agents: Vec::new(),
            touched_targets: Vec::new(),
            written: delta::Written::default(),
            ticks: Default::default(),
            next_in: Vec::new(),
            last_frame: 0,
            hearing: Default::default(),
            beliefs: Default::default(),
        };
        for id in &rec.why.focus.0 {
            crate::bits::set_bit(&mut rec.focus_slots, id.index, true);
        }
        // A flight recorder's file header and options are written around each saved window.
        if rec.flight.is_none() {
            rec.out.header();
        }
        rec.out.start(&start);
        let version = rec.written.version;
        rec.out.chunk(ChunkKind::Scene, |w| scene::write_scene(self, scene::SceneWalk::InForce, version, w));
        if rec.flight.is_none() {
            rec.out.chunk(ChunkKind::Input, |w| inputs::write_options(w, options));
        }
        rec.out.chunk(ChunkKind::Names, |w| names::write(w, self.labels().collect::<Vec<_>>().into_iter()));
        self.recorder = Some(Box::new(rec));
        self.forget_blockers();
        Ok(())
    }

    /// How much the step's sweep keeps for the recording (see `world::trace`).
    pub(crate) fn trace_level(&self) -> u8 {
        match self.recorder.as_deref() {
            None => crate::world::TRACE_OFF,
            Some(rec) if rec.why.explain => crate::world::TRACE_WHY,
            Some(_) => crate::world::TRACE_TICKS,
        }
    }

    /// True between [`World::start_recording`] and [`World::stop_recording`].
    pub fn is_recording(&self) -> bool {
        self.recorder.is_some()
    }

    /// Ends the recording and returns it (`END` appended). Refused when not recording, or while
    /// a step waits for its rays (the recording goes on). A recording in memory that memory ran
    /// out for is `OutOfMemory` (its bytes were let go then; the world stepped on), a stream that
    /// failed `WriteFailed`: either way the recording has ended.
    pub fn stop_recording(&mut self) -> Result<Vec<u8>> {
        if self.recorder.is_none() {
            return Err(invalid("this world is not recording"));
        }
        self.check_idle()?;
        self.flush_map_states();
        let mut rec = self.recorder.take().expect("checked");
        let Some(sink) = rec.sink.take() else { return Ok(rec.out.finish(rec.steps)) };
        let clock = rec.flight.as_ref().map_or(0.0, |f| f.clock);
        let gathered = sink.finish(std::mem::take(&mut rec.out.bytes), clock);
        let Some(Gathered { place, sum }) = gathered else {
            return Err(Error::OutOfMemory("the recording's thread ended before its recording".into()));
        };
        match place {
            Place::Memory { failed: Some(e), .. } => Err(Error::OutOfMemory(e)),
            Place::Memory { mut all, failed: None } => {
                // The END chunk's room, asked for as every batch's was.
                sink::grow(&mut all, 64).map_err(|e| Error::OutOfMemory(format!("the recording's end: {e}")))?;
                rec.out.bytes = all;
                Ok(rec.out.finish_summed(rec.steps, sum))
            }
            Place::Stream { mut out, failed } => {
                let mut end = Writer::default();
                end.chunks = rec.out.chunks;
                let end = end.finish_summed(rec.steps, sum);
                let written = match failed {
                    Some(e) => Err(e),
                    None => out.write_all(&end).and_then(|_| out.flush()).map_err(|e| e.to_string()),
                };
                written.map(|_| Vec::new()).map_err(|e| Error::WriteFailed(format!("the recording's stream: {e}")))
            }
            Place::Ring(_) => Ok(Vec::new()),
        }
    }

    /// Writes the flight recorder's window (the last `seconds` it was started with, counted in
    /// the steps' `dt`, from the key frame at or before them; all of it when the recording is
    /// shorter) to `out` as a
    /// recording of its own, which replays and opens alone: its steps are counted from 0 at its
    /// first key frame, its frames keep the world clock. Returns the bytes written. The recording
    /// goes on. Refused when not recording to a flight recorder (`InvalidArgument`); a write that
    /// fails is `WriteFailed` (what was written is not a recording). When memory ran out for the
    /// window, the recorder let it go and starts again at its next key frame (every `seconds` / 8):
    /// until then a save is `OutOfMemory`.
    pub fn save_flight_recording(&mut self, out: &mut dyn Write) -> Result<u64> {
        let rec = self.recorder.as_deref_mut().ok_or_else(|| invalid("this world is not recording"))?;
        let (Some(flight), Some(sink)) = (&rec.flight, &mut rec.sink) else {
            return Err(invalid("this world's recording is not a flight recorder (RecordTo::Flight)"));
        };
        sink.sync(&mut rec.out.bytes, flight.clock);
        let ring = flight.ring.lock().unwrap_or_else(|e| e.into_inner());
        ring.write_window(out).map_err(|e| match e.kind() {
            std::io::ErrorKind::OutOfMemory => Error::OutOfMemory(e.to_string()),
            _ => Error::WriteFailed(format!("the flight recording: {e}")),
        })
    }

    /// Bytes the flight recorder holds (`None` when not recording to one): its window, at most
    /// one segment more, and the steps not yet handed to its thread.
    pub fn flight_recorder_bytes(&self) -> Option<usize> {
        let rec = self.recorder.as_deref()?;
        let flight = rec.flight.as_ref()?;
        let held = flight.ring.lock().unwrap_or_else(|e| e.into_inner()).held();
        Some(held + rec.out.len())
    }

    /// Every agent forgets what blocked its rays (see `blockers`): a snapshot does not hold it,
    /// so a world loaded from a recording's START starts without; the recorded world must too,
    /// or a Why could name another of two overlapping occluders than its replay does.
    fn forget_blockers(&mut self) {
        for entry in self.agents.entries_mut() {
            entry.value.blockers = Default::default();
        }
    }

    /// At a flight recorder's key frame an eighth of its window after the last cut: a fresh
    /// START and SCENE begin a segment, which a saved window can begin with.
    fn cut_flight_segment(&mut self, rec: &mut Recorder, dt: f32) {
        let (Some(flight), Some(sink)) = (&mut rec.flight, &mut rec.sink) else { return };
        flight.clock += dt as f64;
        if !rec.steps.is_multiple_of(delta::KEY_FRAME_EVERY) || flight.clock - flight.last_cut < flight.every {
            return;
        }
        // A snapshot refused for want of memory: the cut waits for a later key frame.
        let Ok(save) = self.save() else { return };
        flight.last_cut = flight.clock;
        sink.hand_over(&mut rec.out.bytes, flight.clock, true);
        sink.cut_next(flight.clock, rec.steps);
        rec.out.start(&save);
        let version = rec.written.version;
        rec.out.chunk(ChunkKind::Scene, |w| scene::write_scene(self, scene::SceneWalk::InForce, version, w));
        rec.out.chunk(ChunkKind::Names, |w| names::write(w, self.labels().collect::<Vec<_>>().into_iter()));
        rec.restarted(self.influence_map_ids());
        self.forget_blockers();
    }

    pub(crate) fn influence_map_ids(&self) -> Vec<InfluenceMapId> {
        self.maps.iter().map(|(i, _)| InfluenceMapId { index: i, generation: self.maps.generation_at(i) }).collect()
    }

    /// Writes the whole state of each map changed through `influence_map_mut` (an INPUT each).
    fn flush_map_states(&mut self) {
        let Some(rec) = self.recorder.as_deref_mut() else { return };
        for id in std::mem::take(&mut rec.maps_state) {
            if let Some(map) = self.maps.get(id.index, id.generation) {
                rec.out.chunk(ChunkKind::Input, |w| inputs::write_map_state(w, id, map));
            }
        }
    }

    /// Hook: a step completed; `hits` are the engine's answers (empty for built-in rays).
    pub(crate) fn record_step(&mut self, dt: f32, hits: &[RayHit]) {
        if self.recorder.is_none() {
            return;
        }
        self.flush_map_states();
        // The recorder is taken out of the world while the world is read.
        let mut rec = self.recorder.take().expect("checked");
        // The sink's thread resolves the traces it takes; a replay's are written here.
        if rec.sink.is_none() {
            self.resolve_traces();
        }
        let mut out = std::mem::take(&mut rec.out);
        let world: &World = self;
        out.chunk(ChunkKind::Step, |w| {
            w.f32(dt);
            w.u32(hits.len() as u32);
            for h in hits {
                w.u8(h.hit as u8);
                w.bytes(&[0; 3]);
                w.f32(h.distance);
            }
        });
        if rec.scene_dirty {
            let version = rec.written.version;
            out.chunk(ChunkKind::Scene, |w| scene::write_scene(world, scene::SceneWalk::Unsaid, version, w));
        }
        let tactics = std::mem::take(&mut *rec.tactics.lock().unwrap_or_else(|e| e.into_inner()));
        let mut holes = deferred::Holes { chunk_at: out.len(), ..Default::default() };
        let deferring = rec.sink.is_some();
        let frame_holes = deferring.then_some(&mut holes);
        out.chunk(ChunkKind::Frame, |w| frame::write_frame(world, &mut rec, dt, &tactics, w, frame_holes));
        rec.out = out;
        // The Beliefs section wrote what was made before this frame.
        self.beliefs.iter_mut().for_each(|h| h.belief.unrecorded = false);
        rec.last_frame = holes.chunk_at + writer::CHUNK_HEADER;
        if let Some(sink) = &mut rec.sink {
            // The frame's events, Memory and Why are written on the sink's thread, from a copy of
            // the events, and the sweep's traces and the memory captured (swapped for emptied
            // ones).
            let mut frame = sink.frame();
            frame.holes = holes;
            frame.events.clone_from(&self.events);
            self.swap_traces(&mut frame.traces);
            rec.ticks.swap_order(&mut frame.ticks);
            self.swap_captured_memory(&mut frame.memory);
            rec.written.swap_memory_order(&mut frame.memory_order);
            sink.defer(frame);
            let clock = rec.flight.as_ref().map_or(0.0, |f| f.clock + dt as f64);
            sink.hand_over(&mut rec.out.bytes, clock, false);
        }
        rec.steps += 1;
        rec.touched_agents.fill(0);
        rec.touched_targets.fill(0);
        rec.scene_dirty = false;
        rec.maps_changed.clear();
        rec.maps_gone.clear();
        self.cut_flight_segment(&mut rec, dt);
        self.recorder = Some(rec);
    }

    /// Hook: an input call succeeded; `write` writes its arguments after the call code.
    pub(crate) fn record_input(&mut self, call: u16, write: impl FnOnce(&mut Writer)) {
        if let Some(rec) = self.recorder.as_deref_mut() {
            rec.out.chunk(ChunkKind::Input, |w| {
                w.u16(call);
                w.u16(0);
                write(w);
            });
        }
    }

    /// Hook: an input call succeeded; `write` writes its arguments as the world kept them (a
    /// def normalised by the call, say): the recorded input is what the world kept, not what
    /// the caller passed, so the replay's readers (the snapshot's, which hold directions and
    /// rotations to unit length) accept every recording of an accepted call.
    pub(crate) fn record_kept(&mut self, call: u16, write: impl FnOnce(&World, &mut Writer)) {
        let Some(mut rec) = self.recorder.take() else { return };
        rec.out.chunk(ChunkKind::Input, |w| {
            w.u16(call);
            w.u16(0);
            write(self, w);
        });
        self.recorder = Some(rec);
    }

    /// Hook: a label was set (empty: removed).
    pub(crate) fn record_label(&mut self, thing: crate::world::Labelled, label: &str) {
        if let Some(rec) = self.recorder.as_deref_mut() {
            rec.out.chunk(ChunkKind::Names, |w| names::write(w, std::iter::once((thing, label))));
        }
    }

    /// Hook: an input changed agent `index` (its pose, settings, brain or memory).
    pub(crate) fn record_agent_touched(&mut self, index: u32) {
        if let Some(rec) = self.recorder.as_deref_mut() {
            crate::bits::set_bit(&mut rec.touched_agents, index, true);
        }
    }

    /// Hook: an input created, changed or destroyed target `index`.
    pub(crate) fn record_target_touched(&mut self, index: u32) {
        if let Some(rec) = self.recorder.as_deref_mut() {
            crate::bits::set_bit(&mut rec.touched_targets, index, true);
        }
    }

    /// Hook: an occluder was added, removed, moved or re-layered.
    pub(crate) fn record_scene_changed(&mut self) {
        if let Some(rec) = self.recorder.as_deref_mut() {
            rec.scene_dirty = true;
        }
    }

    /// Hook: a snapshot replaced the world's state (`load_into`): a fresh START.
    pub(crate) fn record_loaded(&mut self, old_maps: Vec<InfluenceMapId>) {
        let Some(save) = self.recorder.is_some().then(|| self.save()) else { return };
        let Ok(save) = save else { return };
        let ids = self.influence_map_ids();
        let rec = self.recorder.as_deref_mut().expect("checked");
        let (mut out, version) = (std::mem::take(&mut rec.out), rec.written.version);
        out.start(&save);
        out.chunk(ChunkKind::Scene, |w| scene::write_scene(self, scene::SceneWalk::InForce, version, w));
        out.chunk(ChunkKind::Names, |w| names::write(w, self.labels().collect::<Vec<_>>().into_iter()));
        let rec = self.recorder.as_deref_mut().expect("checked");
        rec.out = out;
        rec.maps_gone.extend(old_maps.into_iter().filter(|id| !ids.contains(id)));
        rec.restarted(ids);
    }

    /// Hook: a map was created, changed or destroyed.
    pub(crate) fn record_map(&mut self, id: InfluenceMapId, state: bool, destroyed: bool) {
        if let Some(rec) = self.recorder.as_deref_mut() {
            if destroyed {
                rec.maps_state.retain(|&m| m != id);
                rec.maps_changed.retain(|&m| m != id);
                rec.maps_gone.push(id);
            } else {
                rec.map_touched(id, state);
            }
        }
    }

    /// Hook for `&self` tactical queries: keeps their answers for the next frame's Tactics.
    pub(crate) fn record_tactic(
        &self,
        kind: u8,
        position: crate::math::Vec3,
        results: &[crate::tactics::TacticalResult],
    ) {
        if let Some(rec) = self.recorder.as_deref() {
            let mut guard = rec.tactics.lock().unwrap_or_else(|e| e.into_inner());
            let (count, bytes) = &mut *guard;
            *count += 1;
            frame::write_tactic(bytes, kind, position, results);
        }
    }
}

/// A recording refused: truncated, damaged, or not a recording.
pub(crate) fn bad(why: impl Into<String>) -> Error {
    Error::BadSnapshot(format!("recording: {}", why.into()))
}
