//! FRAME chunks: a step's outputs in the seventeen sections (sixteen in format 5, fifteen before)
//! of `docs/recording.md`, and the split
//! of a frame into its sections (the replay compares them one by one).

use std::ops::Range;

use super::Recorder;
use super::beliefs::write_beliefs;
use super::deferred::Holes;
use super::delta::write_memory;
use super::hearing::write_hearing;
use super::why::write_why;
use super::writer::{Rec, Writer};
use crate::math::Vec3;
use crate::percept::StepEvents;
use crate::tactics::TacticalResult;
use crate::target::MAX_CHECK_POINTS;
use crate::world::World;

/// The sections' names, in order (a replay mismatch names one).
pub(crate) const SECTIONS: [&str; 17] = [
    "agents",
    "agents gone",
    "sight ticks",
    "targets",
    "targets gone",
    "sounds",
    "percepts",
    "brain changes",
    "seen/lost",
    "forgotten",
    "awareness changes",
    "memory",
    "why",
    "tactics",
    "influence maps",
    "hearing",
    "beliefs",
];
/// The sections a frame of format `version` has (Hearing is format 5's, Beliefs format 6's).
pub(crate) fn section_count(version: u32) -> usize {
    match version {
        6.. => 17,
        5 => 16,
        _ => 15,
    }
}
/// The Tactics section: answers to `&self` queries, which the replay does not ask again.
pub(crate) const TACTICS: usize = 13;
/// Bytes of a Hearing record before its walk's points.
const HEARING_HEAD: usize = 44;
/// Bytes before the first section: time, step, dt, flags.
pub(crate) const FRAME_HEADER: usize = 20;

fn id<I: Copy>(w: &mut Writer, i: I, parts: impl Fn(I) -> (u32, u32)) {
    let (index, generation) = parts(i);
    w.id(index, generation);
}
macro_rules! wid {
    ($w:expr, $i:expr) => {
        id($w, $i, |i| (i.index, i.generation))
    };
}

/// Writes the FRAME payload of the step just made. With `holes`, the events and the Why are
/// (and the Memory) left to the recording's thread: `holes` gets where they go (see `deferred`).
pub(crate) fn write_frame(
    world: &World,
    rec: &mut Recorder,
    dt: f32,
    tactics: &(u32, Vec<u8>),
    w: &mut Writer,
    mut holes: Option<&mut Holes>,
) {
    let key = rec.next_frame_is_key();
    rec.written.key_next = false;
    w.f64(world.time);
    w.u32(rec.steps);
    w.f32(dt);
    w.u32(key as u32);
    // The agents that ticked, in slot order (the sweep's traces are in its visiting order).
    let mut ticks = std::mem::take(&mut rec.ticks);
    ticks.collect(world);
    let mut next_in = std::mem::take(&mut rec.next_in);
    next_in.clear();
    next_in.resize(ticks.slots(), 0.0);
    // 1–2. Agents (and their next ticks).
    rec.written.write_agents(world, world.last_step_captures(), key, &mut next_in, w);
    // 3. Sight ticks: runs of consecutive slots with the same next tick.
    let count_at = w.len();
    w.u32(0);
    let (mut runs, mut run) = (0u32, None::<(u32, u32, f32)>);
    let mut close = |w: &mut Writer, (first, count, next): (u32, u32, f32)| {
        w.u32(first);
        w.u32(count);
        w.f32(next);
        runs += 1;
    };
    ticks.order().iter().for_each(|&(slot, ..)| {
        let next = next_in[slot as usize];
        run = match run {
            Some((first, count, n)) if first + count == slot && n.to_bits() == next.to_bits() => {
                Some((first, count + 1, n))
            }
            Some(done) => {
                close(w, done);
                Some((slot, 1, next))
            }
            None => Some((slot, 1, next)),
        };
    });
    if let Some(done) = run {
        close(w, done);
    }
    w.bytes[count_at..count_at + 4].copy_from_slice(&runs.to_le_bytes());
    rec.next_in = next_in;
    // 4–5. Targets.
    rec.written.write_targets(world, key, &rec.touched_targets, w);
    // 6. Sounds.
    w.u32(world.last_sounds.len() as u32);
    for (i, s) in world.last_sounds.iter().enumerate() {
        let mut r = Rec::<32>::new();
        r.vec3(s.position).f32(s.loudness).id(s.source.index, s.source.generation).u32(i as u32).pad(4);
        w.rec(&r);
    }
    // 7–11. The step's events.
    match holes.as_deref_mut() {
        Some(h) => h.events_at = w.len(),
        None => write_events(&world.events, w),
    }
    // 12. Memory of the agents in focus.
    match holes.as_deref_mut() {
        Some(h) => h.memory_at = w.len(),
        None => {
            let memory = |chunk| &world.last_step_captures().nth(chunk).expect("a chunk of this step").memory;
            write_memory(rec.written.memory_order(), memory, w);
        }
    }
    // 13. Why.
    match holes {
        Some(h) => h.why_at = w.len(),
        None => {
            let traces = |chunk| world.last_step_traces().nth(chunk);
            write_why(rec.why.explain, &rec.why.focus, ticks.order(), traces, w);
        }
    }
    rec.ticks = ticks;
    // 14. Tactics.
    w.u32(tactics.0);
    w.bytes(&tactics.1);
    // 15. Influence maps.
    write_maps(world, rec, w);
    // 16. Hearing.
    if rec.written.version >= 5 {
        write_hearing(world, rec.why.explain, &rec.why.focus, &mut rec.hearing, w);
    }
    // 17. Beliefs.
    if rec.written.version >= 6 {
        write_beliefs(world, rec.why.explain, &rec.why.focus, key, rec.ticks.order(), &mut rec.beliefs, w);
    }
}

/// Sections 7–11: the step's events.
pub(crate) fn write_events(e: &StepEvents, w: &mut Writer) {
    // 7. Percepts.
    w.u32(e.percepts.len() as u32);
    for p in &e.percepts {
        let mut r = Rec::<48>::new();
        r.id(p.agent.index, p.agent.generation).id(p.target.index, p.target.generation).u8(p.kind as u8).pad(3);
        r.vec3(p.position).f32(p.strength).u32(p.sound).f32(p.loudness).f32(p.time);
        w.rec(&r);
    }
    // 8. Brain changes.
    w.u32(e.brain.len() as u32);
    for b in &e.brain {
        let mut r = Rec::<24>::new();
        r.id(b.agent.index, b.agent.generation).id(b.target.index, b.target.generation);
        r.u8(b.from as u8).u8(b.to as u8).pad(2).f32(b.time);
        w.rec(&r);
    }
    // 9. Seen / lost.
    w.u32(e.sight_changes.len() as u32);
    for c in &e.sight_changes {
        let mut r = Rec::<32>::new();
        r.id(c.agent.index, c.agent.generation).id(c.target.index, c.target.generation);
        r.u8(c.seen as u8).pad(3).vec3(c.position);
        w.rec(&r);
    }
    // 10. Forgotten.
    w.u32(e.forgotten.len() as u32);
    for f in &e.forgotten {
        let mut r = Rec::<32>::new();
        r.id(f.agent.index, f.agent.generation).id(f.target.index, f.target.generation).vec3(f.position).f32(f.time);
        w.rec(&r);
    }
    // 11. Awareness changes.
    w.u32(e.awareness.len() as u32);
    for a in &e.awareness {
        let mut r = Rec::<32>::new();
        r.id(a.agent.index, a.agent.generation).id(a.target.index, a.target.generation);
        r.u8(a.from as u8).u8(a.to as u8).pad(2).f32(a.level).f32(a.time).pad(4);
        w.rec(&r);
    }
}

fn write_maps(world: &World, rec: &Recorder, w: &mut Writer) {
    let mut list: Vec<_> = rec.maps_changed.iter().map(|&id| (id, true)).collect();
    list.extend(rec.maps_gone.iter().map(|&id| (id, false)));
    list.sort_by_key(|&(id, alive)| (id.index, id.generation, alive));
    list.dedup();
    let live = |id: crate::id::InfluenceMapId| world.maps.get(id.index, id.generation);
    list.retain(|&(id, alive)| !alive || live(id).is_some());
    w.u32(list.len() as u32);
    for (id, alive) in list {
        wid!(w, id);
        match live(id).filter(|_| alive) {
            Some(map) => {
                let d = map.def();
                w.u8(matches!(d.plane, crate::influence::Plane::XY) as u8);
                w.bytes(&[0; 3]);
                w.vec3(d.origin);
                w.f32(d.cell_size);
                w.u32(d.width);
                w.u32(d.height);
                w.u32(d.layer_count);
                for layer in 0..d.layer_count as usize {
                    map.layer(layer).unwrap_or(&[]).iter().for_each(|&v| w.f32(v));
                }
                w.bytes(map.blocked_cells());
            }
            None => {
                w.bytes(&[0; 4]);
                w.vec3(Vec3::ZERO);
                w.f32(0.0);
                w.bytes(&[0; 12]);
            }
        }
    }
}

/// One Tactics record.
pub(crate) fn write_tactic(out: &mut Vec<u8>, kind: u8, position: Vec3, results: &[TacticalResult]) {
    let mut w = Writer::appending(std::mem::take(out));
    w.u8(kind);
    w.bytes(&[0; 3]);
    w.u32(results.len() as u32);
    w.vec3(position);
    w.u64(0);
    for r in results {
        w.vec3(r.position);
        w.f32(r.score);
    }
    *out = w.into_bytes();
}

/// Bytes of the Why group at `at` (an agent's pairs, each with its blocked points), if whole.
fn why_group_size(frame: &[u8], at: usize) -> Option<usize> {
    let pairs = u32::from_le_bytes(frame.get(at + 4..at + 8)?.try_into().ok()?) as usize;
    let mut size = 8usize;
    for _ in 0..pairs {
        let pair = frame.get(at + size..at + size + 8)?;
        let statuses = u16::from_le_bytes([pair[6], pair[7]]);
        let blocked = (0..pair[4].min(MAX_CHECK_POINTS as u8) as u16)
            .filter(|k| statuses >> (2 * k) & 3 == crate::world::BLOCKED)
            .count();
        size = size.checked_add(8 + 8 * blocked)?;
    }
    Some(size)
}

/// Splits a frame's payload (of format `version`) into its sections (each with its count),
/// checking that every record fits; `None` when the frame is malformed.
/// A format before 5 leaves the Hearing section empty (`at..at` at the frame's end), one
/// before 6 the Beliefs section.
pub(crate) fn split(frame: &[u8], version: u32) -> Option<[Range<usize>; 17]> {
    let target_head = if version >= 4 { 32 } else { 24 };
    let mut at = FRAME_HEADER;
    let u32_at =
        |at: usize| -> Option<usize> { Some(u32::from_le_bytes(frame.get(at..at + 4)?.try_into().ok()?) as usize) };
    let mut out: [Range<usize>; 17] = Default::default();
    for (k, slot) in out.iter_mut().enumerate() {
        if k >= section_count(version) {
            *slot = at..at;
            continue;
        }
        let start = at;
        let n = u32_at(at)?;
        at += 4;
        for _ in 0..n {
            let size = match k {
                0 => super::capture::AGENT_BYTES,
                1 | 4 => 8,
                2 => 12,
                3 => target_head + 12 * *frame.get(at + 21)? as usize,
                5 | 8 | 9 | 10 => 32,
                6 => 48,
                7 => 24,
                11 => 12usize.checked_add(32usize.checked_mul(u32_at(at + 8)?)?)?,
                12 => why_group_size(frame, at)?,
                13 => 28 + 16 * u32_at(at + 4)?,
                16 => super::beliefs::record_size(frame, at)?,
                15 => HEARING_HEAD + 12 * u16::from_le_bytes(frame.get(at + 14..at + 16)?.try_into().ok()?) as usize,
                _ => {
                    let cells = u32_at(at + 28)?.checked_mul(u32_at(at + 32)?)?;
                    40 + cells.checked_mul(u32_at(at + 36)?.checked_mul(4)?.checked_add(1)?)?
                }
            };
            at = at.checked_add(size).filter(|&e| e <= frame.len())?;
        }
        *slot = start..at;
    }
    (at == frame.len()).then_some(out)
}
