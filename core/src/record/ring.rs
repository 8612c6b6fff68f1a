//! The flight recorder's ring: the last seconds of a recording, kept as segments that each begin
//! at a cut (a `START` snapshot and its `SCENE`, written before a key frame), so that the newest
//! segments are a recording of their own once a file header, the options and an `END` are put
//! around them. Old segments are dropped as soon as the newer ones cover the window, so memory
//! holds the window and at most one segment more.

use std::collections::VecDeque;
use std::io::{self, Write};

use super::writer::{CHUNK_HEADER, ChunkKind};
use super::{FORMAT_VERSION, MAGIC};
use crate::snapshot::codec::{CHECKSUM_START, checksum_on};

/// Where a FRAME payload's `u32 step` lies (after its `f64 time`).
const FRAME_STEP_AT: usize = 8;

struct Segment {
    bytes: Vec<u8>,
    /// The recording's clock (seconds stepped) at its cut.
    time: f64,
    /// The recording's step number at its cut (a multiple of the key frame interval, so that the
    /// key frames of a window counted from 0 there fall where they fell in the recording).
    first_step: u32,
    /// Bytes of its leading START and SCENE (the options go after them when it opens a window).
    head: usize,
    steps: u32,
    chunks: u32,
}

pub(crate) struct Ring {
    seconds: f64,
    /// The options INPUT chunk, whole: a window's first segment is followed by it.
    options: Vec<u8>,
    segments: VecDeque<Segment>,
    /// The recording's clock at the newest bytes.
    now: f64,
    /// Bytes of the newest segment already walked for their chunk and step counts.
    counted: usize,
    /// Why the ring holds nothing since its last cut: memory ran out (see `append`).
    lost: Option<String>,
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

impl Ring {
    pub fn new(seconds: f64, options: Vec<u8>) -> Ring {
        Ring { seconds, options, segments: VecDeque::new(), now: 0.0, counted: 0, lost: None }
    }

    /// Starts a segment at a cut: `time` the recording's clock, `first_step` its step.
    pub fn begin_segment(&mut self, time: f64, first_step: u32) {
        let segment = Segment { bytes: Vec::new(), time, first_step, head: 0, steps: 0, chunks: 0 };
        self.segments.push_back(segment);
        self.counted = 0;
        self.lost = None;
    }

    /// Appends whole chunks to the newest segment (`write` adds them, at most `room` bytes) and
    /// counts them; then drops the oldest segments that the newer ones no longer need to cover
    /// the window. When memory runs out for them, every segment is let go (their bytes are no
    /// window without the newest) and the recorder starts over at the next cut, keeping why
    /// until then.
    pub fn append(&mut self, now: f64, room: usize, write: impl FnOnce(&mut Vec<u8>)) {
        self.now = now;
        let Some(seg) = self.segments.back_mut() else { return };
        if let Err(e) = super::sink::grow(&mut seg.bytes, room) {
            let held = self.held();
            self.lost = Some(format!(
                "the flight recorder ran out of memory holding {held} bytes ({e}); it starts again at its next key frame"
            ));
            self.segments.clear();
            return;
        }
        write(&mut seg.bytes);
        let mut at = self.counted;
        while at + CHUNK_HEADER <= seg.bytes.len() {
            let kind = seg.bytes[at];
            if at == seg.head && seg.chunks < 2 && (kind == ChunkKind::Start as u8 || kind == ChunkKind::Scene as u8) {
                seg.head = at + CHUNK_HEADER + le32(&seg.bytes, at + 4) as usize;
            }
            seg.steps += (kind == ChunkKind::Step as u8) as u32;
            seg.chunks += 1;
            at += CHUNK_HEADER + le32(&seg.bytes, at + 4) as usize;
        }
        self.counted = at;
        while self.segments.len() > 1 && self.segments[1].time <= self.now - self.seconds {
            self.segments.pop_front();
        }
    }

    /// Bytes held.
    pub fn held(&self) -> usize {
        self.segments.iter().map(|s| s.bytes.len()).sum()
    }

    /// Writes the window (every segment held: the oldest starts at or before `seconds` ago once
    /// the recording is that long) as a recording of its own, its steps counted from 0 at its
    /// first cut; returns the bytes written.
    pub fn write_window(&self, out: &mut dyn Write) -> io::Result<u64> {
        let Some(first) = self.segments.front() else {
            return Err(match &self.lost {
                Some(why) => io::Error::new(io::ErrorKind::OutOfMemory, why.clone()),
                None => io::Error::other("the flight recorder holds no step yet"),
            });
        };
        let mut sink = Summed { out, sum: CHECKSUM_START, written: 0 };
        let mut header = Vec::with_capacity(16);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        sink.put(&header)?;
        sink.put(&first.bytes[..first.head])?;
        sink.put(&self.options)?;
        let (mut steps, mut chunks) = (0u32, 1u32);
        for (k, seg) in self.segments.iter().enumerate() {
            let from = if k == 0 { first.head } else { 0 };
            renumbered(&seg.bytes, from, first.first_step, &mut sink)?;
            steps += seg.steps;
            chunks += seg.chunks;
        }
        let mut end = Vec::with_capacity(CHUNK_HEADER + 16);
        end.extend_from_slice(&[ChunkKind::End as u8, 0, 0, 0]);
        end.extend_from_slice(&16u32.to_le_bytes());
        end.extend_from_slice(&steps.to_le_bytes());
        end.extend_from_slice(&chunks.to_le_bytes());
        end.extend_from_slice(&sink.sum.to_le_bytes());
        sink.out.write_all(&end)?;
        sink.out.flush()?;
        Ok(sink.written + end.len() as u64)
    }
}

/// A writer that keeps the checksum and the count of what passed through it.
struct Summed<'a> {
    out: &'a mut dyn Write,
    sum: u64,
    written: u64,
}

impl Summed<'_> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.sum = checksum_on(self.sum, bytes);
        self.written += bytes.len() as u64;
        self.out.write_all(bytes)
    }
}

/// Writes `bytes[from..]` (whole chunks) with each FRAME's step less `base`, in long runs.
fn renumbered(bytes: &[u8], from: usize, base: u32, sink: &mut Summed<'_>) -> io::Result<()> {
    let (mut at, mut run) = (from, from);
    while at + CHUNK_HEADER <= bytes.len() {
        let length = le32(bytes, at + 4) as usize;
        if bytes[at] == ChunkKind::Frame as u8 && length >= FRAME_STEP_AT + 4 {
            let step_at = at + CHUNK_HEADER + FRAME_STEP_AT;
            sink.put(&bytes[run..step_at])?;
            sink.put(&(le32(bytes, step_at) - base).to_le_bytes())?;
            run = step_at + 4;
        }
        at += CHUNK_HEADER + length;
    }
    sink.put(&bytes[run..])
}
