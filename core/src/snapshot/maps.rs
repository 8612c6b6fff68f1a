//! Influence maps in snapshots: settings, layer names, values and blocked cells. Stamp caches
//! and scratch buffers are rebuilt on demand and not saved.

use super::codec::{Reader, Writer};
use super::parts::{bad, checked, read_pool, write_pool};
use crate::error::Result;
use crate::influence::{InfluenceMap, InfluenceMapDef, Plane};
use crate::world::World;

pub(super) fn write_maps(world: &World, w: &mut Writer) {
    write_pool(w, &world.maps, write_map);
}

/// One map: settings, layer names and values, blocked cells (also a recording's map state).
pub(crate) fn write_map(w: &mut Writer, map: &InfluenceMap) {
    let d = map.def();
    w.u32(d.width);
    w.u32(d.height);
    w.f32(d.cell_size);
    w.vec3(d.origin);
    w.u8(matches!(d.plane, Plane::XY) as u8);
    w.u32(d.layer_count);
    for layer in 0..d.layer_count as usize {
        w.str(map.layer_name(layer).expect("layer in range"));
        for &v in map.layer(layer).expect("layer in range") {
            w.f32(v);
        }
    }
    for &b in map.blocked_cells() {
        w.u8(b);
    }
}

pub(super) fn read_maps(world: &mut World, r: &mut Reader) -> Result<()> {
    world.maps = read_pool(r, read_map)?;
    Ok(())
}

/// Reads what [`write_map`] wrote, with full validation.
pub(crate) fn read_map(r: &mut Reader) -> Result<InfluenceMap> {
    let def = InfluenceMapDef {
        width: r.u32()?,
        height: r.u32()?,
        cell_size: r.f32()?,
        origin: r.vec3()?,
        plane: match r.u8()? {
            0 => Plane::XZ,
            1 => Plane::XY,
            v => return Err(bad(format!("unknown map plane {v}"))),
        },
        layer_count: r.u32()?,
    };
    checked("influence map", def.validate())?;
    let cells = def.width as usize * def.height as usize;
    // Refuse before allocating: the values must actually be present in the input.
    let needed = cells.saturating_mul(def.layer_count as usize * 4 + 1);
    if needed > r.remaining() {
        return Err(bad(format!("an influence map needs {needed} bytes, {} left", r.remaining())));
    }
    let mut map = checked("influence map", InfluenceMap::new(&def))?;
    for layer in 0..def.layer_count as usize {
        let name = r.str()?;
        checked("layer name", map.set_layer_name(layer, &name))?;
        let bytes = r.take(cells * 4)?;
        let values = checked("layer", map.layer_mut(layer))?;
        for (v, b) in values.iter_mut().zip(bytes.chunks_exact(4)) {
            *v = f32::from_le_bytes(b.try_into().expect("4 bytes"));
            // The range every setter and stamp keeps a map in (stamps saturate there).
            checked("influence value", crate::math::check_magnitude(*v, "an influence value"))?;
        }
    }
    let mask = r.take(cells)?;
    if mask.iter().any(|&b| b > 1) {
        return Err(bad("a blocked-cell flag is neither 0 nor 1"));
    }
    checked("blocked cells", map.set_blocked_cells(mask))?;
    Ok(map)
}
