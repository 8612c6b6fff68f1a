//! Occluders through the C ABI: boxes, spheres, capsules and triangle meshes from flat arrays.

use super::boundary::{FfiResult, check_cookie, fail, input, invalid, output, peek, slice, with_world, with_world_ref};
use super::enums::{ArgusShapeKind, RawShapeKind};
use super::types::*;
use super::user_data;
use super::world::ArgusWorld;
use argus_core::occluders::{MAX_MESH_ELEMENTS, OccluderDef, OccluderShape};

/// Everything needed to add an occluder. Fill with `argus_default_occluder_def()`; copied (the
/// mesh arrays are read during the call only).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusOccluderDef {
    /// The shape, which picks the fields read below (default `ARGUS_SHAPE_KIND_BOX`).
    pub shape: RawShapeKind,
    /// World position of the shape's centre.
    pub position: ArgusVec3,
    /// World rotation (default identity).
    pub rotation: ArgusQuat,
    /// Box half extents (default 0.5, 0.5, 0.5).
    pub half_extents: ArgusVec3,
    /// Sphere or capsule radius (default 0.5).
    pub radius: f32,
    /// Capsule half height between cap centres (default 0.5).
    pub half_height: f32,
    /// Mesh vertex count.
    pub vertex_count: u32,
    /// Mesh index count (3 per triangle).
    pub index_count: u32,
    /// Mesh vertices in the local frame.
    pub vertices: *const ArgusVec3,
    /// Mesh triangle indices.
    pub indices: *const u32,
    /// Layer bits; agents' obstacle masks pick which layers block them (default 1).
    pub layers: u32,
    /// Set by `argus_default_occluder_def()`; leave it alone.
    pub internal_cookie: u32,
    /// Non-zero: expected to move (a hint).
    pub movable: u8,
    /// Non-zero: `sound_transmission` applies (default 0: the world's sound occlusion factor
    /// with straight-line hearing, and blocking with walk hearing, where sound goes around it).
    pub has_sound_transmission: u8,
    /// The fraction of a sound's reach kept by sound passing straight through this occluder, in
    /// [0, 1] (a door 0.5, a thin wall 0.3, 0 blocks); read when `has_sound_transmission`.
    pub sound_transmission: f32,
    /// The engine's value for this occluder (e.g. a collider handle); not interpreted, not
    /// saved in snapshots (default 0).
    pub user_data: u64,
}

/// Default occluder: a 1 m box at the origin on layer 1.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_occluder_def() -> ArgusOccluderDef {
    ArgusOccluderDef {
        shape: ArgusShapeKind::Box.into(),
        position: ArgusVec3::default(),
        rotation: ArgusQuat { x: 0.0, y: 0.0, z: 0.0, w: 1.0 },
        half_extents: ArgusVec3 { x: 0.5, y: 0.5, z: 0.5 },
        radius: 0.5,
        half_height: 0.5,
        vertex_count: 0,
        index_count: 0,
        vertices: std::ptr::null(),
        indices: std::ptr::null(),
        layers: 1,
        internal_cookie: ARGUS_DEF_COOKIE,
        movable: 0,
        has_sound_transmission: 0,
        sound_transmission: 1.0,
        user_data: 0,
    }
}

fn from_c(c: &ArgusOccluderDef) -> FfiResult<OccluderDef> {
    check_cookie(c.internal_cookie, "occluder_def")?;
    let shape = match c.shape.get()? {
        ArgusShapeKind::Box => OccluderShape::Box { half_extents: c.half_extents.into() },
        ArgusShapeKind::Sphere => OccluderShape::Sphere { radius: c.radius },
        ArgusShapeKind::Capsule => OccluderShape::Capsule { half_height: c.half_height, radius: c.radius },
        ArgusShapeKind::Mesh => {
            if !c.index_count.is_multiple_of(3) {
                return Err(invalid(format!("index_count must be a multiple of 3, got {}", c.index_count)));
            }
            let vertices = slice(c.vertices, c.vertex_count, MAX_MESH_ELEMENTS, "vertices")?;
            let indices = slice(c.indices, c.index_count, 3 * MAX_MESH_ELEMENTS, "indices")?;
            OccluderShape::Mesh {
                vertices: vertices.iter().map(|&v| v.into()).collect(),
                indices: indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
            }
        }
    };
    Ok(OccluderDef {
        shape,
        position: c.position.into(),
        rotation: c.rotation.into(),
        layers: c.layers,
        movable: flag(c.movable),
        sound_transmission: flag(c.has_sound_transmission).then_some(c.sound_transmission),
    })
}

/// Adds an occluder. Building a mesh occluder takes about 11 times the mesh's own bytes (its
/// copy and the tree over its triangles); when that much memory is not available the call is
/// refused with `ARGUS_RESULT_OUT_OF_MEMORY` and nothing changes.
///
/// # Safety
/// `world` NULL or live; `def` NULL or readable (with its mesh arrays); `out_occluder` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_occluder_create(
    world: *mut ArgusWorld,
    def: *const ArgusOccluderDef,
    out_occluder: *mut ArgusOccluderId,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out_occluder, "out_occluder")?;
        let c = input(def, "def")?;
        let def = from_c(c)?;
        let id = w.world.add_occluder(&def)?;
        user_data::set(&mut w.user.occluders, id.index, c.user_data);
        *out = ArgusOccluderId::abi(id, w.tag);
        Ok(())
    })
}

/// Removes an occluder.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_occluder_destroy(world: *mut ArgusWorld, occluder: ArgusOccluderId) -> ArgusResult {
    with_world(world, |w| Ok(w.world.remove_occluder(occluder.core(w.tag)?)?))
}

/// Non-zero if `occluder` names a live occluder of `world`.
/// 0 means "not known to be live": also for a NULL world, and when the world cannot be asked
/// right now: another thread is inside a call on it (`BUSY`), the call comes from inside its own
/// ray callback (`REENTRANT`), or it is poisoned. Those cases never prove the id dead; tell them
/// apart with any call that returns an `ArgusResult` (e.g. `argus_world_get_counts`), whose code
/// names the reason, and ask again when it is `OK`. (`argus_last_error` also names them.)
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_occluder_is_valid(world: *const ArgusWorld, occluder: ArgusOccluderId) -> u8 {
    peek(world, |w| occluder.core(w.tag).is_ok_and(|id| w.world.is_occluder_valid(id)))
}

/// Moves an occluder (doors, vehicles).
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_occluder_set_pose(
    world: *mut ArgusWorld,
    occluder: ArgusOccluderId,
    position: ArgusVec3,
    rotation: ArgusQuat,
) -> ArgusResult {
    with_world(world, |w| Ok(w.world.set_occluder_pose(occluder.core(w.tag)?, position.into(), rotation.into())?))
}

/// Changes an occluder's layer bits.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_occluder_set_layers(
    world: *mut ArgusWorld,
    occluder: ArgusOccluderId,
    layers: u32,
) -> ArgusResult {
    with_world(world, |w| Ok(w.world.set_occluder_layers(occluder.core(w.tag)?, layers)?))
}

/// The `user_data` the occluder was created with.
///
/// # Safety
/// `world` NULL or live; `out_user_data` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_occluder_get_user_data(
    world: *const ArgusWorld,
    occluder: ArgusOccluderId,
    out_user_data: *mut u64,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_user_data, "out_user_data")?;
        let id = occluder.core(w.tag)?;
        if !w.world.is_occluder_valid(id) {
            return Err(fail(ArgusResult::InvalidId, "unknown or destroyed occluder"));
        }
        *out = user_data::get(&w.user.occluders, id.index);
        Ok(())
    })
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusOccluderDef>() == 104);
