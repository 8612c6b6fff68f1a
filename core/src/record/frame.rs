//! FRAME chunks: a step's outputs in the twelve sections of `docs/recording.md`, and the split
//! of a frame into its sections (the replay compares them one by one).

use std::ops::Range;

use super::Recorder;
use super::writer::Writer;
use crate::math::Vec3;
use crate::rays::RayHit;
use crate::tactics::TacticalResult;
use crate::world::World;

/// The sections' names, in order (a replay mismatch names one).
pub(crate) const SECTIONS: [&str; 12] = [
    "agents",
    "targets",
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
];
/// The Tactics section: answers to `&self` queries, which the replay does not ask again.
pub(crate) const TACTICS: usize = 10;
/// Bytes before the first section: time, step, dt.
pub(crate) const FRAME_HEADER: usize = 16;

fn id<I: Copy>(w: &mut Writer, i: I, parts: impl Fn(I) -> (u32, u32)) {
    let (index, generation) = parts(i);
    w.id(index, generation);
}
macro_rules! wid {
    ($w:expr, $i:expr) => {
        id($w, $i, |i| (i.index, i.generation))
    };
}

/// Has the agent's sight ticked this step? Its schedule moved (or, at rate 0, it is due every
/// step and no budget held it back).
pub(crate) fn ticked(rec: &Recorder, world: &World, slot: u32, agent: &crate::agent::Agent) -> bool {
    let Some(&before) = rec.before.get(slot as usize) else { return false };
    let s = &agent.tuning.sight;
    before != agent.next_sense_time || (s.enabled && s.rate_hz <= 0.0 && world.def.max_sight_ticks_per_step == 0)
}

pub(crate) fn write_frame(
    world: &World,
    rec: &Recorder,
    step: u32,
    dt: f32,
    tactics: &(u32, Vec<u8>),
    engine: Option<&[RayHit]>,
    w: &mut Writer,
) {
    let time = world.time;
    w.f64(time);
    w.u32(step);
    w.f32(dt);
    // 1. Agents.
    w.u32(world.agents.len() as u32);
    for (id, agent) in world.agents() {
        wid!(w, id);
        let s = &agent.tuning.sight;
        w.vec3(agent.position);
        w.vec3(agent.forward);
        w.vec3(agent.eye());
        w.f32(s.view_radius);
        w.f32(s.view_angle * 0.5);
        w.f32(s.peripheral_radius);
        w.f32(s.peripheral_angle * 0.5);
        w.u8(agent.brain.state as u8);
        let target = world.move_target(id).ok().flatten();
        let flags = ticked(rec, world, id.index, agent) as u8
            | (target.is_some() as u8) << 1
            | (s.enabled as u8) << 2
            | (rec.in_focus(id) as u8) << 3;
        w.u8(flags);
        w.u8(agent.team);
        let stage = agent.records.iter().map(|r| r.stage as u8).max().unwrap_or(0);
        let level = agent.records.iter().map(|r| r.awareness).fold(0.0f32, f32::max);
        w.u8(stage);
        w.f32(level);
        w.vec3(target.unwrap_or(Vec3::ZERO));
        w.f32((agent.next_sense_time - time) as f32);
        w.f32(s.lose_sight_radius);
    }
    // 2. Targets.
    w.u32(world.targets.len() as u32);
    for (id, t) in world.targets() {
        wid!(w, id);
        w.vec3(t.position());
        w.u8(t.enabled() as u8);
        w.u8(t.check_points().len() as u8);
        w.bytes(&[0; 2]);
        t.world_points().for_each(|p| w.vec3(p));
    }
    // 3. Sounds.
    w.u32(world.last_sounds.len() as u32);
    for (i, s) in world.last_sounds.iter().enumerate() {
        w.vec3(s.position);
        w.f32(s.loudness);
        wid!(w, s.source);
        w.u32(i as u32);
        w.u32(0);
    }
    let e = &world.events;
    // 4. Percepts.
    w.u32(e.percepts.len() as u32);
    for p in &e.percepts {
        wid!(w, p.agent);
        wid!(w, p.target);
        w.u8(p.kind as u8);
        w.bytes(&[0; 3]);
        w.vec3(p.position);
        w.f32(p.strength);
        w.u32(p.sound);
        w.f32(p.loudness);
        w.f32(p.time);
    }
    // 5. Brain changes.
    w.u32(e.brain.len() as u32);
    for b in &e.brain {
        wid!(w, b.agent);
        wid!(w, b.target);
        w.u8(b.from as u8);
        w.u8(b.to as u8);
        w.bytes(&[0; 2]);
        w.f32(b.time);
    }
    // 6. Seen / lost.
    w.u32(e.sight_changes.len() as u32);
    for c in &e.sight_changes {
        wid!(w, c.agent);
        wid!(w, c.target);
        w.u8(c.seen as u8);
        w.bytes(&[0; 3]);
        w.vec3(c.position);
    }
    // 7. Forgotten.
    w.u32(e.forgotten.len() as u32);
    for f in &e.forgotten {
        wid!(w, f.agent);
        wid!(w, f.target);
        w.vec3(f.position);
        w.f32(f.time);
    }
    // 8. Awareness changes.
    w.u32(e.awareness.len() as u32);
    for a in &e.awareness {
        wid!(w, a.agent);
        wid!(w, a.target);
        w.u8(a.from as u8);
        w.u8(a.to as u8);
        w.bytes(&[0; 2]);
        w.f32(a.level);
        w.f32(a.time);
        w.u32(0);
    }
    // 9. Memory of the agents in focus.
    let count_at = w.len();
    w.u32(0);
    let mut count = 0u32;
    for (id, agent) in world.agents().filter(|(id, _)| rec.in_focus(*id)) {
        for r in &agent.records {
            wid!(w, id);
            wid!(w, r.target);
            w.vec3(r.last_known_position);
            w.f32(r.confidence);
            w.f32(r.last_percept_time);
            w.u8(r.seen as u8);
            w.bytes(&[0; 3]);
            count += 1;
        }
    }
    w.bytes[count_at..count_at + 4].copy_from_slice(&count.to_le_bytes());
    // 10. Why.
    super::why::write_why(world, rec, engine, w);
    // 11. Tactics.
    w.u32(tactics.0);
    w.bytes(&tactics.1);
    // 12. Influence maps.
    write_maps(world, rec, w);
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
    let mut w = Writer { bytes: std::mem::take(out), chunks: 0 };
    w.u8(kind);
    w.bytes(&[0; 3]);
    w.u32(results.len() as u32);
    w.vec3(position);
    w.u64(0);
    for r in results {
        w.vec3(r.position);
        w.f32(r.score);
    }
    *out = w.bytes;
}

/// Splits a frame's payload into its twelve sections (each with its count), checking that
/// every record fits; `None` when the frame is malformed.
pub(crate) fn split(frame: &[u8]) -> Option<[Range<usize>; 12]> {
    let mut at = FRAME_HEADER;
    let u32_at = |at: usize| -> Option<usize> {
        Some(u32::from_le_bytes(frame.get(at..at + 4)?.try_into().ok()?) as usize)
    };
    let mut out: [Range<usize>; 12] = Default::default();
    for (k, slot) in out.iter_mut().enumerate() {
        let start = at;
        let n = u32_at(at)?;
        at += 4;
        for _ in 0..n {
            let size = match k {
                0 => 88,
                1 => 24 + 12 * *frame.get(at + 21)? as usize,
                2 | 5 | 6 | 7 => 32,
                3 => 48,
                4 => 24,
                8 => 40,
                9 => 36 + 44 * *frame.get(at + 17)? as usize,
                10 => 28 + 16 * u32_at(at + 4)?,
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
