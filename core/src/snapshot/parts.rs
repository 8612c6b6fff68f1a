//! The payload: each part of a world written and read back with full validation.

use super::codec::{Reader, Writer};
use crate::agent::{Agent, AgentDef, TuningTable};
use crate::awareness::AwarenessStage;
use crate::brain::{Brain, BrainState, NO_BELIEF};
use crate::error::{Error, Result};
use crate::hearing::{HearingPath, Sound, SoundDef};
use crate::id::{DensePool, Entry, Pool, RETIRED_GENERATION, Slot, TargetId};
use crate::math::{Vec3, check_finite, check_magnitude};
use crate::memory::MemoryRecord;
use crate::occluders::{OccluderDef, OccluderSet, OccluderShape};
use crate::rays::RayBackend;
use crate::target::{Target, TargetDef};
use crate::team::{Attitude, MAX_TEAMS};
use crate::world::{MAX_WORLD_TIME, World, WorldDef};

pub(super) fn bad(why: impl Into<String>) -> Error {
    Error::BadSnapshot(why.into())
}

/// Validation failures of the normal entry points become snapshot errors.
pub(super) fn checked<T>(what: &str, r: Result<T>) -> Result<T> {
    r.map_err(|e| bad(format!("{what}: {e}")))
}

pub(super) fn write_world(world: &World, w: &mut Writer) {
    // The ray backend and worker threads are the host's runtime, not the world's state: they
    // are not saved, and a load keeps the loading world's own (see `World::load_into`).
    let d = &world.def;
    w.f32(d.sound_occlusion);
    w.f32(d.broadphase_cell_size);
    w.u32(d.max_sight_ticks_per_step);
    w.u32(d.hearing_path as u32);
    w.f64(world.time);
    w.u64(world.agents_created);
    for attitude in world.attitudes.raw() {
        w.u8(attitude as u8);
    }
    write_pool(w, world.occluders.slots(), |w, o| write_occluder(w, o.def()));
    write_pool(w, &world.targets, |w, t| write_target(w, &t.def()));
    write_slots(w, world.agents.slots(), world.agents.free_list(), write_agent);
    w.len(world.pending_sounds.len());
    for s in &world.pending_sounds {
        w.vec3(s.position);
        w.f32(s.loudness);
        write_id(w, s.source.index, s.source.generation);
        w.u8(s.team);
        w.u32(s.layers);
    }
    super::maps::write_maps(world, w);
    super::walk::write_walk(w, world.walk.as_ref());
    super::beliefs::write_beliefs(w, world);
}

pub(super) fn read_world(r: &mut Reader) -> Result<World> {
    // Built on the caller's thread with the built-in backend: nothing is started for a snapshot.
    let def = WorldDef {
        ray_backend: RayBackend::Builtin,
        worker_threads: 1,
        sound_occlusion: r.f32()?,
        broadphase_cell_size: r.f32()?,
        max_sight_ticks_per_step: r.u32()?,
        hearing_path: {
            let v = r.u32()?;
            HearingPath::from_u32(v).ok_or_else(|| bad(format!("unknown hearing path {v}")))?
        },
    };
    let mut world = checked("world settings", World::new(&def))?;
    world.time = r.f64()?;
    if !(world.time.is_finite() && (0.0..=MAX_WORLD_TIME).contains(&world.time)) {
        return Err(bad(format!("world time {} is outside [0, {MAX_WORLD_TIME}] s", world.time)));
    }
    world.agents_created = r.u64()?;
    for a in 0..MAX_TEAMS {
        for b in 0..MAX_TEAMS {
            let attitude = checked("attitude", Attitude::from_u32(r.u8()? as u32))?;
            world.attitudes.set(a as u8, b as u8, attitude);
        }
    }
    // The occluder set's BVH and grid are built with infallible allocations: their room is
    // checked with the pool's (`OCCLUDER_INDEX_BYTES` per occluder).
    let occluders = read_pool_with_headroom(r, OCCLUDER_INDEX_BYTES, |r| {
        checked("occluder", OccluderSet::rebuild_occluder(&read_occluder(r)?))
    })?;
    world.occluders = OccluderSet::from_pool(occluders);
    world.targets = read_pool(r, |r| checked("target", Target::from_def(&read_target(r)?)))?;
    let (targets, tunings, now) = (&world.targets, &mut world.tunings, world.time);
    // Each agent also takes a place in the dense store (built after the pool, fallibly) and
    // makes small allocations of its own (its settings words, a shared tuning when its settings
    // are new): their room is checked with the pool's.
    let agents = read_pool_with_headroom(r, AGENT_EXTRA_BYTES, |r| read_agent(r, targets, tunings, now))?;
    world.agents =
        DensePool::try_from_pool(agents).map_err(|_| bad("cannot allocate the agent store: out of memory"))?;
    let sounds = r.len(29)?;
    reserve(&mut world.pending_sounds, sounds, "pending sounds")?;
    for _ in 0..sounds {
        let def = SoundDef {
            position: r.vec3()?,
            loudness: r.f32()?,
            source: read_target_id(r)?,
            team: r.u8()? as u32,
            layers: r.u32()?,
        };
        check_target_ref(&world.targets, def.source, "a pending sound's source")?;
        world.pending_sounds.push(checked("sound", Sound::from_def(&def))?);
    }
    super::maps::read_maps(&mut world, r)?;
    world.walk = super::walk::read_walk(r, &world.occluders)?;
    if let Some(graph) = &world.walk {
        checked("walk graph", world.walk_hearing.flood.prepare(graph.node_count()))?;
    }
    super::beliefs::read_beliefs(r, &mut world)?;
    Ok(world)
}

/// A brain's focus or a sound's source: null, a live target, or a target destroyed since (the API
/// keeps such an id until the next step lets the brain give up, so a save may hold one). Never an
/// id the world has not issued yet, which would silently bind to a target created later.
fn check_target_ref(targets: &Pool<Target>, id: TargetId, what: &str) -> Result<()> {
    let slot_generation = targets.generation_at(id.index);
    let live = targets.get(id.index, id.generation).is_some();
    // Issued and freed since (a retired slot has issued every generation).
    let freed = id.generation >= 1 && id.generation < slot_generation;
    if id.is_null() || live || freed {
        Ok(())
    } else {
        Err(bad(format!("{what} names a target id that was never issued")))
    }
}

fn write_id(w: &mut Writer, index: u32, generation: u32) {
    w.u32(index);
    w.u32(generation);
}

fn read_target_id(r: &mut Reader) -> Result<TargetId> {
    Ok(TargetId { index: r.u32()?, generation: r.u32()? })
}

pub(super) fn write_pool<T>(w: &mut Writer, pool: &Pool<T>, item: impl FnMut(&mut Writer, &T)) {
    let slots = pool.slots().iter().map(|s| (s.generation, s.value.as_ref()));
    write_slots(w, slots, pool.free_list(), item);
}

/// Every slot in index order (its generation and value, if live), then the free list: a dense
/// pool is saved exactly as a pool holding the same ids, whatever order its values are in.
fn write_slots<'a, T: 'a>(
    w: &mut Writer,
    slots: impl ExactSizeIterator<Item = (u32, Option<&'a T>)>,
    free: &[u32],
    mut item: impl FnMut(&mut Writer, &T),
) {
    w.len(slots.len());
    for (generation, value) in slots {
        w.u32(generation);
        match value {
            Some(v) => {
                w.u8(1);
                item(w, v);
            }
            None => w.u8(0),
        }
    }
    w.len(free.len());
    for &i in free {
        w.u32(i);
    }
}

/// Room per occluder for the occluder set's BVH node, grid entries and exact-test data.
const OCCLUDER_INDEX_BYTES: usize = 256;
/// Room per agent beyond its pool slot: its dense entry and place, its settings words while
/// they are read, and a share of the tuning table.
const AGENT_EXTRA_BYTES: usize = std::mem::size_of::<Entry<Agent>>() + 8 + 512;

pub(super) fn read_pool<T>(r: &mut Reader, item: impl FnMut(&mut Reader) -> Result<T>) -> Result<Pool<T>> {
    read_pool_with_headroom(r, 0, item)
}

/// Slots, then the free list: every free slot exactly once, never a live one nor a retired one
/// (generation `RETIRED_GENERATION`, used up), so the next ids handed out are the ones the saved
/// world would have handed out.
/// `headroom` bytes per slot are checked available besides the slots themselves, for what the
/// caller builds from the pool with allocations that cannot fail gracefully.
fn read_pool_with_headroom<T>(
    r: &mut Reader,
    headroom: usize,
    mut item: impl FnMut(&mut Reader) -> Result<T>,
) -> Result<Pool<T>> {
    let n = r.len(5)?;
    let mut slots = Vec::new();
    reserve(&mut slots, n, "pool slots")?;
    if headroom > 0 {
        crate::headroom::ensure_available(n.saturating_mul(headroom), "the pool's other structures")
            .map_err(|e| bad(format!("cannot allocate {n} slots: {e}")))?;
    }
    for _ in 0..n {
        let generation = r.u32()?;
        if generation == 0 || generation > RETIRED_GENERATION {
            return Err(bad(format!("a slot has generation {generation} (1..=65535, or 65536 retired)")));
        }
        let value = match r.u8()? {
            0 => None,
            1 if generation == RETIRED_GENERATION => return Err(bad("a retired slot holds a value")),
            1 => Some(item(r)?),
            v => return Err(bad(format!("slot marker {v} is neither 0 nor 1"))),
        };
        slots.push(Slot { generation, value });
    }
    let free_count = r.len(4)?;
    let mut seen = Vec::new();
    reserve(&mut seen, n, "free-slot marks")?;
    seen.resize(n, false);
    let mut free = Vec::new();
    reserve(&mut free, free_count, "free list")?;
    for _ in 0..free_count {
        let i = r.u32()? as usize;
        if i >= n || slots[i].value.is_some() || slots[i].generation == RETIRED_GENERATION || seen[i] {
            return Err(bad(format!("free list entry {i} is invalid")));
        }
        seen[i] = true;
        free.push(i as u32);
    }
    if slots.iter().filter(|s| s.value.is_none() && s.generation != RETIRED_GENERATION).count() != free_count {
        return Err(bad("free list does not cover every free slot"));
    }
    Ok(Pool::from_parts(slots, free))
}

/// Room for `n` items, or a snapshot error: a count that passed the bytes-left check can still ask
/// for more memory than the host has (an item in memory is larger than on disk), and a failed
/// allocation must refuse the load, never abort the process.
pub(super) fn reserve<T>(v: &mut Vec<T>, n: usize, what: &str) -> Result<()> {
    v.try_reserve_exact(n).map_err(|_| {
        bad(format!("cannot allocate {n} {what} ({} bytes each): out of memory", std::mem::size_of::<T>()))
    })
}

/// Directions and rotations are saved normalised; anything else did not come from a save, and
/// normalising it would make the loaded world differ from the bytes (its re-save would not match).
fn canonical_unit(length_sq_error: f32, what: &str) -> Result<()> {
    if length_sq_error <= 1e-6 { Ok(()) } else { Err(bad(format!("{what} is not normalised"))) }
}

pub(crate) fn write_occluder(w: &mut Writer, d: &OccluderDef) {
    match &d.shape {
        OccluderShape::Box { half_extents } => {
            w.u8(0);
            w.vec3(*half_extents);
        }
        OccluderShape::Sphere { radius } => {
            w.u8(1);
            w.f32(*radius);
        }
        OccluderShape::Capsule { half_height, radius } => {
            w.u8(2);
            w.f32(*half_height);
            w.f32(*radius);
        }
        OccluderShape::Mesh { vertices, indices } => {
            w.u8(3);
            w.len(vertices.len());
            for v in vertices {
                w.vec3(*v);
            }
            w.len(indices.len());
            for t in indices {
                t.iter().for_each(|&i| w.u32(i));
            }
        }
    }
    w.vec3(d.position);
    w.quat(d.rotation);
    w.u32(d.layers);
    w.bool(d.movable);
    w.bool(d.sound_transmission.is_some());
    w.f32(d.sound_transmission.unwrap_or(0.0));
}

pub(crate) fn read_occluder(r: &mut Reader) -> Result<OccluderDef> {
    let shape = match r.u8()? {
        0 => OccluderShape::Box { half_extents: r.vec3()? },
        1 => OccluderShape::Sphere { radius: r.f32()? },
        2 => OccluderShape::Capsule { half_height: r.f32()?, radius: r.f32()? },
        3 => {
            let nv = r.len(12)?;
            let mut vertices = Vec::new();
            reserve(&mut vertices, nv, "mesh vertices")?;
            for _ in 0..nv {
                vertices.push(r.vec3()?);
            }
            let nt = r.len(12)?;
            let mut indices = Vec::new();
            reserve(&mut indices, nt, "mesh triangles")?;
            for _ in 0..nt {
                indices.push([r.u32()?, r.u32()?, r.u32()?]);
            }
            OccluderShape::Mesh { vertices, indices }
        }
        v => return Err(bad(format!("unknown occluder shape {v}"))),
    };
    let position = r.vec3()?;
    let rotation = r.quat()?;
    canonical_unit((rotation.length_squared() - 1.0).abs(), "occluder rotation")?;
    let (layers, movable) = (r.u32()?, r.bool()?);
    let (has_transmission, transmission) = (r.bool()?, r.f32()?);
    if !has_transmission && transmission.to_bits() != 0 {
        return Err(bad("an occluder without a sound transmission of its own carries one"));
    }
    let sound_transmission = has_transmission.then_some(transmission);
    Ok(OccluderDef { shape, position, rotation, layers, movable, sound_transmission })
}

pub(crate) fn write_target(w: &mut Writer, d: &TargetDef) {
    w.vec3(d.position);
    w.vec3(d.forward);
    w.u8(d.team as u8);
    w.u32(d.layers);
    w.bool(d.enabled);
    w.f32(d.top_speed);
    w.u8(d.check_points.len() as u8);
    for p in &d.check_points {
        w.vec3(*p);
    }
}

pub(crate) fn read_target(r: &mut Reader) -> Result<TargetDef> {
    let (position, forward, team, layers, enabled) = (r.vec3()?, r.vec3()?, r.u8()? as u32, r.u32()?, r.bool()?);
    canonical_unit((forward.length_squared() - 1.0).abs(), "target forward")?;
    let top_speed = r.f32()?;
    let n = r.u8()? as usize;
    let check_points = (0..n).map(|_| r.vec3()).collect::<Result<Vec<_>>>()?;
    Ok(TargetDef { position, forward, team, layers, check_points, enabled, top_speed })
}

fn write_agent(w: &mut Writer, a: &Agent) {
    let d = &a.def();
    w.vec3(d.position);
    w.vec3(d.forward);
    w.u8(d.team as u8);
    w.u32(d.detect);
    // Every sense's settings from their one field list, with their count first.
    let mut words = Vec::new();
    d.write_settings_words(&mut words);
    w.len(words.len());
    for word in words {
        w.u32(word);
    }
    w.f64(a.next_sense_time);
    let br = &a.brain;
    w.u8(br.state as u8);
    write_id(w, br.focus.index, br.focus.generation);
    w.vec3(br.investigate_position);
    w.f32(br.timer);
    w.bool(br.arrived);
    w.bool(br.just_started);
    for point in [br.search_point, br.next_search_point] {
        w.bool(point.is_some());
        w.vec3(point.unwrap_or(Vec3::ZERO));
    }
    w.f32(br.belief_peak);
    w.len(a.records.len());
    for rec in &a.records {
        write_id(w, rec.target.index, rec.target.generation);
        w.vec3(rec.last_known_position);
        for v in [rec.confidence, rec.last_percept_time, rec.visibility, rec.awareness, rec.salience] {
            w.f32(v);
        }
        w.bool(rec.seen);
        w.u8(rec.stage as u8);
    }
}

/// An agent's next sight tick, held to what the API can make of it: never before 0 (agents are
/// created at a time ≥ 0 and a faster rate never moves a tick before the clock), and at most one
/// sight period after the world's clock (`now`), plus rounding. Anything else did not come from a
/// save: −1e300 with a 1 GHz rate used to load, and the catch-up of the next tick overflowed to
/// infinity (the agent stopped seeing and the world's own save was refused).
fn check_schedule(next: f64, period: f64, now: f64) -> Result<()> {
    let latest = (now + period) * (1.0 + 1e-9) + 1e-9;
    if next.is_finite() && (0.0..=latest).contains(&next) {
        Ok(())
    } else {
        Err(bad(format!("agent schedule {next} is outside [0, world time {now} + one sight period {period}]")))
    }
}

fn read_agent(r: &mut Reader, targets: &Pool<Target>, tunings: &mut TuningTable, now: f64) -> Result<Agent> {
    let (position, forward, team, detect) = (r.vec3()?, r.vec3()?, r.u8()? as u32, r.u32()?);
    canonical_unit((forward.length_squared() - 1.0).abs(), "agent forward")?;
    let count = r.len(4)?;
    let mut expected = Vec::new();
    AgentDef::default().write_settings_words(&mut expected);
    if count != expected.len() {
        return Err(bad("an agent's settings record has the wrong length"));
    }
    let words = (0..count).map(|_| r.u32()).collect::<Result<Vec<u32>>>()?;
    let mut def = AgentDef { position, forward, team, detect, ..Default::default() };
    def.read_settings_words(&mut words.into_iter()).ok_or_else(|| bad("an agent's settings record is malformed"))?;
    let forward = checked("agent", def.validate())?;
    let next_sense_time = r.f64()?;
    check_schedule(next_sense_time, def.sight.period(), now)?;
    let mut agent = Agent::new(&def, forward, tunings.intern(&def), next_sense_time);
    let state = BrainState::from_u8(r.u8()?).ok_or_else(|| bad("unknown brain state"))?;
    let focus = read_target_id(r)?;
    check_target_ref(targets, focus, "a brain's focus")?;
    agent.brain = Brain {
        state,
        focus,
        investigate_position: checked("investigate position", check_finite(r.vec3()?, "investigate position"))?,
        timer: checked("brain timer", check_magnitude(r.f32()?, "brain timer"))?,
        arrived: r.bool()?,
        just_started: r.bool()?,
        search_point: None,
        next_search_point: None,
        belief_peak: NO_BELIEF,
    };
    for point in [&mut agent.brain.search_point, &mut agent.brain.next_search_point] {
        let has_point = r.bool()?;
        let at = checked("search point", check_finite(r.vec3()?, "search point"))?;
        if !has_point && at.to_array().iter().any(|c| c.to_bits() != 0) {
            return Err(bad("a brain without a search point carries one"));
        }
        *point = has_point.then_some(at);
    }
    let peak = r.f32()?;
    if !(peak == NO_BELIEF || (0.0..=1.0).contains(&peak)) {
        return Err(bad(format!("a brain's belief peak {peak} is neither {NO_BELIEF} nor in [0, 1]")));
    }
    agent.brain.belief_peak = peak;
    let n = r.len(42)?;
    reserve(&mut agent.records, n, "memory records")?;
    for _ in 0..n {
        let target = read_target_id(r)?;
        if targets.get(target.index, target.generation).is_none() {
            return Err(bad("a memory record names a target that does not exist"));
        }
        let mut rec = MemoryRecord::new(target);
        rec.last_known_position = checked("memory", check_finite(r.vec3()?, "last known position"))?;
        rec.confidence = r.finite("confidence")?;
        rec.last_percept_time = r.finite("percept time")?;
        // Percepts are stamped with the world time (as f32) of their step: never in the future.
        if !(0.0..=now as f32).contains(&rec.last_percept_time) {
            return Err(bad(format!("a memory record's percept time {} is outside [0, {now}]", rec.last_percept_time)));
        }
        rec.visibility = r.finite("visibility")?;
        rec.awareness = r.finite("awareness")?;
        rec.salience = r.finite("salience")?;
        rec.seen = r.bool()?;
        rec.stage = AwarenessStage::from_u8(r.u8()?).ok_or_else(|| bad("unknown awareness stage"))?;
        let unit = |v: f32| (0.0..=1.0).contains(&v);
        if !(unit(rec.confidence) && unit(rec.visibility) && unit(rec.awareness) && unit(rec.salience)) {
            return Err(bad("a memory record has a value outside [0, 1]"));
        }
        if agent.records.iter().any(|o| o.target == target) {
            return Err(bad("two memory records for one target"));
        }
        agent.records.push(rec);
    }
    Ok(agent)
}
