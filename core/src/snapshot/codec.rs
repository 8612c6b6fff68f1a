//! Little-endian byte writer and a bounds-checked reader: every read of untrusted bytes is
//! checked, so a corrupt snapshot is an error, never a panic or an out-of-bounds read.

use crate::error::{Error, Result};
use crate::math::{Quat, Vec3};

fn bad(why: impl Into<String>) -> Error {
    Error::BadSnapshot(why.into())
}

/// Appends little-endian values to a byte vector.
#[derive(Default)]
pub(crate) struct Writer {
    pub bytes: Vec<u8>,
    /// Growth may fail (`Writer::fallible`): a save of a world loaded near the memory limit is
    /// then refused (`World::save` checks `out_of_memory`) instead of aborting the process.
    /// Other writers (a recording's, small defs) grow as any vector does.
    fallible: bool,
    /// A fallible writer could not grow: what follows the failure was dropped.
    pub out_of_memory: bool,
}

impl Writer {
    pub fn fallible() -> Writer {
        Writer { fallible: true, ..Writer::default() }
    }
    pub fn from_bytes(bytes: Vec<u8>) -> Writer {
        Writer { bytes, ..Writer::default() }
    }
    /// Every write goes through here; only a write that needs more room leaves the fast path.
    #[inline]
    fn put(&mut self, b: &[u8]) {
        if self.bytes.capacity() - self.bytes.len() < b.len() && !self.grow(b.len()) {
            return;
        }
        self.bytes.extend_from_slice(b);
    }
    #[cold]
    fn grow(&mut self, n: usize) -> bool {
        if !self.fallible {
            return true;
        }
        // Doubling first; near the limit, an eighth more, then just enough.
        let more = n.max(self.bytes.len() / 8);
        let grown = !self.out_of_memory
            && (self.bytes.try_reserve(n).is_ok()
                || self.bytes.try_reserve_exact(more).is_ok()
                || self.bytes.try_reserve_exact(n).is_ok());
        self.out_of_memory |= !grown;
        grown
    }
    pub fn raw(&mut self, b: &[u8]) {
        self.put(b);
    }
    pub fn u8(&mut self, v: u8) {
        self.put(&[v]);
    }
    pub fn bool(&mut self, v: bool) {
        self.u8(v as u8);
    }
    pub fn u32(&mut self, v: u32) {
        self.put(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.put(&v.to_le_bytes());
    }
    pub fn f32(&mut self, v: f32) {
        self.put(&v.to_le_bytes());
    }
    pub fn f64(&mut self, v: f64) {
        self.put(&v.to_le_bytes());
    }
    pub fn vec3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
    pub fn quat(&mut self, q: Quat) {
        self.f32(q.x);
        self.f32(q.y);
        self.f32(q.z);
        self.f32(q.w);
    }
    pub fn len(&mut self, n: usize) {
        self.u32(n as u32);
    }
    pub fn str(&mut self, s: &str) {
        self.len(s.len());
        self.put(s.as_bytes());
    }
}

/// What a traced read was, for structure-aware fuzzers (see `super::trace_fields`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A byte: an enum tag, a team, a count of check points.
    U8,
    /// A 0/1 flag.
    Bool,
    /// A 32-bit integer: masks, indices, generations.
    U32,
    /// A 32-bit element count.
    Count,
    /// A 64-bit integer.
    U64,
    /// An `f32`.
    F32,
    /// An `f64` (times).
    F64,
    /// Raw bytes (names, map values, blocked cells).
    Bytes,
}

/// One field of a snapshot payload: where it starts (in the payload), how long it is, and what.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Offset from the start of the payload.
    pub offset: usize,
    /// Length in bytes.
    pub len: usize,
    /// Its type.
    pub kind: FieldKind,
}

/// Reads little-endian values, failing cleanly at the end of the input.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Every read, when tracing (fuzzers); `None` in normal loads.
    trace: Option<Vec<Field>>,
    /// The snapshot format version read (what a part of an older version lacks).
    pub version: u32,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0, trace: None, version: super::FORMAT_VERSION }
    }
    pub fn tracing(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0, trace: Some(Vec::new()), version: super::FORMAT_VERSION }
    }
    pub fn into_trace(self) -> Vec<Field> {
        self.trace.unwrap_or_default()
    }
    fn note(&mut self, len: usize, kind: FieldKind) {
        if let Some(trace) = &mut self.trace {
            // A typed read is made of one raw `take`: retag it rather than recording twice.
            match trace.last_mut() {
                Some(last) if last.offset + last.len == self.at && last.len == len && last.kind == FieldKind::Bytes => {
                    last.kind = kind
                }
                _ => trace.push(Field { offset: self.at - len, len, kind }),
            }
        }
    }
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| {
            bad(format!("truncated: needed {n} bytes at offset {}, {} left", self.at, self.bytes.len() - self.at))
        })?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        if let Some(trace) = &mut self.trace {
            trace.push(Field { offset: end - n, len: n, kind: FieldKind::Bytes });
        }
        Ok(out)
    }
    fn array<const N: usize>(&mut self, kind: FieldKind) -> Result<[u8; N]> {
        let out = self.take(N)?.try_into().expect("took N bytes");
        self.note(N, kind);
        Ok(out)
    }
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>(FieldKind::U8)?[0])
    }
    pub fn bool(&mut self) -> Result<bool> {
        match self.array::<1>(FieldKind::Bool)?[0] {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(bad(format!("flag byte {v} is neither 0 nor 1"))),
        }
    }
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(FieldKind::U32)?))
    }
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array(FieldKind::U64)?))
    }
    pub fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array(FieldKind::F32)?))
    }
    pub fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.array(FieldKind::F64)?))
    }
    pub fn vec3(&mut self) -> Result<Vec3> {
        Ok(Vec3::new(self.f32()?, self.f32()?, self.f32()?))
    }
    pub fn quat(&mut self) -> Result<Quat> {
        Ok(Quat::from_xyzw(self.f32()?, self.f32()?, self.f32()?, self.f32()?))
    }
    /// A count, refused when even `min_item_bytes` per item would overrun the input, so a
    /// forged count cannot make us allocate gigabytes.
    pub fn len(&mut self, min_item_bytes: usize) -> Result<usize> {
        let n = u32::from_le_bytes(self.array(FieldKind::Count)?) as usize;
        let left = self.bytes.len() - self.at;
        if n.saturating_mul(min_item_bytes.max(1)) > left {
            return Err(bad(format!("count {n} cannot fit in the {left} bytes left")));
        }
        Ok(n)
    }
    pub fn str(&mut self) -> Result<String> {
        let n = self.len(1)?;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| bad("a name is not UTF-8"))
    }
    pub fn finite(&mut self, what: &str) -> Result<f32> {
        let v = self.f32()?;
        if v.is_finite() { Ok(v) } else { Err(bad(format!("{what} is not finite"))) }
    }
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }
    pub fn is_done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// FNV-1a, 64-bit: any single changed byte always changes it; random damage is caught with
/// probability 1 − 2⁻⁶⁴.
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    checksum_on(CHECKSUM_START, bytes)
}

/// The checksum of nothing: [`checksum_on`] carries it over the bytes in order.
pub(crate) const CHECKSUM_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The checksum of what `hash` is the checksum of, followed by `bytes` (a stream's, in pieces).
pub(crate) fn checksum_on(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash
}
