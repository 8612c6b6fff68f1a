//! The recording's byte writer: little-endian values, chunks (`u8 kind`, `u8[3] pad`,
//! `u32 length`, payload), the header and the END chunk.

use crate::agent::AgentDef;
use crate::hearing::SoundDef;
use crate::influence::{InfluenceMapDef, Plane};
use crate::math::{Quat, Vec3};
use crate::occluders::OccluderDef;
use crate::snapshot::codec::Writer as SnapWriter;
use crate::snapshot::codec::checksum;
use crate::snapshot::parts;
use crate::target::TargetDef;
use std::ops::{Deref, DerefMut};

/// Bytes of a chunk's header.
pub(crate) const CHUNK_HEADER: usize = 8;
/// Bytes of the file header (magic, version, flags).
pub(crate) const FILE_HEADER: usize = 16;

/// The chunk kinds of `docs/recording.md`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum ChunkKind {
    Start = 1,
    Scene = 2,
    Input = 3,
    Step = 4,
    Frame = 5,
    Names = 6,
    End = 255,
}

impl ChunkKind {
    pub fn of(v: u8) -> Option<ChunkKind> {
        Some(match v {
            1 => ChunkKind::Start,
            2 => ChunkKind::Scene,
            3 => ChunkKind::Input,
            4 => ChunkKind::Step,
            5 => ChunkKind::Frame,
            6 => ChunkKind::Names,
            255 => ChunkKind::End,
            _ => return None,
        })
    }
}

/// The snapshot codec's little-endian writer (its `u8` … `vec3` through `Deref`), counting the
/// chunks written.
#[derive(Default)]
pub(crate) struct Writer {
    out: SnapWriter,
    pub chunks: u32,
}

impl Deref for Writer {
    type Target = SnapWriter;
    fn deref(&self) -> &SnapWriter {
        &self.out
    }
}

impl DerefMut for Writer {
    fn deref_mut(&mut self) -> &mut SnapWriter {
        &mut self.out
    }
}

/// An id as the C ABI's 8 bytes read as one `u64`: index, world tag (0: the core has none),
/// generation.
pub(crate) fn id_bits(index: u32, generation: u32) -> u64 {
    index as u64 | (generation as u64 & 0xFFFF) << 48
}

impl Writer {
    /// A writer appending to `bytes`.
    pub fn appending(bytes: Vec<u8>) -> Writer {
        Writer { out: SnapWriter::from_bytes(bytes), chunks: 0 }
    }
    pub fn into_bytes(self) -> Vec<u8> {
        self.out.bytes
    }
    pub fn len(&self) -> usize {
        self.bytes.len()
    }
    pub fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }
    /// Any of the core's ids, as [`id_bits`].
    pub fn id(&mut self, index: u32, generation: u32) {
        self.u64(id_bits(index, generation));
    }

    /// A chunk whose payload `body` writes.
    pub fn chunk(&mut self, kind: ChunkKind, body: impl FnOnce(&mut Writer)) {
        let at = self.bytes.len();
        self.bytes.extend_from_slice(&[kind as u8, 0, 0, 0, 0, 0, 0, 0]);
        body(self);
        let length = (self.bytes.len() - at - CHUNK_HEADER) as u32;
        self.bytes[at + 4..at + 8].copy_from_slice(&length.to_le_bytes());
        self.chunks += 1;
    }

    pub fn header(&mut self) {
        self.bytes(super::MAGIC);
        self.u32(super::FORMAT_VERSION);
        self.u32(0);
    }

    /// A START chunk holding a snapshot.
    pub fn start(&mut self, snapshot: &[u8]) {
        self.chunk(ChunkKind::Start, |w| w.bytes(snapshot));
    }

    /// Appends END (step count, chunk count, checksum of everything before it).
    pub fn finish(self, steps: u32) -> Vec<u8> {
        let sum = checksum(&self.bytes);
        self.finish_summed(steps, sum)
    }

    /// [`Writer::finish`] when `sum` is already the checksum of every byte written.
    pub fn finish_summed(mut self, steps: u32, sum: u64) -> Vec<u8> {
        let chunks = self.chunks;
        self.chunk(ChunkKind::End, |w| {
            w.u32(steps);
            w.u32(chunks);
            w.u64(sum);
        });
        self.into_bytes()
    }
}

/// One fixed-size record built on the stack, then appended in one copy (the frame's records:
/// thousands per step, so not field by field into the vector).
pub(crate) struct Rec<const N: usize> {
    pub buf: [u8; N],
    at: usize,
}

impl<const N: usize> Rec<N> {
    #[inline(always)]
    pub fn new() -> Self {
        Rec { buf: [0; N], at: 0 }
    }
    #[inline(always)]
    fn put<const K: usize>(&mut self, b: [u8; K]) -> &mut Self {
        self.buf[self.at..self.at + K].copy_from_slice(&b);
        self.at += K;
        self
    }
    #[inline(always)]
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.put([v])
    }
    #[inline(always)]
    pub fn pad(&mut self, n: usize) -> &mut Self {
        self.at += n;
        self
    }
    #[inline(always)]
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.put(v.to_le_bytes())
    }
    #[inline(always)]
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.put(v.to_le_bytes())
    }
    #[inline(always)]
    pub fn vec3(&mut self, v: Vec3) -> &mut Self {
        self.f32(v.x).f32(v.y).f32(v.z)
    }
    #[inline(always)]
    pub fn id(&mut self, index: u32, generation: u32) -> &mut Self {
        self.put(id_bits(index, generation).to_le_bytes())
    }
}

impl Writer {
    /// Appends a complete record.
    #[inline(always)]
    pub fn rec<const N: usize>(&mut self, r: &Rec<N>) {
        debug_assert_eq!(r.at, N, "a record's fields fill it");
        self.bytes.extend_from_slice(&r.buf);
    }
}

/// The arguments of input calls (see `inputs`).
impl Writer {
    pub fn agent_def(&mut self, d: &AgentDef) {
        self.vec3(d.position);
        self.vec3(d.forward);
        self.u32(d.team);
        self.u32(d.detect);
        let mut words = Vec::new();
        d.write_settings_words(&mut words);
        self.u32(words.len() as u32);
        words.into_iter().for_each(|v| self.u32(v));
    }
    pub fn target_def(&mut self, d: &TargetDef) {
        let mut w = SnapWriter::default();
        parts::write_target(&mut w, d);
        self.bytes(&w.bytes);
    }
    pub fn occluder_def(&mut self, d: &OccluderDef) {
        let mut w = SnapWriter::default();
        parts::write_occluder(&mut w, d);
        self.bytes(&w.bytes);
    }
    pub fn map_def(&mut self, d: &InfluenceMapDef) {
        self.u32(d.width);
        self.u32(d.height);
        self.f32(d.cell_size);
        self.vec3(d.origin);
        self.u8(matches!(d.plane, Plane::XY) as u8);
        self.u32(d.layer_count);
    }
    pub fn sound_def(&mut self, d: &SoundDef) {
        self.vec3(d.position);
        self.f32(d.loudness);
        self.id(d.source.index, d.source.generation);
        self.u32(d.team);
        self.u32(d.layers);
    }
    pub fn quat(&mut self, q: Quat) {
        [q.x, q.y, q.z, q.w].into_iter().for_each(|v| self.f32(v));
    }
    /// One entry of a bulk pose call.
    pub fn pose(&mut self, (index, generation): (u32, u32), position: Vec3, forward: Option<Vec3>) {
        self.id(index, generation);
        self.vec3(position);
        self.u8(forward.is_some() as u8);
        self.vec3(forward.unwrap_or(Vec3::ZERO));
    }
}
