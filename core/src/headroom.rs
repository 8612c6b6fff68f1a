//! Memory checked before allocations that cannot fail gracefully: parry3d's tree build for a
//! mesh, and the many small allocations a snapshot's agents make. A fallible reservation of the
//! estimated size, released at once and never touched (so it costs address space for an
//! instant, not memory), tells whether that much can be had; when it cannot, the call is refused
//! instead of aborting the process part way.

use crate::error::{Error, Result};

/// Refuses with `Error::OutOfMemory` unless `bytes` of memory can be reserved right now.
pub(crate) fn ensure_available(bytes: usize, what: &str) -> Result<()> {
    let mut probe: Vec<u8> = Vec::new();
    let reserved = probe.try_reserve_exact(bytes);
    // Keeps the compiler from removing the reservation as unused.
    std::hint::black_box(&probe);
    reserved.map_err(|_| Error::OutOfMemory(format!("{what} needs about {bytes} bytes, which are not available")))
}

/// What building a mesh occluder of `vertices` and `triangles` allocates at its peak: the copies
/// of the arrays the occluder keeps, and parry3d's triangle mesh with its BVH. Measured at 202
/// bytes per triangle (parry3d 0.31, a grid mesh with half as many vertices as triangles, so
/// about 11 times the mesh's own 24 bytes per triangle); estimated with a margin of about 40%.
pub(crate) fn mesh_build_bytes(vertices: usize, triangles: usize) -> usize {
    vertices.saturating_mul(64).saturating_add(triangles.saturating_mul(256))
}
