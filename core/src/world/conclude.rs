//! The step's second half, per agent in store order: hearing, the sight tick's percepts from the
//! resolved rays, memory decay and refresh, awareness, and the brain (lesson §5–8).

use crate::agent::Agent;
use crate::broadphase::TargetGrid;
use crate::hearing::{Heard, HearingPath, StepSounds, WalkHearing, hear, path_of};
use crate::id::{AgentId, Pool, TargetId};
use crate::memory;
use crate::occluders::OccluderSet;
use crate::percept::{AwarenessEvent, BrainEvent, ForgetEvent, Percept, PerceptKind, SightChange, StepEvents};
use crate::rays::{RayHit, RayQuery};
use crate::sight::{RAY_STOP_SHORT, off_axis};
use crate::target::Target;
use crate::team::AttitudeTable;

use super::sweep::Candidate;

/// What concluding an agent reads.
pub(super) struct ConcludeInput<'a> {
    pub time: f64,
    /// The world's time before this step (the previous step's `time`).
    pub previous_time: f64,
    pub dt: f32,
    pub targets: &'a Pool<Target>,
    /// The step's target grid, which the sweep's candidates name their targets by.
    pub grid: &'a TargetGrid,
    pub attitudes: &'a AttitudeTable,
    pub occluders: &'a OccluderSet,
    pub sounds: StepSounds<'a>,
    pub sound_occlusion: f32,
    /// The world's hearing path, and whether it has a walk graph.
    pub hearing_path: (HearingPath, bool),
    /// What walk-hearing agents heard (resolved before the step's agents conclude).
    pub walk_heard: &'a WalkHearing,
}

/// Fewer sounds than this in a step are scanned; more go through a grid, so a step where a
/// thousand footsteps land at once costs each agent only the sounds near it.
pub(super) const SOUND_GRID_MIN: usize = 8;

/// The sweep's results for one agent due a sight tick.
pub(super) struct Sighting<'a> {
    pub candidates: &'a [Candidate],
    pub rays: &'a [RayQuery],
    pub hits: &'a [RayHit],
}

/// Hearing for one agent: the sounds it hears into `heard`, in sound order. `nearby` is scratch
/// for the grid's candidates.
fn listen(ctx: &ConcludeInput, id: AgentId, agent: &Agent, heard: &mut Vec<Heard>, nearby: &mut Vec<u32>) {
    heard.clear();
    let hearing = &agent.tuning.hearing;
    if !hearing.enabled {
        return;
    }
    let (world_path, has_graph) = ctx.hearing_path;
    if path_of(agent, world_path, has_graph) == HearingPath::Walk {
        heard.extend(ctx.walk_heard.heard_by(id.index).iter().map(|&(_, h)| h));
        return;
    }
    // Occluders shrink a sound's reach only when one has a transmission of its own, or the
    // world muffles sound (its factor below 1).
    let shrinks = ctx.sound_occlusion < 1.0 || ctx.occluders.transmitting() > 0;
    let listener = agent.position();
    ctx.sounds.each_audible(agent, ctx.attitudes, nearby, |si, sound| {
        let kept = || ctx.occluders.kept_through(sound.position, listener, hearing.obstacle_mask, ctx.sound_occlusion);
        if let Some((strength, distance)) = hear(listener, hearing.sensitivity, sound, shrinks.then_some(kept)) {
            heard.push(Heard { sound: si, strength, distance, position: sound.position });
        }
    });
}

/// Percepts, memory, awareness and brain for one agent: its hearing now, and its sight tick's
/// resolved rays when it had one.
pub(super) fn conclude(
    ctx: &ConcludeInput,
    id: AgentId,
    agent: &mut Agent,
    sighting: Option<Sighting>,
    heard: &mut Vec<Heard>,
    nearby: &mut Vec<u32>,
    out: &mut StepEvents,
) {
    listen(ctx, id, agent, heard, nearby);
    // An agent with no memories and no brain that heard and saw nothing: only its sight tick
    // counts (every stage below would loop over nothing). Most guards of a sparse level.
    let sees_nothing = |s: &Sighting| s.candidates.iter().all(|c| c.visible == 0);
    if agent.records.is_empty() && heard.is_empty() && !agent.tuning.brain.enabled {
        match sighting {
            None => return,
            Some(s) if sees_nothing(&s) => return sight_tick(ctx, id, agent, out),
            Some(_) => {}
        }
    }
    let time = ctx.time as f32;
    let dt = ctx.dt;
    let state_before = agent.brain.state;
    let memory_config = agent.tuning.memory;
    // Sample and hold: a target seen at the agent's latest sight tick keeps its confidence
    // until a tick does not see it (then `see` releases it, see `MemoryRecord::confidence`).
    for rec in agent.records.iter_mut() {
        if rec.seen {
            continue;
        }
        if rec.decay(&memory_config, dt) {
            out.forgotten.push(ForgetEvent { agent: id, target: rec.target, position: rec.last_known_position, time });
        }
    }

    let first_percept = out.percepts.len();
    for h in heard.iter() {
        let sound = &ctx.sounds.sounds[h.sound as usize];
        let source = if ctx.targets.get(sound.source.index, sound.source.generation).is_some() {
            sound.source
        } else {
            TargetId::NULL
        };
        if !source.is_null() {
            memory::find_or_insert(&mut agent.records, source).refresh(h.position, time);
        }
        out.percepts.push(Percept {
            kind: PerceptKind::Sound,
            agent: id,
            target: source,
            position: h.position,
            time,
            strength: h.strength,
            sound: h.sound,
            loudness: sound.loudness,
            distance: h.distance,
        });
    }

    if let Some(sighting) = sighting {
        sight_tick(ctx, id, agent, out);
        see(ctx, id, agent, &sighting, out);
    }

    let awareness = agent.tuning.awareness;
    if awareness.enabled {
        for rec in agent.records.iter_mut() {
            let level = awareness.advance(rec.awareness, rec.seen, rec.salience, dt);
            let stage = awareness.stage(level);
            if stage != rec.stage {
                out.awareness.push(AwarenessEvent {
                    agent: id,
                    target: rec.target,
                    from: rec.stage,
                    to: stage,
                    level,
                    time,
                });
            }
            rec.awareness = level;
            rec.stage = stage;
        }
    }

    if agent.tuning.brain.enabled {
        let awareness_on = agent.tuning.awareness.enabled;
        let (config, position) = (agent.tuning.brain, agent.position());
        agent.brain.think(&config, awareness_on, position, &agent.records, &out.percepts[first_percept..], dt);
        // Still focused on a target destroyed since the last step (nothing this step gave it a
        // new focus): give up now, reported below as a change to Idle.
        let focus = agent.brain.focus;
        if !focus.is_null() && ctx.targets.get(focus.index, focus.generation).is_none() {
            agent.brain.on_focus_destroyed();
        }
        if agent.brain.state != state_before {
            out.brain.push(BrainEvent {
                agent: id,
                from: state_before,
                to: agent.brain.state,
                target: agent.brain.focus,
                time,
            });
        }
    }
    agent.records.retain(|r| !r.is_empty());
}

/// A sight tick happened: its event (a test hook, see `StepEvents::sight_ticks`), and the agent's
/// next one scheduled.
fn sight_tick(ctx: &ConcludeInput, id: AgentId, agent: &mut Agent, out: &mut StepEvents) {
    #[cfg(any(test, feature = "testing"))]
    out.sight_ticks.push(id);
    #[cfg(not(any(test, feature = "testing")))]
    let _ = (id, out);
    let period = agent.tuning.sight.period();
    agent.next_sense_time = if period > 0.0 {
        let behind = (((ctx.time - agent.next_sense_time) / period).floor() + 1.0).max(1.0);
        agent.next_sense_time + behind * period
    } else {
        ctx.time
    };
}

/// A sight tick: counts each candidate's clear rays and refreshes what was seen.
fn see(ctx: &ConcludeInput, id: AgentId, agent: &mut Agent, sighting: &Sighting, out: &mut StepEvents) {
    let (candidates, rays, hits) = (sighting.candidates, sighting.rays, sighting.hits);
    let time = ctx.time as f32;
    // `seen` keeps the previous tick's answer until the end, where it is compared with this
    // tick's (a visible fraction above 0) for the sight changes: only when the counts say that
    // something changed (seen before, seen now, seen both times).
    let (mut before, mut now, mut both) = (0u32, 0u32, 0u32);
    for rec in agent.records.iter_mut() {
        before += rec.seen as u32;
        rec.visibility = 0.0;
        rec.salience = 0.0;
    }
    let first_sight = out.percepts.len();
    let forward = agent.forward;
    let radius = agent.tuning.sight.view_radius.max(1e-6);
    let cos_half = agent.tuning.cache.cos_half;
    // Nearness and centrality only feed awareness; without it the rays are not read again.
    let salient = agent.tuning.awareness.enabled;
    for c in candidates {
        if c.visible == 0 {
            continue;
        }
        let visible = c.visible as u32;
        // Free points sit on the eye: nearest and most central possible.
        let (mut near, mut central) = if c.free_visible > 0 { (0.0f32, 0.0f32) } else { (f32::MAX, f32::MAX) };
        if salient {
            for k in (c.first_ray as usize..).take(c.ray_count as usize).filter(|&k| !hits[k].hit) {
                near = near.min((rays[k].max_distance + RAY_STOP_SHORT) / radius);
                central = central.min(off_axis(forward.dot(rays[k].direction), cos_half));
            }
        }
        // The grid's copy: the target itself may sit anywhere in memory.
        let target = ctx.grid.entry(c.entry as usize);
        let tid = TargetId { index: target.target, generation: target.generation };
        let fraction = visible as f32 / c.point_count as f32;
        let rec = memory::find_or_insert(&mut agent.records, tid);
        rec.refresh(target.position, time);
        (now, both) = (now + 1, both + rec.seen as u32);
        rec.visibility = fraction;
        rec.salience = if salient { agent.tuning.awareness.salience(fraction, near, central) } else { 0.0 };
        out.percepts.push(Percept {
            kind: PerceptKind::Sight,
            agent: id,
            target: tid,
            position: target.position,
            time,
            strength: fraction,
            sound: Percept::NO_SOUND,
            loudness: 0.0,
            distance: 0.0,
        });
    }
    // The broadphase visits targets in grid order; report them in slot order.
    out.percepts[first_sight..].sort_unstable_by_key(|p| p.target.index);
    if before == both && now == both {
        return;
    }
    let first_change = out.sight_changes.len();
    for rec in agent.records.iter_mut() {
        let seen = rec.visibility > 0.0;
        if seen != rec.seen {
            rec.seen = seen;
            let (target, position) = (rec.target, rec.last_known_position);
            out.sight_changes.push(SightChange { agent: id, target, seen, position, time });
            if !seen && rec.release(&agent.tuning.memory, ctx.previous_time as f32, time, ctx.dt) {
                out.forgotten.push(ForgetEvent { agent: id, target, position, time });
            }
        }
    }
    if out.sight_changes.len() > first_change + 1 {
        out.sight_changes[first_change..].sort_unstable_by_key(|c| c.target.index);
    }
}
