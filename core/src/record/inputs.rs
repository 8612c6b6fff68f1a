//! INPUT chunks: `u16 call`, `u16 pad`, the call's arguments (and the id a creation returned),
//! written by the world's hooks and applied again by the replay.

use super::writer::Writer;
use super::{RecordOptions, bad};
use crate::agent::AgentDef;
use crate::error::{Error, Result};
use crate::hearing::SoundDef;
use crate::id::{AgentId, InfluenceMapId, OccluderId, TargetId};
use crate::influence::{InfluenceMap, InfluenceMapDef, Plane};
use crate::math::Vec3;
use crate::snapshot::codec::{Reader, Writer as SnapWriter};
use crate::snapshot::{maps, parts, walk};
use crate::team::Attitude;
use crate::world::World;

/// The call codes of INPUT chunks.
pub(crate) mod call {
    pub const OPTIONS: u16 = 0;
    pub const CREATE_AGENT: u16 = 1;
    pub const DESTROY_AGENT: u16 = 2;
    pub const SET_AGENT_DEF: u16 = 3;
    pub const SET_AGENT_POSE: u16 = 4;
    pub const SET_AGENT_POSES: u16 = 5;
    pub const REPORT_ARRIVED: u16 = 6;
    pub const REMEMBER: u16 = 7;
    pub const FORGET: u16 = 8;
    pub const CREATE_TARGET: u16 = 9;
    pub const DESTROY_TARGET: u16 = 10;
    pub const SET_TARGET_DEF: u16 = 11;
    pub const SET_TARGET_POSE: u16 = 12;
    pub const SET_TARGET_POSES: u16 = 13;
    pub const SET_TARGET_ENABLED: u16 = 14;
    pub const SET_TARGET_CHECK_POINTS: u16 = 15;
    pub const ADD_OCCLUDER: u16 = 16;
    pub const REMOVE_OCCLUDER: u16 = 17;
    pub const SET_OCCLUDER_POSE: u16 = 18;
    pub const SET_OCCLUDER_LAYERS: u16 = 19;
    pub const EMIT_SOUND: u16 = 20;
    pub const SET_ATTITUDE: u16 = 21;
    pub const CREATE_MAP: u16 = 22;
    pub const DESTROY_MAP: u16 = 23;
    pub const MAP_STATE: u16 = 24;
    pub const SET_WALK_GRID: u16 = 25;
    pub const SET_WALK_GRAPH: u16 = 26;
    pub const CLEAR_WALK_GRAPH: u16 = 27;
}

pub(super) fn write_options(w: &mut Writer, o: &RecordOptions) {
    w.u16(call::OPTIONS);
    w.u16(0);
    w.u8(o.explain as u8);
    w.bytes(&[0; 3]);
    w.u32(o.focus.len() as u32);
    o.focus.iter().for_each(|a| w.id(a.index, a.generation));
}

pub(super) fn write_map_state(w: &mut Writer, id: InfluenceMapId, map: &InfluenceMap) {
    w.u16(call::MAP_STATE);
    w.u16(0);
    w.id(id.index, id.generation);
    let mut s = SnapWriter::default();
    maps::write_map(&mut s, map);
    w.bytes(&s.bytes);
}

fn id(r: &mut Reader) -> Result<(u32, u32)> {
    let v = r.u64()?;
    Ok((v as u32, (v >> 48) as u32))
}
fn agent(r: &mut Reader) -> Result<AgentId> {
    id(r).map(|(index, generation)| AgentId { index, generation })
}
fn target(r: &mut Reader) -> Result<TargetId> {
    id(r).map(|(index, generation)| TargetId { index, generation })
}
fn occluder(r: &mut Reader) -> Result<OccluderId> {
    id(r).map(|(index, generation)| OccluderId { index, generation })
}
fn map_id(r: &mut Reader) -> Result<InfluenceMapId> {
    id(r).map(|(index, generation)| InfluenceMapId { index, generation })
}
fn u16(r: &mut Reader) -> Result<u16> {
    let b = r.take(2)?;
    Ok(u16::from_le_bytes([b[0], b[1]]))
}

fn agent_def(r: &mut Reader) -> Result<AgentDef> {
    let (position, forward, team, detect) = (r.vec3()?, r.vec3()?, r.u32()?, r.u32()?);
    let n = r.len(4)?;
    let words = (0..n).map(|_| r.u32()).collect::<Result<Vec<u32>>>()?;
    let mut def = AgentDef { position, forward, team, detect, ..Default::default() };
    def.read_settings_words(&mut words.into_iter()).ok_or_else(|| bad("an agent's settings are malformed"))?;
    Ok(def)
}

fn map_def(r: &mut Reader) -> Result<InfluenceMapDef> {
    Ok(InfluenceMapDef {
        width: r.u32()?,
        height: r.u32()?,
        cell_size: r.f32()?,
        origin: r.vec3()?,
        plane: if r.u8()? == 1 { Plane::XY } else { Plane::XZ },
        layer_count: r.u32()?,
    })
}

fn poses<I>(r: &mut Reader, make: impl Fn((u32, u32)) -> I) -> Result<Vec<(I, Vec3, Option<Vec3>)>> {
    let n = r.len(33)?;
    (0..n)
        .map(|_| {
            let (i, p, has, f) = (id(r)?, r.vec3()?, r.u8()?, r.vec3()?);
            Ok((make(i), p, (has != 0).then_some(f)))
        })
        .collect()
}

/// How an input call went in the replay: its decoding failed (a bad recording), the call was
/// refused (with the call's own error, which the replay keeps when it is not about the
/// arguments: an `OutOfMemory`), or its id differs (a mismatch: `Refused(None)`).
pub(crate) enum Applied {
    Done,
    Options(RecordOptions),
    Refused(Option<Error>),
}

/// Applies one INPUT chunk's call to `world`.
/// `budget`: the recording's size, which bounds the influence maps it can create.
pub(crate) fn apply(world: &mut World, payload: &[u8], budget: usize) -> Result<Applied> {
    let r = &mut Reader::new(payload);
    let code = u16(r)?;
    u16(r)?;
    let same = |made: (u32, u32), r: &mut Reader| -> Result<bool> { Ok(id(r)? == made) };
    let outcome: std::result::Result<bool, Error> = match code {
        call::OPTIONS => {
            let explain = r.u8()? != 0;
            r.take(3)?;
            let n = r.len(8)?;
            let focus = (0..n).map(|_| agent(r)).collect::<Result<Vec<_>>>()?;
            return finish(r, Applied::Options(RecordOptions { focus, explain }));
        }
        call::CREATE_AGENT => {
            let def = agent_def(r)?;
            match world.create_agent(&def) {
                Ok(a) => Ok(same((a.index, a.generation), r)?),
                Err(e) => Err(e),
            }
        }
        call::DESTROY_AGENT => world.destroy_agent(agent(r)?).map(|_| true),
        call::SET_AGENT_DEF => {
            let a = agent(r)?;
            world.set_agent_def(a, &agent_def(r)?).map(|_| true)
        }
        call::SET_AGENT_POSE => {
            let (a, p, f) = (agent(r)?, r.vec3()?, r.vec3()?);
            world.set_agent_pose(a, p, f).map(|_| true)
        }
        call::SET_AGENT_POSES => {
            let list = poses(r, |(index, generation)| AgentId { index, generation })?;
            world.set_agent_poses_by(list.len(), |i| list[i]).map(|_| true)
        }
        call::REPORT_ARRIVED => world.report_arrived(agent(r)?).map(|_| true),
        call::REMEMBER => {
            let (a, t, p, c) = (agent(r)?, target(r)?, r.vec3()?, r.f32()?);
            world.remember(a, t, p, c).map(|_| true)
        }
        call::FORGET => {
            let (a, t) = (agent(r)?, target(r)?);
            world.forget(a, t).map(|_| true)
        }
        call::CREATE_TARGET => {
            let def = parts::read_target(r)?;
            match world.create_target(&def) {
                Ok(t) => Ok(same((t.index, t.generation), r)?),
                Err(e) => Err(e),
            }
        }
        call::DESTROY_TARGET => world.destroy_target(target(r)?).map(|_| true),
        call::SET_TARGET_DEF => {
            let t = target(r)?;
            world.set_target_def(t, &parts::read_target(r)?).map(|_| true)
        }
        call::SET_TARGET_POSE => {
            let (t, p, f) = (target(r)?, r.vec3()?, r.vec3()?);
            world.set_target_pose(t, p, f).map(|_| true)
        }
        call::SET_TARGET_POSES => {
            let list = poses(r, |(index, generation)| TargetId { index, generation })?;
            world.set_target_poses_by(list.len(), |i| list[i]).map(|_| true)
        }
        call::SET_TARGET_ENABLED => {
            let (t, on) = (target(r)?, r.u8()?);
            world.set_target_enabled(t, on != 0).map(|_| true)
        }
        call::SET_TARGET_CHECK_POINTS => {
            let t = target(r)?;
            let n = r.len(12)?;
            let points = (0..n).map(|_| r.vec3()).collect::<Result<Vec<_>>>()?;
            world.set_target_check_points(t, &points).map(|_| true)
        }
        call::ADD_OCCLUDER => {
            let def = parts::read_occluder(r)?;
            match world.add_occluder(&def) {
                Ok(o) => Ok(same((o.index, o.generation), r)?),
                Err(e) => Err(e),
            }
        }
        call::REMOVE_OCCLUDER => world.remove_occluder(occluder(r)?).map(|_| true),
        call::SET_OCCLUDER_POSE => {
            let (o, p) = (occluder(r)?, r.vec3()?);
            let q = r.quat()?;
            world.set_occluder_pose(o, p, q).map(|_| true)
        }
        call::SET_OCCLUDER_LAYERS => {
            let (o, l) = (occluder(r)?, r.u32()?);
            world.set_occluder_layers(o, l).map(|_| true)
        }
        call::EMIT_SOUND => {
            let (position, loudness, source, team, layers) = (r.vec3()?, r.f32()?, target(r)?, r.u32()?, r.u32()?);
            world.emit_sound(&SoundDef { position, loudness, source, team, layers }).map(|_| true)
        }
        call::SET_ATTITUDE => {
            let (a, b, v) = (r.u32()?, r.u32()?, r.u8()?);
            let attitude = match v {
                0 => Attitude::Hostile,
                1 => Attitude::Neutral,
                2 => Attitude::Friendly,
                _ => return Err(bad(format!("unknown attitude {v}"))),
            };
            world.set_attitude(a, b, attitude).map(|_| true)
        }
        call::CREATE_MAP => {
            let def = map_def(r)?;
            // A map created in a recording is in its next FRAME, values and all: maps bigger
            // than the recording (plus room for one made after the last step) were not made by
            // this library, and are refused before anything is allocated.
            let size = |cells: u64, layers: u64| cells.saturating_mul(layers * 4 + 1);
            let live: u64 = world.maps.iter().map(|(_, m)| size(m.cell_count() as u64, m.layer_count() as u64)).sum();
            let needed = size(def.width as u64 * def.height as u64, def.layer_count as u64);
            if live.saturating_add(needed) > budget as u64 + (64 << 20) {
                return Err(bad(format!("an influence map of {needed} bytes cannot come from this recording")));
            }
            match world.create_influence_map(&def) {
                Ok(m) => Ok(same((m.index, m.generation), r)?),
                Err(e) => Err(e),
            }
        }
        call::DESTROY_MAP => world.destroy_influence_map(map_id(r)?).map(|_| true),
        call::MAP_STATE => {
            let m = map_id(r)?;
            let map = maps::read_map(r)?;
            world.replace_influence_map(m, map).map(|_| true)
        }
        call::SET_WALK_GRID => world.set_walk_grid(&walk::read_grid_def(r)?).map(|_| true),
        call::SET_WALK_GRAPH => {
            let (snap, nodes, edges) = walk::read_given(r)?;
            world.set_walk_graph(&nodes, &edges, snap).map(|_| true)
        }
        call::CLEAR_WALK_GRAPH => world.clear_walk_graph().map(|_| true),
        other => return Err(bad(format!("unknown input call {other}"))),
    };
    match outcome {
        Ok(true) => finish(r, Applied::Done),
        Ok(false) => Ok(Applied::Refused(None)),
        Err(e) => Ok(Applied::Refused(Some(e))),
    }
}

fn finish(r: &Reader, applied: Applied) -> Result<Applied> {
    if r.is_done() { Ok(applied) } else { Err(bad("an input chunk has trailing bytes")) }
}
