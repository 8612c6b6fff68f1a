//! Save and load a whole world: everything needed to continue identically (occluders, agents,
//! targets, memory, brains and timers, awareness, the sight schedule, pending sounds, attitudes,
//! influence maps). Format: magic, version, payload length, payload, FNV-1a checksum; all
//! little-endian. Loading validates everything and builds a new world, so a bad snapshot is an
//! error and never a half-loaded world.

pub(crate) mod beliefs;
pub(crate) mod codec;
pub(crate) mod maps;
pub(crate) mod parts;
pub(crate) mod walk;

pub use codec::{Field, FieldKind};
use codec::{Reader, Writer, checksum};

use crate::error::{Error, Result};
use crate::world::World;

/// Offset of the payload in a snapshot (after magic, version and payload length).
pub const PAYLOAD_OFFSET: usize = HEADER_BYTES;

/// Every field of a valid snapshot's payload, in order, as the loader reads them: the map a
/// structure-aware fuzzer mutates. Not needed by games.
#[doc(hidden)]
pub fn trace_fields(bytes: &[u8]) -> Result<Vec<Field>> {
    World::load(bytes)?;
    let payload = &bytes[HEADER_BYTES..bytes.len() - 8];
    let mut reader = Reader::tracing(payload);
    parts::read_world(&mut reader)?;
    Ok(reader.into_trace())
}

/// Rewrites a snapshot's payload length and checksum after its payload was edited, so that a
/// fuzzer's damage reaches the parser instead of stopping at the checksum. Not needed by games.
#[doc(hidden)]
pub fn reseal(bytes: &mut Vec<u8>) {
    if bytes.len() < HEADER_BYTES + 8 {
        return;
    }
    bytes.truncate(bytes.len() - 8);
    let length = (bytes.len() - HEADER_BYTES) as u64;
    bytes[12..20].copy_from_slice(&length.to_le_bytes());
    let sum = checksum(bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
}

/// First bytes of every snapshot.
pub const MAGIC: &[u8; 8] = b"ARGUSSNP";
/// Format version written by this library. 2 had per-sense settings records; 3 no longer
/// carries the runtime settings (ray backend, worker threads); 4 adds the walk graph, the
/// hearing path (world and agents), occluders' sound transmission, targets' top speed, the
/// brain's belief search and the world's beliefs; 5 adds why each belief search point was
/// chosen (its tile's probability and the walk). Version 4 is still read (its search points'
/// reasons are unknown); others are refused.
pub const FORMAT_VERSION: u32 = 5;
/// The oldest snapshot format version this library reads.
pub const OLDEST_FORMAT_VERSION: u32 = 4;
const HEADER_BYTES: usize = 8 + 4 + 8;

impl World {
    /// Serialises the world. Refused while a two-phase step waits for its rays, and
    /// (`Error::OutOfMemory`, the world unchanged) when the snapshot's bytes cannot be had: a
    /// world loaded near the memory limit saves or is refused, never aborts the process.
    pub fn save(&self) -> Result<Vec<u8>> {
        if self.is_step_in_progress() {
            return Err(Error::StepInProgress);
        }
        // One buffer, written in place (the payload is not copied after its header), that
        // grows fallibly.
        let mut out = Writer::fallible();
        out.raw(MAGIC);
        out.u32(FORMAT_VERSION);
        out.u64(0);
        parts::write_world(self, &mut out);
        if !out.out_of_memory {
            let length = (out.bytes.len() - HEADER_BYTES) as u64;
            out.bytes[12..HEADER_BYTES].copy_from_slice(&length.to_le_bytes());
            let sum = checksum(&out.bytes);
            out.u64(sum);
        }
        if out.out_of_memory {
            return Err(Error::OutOfMemory(format!(
                "cannot save: the snapshot needs more than the {} bytes that could be had",
                out.bytes.len()
            )));
        }
        Ok(out.bytes)
    }

    /// Rebuilds a world from [`World::save`] output. Every truncation, corruption or unknown
    /// version is an `Error::BadSnapshot` naming the problem, and so is a snapshot too large for
    /// the memory available (allocation while loading is fallible). The new world uses the
    /// built-in ray backend on the caller's thread: a snapshot holds state, not runtime settings
    /// (use [`World::load_into`] on a world created with the runtime you want).
    pub fn load(bytes: &[u8]) -> Result<World> {
        if bytes.len() < HEADER_BYTES + 8 {
            return Err(Error::BadSnapshot(format!("{} bytes is too short for a snapshot", bytes.len())));
        }
        if &bytes[..8] != MAGIC {
            return Err(Error::BadSnapshot("not an Argus snapshot (bad magic)".into()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(sum.try_into().expect("8 bytes"));
        if checksum(body) != stored {
            return Err(Error::BadSnapshot("checksum mismatch: the data is damaged".into()));
        }
        let mut header = Reader::new(&body[8..HEADER_BYTES]);
        let version = header.u32()?;
        if !(OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(Error::BadSnapshot(format!(
                "format version {version} is not supported (this library reads {OLDEST_FORMAT_VERSION} to {FORMAT_VERSION})"
            )));
        }
        let length = header.u64()?;
        if length != (body.len() - HEADER_BYTES) as u64 {
            return Err(Error::BadSnapshot(format!(
                "payload length {length} does not match the {} bytes present",
                body.len() - HEADER_BYTES
            )));
        }
        let mut reader = Reader::new(&body[HEADER_BYTES..]);
        reader.version = version;
        let world = parts::read_world(&mut reader)?;
        if !reader.is_done() {
            return Err(Error::BadSnapshot("trailing bytes after the world".into()));
        }
        Ok(world)
    }

    /// Replaces this world's state with a snapshot's; on error nothing changes. The world keeps
    /// its own runtime settings (ray backend, worker threads and their pool): a snapshot carries
    /// state only, and is fully validated before anything of this world is touched.
    pub fn load_into(&mut self, bytes: &[u8]) -> Result<()> {
        if self.is_step_in_progress() {
            return Err(Error::StepInProgress);
        }
        let mut loaded = World::load(bytes)?;
        loaded.def.ray_backend = self.def.ray_backend;
        loaded.def.worker_threads = self.def.worker_threads;
        loaded.workers = self.workers.take();
        loaded.recorder = self.recorder.take();
        loaded.walk_hearing.flood.grids_by_heap = self.walk_hearing.flood.grids_by_heap;
        loaded.walk_version = self.walk_version + 1;
        for h in &mut loaded.beliefs {
            h.belief.graph_version = loaded.walk_version;
        }
        let old_maps = if loaded.recorder.is_some() { self.influence_map_ids() } else { Vec::new() };
        let labels = std::mem::take(&mut self.labels);
        *self = loaded;
        self.keep_labels_of_live(labels);
        self.record_loaded(old_maps);
        Ok(())
    }
}
