//! One step of a world: schedule → hearing and sight (broadphase → range → cone → rays) →
//! percepts → memory → awareness → brain. Agents are processed in slot order, split into
//! contiguous chunks when worker threads are enabled, so results never depend on the thread count.

use crate::agent::Agent;
use crate::brain::{BrainState, FocusView};
use crate::broadphase::TargetGrid;
use crate::error::{Error, Result, invalid};
use crate::hearing::{Sound, hear};
use crate::id::{AgentId, Pool, Slot, TargetId};
use crate::memory::{self, MemoryRecord};
use crate::occluders::OccluderSet;
use crate::percept::{AwarenessEvent, BrainEvent, ForgetEvent, Percept, PerceptKind, StepEvents};
use crate::rays::{RayHit, RayQuery, RaySource};
use crate::sight::{PointClass, RAY_STOP_SHORT, View, classify, eligible, off_axis, ray_length};
use crate::target::Target;
use crate::team::AttitudeTable;

use super::World;

/// Slack on the schedule so a tick due at exactly this step's time is not missed by rounding.
const SCHEDULE_EPSILON: f64 = 1e-9;

/// Buffers reused from step to step, so a steady-state step does not allocate.
#[derive(Default)]
pub(crate) struct StepScratch {
    pub step_in_progress: bool,
    dt: f32,
    /// The clock value the step in progress will commit.
    time: f64,
    due: Vec<bool>,
    overdue: Vec<(f64, u32)>,
    grid: TargetGrid,
    grid_input: Vec<(u32, crate::math::Vec3)>,
    max_target_reach: f32,
    chunks: Vec<Chunk>,
    rays: Vec<RayQuery>,
    hits: Vec<RayHit>,
}

#[derive(Default)]
struct Chunk {
    heard: Vec<Heard>,
    candidates: Vec<Candidate>,
    rays: Vec<RayQuery>,
    hits: Vec<RayHit>,
    near: Vec<u32>,
    events: StepEvents,
}

#[derive(Copy, Clone, Debug)]
struct Heard {
    agent: u32,
    sound: u32,
    strength: f32,
}

/// A target that passed range and cone for one agent, waiting for its rays.
#[derive(Copy, Clone, Debug)]
struct Candidate {
    agent: u32,
    target: TargetId,
    first_ray: u32,
    ray_count: u8,
    point_count: u8,
    /// Points seen without a ray (on the eye, or nothing can block them).
    free_visible: u8,
}

/// Read-only state shared by every chunk during a step.
struct Sense<'a> {
    time: f64,
    dt: f32,
    targets: &'a Pool<Target>,
    grid: &'a TargetGrid,
    max_target_reach: f32,
    attitudes: &'a AttitudeTable,
    occluders: &'a OccluderSet,
    sounds: &'a [Sound],
    sound_occlusion: f32,
    due: &'a [bool],
}

impl World {
    /// Advances the world by `dt` seconds, with line of sight against the built-in occluders.
    /// An engine-ray world refuses this: use [`World::step_with`] or `begin_step`/`finish_step`.
    pub fn step(&mut self, dt: f32) -> Result<()> {
        self.check_step_args(dt)?;
        if self.def.ray_backend == crate::rays::RayBackend::Engine {
            return Err(Error::NoRayBackend);
        }
        self.prepare(dt);
        self.run(Phase::Fused);
        self.commit();
        Ok(())
    }

    /// Advances the world with `source` answering every ray of the step in one batch.
    pub fn step_with(&mut self, dt: f32, source: &mut dyn RaySource) -> Result<()> {
        self.begin_step(dt)?;
        let scratch = &mut self.scratch;
        scratch.hits.clear();
        scratch.hits.resize(scratch.rays.len(), RayHit::default());
        source.cast_rays(&scratch.rays, &mut scratch.hits);
        let hits = std::mem::take(&mut self.scratch.hits);
        let result = self.finish_step(&hits);
        self.scratch.hits = hits;
        if result.is_err() {
            self.cancel_step();
        }
        result
    }

    /// Abandons a step begun by [`World::begin_step`]: the world is exactly as before it.
    pub fn cancel_step(&mut self) {
        self.scratch.step_in_progress = false;
    }

    /// First half of a step: senses everything up to line of sight and returns every ray the
    /// step needs. Answer them with [`World::finish_step`] (or [`World::cancel_step`]); until
    /// then the world refuses changes. Nothing observable changes before `finish_step`.
    pub fn begin_step(&mut self, dt: f32) -> Result<&[RayQuery]> {
        self.check_step_args(dt)?;
        self.prepare(dt);
        self.run(Phase::Gather);
        let scratch = &mut self.scratch;
        scratch.rays.clear();
        for chunk in &scratch.chunks {
            scratch.rays.extend_from_slice(&chunk.rays);
        }
        scratch.step_in_progress = true;
        Ok(&self.scratch.rays)
    }

    /// The rays of the step begun by [`World::begin_step`] (empty otherwise).
    pub fn pending_rays(&self) -> &[RayQuery] {
        if self.scratch.step_in_progress { &self.scratch.rays } else { &[] }
    }

    /// Second half of a step: `hits[i]` answers ray `i` of `begin_step`.
    pub fn finish_step(&mut self, hits: &[RayHit]) -> Result<()> {
        if !self.scratch.step_in_progress {
            return Err(Error::NoStepInProgress);
        }
        if hits.len() != self.scratch.rays.len() {
            return Err(invalid(format!(
                "{} ray results given for {} rays",
                hits.len(),
                self.scratch.rays.len()
            )));
        }
        super::query::check_hits(hits)?;
        let mut offset = 0;
        for chunk in &mut self.scratch.chunks {
            let n = chunk.rays.len();
            chunk.hits.clear();
            chunk.hits.extend_from_slice(&hits[offset..offset + n]);
            offset += n;
        }
        self.scratch.step_in_progress = false;
        self.run(Phase::Conclude);
        self.commit();
        Ok(())
    }

    fn check_step_args(&self, dt: f32) -> Result<()> {
        if self.scratch.step_in_progress {
            return Err(Error::StepInProgress);
        }
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(invalid(format!("dt must be finite and >= 0, got {dt}")));
        }
        Ok(())
    }

    /// Schedule and broadphase for the coming sweep. Changes nothing observable: the clock,
    /// sounds and events are committed by [`World::commit`] once the step completes.
    fn prepare(&mut self, dt: f32) {
        self.occluders.maintain();
        let scratch = &mut self.scratch;
        scratch.dt = dt;
        scratch.time = self.time + dt as f64;
        let time = scratch.time;
        let slots = self.agents.slots();
        scratch.due.clear();
        scratch.due.extend(slots.iter().map(|s| {
            s.value.as_ref().is_some_and(|a| a.def.sight.enabled && time >= a.next_sense_time - SCHEDULE_EPSILON)
        }));
        let budget = self.def.max_sight_ticks_per_step as usize;
        if budget > 0 && scratch.due.iter().filter(|d| **d).count() > budget {
            scratch.overdue.clear();
            for (i, s) in slots.iter().enumerate() {
                if scratch.due[i] {
                    let next = s.value.as_ref().map_or(0.0, |a| a.next_sense_time);
                    scratch.overdue.push((next, i as u32));
                }
            }
            scratch.overdue.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            for &(_, i) in &scratch.overdue[budget..] {
                scratch.due[i as usize] = false;
            }
        }

        let cell = if self.def.broadphase_cell_size > 0.0 {
            self.def.broadphase_cell_size
        } else {
            let (sum, n) = self.agents.iter().fold((0.0f32, 0u32), |(s, n), (_, a)| (s + a.cache.reach, n + 1));
            if n > 0 { (sum / n as f32).max(1.0) } else { 1.0 }
        };
        let targets = &self.targets;
        scratch.max_target_reach = targets.iter().map(|(_, t)| t.reach()).fold(0.0, f32::max);
        scratch.grid_input.clear();
        scratch.grid_input.extend(targets.iter().filter(|(_, t)| t.enabled).map(|(i, t)| (i, t.position)));
        scratch.grid.rebuild(cell, &scratch.grid_input);

        let threads = self.def.worker_threads.max(1) as usize;
        scratch.chunks.resize_with(threads, Chunk::default);
        for chunk in &mut scratch.chunks {
            chunk.heard.clear();
            chunk.candidates.clear();
            chunk.rays.clear();
            chunk.hits.clear();
            chunk.events.clear();
        }
    }

    /// The step completed: advance the clock, publish its events, retire its sounds.
    fn commit(&mut self) {
        self.time = self.scratch.time;
        self.events.clear();
        for chunk in &mut self.scratch.chunks {
            self.events.append(&mut chunk.events);
        }
        std::mem::swap(&mut self.last_sounds, &mut self.pending_sounds);
        self.pending_sounds.clear();
    }

    /// Runs one phase over every agent, chunk by chunk (in parallel when configured).
    fn run(&mut self, phase: Phase) {
        let ctx = Sense {
            time: self.scratch.time,
            dt: self.scratch.dt,
            targets: &self.targets,
            grid: &self.scratch.grid,
            max_target_reach: self.scratch.max_target_reach,
            attitudes: &self.attitudes,
            occluders: &self.occluders,
            sounds: &self.pending_sounds,
            sound_occlusion: self.def.sound_occlusion,
            due: &self.scratch.due,
        };
        let slots = self.agents.slots_mut();
        let chunks = &mut self.scratch.chunks;
        let per_chunk = slots.len().div_ceil(chunks.len()).max(1);
        if chunks.len() == 1 {
            run_chunk(&ctx, phase, 0, slots, &mut chunks[0]);
            return;
        }
        std::thread::scope(|scope| {
            let mut rest = slots;
            let mut base = 0u32;
            let ctx = &ctx;
            for chunk in chunks.iter_mut() {
                let take = per_chunk.min(rest.len());
                let (mine, tail) = rest.split_at_mut(take);
                rest = tail;
                let my_base = base;
                base += take as u32;
                scope.spawn(move || run_chunk(ctx, phase, my_base, mine, chunk));
            }
        });
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Phase {
    /// Built-in rays: gather, cast and conclude agent by agent.
    Fused,
    /// Engine rays, first half: gather every agent's rays.
    Gather,
    /// Engine rays, second half: conclude with the engine's hits.
    Conclude,
}

fn run_chunk(ctx: &Sense, phase: Phase, base: u32, slots: &mut [Slot<Agent>], chunk: &mut Chunk) {
    let (mut cand_cursor, mut heard_cursor) = (0usize, 0usize);
    for (offset, slot) in slots.iter_mut().enumerate() {
        let index = base + offset as u32;
        let generation = slot.generation;
        let Some(agent) = slot.value.as_mut() else { continue };
        let id = AgentId { index, generation };
        match phase {
            Phase::Fused => {
                chunk.heard.clear();
                chunk.candidates.clear();
                chunk.rays.clear();
                gather(ctx, id, agent, chunk);
                chunk.hits.clear();
                chunk.hits.extend(chunk.rays.iter().map(|r| builtin_hit(ctx.occluders, r)));
                conclude(ctx, id, agent, &chunk.heard, &chunk.candidates, &chunk.rays, &chunk.hits, &mut chunk.events);
            }
            Phase::Gather => gather(ctx, id, agent, chunk),
            Phase::Conclude => {
                let heard_end = advance(&chunk.heard, heard_cursor, |h| h.agent == index);
                let cand_end = advance(&chunk.candidates, cand_cursor, |c| c.agent == index);
                conclude(
                    ctx,
                    id,
                    agent,
                    &chunk.heard[heard_cursor..heard_end],
                    &chunk.candidates[cand_cursor..cand_end],
                    &chunk.rays,
                    &chunk.hits,
                    &mut chunk.events,
                );
                heard_cursor = heard_end;
                cand_cursor = cand_end;
            }
        }
    }
}

fn advance<T>(items: &[T], from: usize, mine: impl Fn(&T) -> bool) -> usize {
    from + items[from..].iter().take_while(|x| mine(x)).count()
}

/// The built-in answer to a ray: the occluder BVH.
pub(crate) fn builtin_hit(occluders: &OccluderSet, ray: &RayQuery) -> RayHit {
    match occluders.cast_ray(ray.origin, ray.direction, ray.max_distance, ray.layer_mask) {
        Some(distance) => RayHit { hit: true, distance },
        None => RayHit { hit: false, distance: 0.0 },
    }
}

/// Hearing for every agent, and range + cone (and the rays still needed) for agents due a
/// sight tick.
fn gather(ctx: &Sense, id: AgentId, agent: &Agent, chunk: &mut Chunk) {
    let hearing = &agent.def.hearing;
    if hearing.enabled {
        for (si, sound) in ctx.sounds.iter().enumerate() {
            if sound.layers & hearing.sound_mask == 0
                || !ctx.attitudes.perceives(agent.team, agent.def.detect, sound.team)
            {
                continue;
            }
            let listener = agent.position();
            let crossed = || ctx.occluders.count_crossed(sound.position, listener, hearing.obstacle_mask);
            if let Some(strength) = hear(listener, hearing.sensitivity, sound, ctx.sound_occlusion, crossed) {
                chunk.heard.push(Heard { agent: id.index, sound: si as u32, strength });
            }
        }
    }
    if !ctx.due[id.index as usize] {
        return;
    }
    let eye = agent.eye();
    let mask = agent.def.sight.obstacle_mask;
    chunk.near.clear();
    ctx.grid.query(eye, agent.cache.reach + ctx.max_target_reach, |t| chunk.near.push(t));
    // Both views computed once; the lose-sight one only matters when it is wider.
    let (fresh_view, seen_view) = (View::of(agent, false), View::of(agent, true));
    let hysteresis = agent.def.sight.lose_sight_radius > agent.def.sight.view_radius;
    for &ti in &chunk.near {
        let Some(target) = ctx.targets.at(ti) else { continue };
        if !eligible(agent, target) || !ctx.attitudes.perceives(agent.team, agent.def.detect, target.team) {
            continue;
        }
        let tid = TargetId { index: ti, generation: ctx.targets.generation_at(ti) };
        let previously_seen = hysteresis && memory::find(&agent.records, tid).is_some_and(|r| r.seen);
        let view = if previously_seen { &seen_view } else { &fresh_view };
        let first_ray = chunk.rays.len() as u32;
        let (mut in_view, mut free_visible) = (0u8, 0u8);
        for point in target.world_points() {
            match classify(view, point) {
                PointClass::OnEye => {
                    in_view += 1;
                    free_visible += 1;
                }
                PointClass::InView { dir, dist, .. } => {
                    in_view += 1;
                    match ray_length(dist) {
                        Some(max_distance) if mask != 0 => chunk.rays.push(RayQuery {
                            origin: eye,
                            direction: dir,
                            max_distance,
                            layer_mask: mask,
                            agent: id,
                            target: tid,
                        }),
                        _ => free_visible += 1,
                    }
                }
                PointClass::OutOfRange | PointClass::OutsideCone => {}
            }
        }
        if in_view > 0 {
            chunk.candidates.push(Candidate {
                agent: id.index,
                target: tid,
                first_ray,
                ray_count: in_view - free_visible,
                point_count: target.point_count,
                free_visible,
            });
        }
    }
}

/// Percepts, memory, awareness and brain for one agent, from its heard sounds and resolved rays.
#[allow(clippy::too_many_arguments)]
fn conclude(
    ctx: &Sense,
    id: AgentId,
    agent: &mut Agent,
    heard: &[Heard],
    candidates: &[Candidate],
    rays: &[RayQuery],
    hits: &[RayHit],
    out: &mut StepEvents,
) {
    let time = ctx.time as f32;
    let dt = ctx.dt;
    let state_before = agent.brain.state;
    let memory_config = agent.def.memory;
    for rec in agent.records.iter_mut() {
        if rec.decay(&memory_config, dt) {
            out.forgotten.push(ForgetEvent { agent: id, target: rec.target, position: rec.last_known_position, time });
        }
    }

    let first_percept = out.percepts.len();
    for h in heard {
        let sound = &ctx.sounds[h.sound as usize];
        let source = if ctx.targets.get(sound.source.index, sound.source.generation).is_some() {
            sound.source
        } else {
            TargetId::NULL
        };
        if !source.is_null() {
            memory::find_or_insert(&mut agent.records, source).refresh(sound.position, time);
        }
        out.percepts.push(Percept {
            kind: PerceptKind::Sound,
            agent: id,
            target: source,
            position: sound.position,
            time,
            strength: h.strength,
        });
    }

    if ctx.due[id.index as usize] {
        see(ctx, id, agent, candidates, rays, hits, out);
        let period = agent.cache.period;
        agent.next_sense_time = if period > 0.0 {
            let behind = (((ctx.time - agent.next_sense_time) / period).floor() + 1.0).max(1.0);
            agent.next_sense_time + behind * period
        } else {
            ctx.time
        };
    }

    let awareness = agent.def.awareness;
    if awareness.enabled {
        for rec in agent.records.iter_mut() {
            let level = awareness.advance(rec.awareness, rec.seen, rec.salience, dt);
            let stage = awareness.stage(level);
            if stage != rec.stage {
                out.awareness.push(AwarenessEvent { agent: id, target: rec.target, from: rec.stage, to: stage, level, time });
            }
            rec.awareness = level;
            rec.stage = stage;
        }
    }

    if agent.def.brain.enabled {
        think(agent, &out.percepts[first_percept..], dt);
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

/// A sight tick: counts each candidate's clear rays and refreshes what was seen.
fn see(
    ctx: &Sense,
    id: AgentId,
    agent: &mut Agent,
    candidates: &[Candidate],
    rays: &[RayQuery],
    hits: &[RayHit],
    out: &mut StepEvents,
) {
    let time = ctx.time as f32;
    for rec in agent.records.iter_mut() {
        rec.seen = false;
        rec.visibility = 0.0;
        rec.salience = 0.0;
    }
    let first_sight = out.percepts.len();
    let forward = agent.def.forward;
    let radius = agent.def.sight.view_radius.max(1e-6);
    let cos_half = agent.cache.cos_half;
    for c in candidates {
        let Some(target) = ctx.targets.at(c.target.index) else { continue };
        let mut visible = c.free_visible as u32;
        // Free points sit on the eye: nearest and most central possible.
        let (mut near, mut central) = if c.free_visible > 0 { (0.0f32, 0.0f32) } else { (f32::MAX, f32::MAX) };
        for k in 0..c.ray_count as usize {
            if hits[c.first_ray as usize + k].hit {
                continue;
            }
            visible += 1;
            let ray = &rays[c.first_ray as usize + k];
            near = near.min((ray.max_distance + RAY_STOP_SHORT) / radius);
            central = central.min(off_axis(forward.dot(ray.direction), cos_half));
        }
        if visible == 0 {
            continue;
        }
        let fraction = visible as f32 / c.point_count as f32;
        let rec = memory::find_or_insert(&mut agent.records, c.target);
        rec.refresh(target.position, time);
        rec.seen = true;
        rec.visibility = fraction;
        rec.salience = agent.def.awareness.salience(fraction, near, central);
        out.percepts.push(Percept {
            kind: PerceptKind::Sight,
            agent: id,
            target: c.target,
            position: target.position,
            time,
            strength: fraction,
        });
    }
    // The broadphase visits targets in grid order; report them in slot order.
    out.percepts[first_sight..].sort_unstable_by_key(|p| p.target.index);
}

/// The brain's reaction to this step's percepts, then its per-step update (lesson §8).
fn think(agent: &mut Agent, percepts: &[Percept], dt: f32) {
    let config = agent.def.brain;
    for p in percepts.iter().filter(|p| p.kind == PerceptKind::Sound) {
        agent.brain.on_investigate(p.position, p.target, &config);
    }
    if let Some(target) = pick_chase(agent, percepts) {
        agent.brain.on_chase(target);
    } else if agent.def.awareness.enabled && agent.brain.state == BrainState::Idle {
        // With awareness, a glimpse below "aware" makes the guard come and look.
        let glimpse = nearest(agent, |r| r.seen && r.stage >= crate::awareness::AwarenessStage::Suspicious);
        if let Some(rec) = glimpse {
            let (position, target) = (rec.last_known_position, rec.target);
            agent.brain.on_investigate(position, target, &config);
        }
    }
    let focus = focus_view(agent);
    agent.brain.update(&config, dt, focus);
}

/// Which target to chase: the current focus if it qualifies, else the nearest that does.
fn pick_chase(agent: &Agent, percepts: &[Percept]) -> Option<TargetId> {
    let brain = &agent.brain;
    let qualifies = |r: &MemoryRecord| {
        if agent.def.awareness.enabled {
            let resuming = r.target == brain.focus && matches!(brain.state, BrainState::Chasing | BrainState::Searching);
            r.seen && (r.stage == crate::awareness::AwarenessStage::Aware || resuming)
        } else {
            percepts.iter().any(|p| p.kind == PerceptKind::Sight && p.target == r.target)
        }
    };
    if let Some(rec) = memory::find(&agent.records, brain.focus) {
        if qualifies(rec) {
            return Some(rec.target);
        }
    }
    nearest(agent, qualifies).map(|r| r.target)
}

fn nearest(agent: &Agent, pick: impl Fn(&MemoryRecord) -> bool) -> Option<&MemoryRecord> {
    let position = agent.position();
    agent.records.iter().filter(|r| pick(r)).min_by(|a, b| {
        let da = a.last_known_position.distance_squared(position);
        let db = b.last_known_position.distance_squared(position);
        da.total_cmp(&db).then(a.target.index.cmp(&b.target.index))
    })
}

/// What the brain knows about its focus target.
pub(crate) fn focus_view(agent: &Agent) -> FocusView {
    match memory::find(&agent.records, agent.brain.focus) {
        Some(rec) if !agent.brain.focus.is_null() => FocusView {
            confidence: rec.confidence,
            seen: rec.seen,
            last_known_position: Some(rec.last_known_position),
        },
        _ => FocusView { confidence: 0.0, seen: false, last_known_position: None },
    }
}
