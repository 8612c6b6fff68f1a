//! The Hearing section of a frame (format 5, see `docs/recording.md`): for each agent in focus,
//! each of the step's sounds it listens to that came within twice its reach by the straight
//! line, whether it heard it, how (straight through, or along the walk graph, with the walk), and
//! when not, why: beyond reach by the line, muffled by what the line crosses, a walk longer than
//! the reach, no walk at all, off the graph. The inspector draws the walk and says the reason.
//!
//! Heard or not is the step's own answer (its sound percepts); the rest is found again here with
//! the hearing module's rules (`hear`, `path_of`, the walk graph's search), so the section cannot
//! disagree with what the agent did. Only recordings that explain (`RecordOptions::explain`)
//! write records; a walk not heard is searched up to twice the reach (a search per such pair
//! while recording, never in a step).

use super::Focus;
use super::writer::Writer;
use crate::agent::Agent;
use crate::hearing::{HearingPath, Sound, hear, path_of};
use crate::math::Vec3;
use crate::percept::PerceptKind;
use crate::walk::FloodScratch;
use crate::world::World;

/// Why a listener heard a sound or did not (the record's `u8 outcome`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Outcome {
    /// Heard by the straight line (through what it crosses).
    HeardStraight = 0,
    /// Heard along the walk graph.
    HeardWalk = 1,
    /// The straight line is longer than the reach (no walk is shorter than it).
    BeyondReach = 2,
    /// Within reach by the line, but what the line crosses keeps too little of it (straight-line
    /// hearing: muffled; walk hearing: through occluders that do not transmit enough, and no walk
    /// heard either, see the other outcomes).
    Muffled = 3,
    /// Walk hearing: the shortest walk is longer than the reach.
    WalkTooLong = 4,
    /// Walk hearing: no walk joins the sound's node and the listener's.
    NoWalk = 5,
    /// Walk hearing: the sound or the listener has no open node within the snap distance.
    OffGraph = 6,
    /// Walk hearing: no walk of at most twice the reach (the search goes no further).
    WalkFar = 7,
}

/// Working memory of the section, kept by the recorder between frames.
#[derive(Default)]
pub(crate) struct HearingScratch {
    flood: FloodScratch,
    nearby: Vec<u32>,
    listened: Vec<u32>,
    /// The step's sound percepts: (agent slot, sound) → (distance, position).
    heard: Vec<((u32, u32), (f32, Vec3))>,
}

/// One listener's answer for one sound.
struct Explained {
    outcome: Outcome,
    /// The fraction of the reach kept through what the straight line crosses (1: nothing).
    kept: f32,
    /// Metres it travelled when heard; the walk when too long; 0 otherwise.
    distance: f32,
    /// The walk's nodes, from the sound's end to the listener's (heard along it, or too long).
    path: Vec<u32>,
}

/// Writes the section: `u32 count`, then the records (see `docs/recording.md`).
pub(crate) fn write_hearing(world: &World, explain: bool, focus: &Focus, scratch: &mut HearingScratch, w: &mut Writer) {
    let count_at = w.len();
    w.u32(0);
    if !explain || world.last_sounds.is_empty() {
        return;
    }
    // Room for the walk searches (the size of the world's own; short of it, no records), which
    // search as the world's do.
    scratch.flood.grids_by_heap = world.walk_hearing.flood.grids_by_heap;
    if let Some(graph) = &world.walk
        && scratch.flood.prepare(graph.node_count()).is_err()
    {
        return;
    }
    let sounds = world.last_step_sounds();
    // The step's sound percepts by (agent slot, sound), for a binary search per pair.
    let heard = &mut scratch.heard;
    heard.clear();
    heard.extend(
        world
            .events
            .percepts
            .iter()
            .filter(|p| p.kind == PerceptKind::Sound)
            .map(|p| ((p.agent.index, p.sound), (p.distance, p.position))),
    );
    heard.sort_unstable_by_key(|&(key, _)| key);
    let mut count = 0u32;
    let mut listened = std::mem::take(&mut scratch.listened);
    for (index, (generation, agent)) in world.agents.slots().enumerate() {
        let Some(agent) = agent else { continue };
        let id = crate::id::AgentId { index: index as u32, generation };
        if !agent.tuning.hearing.enabled || !focus.contains(id) {
            continue;
        }
        listened.clear();
        sounds.each_audible(agent, &world.attitudes, &mut scratch.nearby, |si, _| listened.push(si));
        for &si in &listened {
            let sound = &world.last_sounds[si as usize];
            let reach = sound.loudness * agent.tuning.hearing.sensitivity;
            let straight = agent.position().distance(sound.position);
            if straight > 2.0 * reach {
                continue;
            }
            let heard = heard.binary_search_by_key(&(id.index, si), |&(key, _)| key).ok().map(|k| heard[k].1);
            let e = explain_pair(world, agent, sound, heard.map(|(d, _)| d), &mut scratch.flood);
            w.id(id.index, id.generation);
            w.u32(si);
            w.u8(e.outcome as u8);
            w.u8((path_of(agent, world.def.hearing_path, world.walk.is_some()) == HearingPath::Walk) as u8);
            w.u16(e.path.len().min(u16::MAX as usize) as u16);
            w.f32(reach);
            w.f32(straight);
            w.f32(e.kept);
            w.f32(e.distance);
            w.vec3(heard.map_or(sound.position, |(_, p)| p));
            let graph = world.walk.as_ref();
            for &node in e.path.iter().take(u16::MAX as usize) {
                w.vec3(graph.map_or(Vec3::ZERO, |g| g.position(node)));
            }
            count += 1;
        }
    }
    scratch.listened = listened;
    w.bytes[count_at..count_at + 4].copy_from_slice(&count.to_le_bytes());
}

/// `agent`'s answer for `sound`; `heard`: the distance of the step's percept of it, if any.
fn explain_pair(
    world: &World,
    agent: &Agent,
    sound: &Sound,
    heard: Option<f32>,
    flood: &mut FloodScratch,
) -> Explained {
    let hearing = &agent.tuning.hearing;
    let listener = agent.position();
    let graph = world.walk.as_ref();
    let walk = path_of(agent, world.def.hearing_path, graph.is_some()) == HearingPath::Walk;
    // The straight line's rule, as the step applies it for this path (walk hearing: occluders
    // without a transmission of their own block; straight: the world's muffling factor).
    let unset = if walk { 0.0 } else { world.def.sound_occlusion };
    let kept = world.occluders.kept_through(sound.position, listener, hearing.obstacle_mask, unset);
    let straight = hear(listener, hearing.sensitivity, sound, Some(|| kept)).map(|(_, d)| d);
    let done = |outcome, distance| Explained { outcome, kept, distance, path: Vec::new() };
    let reach = sound.loudness * hearing.sensitivity;
    if let (Some(d), Some(_)) = (straight, heard) {
        return done(Outcome::HeardStraight, d);
    }
    let within = listener.distance_squared(sound.position) <= reach * reach;
    let Some(graph) = graph.filter(|_| walk && within) else {
        return match heard {
            // (Unreachable: a heard sound's line or walk was within reach.)
            Some(d) => done(Outcome::HeardStraight, d),
            None if within => done(Outcome::Muffled, 0.0),
            None => done(Outcome::BeyondReach, 0.0),
        };
    };
    let (Some((source, start)), Some((end, last))) = (graph.nearest_node(sound.position), graph.nearest_node(listener))
    else {
        return done(Outcome::OffGraph, 0.0);
    };
    // As `walk_path` searches, bounded by twice the reach: a walk longer than that is not
    // followed further (a level-wide search per pair would cost the recording milliseconds).
    let limit = 2.0 * reach;
    let walks = flood.search(graph, (source, start), limit, &[(end, graph.position(end))]);
    let Some(walked) = walks.distance(end).map(|d| d + last).filter(|&d| d <= limit) else {
        return done(if walks.exhausted() { Outcome::NoWalk } else { Outcome::WalkFar }, 0.0);
    };
    let mut path: Vec<u32> = walks.path_back(end).collect();
    path.reverse();
    let (outcome, distance) = match heard {
        Some(d) => (Outcome::HeardWalk, d),
        None => (Outcome::WalkTooLong, walked),
    };
    Explained { outcome, kept, distance, path }
}

/// A Hearing record read back (a test hook: see `replay::hearing_sections`).
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq)]
pub struct HearingRecord {
    pub agent_index: u32,
    pub agent_generation: u32,
    pub sound: u32,
    /// `Outcome` as its byte: 0 heard straight, 1 heard along the walk, 2 beyond reach,
    /// 3 muffled, 4 walk too long, 5 no walk, 6 off the graph, 7 no walk within twice the reach.
    pub outcome: u8,
    pub walk_hearing: bool,
    pub reach: f32,
    pub straight: f32,
    pub kept: f32,
    pub distance: f32,
    pub apparent: Vec3,
    pub path: Vec<Vec3>,
}

/// The records of a Hearing section (its count first); `None` when malformed.
#[cfg(any(test, feature = "testing"))]
pub(crate) fn parse(section: &[u8]) -> Option<Vec<HearingRecord>> {
    let u32_at = |at: usize| Some(u32::from_le_bytes(section.get(at..at + 4)?.try_into().ok()?));
    let f32_at = |at: usize| u32_at(at).map(f32::from_bits);
    let vec3_at = |at: usize| Some(Vec3::new(f32_at(at)?, f32_at(at + 4)?, f32_at(at + 8)?));
    let count = u32_at(0)?;
    let mut at = 4;
    let mut out = Vec::new();
    for _ in 0..count {
        let id = u64::from_le_bytes(section.get(at..at + 8)?.try_into().ok()?);
        let nodes = u16::from_le_bytes(section.get(at + 14..at + 16)?.try_into().ok()?) as usize;
        out.push(HearingRecord {
            agent_index: id as u32,
            agent_generation: (id >> 48) as u32,
            sound: u32_at(at + 8)?,
            outcome: *section.get(at + 12)?,
            walk_hearing: *section.get(at + 13)? != 0,
            reach: f32_at(at + 16)?,
            straight: f32_at(at + 20)?,
            kept: f32_at(at + 24)?,
            distance: f32_at(at + 28)?,
            apparent: vec3_at(at + 32)?,
            path: (0..nodes).map(|k| vec3_at(at + 44 + 12 * k)).collect::<Option<_>>()?,
        });
        at += 44 + 12 * nodes;
    }
    (at == section.len()).then_some(out)
}
