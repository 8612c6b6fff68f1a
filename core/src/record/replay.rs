//! Replaying a recording: the world rebuilt from START, every input applied again, every step
//! run again, and each step's outputs compared byte for byte with the recorded FRAME.

use std::ops::Range;

use super::frame::{FRAME_HEADER, SECTIONS, TACTICS, split};
use super::inputs::{Applied, apply};
use super::writer::{CHUNK_HEADER, ChunkKind, FILE_HEADER};
use super::{FORMAT_VERSION, MAGIC, OLDEST_FORMAT_VERSION, bad, names};
use crate::error::{Error, Result};
use crate::rays::RayHit;
use crate::snapshot::codec::checksum;
use crate::world::World;

/// A recording being replayed (see the module documentation).
pub struct Replay {
    bytes: Vec<u8>,
    chunks: Chunks,
    cursor: usize,
    world: World,
    steps: u32,
    done: u32,
    /// The recording's format version (its frames are written again in it).
    version: u32,
}

impl std::fmt::Debug for Replay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replay").field("steps", &self.steps).field("done", &self.done).finish()
    }
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// The chunks of a recording up to its END, and END's offset; every bound checked.
/// Each chunk before END: its kind and payload.
type Chunks = Vec<(ChunkKind, Range<usize>)>;

/// The first format written by libraries that search walk grids in buckets (see
/// `FloodScratch::grids_by_heap`).
const GRID_BUCKETS_SINCE: u32 = 6;

/// A recording's format version, refused unless this library reads it.
fn version_of(bytes: &[u8]) -> Result<u32> {
    if bytes.len() < FILE_HEADER {
        return Err(bad(format!("{} bytes is too short for a recording", bytes.len())));
    }
    if &bytes[..8] != MAGIC {
        return Err(bad("not an Argus recording (bad magic)"));
    }
    let version = le32(bytes, 8);
    if !(OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(bad(format!(
            "format version {version} is not supported (this library reads {OLDEST_FORMAT_VERSION} to {FORMAT_VERSION})"
        )));
    }
    Ok(version)
}

fn walk(bytes: &[u8]) -> Result<(Chunks, Option<usize>)> {
    version_of(bytes)?;
    let mut chunks = Vec::new();
    let mut at = FILE_HEADER;
    while at < bytes.len() {
        if bytes.len() - at < CHUNK_HEADER {
            return Err(bad(format!("truncated: a chunk header at offset {at} is cut short")));
        }
        let kind =
            ChunkKind::of(bytes[at]).ok_or_else(|| bad(format!("unknown chunk kind {} at offset {at}", bytes[at])))?;
        let length = le32(bytes, at + 4) as usize;
        let start = at + CHUNK_HEADER;
        let end = start.checked_add(length).filter(|&e| e <= bytes.len()).ok_or_else(|| {
            bad(format!("truncated: the chunk at offset {at} runs {length} bytes past the end of the file"))
        })?;
        if kind == ChunkKind::End {
            // The checksum covers the bytes before END only: its own pad is checked here.
            if bytes[at + 1..at + 4] != [0; 3] {
                return Err(bad(format!("the END chunk at offset {at} has non-zero pad bytes")));
            }
            return Ok((chunks, Some(at)));
        }
        chunks.push((kind, start..end));
        at = end;
    }
    Ok((chunks, None))
}

/// Rewrites a recording's END (chunk count and checksum) after its chunks were edited, so that a
/// fuzzer's damage reaches the parser instead of stopping at the checksum. Not needed by games.
#[doc(hidden)]
pub fn reseal(bytes: &mut [u8]) {
    if let Ok((chunks, Some(end))) = walk(bytes)
        && bytes.len() == end + CHUNK_HEADER + 16
    {
        let sum = checksum(&bytes[..end]);
        bytes[end + 12..end + 16].copy_from_slice(&(chunks.len() as u32).to_le_bytes());
        bytes[end + 16..end + 24].copy_from_slice(&sum.to_le_bytes());
    }
}

impl Replay {
    /// Checks a recording (magic, version, every chunk's bounds, END, checksum) and rebuilds
    /// the world of its START. Anything wrong is `Error::BadSnapshot` with a message saying what.
    pub fn new(bytes: &[u8]) -> Result<Replay> {
        let (chunks, end) = walk(bytes)?;
        let end = end.ok_or_else(|| bad("truncated: no END chunk (the recording did not finish)"))?;
        if bytes.len() - end != CHUNK_HEADER + 16 || le32(bytes, end + 4) != 16 {
            return Err(bad("the END chunk is malformed or followed by more bytes"));
        }
        let payload = &bytes[end + CHUNK_HEADER..];
        let (steps, count) = (le32(payload, 0), le32(payload, 4));
        let sum = u64::from_le_bytes(payload[8..16].try_into().expect("8 bytes"));
        if checksum(&bytes[..end]) != sum {
            return Err(bad("checksum mismatch: the data is damaged"));
        }
        if count as usize != chunks.len() {
            return Err(bad(format!("END counts {count} chunks, {} are present", chunks.len())));
        }
        let step_chunks = chunks.iter().filter(|(k, _)| *k == ChunkKind::Step).count();
        if steps as usize != step_chunks {
            return Err(bad(format!("END counts {steps} steps, {step_chunks} are present")));
        }
        let Some((ChunkKind::Start, first)) = chunks.first().cloned() else {
            return Err(bad("the first chunk is not START"));
        };
        let mut world = World::load(&bytes[first]).map_err(|e| bad(format!("its START snapshot is refused: {e}")))?;
        // The labels in force when recording started (the NAMES among the chunks that follow
        // START before any input but the options): a world rebuilt at step 0 has them too. The
        // first `next_step` applies them again, to the same effect.
        for (kind, range) in &chunks[1..] {
            let options = |p: &[u8]| p.len() >= 2 && u16::from_le_bytes([p[0], p[1]]) == super::inputs::call::OPTIONS;
            match kind {
                ChunkKind::Names => names::apply(&mut world, &bytes[range.clone()])?,
                ChunkKind::Scene => {}
                ChunkKind::Input if options(&bytes[range.clone()]) => {}
                _ => break,
            }
        }
        let version = version_of(bytes)?;
        // Recorded by a library that searched walk grids with a heap: its walks that tie went
        // their own way, and the percepts name their doorways.
        world.walk_hearing.flood.grids_by_heap = version < GRID_BUCKETS_SINCE;
        Ok(Replay { bytes: bytes.to_vec(), chunks, cursor: 1, world, steps, done: 0, version })
    }

    /// Steps in the recording.
    pub fn step_count(&self) -> u32 {
        self.steps
    }

    /// Steps replayed so far.
    pub fn steps_done(&self) -> u32 {
        self.done
    }

    /// The replayed world, as of the last step replayed.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Applies the next step's inputs and the step, and compares the step's outputs with the
    /// recorded FRAME. `Ok(false)` when no step is left (the inputs after the last step are
    /// then applied). A difference is `Error::ReplayMismatch` naming the step and the section.
    pub fn next_step(&mut self) -> Result<bool> {
        let step = self.done;
        while self.cursor < self.chunks.len() {
            let (kind, range) = self.chunks[self.cursor].clone();
            self.cursor += 1;
            let payload = &self.bytes[range];
            match kind {
                ChunkKind::Start => self
                    .world
                    .load_into(payload)
                    .map_err(|e| bad(format!("a START snapshot before step {step} is refused: {e}")))?,
                ChunkKind::Scene => {}
                ChunkKind::Names => names::apply(&mut self.world, payload).map_err(|e| match e {
                    Error::BadSnapshot(m) => {
                        let m = m.strip_prefix("recording: ").unwrap_or(&m);
                        bad(format!("a NAMES chunk before step {step} is refused: {m}"))
                    }
                    e => e,
                })?,
                // Every damage found here names the step it comes before (the reader's own
                // messages start with "recording: " too: that prefix is said once).
                ChunkKind::Input => match apply(&mut self.world, payload, self.bytes.len()).map_err(|e| match e {
                    Error::BadSnapshot(m) => {
                        let m = m.strip_prefix("recording: ").unwrap_or(&m);
                        bad(format!("an input before step {step} is malformed: {m}"))
                    }
                    e => e,
                })? {
                    Applied::Done => {}
                    Applied::Options(options) if !self.world.is_recording() => {
                        self.world.begin_recording(&options, None).map_err(|e| refused(e, step, "options"))?;
                        let rec = self.world.recorder.as_deref_mut().expect("just started");
                        rec.written.version = self.version;
                    }
                    Applied::Options(_) => {
                        return Err(bad(format!("recording options given twice (before step {step})")));
                    }
                    Applied::Refused(Some(e)) => return Err(refused(e, step, "input")),
                    Applied::Refused(None) => return Err(Error::ReplayMismatch { step, section: "input" }),
                },
                ChunkKind::Step => return self.step(payload.to_vec()).map(|_| true),
                ChunkKind::Frame => return Err(bad(format!("a FRAME without its STEP (step {})", self.done))),
                ChunkKind::End => unreachable!("END is not listed"),
            }
        }
        Ok(false)
    }

    /// Replays every step left; the first mismatch or damage ends it with its error.
    pub fn run_to_end(&mut self) -> Result<()> {
        while self.next_step()? {}
        Ok(())
    }

    fn step(&mut self, payload: Vec<u8>) -> Result<()> {
        let step = self.done;
        let mismatch = |section: &'static str| Error::ReplayMismatch { step, section };
        if payload.len() < 8 {
            return Err(bad(format!("the STEP of step {step} is cut short")));
        }
        let dt = f32::from_le_bytes(payload[0..4].try_into().expect("4 bytes"));
        let n = le32(&payload, 4) as usize;
        if (payload.len() - 8) / 8 != n || !(payload.len() - 8).is_multiple_of(8) {
            return Err(bad(format!("the STEP of step {step} does not hold its {n} ray answers")));
        }
        let hits: Vec<RayHit> = payload[8..]
            .chunks_exact(8)
            .map(|h| RayHit { hit: h[0] != 0, distance: f32::from_le_bytes(h[4..8].try_into().expect("4 bytes")) })
            .collect();
        let Some(rec) = self.world.recorder.as_deref_mut() else {
            return Err(bad(format!("no recording options before step {step}")));
        };
        rec.out.bytes.clear();
        if hits.is_empty() {
            self.world.step(dt).map_err(|e| refused(e, step, "step"))?;
        } else {
            self.world.begin_step(dt).map_err(|e| refused(e, step, "step"))?;
            if let Err(e) = self.world.finish_step(&hits) {
                self.world.cancel_step();
                return Err(refused(e, step, "rays"));
            }
        }
        // What followed the STEP: maybe a SCENE, then the FRAME.
        let mut recorded_scene = None;
        if let Some((ChunkKind::Scene, r)) = self.chunks.get(self.cursor) {
            recorded_scene = Some(r.clone());
            self.cursor += 1;
        }
        let Some((ChunkKind::Frame, frame)) = self.chunks.get(self.cursor).cloned() else {
            return Err(bad(format!("step {step} has no FRAME")));
        };
        self.cursor += 1;
        let rec = self.world.recorder.as_deref().expect("recording");
        let out = &rec.out.bytes;
        let mine = &out[rec.last_frame..];
        let scene_at = find_chunk(out, ChunkKind::Scene);
        match (recorded_scene, scene_at) {
            (None, None) => {}
            (Some(r), Some(s)) if self.bytes[r.clone()] == out[s.clone()] => {}
            _ => return Err(mismatch("scene")),
        }
        let theirs = &self.bytes[frame];
        let (Some(a), Some(b)) = (split(theirs, self.version), split(mine, self.version)) else {
            return Err(bad(format!("the FRAME of step {step} is malformed")));
        };
        if theirs[..FRAME_HEADER] != mine[..FRAME_HEADER] {
            return Err(mismatch("frame header"));
        }
        for k in 0..SECTIONS.len() {
            if k != TACTICS && theirs[a[k].clone()] != mine[b[k].clone()] {
                return Err(mismatch(SECTIONS[k]));
            }
        }
        self.done += 1;
        Ok(())
    }
}

/// A replayed call or step that the world refused. The recorded world accepted it, so a refusal
/// of what it was given means this replay differs from the recording (a mismatch); a shortage
/// of memory is the host's, not the recording's, and keeps its own error, naming the step.
fn refused(e: Error, step: u32, section: &'static str) -> Error {
    match e {
        Error::OutOfMemory(m) => Error::OutOfMemory(format!("replaying step {step}: {m}")),
        _ => Error::ReplayMismatch { step, section },
    }
}

/// The payload of the first chunk of `kind` in a run of chunks (written by this library).
fn find_chunk(bytes: &[u8], kind: ChunkKind) -> Option<Range<usize>> {
    let mut at = 0;
    while at + CHUNK_HEADER <= bytes.len() {
        let end = at + CHUNK_HEADER + le32(bytes, at + 4) as usize;
        if bytes[at] == kind as u8 {
            return Some(at + CHUNK_HEADER..end);
        }
        at = end;
    }
    None
}

/// Test hook: each FRAME's Hearing section (format 5), its records parsed (see
/// `hearing::HearingRecord`); `None` when the recording or a frame is malformed.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub fn hearing_sections(bytes: &[u8]) -> Option<Vec<Vec<super::hearing::HearingRecord>>> {
    let version = version_of(bytes).ok()?;
    let (chunks, _) = walk(bytes).ok()?;
    let frames = chunks.iter().filter(|(kind, _)| *kind == ChunkKind::Frame);
    frames
        .map(|(_, r)| super::hearing::parse(&bytes[r.clone()][split(&bytes[r.clone()], version)?[15].clone()]))
        .collect()
}

/// Test hook: each FRAME's header and sections (as many as its format has: 17 from format 6),
/// their bytes each with its count; `None` when the recording or a frame is malformed.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub fn frame_sections(bytes: &[u8]) -> Option<Vec<Vec<Vec<u8>>>> {
    let version = version_of(bytes).ok()?;
    let (chunks, _) = walk(bytes).ok()?;
    let frames = chunks.iter().filter(|(kind, _)| *kind == ChunkKind::Frame);
    frames
        .map(|(_, r)| {
            let frame = &bytes[r.clone()];
            let sections = split(frame, version)?;
            let mut out = vec![frame[..FRAME_HEADER].to_vec()];
            let count = super::frame::section_count(version);
            out.extend(sections[..count].iter().map(|s| frame[s.clone()].to_vec()));
            Some(out)
        })
        .collect()
}
