//! The Beliefs section of a frame (format 6, see `docs/recording.md`): the beliefs the world
//! keeps for guards that search by belief, so that a reader that cannot simulate (the
//! inspector) can draw them as a heat map, with each searching owner's search point and why it
//! was chosen. The replay re-steps the world, so it makes the same beliefs: it compares the
//! section byte for byte like the others.
//!
//! Only recordings that explain (`RecordOptions::explain`) write records: for each belief with
//! an owner in focus, in the world's order, in a key frame, or when the belief was made (or
//! loaded) since it was last written, is new to the section, had an owner's sight tick in the
//! step, or had a search point chosen in it. A belief listed before and gone (or no longer
//! with an owner in focus) is written once with no nodes; a key frame lists every belief, so
//! it writes none of those. The probabilities are quantised to a byte of the peak, in runs
//! of the nodes holding any.

use super::Focus;
use super::writer::{Writer, id_bits};
use crate::belief::Belief;
use crate::world::{BeliefOwner, World};

/// Bytes of a Beliefs record before its owners, and of each search point.
pub(crate) const BELIEF_HEAD: usize = 36;
pub(crate) const CLAIM_BYTES: usize = 36;

/// A belief as the section names it: owner kind, owner, target.
type Key = (u8, u64, u64);

fn key_of(owner: BeliefOwner, belief: &Belief) -> Key {
    let target = id_bits(belief.target().index, belief.target().generation);
    match owner {
        BeliefOwner::Agent(a) => (0, id_bits(a.index, a.generation), target),
        BeliefOwner::Team(t) => (1, t as u64, target),
    }
}

/// What the section listed in the frames before (kept by the recorder between frames).
#[derive(Default)]
pub(crate) struct BeliefScratch {
    /// The beliefs listed and not since written as gone.
    listed: Vec<Key>,
    now: Vec<Key>,
}

/// The level of probability `p` of a belief whose largest is `peak`: ceil(255 × p / peak),
/// in f64, for p > 0 (at least 1); 0 for none.
pub(crate) fn level(p: f32, peak: f32) -> u8 {
    if p <= 0.0 || peak <= 0.0 {
        return 0;
    }
    (255.0 * p as f64 / peak as f64).ceil().clamp(1.0, 255.0) as u8
}

/// At most the bytes of `belief`'s record: the head, the search points, and runs of at most
/// every node (a run of one node between two empty ones, for each other node at most).
fn room(belief: &Belief) -> usize {
    let n = belief.probabilities().len();
    BELIEF_HEAD + 8 * belief.owners().len() + 4 + CLAIM_BYTES * belief.claims.len() + 4 + n + 8 * n.div_ceil(2)
}

/// Writes the section: `u32 count`, then the records. `key`: a key frame; `ticked`: the slots
/// whose sight ticked in the step, in slot order.
pub(crate) fn write_beliefs(
    world: &World,
    explain: bool,
    focus: &Focus,
    key: bool,
    ticked: &[(u32, u32, u32)],
    scratch: &mut BeliefScratch,
    w: &mut Writer,
) {
    let count_at = w.len();
    w.u32(0);
    if !explain {
        return;
    }
    let mut count = 0u32;
    let mut now = std::mem::take(&mut scratch.now);
    now.clear();
    let graph = world.walk_graph();
    for h in &world.beliefs {
        let b = &h.belief;
        if !b.owners().iter().any(|&a| focus.contains(a)) {
            continue;
        }
        let k = key_of(h.owner, b);
        let due = key
            || b.unrecorded
            || !scratch.listed.contains(&k)
            || b.owners().iter().any(|a| ticked.binary_search_by_key(&a.index, |&(slot, ..)| slot).is_ok())
            || b.claims.iter().any(|c| c.time == world.time);
        // Short of memory for it, the belief is left out (and written when there is).
        if due && w.bytes.try_reserve(room(b)).is_err() {
            continue;
        }
        now.push(k);
        if !due {
            continue;
        }
        let peak = b.peak();
        w.u64(k.2);
        w.u8(k.0);
        w.bytes(&[0; 3]);
        w.u64(k.1);
        w.u32(b.probabilities().len() as u32);
        w.f32(peak);
        w.f32(b.tile_side());
        w.u32(b.owners().len() as u32);
        b.owners().iter().for_each(|a| w.u64(id_bits(a.index, a.generation)));
        w.u32(b.claims.len() as u32);
        for c in &b.claims {
            let (tile, walk) = c.reason.values();
            w.u64(id_bits(c.agent.index, c.agent.generation));
            w.vec3(graph.map_or(crate::math::Vec3::ZERO, |g| g.position(c.node)));
            w.f32(c.mass);
            w.u8(c.reason.code());
            w.bytes(&[0; 3]);
            w.f32(tile);
            w.f32(walk);
        }
        let runs_at = w.len();
        w.u32(0);
        let mass = b.probabilities();
        let (mut runs, mut n) = (0u32, 0usize);
        while n < mass.len() {
            if mass[n] <= 0.0 {
                n += 1;
                continue;
            }
            let first = n;
            while n < mass.len() && mass[n] > 0.0 {
                n += 1;
            }
            w.u32(first as u32);
            w.u32((n - first) as u32);
            mass[first..n].iter().for_each(|&p| w.u8(level(p, peak)));
            runs += 1;
        }
        w.bytes[runs_at..runs_at + 4].copy_from_slice(&runs.to_le_bytes());
        count += 1;
    }
    // Those listed before and gone: a record with no nodes (a key frame lists every belief).
    if !key {
        for &(kind, owner, target) in scratch.listed.iter().filter(|k| !now.contains(k)) {
            w.u64(target);
            w.u8(kind);
            w.bytes(&[0; 3]);
            w.u64(owner);
            w.bytes(&[0; 24]);
            count += 1;
        }
    }
    std::mem::swap(&mut scratch.listed, &mut now);
    scratch.now = now;
    w.bytes[count_at..count_at + 4].copy_from_slice(&count.to_le_bytes());
}

/// Bytes of the Beliefs record at `at` in `frame`, if whole.
pub(crate) fn record_size(frame: &[u8], at: usize) -> Option<usize> {
    let u32_at =
        |at: usize| -> Option<usize> { Some(u32::from_le_bytes(frame.get(at..at + 4)?.try_into().ok()?) as usize) };
    let owners = u32_at(at + BELIEF_HEAD - 4)?;
    let mut size = BELIEF_HEAD.checked_add(8usize.checked_mul(owners)?)?;
    let claims = u32_at(at.checked_add(size)?)?;
    size = size.checked_add(4)?.checked_add(CLAIM_BYTES.checked_mul(claims)?)?;
    let runs = u32_at(at.checked_add(size)?)?;
    size += 4;
    for _ in 0..runs {
        let length = u32_at(at.checked_add(size)?.checked_add(4)?)?;
        size = size.checked_add(8)?.checked_add(length)?;
        if at.checked_add(size)? > frame.len() {
            return None;
        }
    }
    Some(size)
}
