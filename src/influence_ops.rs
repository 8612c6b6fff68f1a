//! Influence maps through the C ABI, part 2: stamping sources, blur, propagation behind walls,
//! combining layers, decay, and reading values back. Every call validates all its arguments
//! before touching the map, so a refused call changes nothing.

use super::boundary::{invalid, output, slice, with_world, with_world_ref};
use super::enums::RawCombineOp;
use super::influence::{layer_of, map_mut, map_ref};
use super::types::*;
use super::world::{ARGUS_MAX_BATCH, ArgusWorld};
use argus_core::influence::{CombineOp, Extremum, LayerWeight, PropagationParams};
use argus_core::math::Vec3;

/// Most blur passes one `argus_influence_map_blur` call may run.
pub const ARGUS_INFLUENCE_MAX_BLUR_PASSES: u32 = 1024;
/// Most inputs one `argus_influence_map_combine` call may take.
pub const ARGUS_INFLUENCE_MAX_COMBINE_INPUTS: u32 = 1024;

/// One input of `argus_influence_map_combine`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusLayerWeight {
    /// Layer index.
    pub layer: u32,
    /// Factor applied to each of its values (finite; 1 = as is).
    pub weight: f32,
}

/// One cell picked by `argus_influence_map_best_cell`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusCellValue {
    /// Column (along +X).
    pub column: i32,
    /// Row (along +Z, or +Y on `ARGUS_PLANE_XY`).
    pub row: i32,
    /// World position of the cell's centre.
    pub position: ArgusVec3,
    /// The layer's value there.
    pub value: f32,
}

/// Adds `value × (1 − d / radius_cells)` to every cell of `layer` whose centre is at most
/// `radius_cells` cells from the cell containing `position` (the lesson's `AddInfluence`);
/// cells off the grid are skipped, radius 0 touches the centre cell only, `value` may be negative.
/// `value` must be finite and within ±`ARGUS_MAX_MAGNITUDE`; each cell's sum saturates at
/// ±`ARGUS_MAX_MAGNITUDE` (1e9), so every value a map holds can be written back with
/// `argus_influence_map_set_value`.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_add_influence(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    position: ArgusVec3,
    value: f32,
    radius_cells: i32,
) -> ArgusResult {
    with_world(world, |w| Ok(map_mut(w, map)?.add_influence(layer as usize, position.into(), value, radius_cells)?))
}

/// `argus_influence_map_add_influence` for `count` sources at once: `positions[i]` with
/// `values[i]`, all with the same radius. Every position and value is checked before any is
/// added, so a refused call adds nothing. Sources are stamped in row order for speed; where
/// stamps overlap, sums may differ in the last bit from adding them one by one in input order.
/// Both arrays are read during the call only.
///
/// # Safety
/// `world` NULL or live; `positions` and `values` NULL (only with count 0) or `count` readable items.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_add_influences(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    positions: *const ArgusVec3,
    values: *const f32,
    count: u32,
    radius_cells: i32,
) -> ArgusResult {
    with_world(world, |w| {
        let positions = slice(positions, count, ARGUS_MAX_BATCH as usize, "positions")?;
        let values = slice(values, count, ARGUS_MAX_BATCH as usize, "values")?;
        let m = map_mut(w, map)?;
        let layer = layer_of(m, layer)?;
        if radius_cells < 0 {
            return Err(invalid(format!("influence radius must be >= 0 cells, got {radius_cells}")));
        }
        let sources: Vec<(Vec3, f32)> = positions.iter().zip(values).map(|(&p, &v)| (p.into(), v)).collect();
        m.add_influences(layer, &sources, radius_cells)?;
        Ok(())
    })
}

/// Runs `passes` box-blur passes over `layer` (each cell becomes the average of itself and its
/// up-to-four neighbours, as the lesson). 0 passes does nothing; more than
/// `ARGUS_INFLUENCE_MAX_BLUR_PASSES` is refused.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_blur(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    passes: u32,
) -> ArgusResult {
    with_world(world, |w| {
        if passes > ARGUS_INFLUENCE_MAX_BLUR_PASSES {
            return Err(invalid(format!("{passes} blur passes; the limit is {ARGUS_INFLUENCE_MAX_BLUR_PASSES}")));
        }
        let m = map_mut(w, map)?;
        let layer = layer_of(m, layer)?;
        for _ in 0..passes {
            m.blur(layer)?;
        }
        Ok(())
    })
}

/// One propagation step of `layer`: each open cell moves towards its strongest neighbour's
/// value times `e^(−decay · metres)` by the fraction `momentum` (decay ≥ 0, momentum in [0, 1]).
/// The blocked cells are first recomputed from the occluders on `blocking_layers` (as
/// `argus_influence_map_update_blocking`); blocked cells hold 0 and pass nothing on, so
/// influence does not leak through walls. Add sources again before each step.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_propagate(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    decay: f32,
    momentum: f32,
    blocking_layers: u32,
) -> ArgusResult {
    with_world(world, |w| {
        let params = PropagationParams { decay, momentum };
        Ok(w.world.propagate_influence(map.core(w.tag)?, layer as usize, &params, blocking_layers)?)
    })
}

/// Replaces the map's blocked cells with those whose centre lies inside an occluder on
/// `blocking_layers` and writes how many there are to `*out_count`. Values are not changed.
///
/// # Safety
/// `world` NULL or live; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_update_blocking(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    blocking_layers: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out_count, "out_count")?;
        *out = w.world.update_influence_blocking(map.core(w.tag)?, blocking_layers)? as u32;
        Ok(())
    })
}

/// Writes `op` over the weighted inputs `weights[0..count]` into layer
/// `dest`; `dest` may be one of the inputs. At least one input. `weights` is read during the
/// call only.
///
/// # Safety
/// `world` NULL or live; `weights` NULL (only with count 0, which is refused) or `count` readable items.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_combine(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    dest: u32,
    op: RawCombineOp,
    weights: *const ArgusLayerWeight,
    count: u32,
) -> ArgusResult {
    with_world(world, |w| {
        let op: CombineOp = op.get()?.into();
        let weights = slice(weights, count, ARGUS_INFLUENCE_MAX_COMBINE_INPUTS as usize, "weights")?;
        let inputs: Vec<LayerWeight> =
            weights.iter().map(|lw| LayerWeight { layer: lw.layer as usize, weight: lw.weight }).collect();
        Ok(map_mut(w, map)?.combine(dest as usize, op, &inputs)?)
    })
}

/// Divides `layer` by its largest absolute value so it lies in [−1, 1]; an all-zero layer stays.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_normalize(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
) -> ArgusResult {
    with_world(world, |w| Ok(map_mut(w, map)?.normalize(layer as usize)?))
}

/// Time decay: multiplies `layer` by `keep_per_second ^ dt` (`keep_per_second` in [0, 1] is the
/// fraction left after one second; `dt` ≥ 0 seconds), independent of how time is split into frames.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_decay(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    keep_per_second: f32,
    dt: f32,
) -> ArgusResult {
    with_world(world, |w| Ok(map_mut(w, map)?.decay(layer as usize, keep_per_second, dt)?))
}

/// The value of the cell containing `position`, 0 off the grid (the lesson's `GetValue`).
///
/// # Safety
/// `world` NULL or live; `out_value` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_get_value(
    world: *const ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    position: ArgusVec3,
    out_value: *mut f32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_value, "out_value")?;
        *out = map_ref(w, map)?.value(layer as usize, position.into())?;
        Ok(())
    })
}

/// Sets the cell containing `position` on `layer` to `value` (finite, within
/// ±`ARGUS_MAX_MAGNITUDE`): the write twin of `argus_influence_map_get_value`, for danger a game
/// knows cell by cell. A position outside the grid → `INVALID_ARGUMENT`, nothing changed.
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_set_value(
    world: *mut ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    position: ArgusVec3,
    value: f32,
) -> ArgusResult {
    with_world(world, |w| Ok(map_mut(w, map)?.set_value(layer as usize, position.into(), value)?))
}

/// Bilinear interpolation between the four nearest cell centres (exactly the cell value at a
/// centre; the edge values in the outer half cell; 0 off the grid).
///
/// # Safety
/// `world` NULL or live; `out_value` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_sample(
    world: *const ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    position: ArgusVec3,
    out_value: *mut f32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_value, "out_value")?;
        *out = map_ref(w, map)?.sample(layer as usize, position.into())?;
        Ok(())
    })
}

/// The open cell with the largest (`find_max` non-zero) or smallest value among those whose
/// centre lies within `radius` metres (≥ 0, on the map's plane) of `position`; blocked cells
/// are skipped, ties go to the lowest row-major index. Found: `*out_found` = 1 and `*out_cell`
/// is the cell. None in range: `*out_found` = 0 and `*out_cell` is zeroed.
///
/// # Safety
/// `world` NULL or live; `out_cell`, `out_found` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_influence_map_best_cell(
    world: *const ArgusWorld,
    map: ArgusInfluenceMapId,
    layer: u32,
    position: ArgusVec3,
    radius: f32,
    find_max: u8,
    out_cell: *mut ArgusCellValue,
    out_found: *mut u8,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out_cell = output(out_cell, "out_cell")?;
        let out_found = output(out_found, "out_found")?;
        let extremum = if flag(find_max) { Extremum::Max } else { Extremum::Min };
        let best = map_ref(w, map)?.best_cell(layer as usize, position.into(), radius, extremum)?;
        *out_cell = best.map_or_else(ArgusCellValue::default, |c| ArgusCellValue {
            column: c.column,
            row: c.row,
            position: c.position.into(),
            value: c.value,
        });
        *out_found = best.is_some() as u8;
        Ok(())
    })
}

const _: () = assert!(size_of::<ArgusLayerWeight>() == 8);
const _: () = assert!(size_of::<ArgusCellValue>() == 24);
