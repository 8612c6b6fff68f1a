//! Influence maps in snapshots. (Filled in once the influence map API settles.)

use super::codec::{Reader, Writer};
use crate::error::Result;
use crate::world::World;

pub(super) fn write_maps(world: &World, w: &mut Writer) {
    let _ = (world, w);
}

pub(super) fn read_maps(world: &mut World, r: &mut Reader) -> Result<()> {
    let _ = (world, r);
    Ok(())
}
