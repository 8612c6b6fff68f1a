//! FRAME chunks: a step's outputs in the twelve sections of `docs/recording.md`, and the split
//! of a frame into its sections (the replay compares them one by one).

use std::ops::Range;

use super::Recorder;
use super::writer::{Rec, Writer};
use crate::id::AgentId;
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
    // 1. Agents, in slot order; written front to back through the store (spatially ordered in
    // a big world: reading it in slot order would miss the cache at every agent), each record
    // at its place in slot order (they have one size).
    let entries = world.agents.entries();
    let mut rank = vec![u32::MAX; world.agents.live_indices().last().map_or(0, |i| i as usize + 1)];
    for (k, i) in world.agents.live_indices().enumerate() {
        rank[i as usize] = k as u32;
    }
    w.u32(entries.len() as u32);
    let base = w.len();
    w.bytes.resize(base + entries.len() * 88, 0);
    let mut memory = vec![0u32; entries.len()];
    for e in entries {
        let (id, agent) = (AgentId { index: e.index, generation: e.generation }, &e.value);
        let s = &agent.tuning.sight;
        let target = agent.brain.move_target(&agent.brain.focus_view(&agent.records));
        let focus = rec.in_focus(id);
        let flags = ticked(rec, world, id.index, agent) as u8
            | (target.is_some() as u8) << 1
            | (s.enabled as u8) << 2
            | (focus as u8) << 3;
        let (mut stage, mut level) = (0u8, 0.0f32);
        for r in &agent.records {
            stage = stage.max(r.stage as u8);
            level = level.max(r.awareness);
        }
        let mut r = Rec::<88>::new();
        r.id(id.index, id.generation).vec3(agent.position).vec3(agent.forward).vec3(agent.eye());
        r.f32(s.view_radius).f32(s.view_angle * 0.5).f32(s.peripheral_radius).f32(s.peripheral_angle * 0.5);
        r.u8(agent.brain.state as u8).u8(flags).u8(agent.team).u8(stage).f32(level);
        r.vec3(target.unwrap_or(Vec3::ZERO)).f32((agent.next_sense_time - time) as f32).f32(s.lose_sight_radius);
        let k = rank[e.index as usize] as usize;
        w.bytes[base + k * 88..base + (k + 1) * 88].copy_from_slice(&r.buf);
        if focus {
            memory[k] = agent.records.len() as u32;
        }
    }
    // 2. Targets.
    w.u32(world.targets.len() as u32);
    for (id, t) in world.targets() {
        let mut r = Rec::<24>::new();
        r.id(id.index, id.generation).vec3(t.position()).u8(t.enabled() as u8).u8(t.check_points().len() as u8).pad(2);
        w.rec(&r);
        t.world_points().for_each(|p| w.vec3(p));
    }
    // 3. Sounds.
    w.u32(world.last_sounds.len() as u32);
    for (i, s) in world.last_sounds.iter().enumerate() {
        let mut r = Rec::<32>::new();
        r.vec3(s.position).f32(s.loudness).id(s.source.index, s.source.generation).u32(i as u32).pad(4);
        w.rec(&r);
    }
    let e = &world.events;
    // 4. Percepts.
    w.u32(e.percepts.len() as u32);
    for p in &e.percepts {
        let mut r = Rec::<48>::new();
        r.id(p.agent.index, p.agent.generation).id(p.target.index, p.target.generation).u8(p.kind as u8).pad(3);
        r.vec3(p.position).f32(p.strength).u32(p.sound).f32(p.loudness).f32(p.time);
        w.rec(&r);
    }
    // 5. Brain changes.
    w.u32(e.brain.len() as u32);
    for b in &e.brain {
        let mut r = Rec::<24>::new();
        r.id(b.agent.index, b.agent.generation).id(b.target.index, b.target.generation);
        r.u8(b.from as u8).u8(b.to as u8).pad(2).f32(b.time);
        w.rec(&r);
    }
    // 6. Seen / lost.
    w.u32(e.sight_changes.len() as u32);
    for c in &e.sight_changes {
        let mut r = Rec::<32>::new();
        r.id(c.agent.index, c.agent.generation).id(c.target.index, c.target.generation);
        r.u8(c.seen as u8).pad(3).vec3(c.position);
        w.rec(&r);
    }
    // 7. Forgotten.
    w.u32(e.forgotten.len() as u32);
    for f in &e.forgotten {
        let mut r = Rec::<32>::new();
        r.id(f.agent.index, f.agent.generation).id(f.target.index, f.target.generation).vec3(f.position).f32(f.time);
        w.rec(&r);
    }
    // 8. Awareness changes.
    w.u32(e.awareness.len() as u32);
    for a in &e.awareness {
        let mut r = Rec::<32>::new();
        r.id(a.agent.index, a.agent.generation).id(a.target.index, a.target.generation);
        r.u8(a.from as u8).u8(a.to as u8).pad(2).f32(a.level).f32(a.time).pad(4);
        w.rec(&r);
    }
    // 9. Memory of the agents in focus, in slot order, placed as the agents were.
    let mut total = 0u32;
    for n in memory.iter_mut() {
        (*n, total) = (total, total + *n);
    }
    w.u32(total);
    let base = w.len();
    w.bytes.resize(base + total as usize * 40, 0);
    for e in entries.iter().filter(|e| !e.value.records.is_empty()) {
        let id = AgentId { index: e.index, generation: e.generation };
        if !rec.in_focus(id) {
            continue;
        }
        let mut at = base + memory[rank[e.index as usize] as usize] as usize * 40;
        for m in &e.value.records {
            let mut r = Rec::<40>::new();
            r.id(id.index, id.generation).id(m.target.index, m.target.generation).vec3(m.last_known_position);
            r.f32(m.confidence).f32(m.last_percept_time).u8(m.seen as u8).pad(3);
            w.bytes[at..at + 40].copy_from_slice(&r.buf);
            at += 40;
        }
    }
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
    let u32_at =
        |at: usize| -> Option<usize> { Some(u32::from_le_bytes(frame.get(at..at + 4)?.try_into().ok()?) as usize) };
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
