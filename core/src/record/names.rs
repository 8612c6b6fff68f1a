//! A recording's `NAMES` chunks: the engine's labels for the world's things (see
//! `world::labels`), every one after each `START`, and each change where the game made it. The
//! replay gives its world the same labels; they decide nothing.

use super::bad;
use super::writer::Writer;
use crate::error::Result;
use crate::world::{Labelled, MAX_LABEL_BYTES, World};

/// A NAMES payload holding `labels` (an empty label: removed).
pub(super) fn write<'a>(w: &mut Writer, labels: impl ExactSizeIterator<Item = (Labelled, &'a str)>) {
    w.u32(labels.len() as u32);
    for (thing, label) in labels {
        let (kind, index, generation) = thing.key();
        w.u8(kind);
        w.bytes(&[0; 3]);
        w.id(index, generation);
        w.u32(label.len() as u32);
        w.bytes(label.as_bytes());
    }
}

/// Gives `world` the labels of a NAMES payload; a damaged one, or one naming a thing the world
/// does not hold, is refused.
pub(super) fn apply(world: &mut World, payload: &[u8]) -> Result<()> {
    let take = |at: &mut usize, n: usize| -> Result<&[u8]> {
        let bytes = payload.get(*at..*at + n).ok_or_else(|| bad("a NAMES chunk is cut short"))?;
        *at += n;
        Ok(bytes)
    };
    let mut at = 0;
    let count = u32::from_le_bytes(take(&mut at, 4)?.try_into().expect("4 bytes"));
    for _ in 0..count {
        let head = take(&mut at, 16)?;
        let id = u64::from_le_bytes(head[4..12].try_into().expect("8 bytes"));
        let length = u32::from_le_bytes(head[12..16].try_into().expect("4 bytes")) as usize;
        if length > MAX_LABEL_BYTES {
            return Err(bad(format!("a label of {length} bytes is longer than {MAX_LABEL_BYTES}")));
        }
        let text = std::str::from_utf8(take(&mut at, length)?).map_err(|_| bad("a label is not UTF-8"))?;
        let (index, generation) = (id as u32, (id >> 48) as u32);
        let thing = Labelled::from_key(head[0], index, generation)
            .ok_or_else(|| bad(format!("a label for an unknown kind of thing {}", head[0])))?;
        world.set_label(thing, text).map_err(|e| bad(format!("a label is refused: {e}")))?;
    }
    if at != payload.len() {
        return Err(bad("a NAMES chunk has trailing bytes"));
    }
    Ok(())
}
