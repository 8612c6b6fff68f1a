//! Save and load a whole world: everything needed to continue identically (occluders, agents,
//! targets, memory, brains and timers, awareness, the sight schedule, pending sounds, attitudes,
//! influence maps). Format: magic, version, payload length, payload, FNV-1a checksum; all
//! little-endian. Loading validates everything and builds a new world, so a bad snapshot is an
//! error and never a half-loaded world.

mod codec;
mod maps;
mod parts;

use codec::{Reader, Writer, checksum};

use crate::error::{Error, Result};
use crate::world::World;

/// First bytes of every snapshot.
pub const MAGIC: &[u8; 8] = b"ARGUSSNP";
/// Format version written by this library; others are refused.
pub const FORMAT_VERSION: u32 = 2;
const HEADER_BYTES: usize = 8 + 4 + 8;

impl World {
    /// Serialises the world. Refused while a two-phase step waits for its rays.
    pub fn save(&self) -> Result<Vec<u8>> {
        if self.is_step_in_progress() {
            return Err(Error::StepInProgress);
        }
        let mut payload = Writer::default();
        parts::write_world(self, &mut payload);
        let mut out = Writer::default();
        out.bytes.extend_from_slice(MAGIC);
        out.u32(FORMAT_VERSION);
        out.u64(payload.bytes.len() as u64);
        out.bytes.extend_from_slice(&payload.bytes);
        let sum = checksum(&out.bytes);
        out.u64(sum);
        Ok(out.bytes)
    }

    /// Rebuilds a world from [`World::save`] output. Every truncation, corruption or unknown
    /// version is an `Error::BadSnapshot` naming the problem.
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
        if version != FORMAT_VERSION {
            return Err(Error::BadSnapshot(format!(
                "format version {version} is not supported (this library reads {FORMAT_VERSION})"
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
        let world = parts::read_world(&mut reader)?;
        if !reader.is_done() {
            return Err(Error::BadSnapshot("trailing bytes after the world".into()));
        }
        Ok(world)
    }

    /// Replaces this world's contents with a snapshot's; on error nothing changes.
    pub fn load_into(&mut self, bytes: &[u8]) -> Result<()> {
        if self.is_step_in_progress() {
            return Err(Error::StepInProgress);
        }
        *self = World::load(bytes)?;
        Ok(())
    }
}
