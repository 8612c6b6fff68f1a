//! Memory checked before allocations that cannot fail gracefully: parry3d's tree build for a
//! mesh, and the many small allocations a snapshot's agents make. A fallible reservation of the
//! estimated size, released at once and never touched (so it costs address space for an
//! instant, not memory), tells whether that much can be had; when it cannot, the call is refused
//! instead of aborting the process part way. Buffers that can be reserved are instead given
//! their room for real (`reserve`), kept afterwards.

use crate::error::{Error, Result};
use std::collections::TryReserveError;

/// Makes `v`'s capacity at least `need` (whatever its length), fallibly; does nothing, and
/// allocates nothing, when it already is. Grows as `Vec` does (at least doubling), or by exactly
/// what is missing when doubling cannot be had.
#[inline]
pub(crate) fn reserve<T>(v: &mut Vec<T>, need: usize) -> std::result::Result<(), TryReserveError> {
    if v.capacity() >= need {
        return Ok(());
    }
    let more = need - v.len();
    v.try_reserve(more).or_else(|_| v.try_reserve_exact(more))
}

/// Refuses with `Error::OutOfMemory` unless `bytes` of memory can be reserved right now.
pub(crate) fn ensure_available(bytes: usize, what: &str) -> Result<()> {
    let mut probe: Vec<u8> = Vec::new();
    let reserved = probe.try_reserve_exact(bytes);
    // Keeps the compiler from removing the reservation as unused.
    std::hint::black_box(&probe);
    reserved.map_err(|_| out_of_memory(format_args!("{what} needs about {bytes} bytes, which are not available")))
}

/// `Error::OutOfMemory` saying `message`, its text made without risking an abort where memory has
/// run out: written into room reserved fallibly, cut short at its end, and left empty when even
/// that cannot be had.
pub(crate) fn out_of_memory(message: std::fmt::Arguments) -> Error {
    const ROOM: usize = 192;
    let mut text = String::new();
    if text.try_reserve_exact(ROOM).is_ok() {
        // An error here is only the message cut short.
        let _ = std::fmt::Write::write_fmt(&mut Bounded(&mut text), message);
    }
    Error::OutOfMemory(text)
}

/// Writes into a string's spare capacity only, never growing it.
struct Bounded<'a>(&'a mut String);

impl std::fmt::Write for Bounded<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = self.0.capacity() - self.0.len();
        if s.len() <= room {
            self.0.push_str(s);
            return Ok(());
        }
        let mut cut = room;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        self.0.push_str(&s[..cut]);
        Err(std::fmt::Error)
    }
}

/// What building a mesh occluder of `vertices` and `triangles` allocates at its peak: the copies
/// of the arrays the occluder keeps, and parry3d's triangle mesh with its BVH. Measured at 202
/// bytes per triangle (parry3d 0.31, a grid mesh with half as many vertices as triangles, so
/// about 11 times the mesh's own 24 bytes per triangle); estimated with a margin of about 40%.
pub(crate) fn mesh_build_bytes(vertices: usize, triangles: usize) -> usize {
    vertices.saturating_mul(64).saturating_add(triangles.saturating_mul(256))
}
