//! Influence maps through the C ABI, part 1: the def, lifetime, layout and the raw layers.
//! A map is owned by its world and named by an `ArgusInfluenceMapId`; every call takes both.
//! The operations on values (stamping, blur, propagation, combine, sampling) are in
//! `influence_ops.rs`.

use std::ffi::c_char;

use super::boundary::{FfiResult, check_cookie, input, invalid, output, with_world, with_world_ref};
use super::enums::{ArgusPlane, RawPlane};
use super::types::*;
use super::world::ArgusWorld;
use argus_core::influence::{InfluenceMap, InfluenceMapDef, MAX_CELLS, MAX_LAYER_NAME_BYTES, MAX_LAYERS, Plane};

/// Most layers one map may have.
pub const ARGUS_INFLUENCE_MAX_LAYERS: u32 = 32;
/// Most cells (width × height) one map may have; width × height × layers may not exceed
/// 67108864 values either.
pub const ARGUS_INFLUENCE_MAX_CELLS: u32 = 16777216;
/// Longest layer name, in bytes of UTF-8 (the terminating NUL not counted).
pub const ARGUS_INFLUENCE_MAX_LAYER_NAME: u32 = 64;
/// Pass as the layer of `argus_influence_map_clear` to clear every layer.
pub const ARGUS_INFLUENCE_ALL_LAYERS: u32 = 0xFFFF_FFFF;

const _: () = assert!(ARGUS_INFLUENCE_MAX_LAYERS == MAX_LAYERS);
const _: () = assert!(ARGUS_INFLUENCE_MAX_CELLS as u64 == MAX_CELLS);
const _: () = assert!(ARGUS_INFLUENCE_MAX_LAYER_NAME as usize == MAX_LAYER_NAME_BYTES);
const _: () = assert!(ARGUS_INFLUENCE_ALL_LAYERS == u32::MAX); // never a layer index

/// Everything needed to create an influence map. Fill with `argus_default_influence_map_def()`,
/// then change what you need; the world copies it.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusInfluenceMapDef {
    /// Columns (cells along +X), at least 1 (default 64).
    pub width: u32,
    /// Rows (cells along +Z, or +Y on `ARGUS_PLANE_XY`), at least 1 (default 64).
    pub height: u32,
    /// Edge of one square cell in metres, > 0 (default 1).
    pub cell_size: f32,
    /// World position of the minimum corner of cell (0, 0); its coordinate along the plane's
    /// normal is the height of every cell centre (default origin). Put it at a height walls
    /// cover (e.g. 1 m up) if occluders are to block propagation.
    pub origin: ArgusVec3,
    /// The grid's plane (default `ARGUS_PLANE_XZ`).
    pub plane: RawPlane,
    /// Layers, 1 to `ARGUS_INFLUENCE_MAX_LAYERS` (default 1); each is one float per cell.
    pub layer_count: u32,
    /// Set by `argus_default_influence_map_def()`; leave it alone.
    pub internal_cookie: u32,
}

/// The layout of a map, to interpret its raw layers.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusInfluenceMapInfo {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Edge of one cell in metres.
    pub cell_size: f32,
    /// Minimum corner of cell (0, 0).
    pub origin: ArgusVec3,
    /// The grid's plane.
    pub plane: ArgusPlane,
    /// Number of layers.
    pub layer_count: u32,
}

/// A read-only array of floats owned by the world (see the function that returned it for how
/// long it stays valid).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusFloatArray {
    /// First value (never NULL for a map layer: a map has at least one cell).
    pub items: *const f32,
    /// Number of values.
    pub count: u32,
}

pub(crate) fn plane_from_c(plane: RawPlane) -> FfiResult<Plane> {
    Ok(plane.get()?.into())
}

/// The map behind `id`, read-only.
pub(crate) fn map_ref(w: &super::world::WorldState, id: ArgusInfluenceMapId) -> FfiResult<&InfluenceMap> {
    Ok(w.world.influence_map(id.core(w.tag)?)?)
}

/// The map behind `id`, to change (refused with `STEP_IN_PROGRESS` during a two-phase step).
pub(crate) fn map_mut(w: &mut super::world::WorldState, id: ArgusInfluenceMapId) -> FfiResult<&mut InfluenceMap> {
    Ok(w.world.influence_map_mut(id.core(w.tag)?)?)
}

/// A layer index of `map`, checked.
pub(crate) fn layer_of(map: &InfluenceMap, layer: u32) -> FfiResult<usize> {
    map.check_layer(layer as usize)?;
    Ok(layer as usize)
}

/// Reads a NUL-terminated UTF-8 name of at most `MAX_LAYER_NAME_BYTES` bytes, never looking
/// past its terminator or past the longest accepted length.
fn c_name<'a>(ptr: *const c_char, what: &str) -> FfiResult<&'a str> {
    if ptr.is_null() {
        return Err(invalid(format!("{what} must not be NULL")));
    }
    let mut len = 0;
    // SAFETY: the caller promises a NUL-terminated string; we stop at the NUL or one byte past
    // the longest accepted name, whichever comes first.
    while len <= MAX_LAYER_NAME_BYTES && unsafe { *ptr.add(len) } != 0 {
        len += 1;
    }
    if len > MAX_LAYER_NAME_BYTES {
        return Err(invalid(format!("{what} is longer than {MAX_LAYER_NAME_BYTES} bytes")));
    }
    // SAFETY: the `len` bytes before the NUL were just read.
    let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len) };
    std::str::from_utf8(bytes).map_err(|_| invalid(format!("{what} is not valid UTF-8")))
}

/// Default influence map: 64 × 64 cells of 1 m on the XZ plane from the origin, one layer.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_influence_map_def() -> ArgusInfluenceMapDef {
    let d = InfluenceMapDef::default();
    ArgusInfluenceMapDef {
        width: d.width,
        height: d.height,
        cell_size: d.cell_size,
        origin: d.origin.into(),
        plane: ArgusPlane::from(d.plane).into(),
        layer_count: d.layer_count,
        internal_cookie: ARGUS_DEF_COOKIE,
    }
}

/// Creates an influence map owned by `world` (every value 0, no blocked cell) and writes its id
/// to `*out_map`. The def is copied. The map lives until `argus_influence_map_destroy` or
/// `argus_world_destroy`. `ARGUS_RESULT_OUT_OF_MEMORY` (nothing changed) when the memory for
/// its values is not available.
///
/// # Safety
/// `world` NULL or live; `def` NULL or readable; `out_map` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_create(
    world: *mut ArgusWorld,
    def: *const ArgusInfluenceMapDef,
    out_map: *mut ArgusInfluenceMapId,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out_map, "out_map")?;
        let c = input(def, "def")?;
        check_cookie(c.internal_cookie, "influence_map_def")?;
        let def = InfluenceMapDef {
            width: c.width,
            height: c.height,
            cell_size: c.cell_size,
            origin: c.origin.into(),
            plane: plane_from_c(c.plane)?,
            layer_count: c.layer_count,
        };
        *out = ArgusInfluenceMapId::abi(w.world.create_influence_map(&def)?, w.tag);
        Ok(())
    })
}

/// Destroys an influence map; its id (and every copy) stops working and its layer pointers die.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_destroy(world: *mut ArgusWorld, map: ArgusInfluenceMapId) -> ArgusResult {
    with_world(world, |w| Ok(w.world.destroy_influence_map(map.core(w.tag)?)?))
}

/// Non-zero if `map` names a live influence map of `world`.
/// 0 means "not known to be live": also for a NULL world, and when the world cannot be asked
/// right now: another thread is inside a call on it (`BUSY`), the call comes from inside its own
/// ray callback (`REENTRANT`), or it is poisoned. Those cases never prove the id dead; tell them
/// apart with any call that returns an `ArgusResult` (e.g. `argus_world_get_counts`), whose code
/// names the reason, and ask again when it is `OK`. (`argus_last_error` also names them.)
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_is_valid(world: *const ArgusWorld, map: ArgusInfluenceMapId) -> u8 {
    super::boundary::peek(world, |w| map_ref(w, map).is_ok())
}

/// The map's layout: size, cell size, origin, plane and layer count.
///
/// # Safety
/// `world` NULL or live; `out_info` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_get_info(
    world: *const ArgusWorld,
    map: ArgusInfluenceMapId,
    out_info: *mut ArgusInfluenceMapInfo,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_info, "out_info")?;
        let m = map_ref(w, map)?;
        let d = m.def();
        *out = ArgusInfluenceMapInfo {
            width: d.width,
            height: d.height,
            cell_size: d.cell_size,
            origin: d.origin.into(),
            plane: d.plane.into(),
            layer_count: d.layer_count,
        };
        Ok(())
    })
}

/// The values of one layer, row-major: `items[row * width + column]`, column along +X, row
/// along +Z (+Y on `ARGUS_PLANE_XY`); `count` = width × height. Upload it as a one-channel
/// float texture for a heat map. The floats are owned by the world and are read-only; the
/// pointer and its contents stay valid until the next call that changes this map (clear,
/// add, blur, propagate, combine, normalise, decay), its destruction, `argus_world_load` or
/// `argus_world_destroy`, whichever comes first. Copy them to keep them longer.
///
/// # Safety
/// `world` NULL or live; `out_layer` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_get_layer(
    world: *const ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    out_layer: *mut ArgusFloatArray,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_layer, "out_layer")?;
        let m = map_ref(w, map)?;
        let values = m.layer(layer as usize)?;
        *out = ArgusFloatArray { items: values.as_ptr(), count: values.len() as u32 };
        Ok(())
    })
}

/// Sets every value of one layer to 0, or of every layer with `ARGUS_INFLUENCE_ALL_LAYERS`
/// (the lesson's `Clear`). Blocked cells stay blocked.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_clear(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
) -> ArgusResult {
    with_world(world, |w| {
        let m = map_mut(w, map)?;
        if layer == ARGUS_INFLUENCE_ALL_LAYERS {
            m.clear();
        } else {
            m.clear_layer(layer as usize)?;
        }
        Ok(())
    })
}

/// Names a layer ("danger", "allies", ...) for `argus_influence_map_find_layer`. `name` is a
/// NUL-terminated UTF-8 string of at most `ARGUS_INFLUENCE_MAX_LAYER_NAME` bytes, read during
/// the call only (the map keeps a copy); "" removes the name. Names are unique within a map:
/// a name another layer has is refused. NULL, invalid UTF-8 or too long → `INVALID_ARGUMENT`.
///
/// # Safety
/// `world` NULL or live; `name` NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_set_layer_name(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    name: *const c_char,
) -> ArgusResult {
    with_world(world, |w| {
        let name = c_name(name, "name")?;
        map_mut(w, map)?.set_layer_name(layer as usize, name)?;
        Ok(())
    })
}

/// Looks a layer up by name (same rules as `argus_influence_map_set_layer_name`). Found:
/// `*out_found` = 1 and `*out_layer` = its index. Not found (or ""): `*out_found` = 0 and
/// `*out_layer` is left alone.
///
/// # Safety
/// `world` NULL or live; `name` NULL or a NUL-terminated string; `out_layer`, `out_found` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_find_layer(
    world: *const ArgusWorld,
    map: ArgusInfluenceMapId,
    name: *const c_char,
    out_layer: *mut u32,
    out_found: *mut u8,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out_layer = output(out_layer, "out_layer")?;
        let out_found = output(out_found, "out_found")?;
        let name = c_name(name, "name")?;
        let found = map_ref(w, map)?.layer_index(name);
        if let Some(index) = found {
            *out_layer = index as u32;
        }
        *out_found = found.is_some() as u8;
        Ok(())
    })
}

const _: () = assert!(size_of::<ArgusInfluenceMapDef>() == 36);
const _: () = assert!(size_of::<ArgusInfluenceMapInfo>() == 32);
const _: () = assert!(size_of::<ArgusFloatArray>() == 2 * size_of::<usize>());
