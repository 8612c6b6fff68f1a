//! The world: owns occluders, agents, targets and sounds, and advances them with `step`.

mod conclude;
mod maps;
mod query;
mod step;
mod sweep;

use crate::agent::{Agent, AgentDef, TuningTable};
use crate::error::{Error, Result, invalid};
use crate::hearing::{Sound, SoundDef};
use crate::id::{AgentId, OccluderId, Pool, TargetId};
use crate::math::{Quat, Vec3, check_finite, check_non_negative, check_range, unit_direction};
use crate::memory::{self, MemoryRecord, check_confidence};
use crate::occluders::{Occluder, OccluderDef, OccluderSet};
use crate::percept::StepEvents;
use crate::rays::RayBackend;
use crate::target::{Target, TargetDef, check_points};
use crate::team::{Attitude, AttitudeTable, check_team};

pub(crate) use step::StepScratch;

/// Golden-ratio fraction: consecutive agents' first sense ticks spread evenly over a period.
const STAGGER: f64 = 0.618_033_988_749_894_9;

/// World-wide settings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WorldDef {
    /// Who answers line-of-sight rays (default the built-in occluder BVH).
    pub ray_backend: RayBackend,
    /// Worker threads a step splits its work between (a pool owned by the world, started with
    /// it); 0 or 1 = everything on the caller's thread. Results are identical for every count.
    pub worker_threads: u32,
    /// Each sound-muffling occluder crossed multiplies a sound's radius by this (default 1 = off,
    /// the lesson's rule).
    pub sound_occlusion: f32,
    /// Broadphase cell size in metres; 0 = automatic (the mean sight reach of the agents).
    pub broadphase_cell_size: f32,
    /// Most agents that run a sight tick in one step; 0 = no limit. Overdue agents go first.
    pub max_sight_ticks_per_step: u32,
}

impl Default for WorldDef {
    fn default() -> Self {
        WorldDef {
            ray_backend: RayBackend::Builtin,
            worker_threads: 1,
            sound_occlusion: 1.0,
            broadphase_cell_size: 0.0,
            max_sight_ticks_per_step: 0,
        }
    }
}

impl WorldDef {
    pub(crate) fn validate(&self) -> Result<()> {
        check_range(self.sound_occlusion, 0.0, 1.0, "sound occlusion factor")?;
        check_non_negative(self.broadphase_cell_size, "broadphase cell size")?;
        if self.worker_threads > 256 {
            return Err(invalid(format!("worker threads must be at most 256, got {}", self.worker_threads)));
        }
        Ok(())
    }
}

/// A perception world. Not thread-safe: use it from one thread at a time (it may use worker
/// threads of its own inside `step`). Worlds are independent of each other.
pub struct World {
    pub(crate) def: WorldDef,
    pub(crate) time: f64,
    pub(crate) agents: Pool<Agent>,
    pub(crate) targets: Pool<Target>,
    pub(crate) occluders: OccluderSet,
    pub(crate) attitudes: AttitudeTable,
    pub(crate) pending_sounds: Vec<Sound>,
    pub(crate) last_sounds: Vec<Sound>,
    pub(crate) events: StepEvents,
    pub(crate) agents_created: u64,
    pub(crate) scratch: StepScratch,
    pub(crate) maps: Pool<crate::influence::InfluenceMap>,
    pub(crate) tunings: TuningTable,
    /// The world's own worker threads (none when `worker_threads` ≤ 1), kept between steps.
    pub(crate) workers: Option<rayon::ThreadPool>,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("time", &self.time)
            .field("agents", &self.agents.len())
            .field("targets", &self.targets.len())
            .field("occluders", &self.occluders.len())
            .finish()
    }
}

impl Default for World {
    fn default() -> Self {
        World::new(&WorldDef::default()).expect("default world def is valid")
    }
}

/// Something with a pose that bulk updates can move.
trait Posed {
    fn set_pose(&mut self, position: Vec3, forward: Option<Vec3>);
}

impl Posed for Agent {
    fn set_pose(&mut self, position: Vec3, forward: Option<Vec3>) {
        self.position = position;
        if let Some(f) = forward {
            self.forward = f;
        }
    }
}

impl Posed for Target {
    fn set_pose(&mut self, position: Vec3, forward: Option<Vec3>) {
        self.position = position;
        if let Some(f) = forward {
            self.forward = f;
        }
    }
}

fn check_lengths(ids: usize, positions: usize, forwards: Option<usize>) -> Result<()> {
    if positions != ids || forwards.is_some_and(|f| f != ids) {
        return Err(invalid("ids, positions and forwards must have the same length"));
    }
    Ok(())
}

/// Two passes: check every entry, then apply them all, so a bad entry changes nothing.
fn set_poses<T: Posed>(
    pool: &mut Pool<T>,
    kind: &'static str,
    count: usize,
    pose: impl Fn(usize) -> ((u32, u32), Vec3, Option<Vec3>),
) -> Result<()> {
    for i in 0..count {
        let ((index, generation), position, forward) = pose(i);
        pool.get(index, generation).ok_or(Error::InvalidId(kind))?;
        check_finite(position, "position")?;
        if let Some(f) = forward {
            unit_direction(f, "forward")?;
        }
    }
    for i in 0..count {
        let ((index, generation), position, forward) = pose(i);
        let forward = forward.map(|f| unit_direction(f, "forward").expect("checked"));
        pool.get_mut(index, generation).expect("checked").set_pose(position, forward);
    }
    Ok(())
}

fn agent_id(pool: &Pool<Agent>, index: u32) -> AgentId {
    AgentId { index, generation: pool.generation_at(index) }
}

impl World {
    /// Creates an empty world.
    pub fn new(def: &WorldDef) -> Result<World> {
        def.validate()?;
        let workers = match def.worker_threads {
            0 | 1 => None,
            n => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n as usize)
                    .thread_name(|i| format!("argus-worker-{i}"))
                    .build()
                    .map_err(|e| invalid(format!("could not start {n} worker threads: {e}")))?,
            ),
        };
        Ok(World {
            def: *def,
            time: 0.0,
            agents: Pool::default(),
            targets: Pool::default(),
            occluders: OccluderSet::default(),
            attitudes: AttitudeTable::default(),
            pending_sounds: Vec::new(),
            last_sounds: Vec::new(),
            events: StepEvents::default(),
            agents_created: 0,
            scratch: StepScratch::default(),
            maps: Pool::default(),
            tunings: TuningTable::default(),
            workers,
        })
    }

    /// The settings this world was created with.
    pub fn def(&self) -> &WorldDef {
        &self.def
    }

    /// Seconds simulated so far.
    pub fn time(&self) -> f64 {
        self.time
    }

    pub(crate) fn check_idle(&self) -> Result<()> {
        if self.scratch.step_in_progress { Err(Error::StepInProgress) } else { Ok(()) }
    }

    /// Makes room for `agents` more agents and `targets` more targets, so creating them does
    /// not reallocate (and memory is not over-allocated by growth). A hint; never required.
    pub fn reserve(&mut self, agents: usize, targets: usize) -> Result<()> {
        self.check_idle()?;
        const LIMIT: usize = 1 << 26;
        if agents > LIMIT || targets > LIMIT {
            return Err(invalid(format!(
                "reserve counts must be at most {LIMIT}, got {agents} agents and {targets} targets"
            )));
        }
        self.agents.reserve(agents);
        self.targets.reserve(targets);
        Ok(())
    }

    // ----- agents -------------------------------------------------------------------------

    /// Adds an agent; its first sight tick is staggered within one sense period.
    pub fn create_agent(&mut self, def: &AgentDef) -> Result<AgentId> {
        self.check_idle()?;
        let forward = def.validate()?;
        let phase = (self.agents_created as f64 * STAGGER).fract();
        let tuning = self.tunings.intern(def);
        let agent = Agent::new(def, forward, tuning, self.time + def.sight.period() * phase);
        self.agents_created += 1;
        let (index, generation) = self.agents.insert(agent);
        Ok(AgentId { index, generation })
    }

    /// Removes an agent and everything it remembered.
    pub fn destroy_agent(&mut self, id: AgentId) -> Result<()> {
        self.check_idle()?;
        let agent = self.agents.remove(id.index, id.generation).ok_or(Error::InvalidId(AgentId::KIND))?;
        self.tunings.release(&agent.tuning);
        Ok(())
    }

    /// The agent behind an id.
    pub fn agent(&self, id: AgentId) -> Result<&Agent> {
        self.agents.get(id.index, id.generation).ok_or(Error::InvalidId(AgentId::KIND))
    }

    fn agent_mut(&mut self, id: AgentId) -> Result<&mut Agent> {
        self.agents.get_mut(id.index, id.generation).ok_or(Error::InvalidId(AgentId::KIND))
    }

    /// True if the id names a live agent.
    pub fn is_agent_valid(&self, id: AgentId) -> bool {
        self.agents.get(id.index, id.generation).is_some()
    }

    /// Live agents in slot order.
    pub fn agents(&self) -> impl Iterator<Item = (AgentId, &Agent)> {
        self.agents.iter().map(|(i, a)| (agent_id(&self.agents, i), a))
    }

    /// Number of live agents.
    pub fn agent_count(&self) -> usize {
        self.agents.len()
    }

    /// Number of distinct agent tunings: agents with identical settings share one.
    pub fn distinct_tunings(&self) -> usize {
        self.tunings.len()
    }

    /// Replaces an agent's settings and pose, keeping its memory, brain and schedule.
    pub fn set_agent_def(&mut self, id: AgentId, def: &AgentDef) -> Result<()> {
        self.check_idle()?;
        let forward = def.validate()?;
        self.agent(id)?;
        let tuning = self.tunings.intern(def);
        let agent = self.agents.get_mut(id.index, id.generation).expect("checked");
        let old = std::mem::replace(&mut agent.tuning, tuning);
        let (old_period, period) = (old.sight.period(), def.sight.period());
        agent.position = def.position;
        agent.forward = forward;
        agent.team = def.team as u8;
        if period != old_period {
            // A faster rate brings the next tick forward; a slower one never delays it.
            agent.next_sense_time = agent.next_sense_time.min(agent.next_sense_time - old_period + period);
        }
        self.tunings.release(&old);
        Ok(())
    }

    /// Moves and turns one agent.
    pub fn set_agent_pose(&mut self, id: AgentId, position: Vec3, forward: Vec3) -> Result<()> {
        self.check_idle()?;
        let position = check_finite(position, "agent position")?;
        let forward = unit_direction(forward, "agent forward")?;
        let agent = self.agent_mut(id)?;
        agent.position = position;
        agent.forward = forward;
        Ok(())
    }

    /// Moves many agents at once; `forwards` may be `None` to keep their facing. Everything is
    /// checked before anything changes.
    pub fn set_agent_poses(&mut self, ids: &[AgentId], positions: &[Vec3], forwards: Option<&[Vec3]>) -> Result<()> {
        check_lengths(ids.len(), positions.len(), forwards.map(<[Vec3]>::len))?;
        self.set_agent_poses_by(ids.len(), |i| (ids[i], positions[i], forwards.map(|f| f[i])))
    }

    /// Moves `count` agents at once, asking `pose(i)` for the i-th `(id, position, forward)`
    /// (forward `None` keeps the facing); nothing changes unless every entry is valid. For
    /// engines whose poses live in their own arrays: no copies.
    pub fn set_agent_poses_by(
        &mut self,
        count: usize,
        pose: impl Fn(usize) -> (AgentId, Vec3, Option<Vec3>),
    ) -> Result<()> {
        self.check_idle()?;
        set_poses(&mut self.agents, AgentId::KIND, count, |i| {
            let (id, p, f) = pose(i);
            ((id.index, id.generation), p, f)
        })
    }

    /// The engine reports that the agent reached its investigate position: Investigating moves
    /// on to Searching at the next step.
    pub fn report_arrived(&mut self, id: AgentId) -> Result<()> {
        self.check_idle()?;
        self.agent_mut(id)?.brain.arrived = true;
        Ok(())
    }

    /// Where the agent's brain wants to go (None while Idle).
    pub fn move_target(&self, id: AgentId) -> Result<Option<Vec3>> {
        let agent = self.agent(id)?;
        Ok(agent.brain.move_target(&conclude::focus_view(agent)))
    }

    /// Sets a memory record by hand (a radio call, a script); confidence in [0, 1].
    pub fn remember(&mut self, agent: AgentId, target: TargetId, position: Vec3, confidence: f32) -> Result<()> {
        self.check_idle()?;
        self.target(target)?;
        let position = check_finite(position, "remembered position")?;
        let confidence = check_confidence(confidence)?;
        let time = self.time as f32;
        let rec = memory::find_or_insert(&mut self.agent_mut(agent)?.records, target);
        rec.last_known_position = position;
        rec.confidence = confidence;
        rec.last_percept_time = time;
        Ok(())
    }

    /// Drops an agent's record of a target (no event).
    pub fn forget(&mut self, agent: AgentId, target: TargetId) -> Result<()> {
        self.check_idle()?;
        self.agent_mut(agent)?.records.retain(|r| r.target != target);
        Ok(())
    }

    /// An agent's record of a target, if it has one.
    pub fn memory_of(&self, agent: AgentId, target: TargetId) -> Result<Option<&MemoryRecord>> {
        Ok(memory::find(&self.agent(agent)?.records, target))
    }

    // ----- targets ------------------------------------------------------------------------

    /// Adds a target.
    pub fn create_target(&mut self, def: &TargetDef) -> Result<TargetId> {
        self.check_idle()?;
        let target = Target::from_def(def)?;
        let (index, generation) = self.targets.insert(target);
        Ok(TargetId { index, generation })
    }

    /// Removes a target; every memory of it goes too, and brains focused on it give up.
    pub fn destroy_target(&mut self, id: TargetId) -> Result<()> {
        self.check_idle()?;
        self.targets.remove(id.index, id.generation).ok_or(Error::InvalidId(TargetId::KIND))?;
        for (_, agent) in self.agents.iter_mut() {
            agent.records.retain(|r| r.target != id);
        }
        Ok(())
    }

    /// The target behind an id.
    pub fn target(&self, id: TargetId) -> Result<&Target> {
        self.targets.get(id.index, id.generation).ok_or(Error::InvalidId(TargetId::KIND))
    }

    fn target_mut(&mut self, id: TargetId) -> Result<&mut Target> {
        self.targets.get_mut(id.index, id.generation).ok_or(Error::InvalidId(TargetId::KIND))
    }

    /// True if the id names a live target.
    pub fn is_target_valid(&self, id: TargetId) -> bool {
        self.targets.get(id.index, id.generation).is_some()
    }

    /// Live targets in slot order.
    pub fn targets(&self) -> impl Iterator<Item = (TargetId, &Target)> {
        self.targets.iter().map(|(i, t)| (TargetId { index: i, generation: self.targets.generation_at(i) }, t))
    }

    /// Number of live targets.
    pub fn target_count(&self) -> usize {
        self.targets.len()
    }

    /// Replaces a target's settings and pose.
    pub fn set_target_def(&mut self, id: TargetId, def: &TargetDef) -> Result<()> {
        self.check_idle()?;
        let target = Target::from_def(def)?;
        *self.target_mut(id)? = target;
        Ok(())
    }

    /// Moves and turns one target.
    pub fn set_target_pose(&mut self, id: TargetId, position: Vec3, forward: Vec3) -> Result<()> {
        self.check_idle()?;
        let position = check_finite(position, "target position")?;
        let forward = unit_direction(forward, "target forward")?;
        let target = self.target_mut(id)?;
        target.position = position;
        target.forward = forward;
        Ok(())
    }

    /// Moves many targets at once; `forwards` may be `None`. All checked before any change.
    pub fn set_target_poses(&mut self, ids: &[TargetId], positions: &[Vec3], forwards: Option<&[Vec3]>) -> Result<()> {
        check_lengths(ids.len(), positions.len(), forwards.map(<[Vec3]>::len))?;
        self.set_target_poses_by(ids.len(), |i| (ids[i], positions[i], forwards.map(|f| f[i])))
    }

    /// Moves `count` targets at once from `pose(i)`; see [`World::set_agent_poses_by`].
    pub fn set_target_poses_by(
        &mut self,
        count: usize,
        pose: impl Fn(usize) -> (TargetId, Vec3, Option<Vec3>),
    ) -> Result<()> {
        self.check_idle()?;
        set_poses(&mut self.targets, TargetId::KIND, count, |i| {
            let (id, p, f) = pose(i);
            ((id.index, id.generation), p, f)
        })
    }

    /// Shows or hides a target from every agent's sight (sounds it makes are still heard).
    pub fn set_target_enabled(&mut self, id: TargetId, enabled: bool) -> Result<()> {
        self.check_idle()?;
        self.target_mut(id)?.enabled = enabled;
        Ok(())
    }

    /// Replaces a target's check points (1 to 8 offsets).
    pub fn set_target_check_points(&mut self, id: TargetId, offsets: &[Vec3]) -> Result<()> {
        self.check_idle()?;
        let (points, count) = check_points(offsets)?;
        let target = self.target_mut(id)?;
        target.points = points;
        target.point_count = count;
        Ok(())
    }

    // ----- occluders ----------------------------------------------------------------------

    /// Adds an occluder.
    pub fn add_occluder(&mut self, def: &OccluderDef) -> Result<OccluderId> {
        self.check_idle()?;
        self.occluders.add(def)
    }

    /// Removes an occluder.
    pub fn remove_occluder(&mut self, id: OccluderId) -> Result<()> {
        self.check_idle()?;
        self.occluders.remove(id)
    }

    /// Moves an occluder (a door, a vehicle).
    pub fn set_occluder_pose(&mut self, id: OccluderId, position: Vec3, rotation: Quat) -> Result<()> {
        self.check_idle()?;
        self.occluders.set_pose(id, position, rotation)
    }

    /// Changes an occluder's layers (a bush that stops hiding once burnt).
    pub fn set_occluder_layers(&mut self, id: OccluderId, layers: u32) -> Result<()> {
        self.check_idle()?;
        self.occluders.set_layers(id, layers)
    }

    /// The occluder behind an id.
    pub fn occluder(&self, id: OccluderId) -> Result<&Occluder> {
        self.occluders.get(id).ok_or(Error::InvalidId(OccluderId::KIND))
    }

    /// True if the id names a live occluder.
    pub fn is_occluder_valid(&self, id: OccluderId) -> bool {
        self.occluders.get(id).is_some()
    }

    /// All occluders, for queries (ray casts, containment).
    pub fn occluders(&self) -> &OccluderSet {
        &self.occluders
    }

    // ----- sounds, attitudes, engine rays -------------------------------------------------

    /// Broadcasts a sound; every agent tests it at the next step.
    pub fn emit_sound(&mut self, def: &SoundDef) -> Result<()> {
        self.check_idle()?;
        if !def.source.is_null() {
            self.target(def.source)?;
        }
        let sound = Sound::from_def(def)?;
        self.pending_sounds.push(sound);
        Ok(())
    }

    /// Sounds emitted since the last step.
    pub fn pending_sounds(&self) -> &[Sound] {
        &self.pending_sounds
    }

    /// Sounds the last step processed.
    pub fn last_sounds(&self) -> &[Sound] {
        &self.last_sounds
    }

    /// Sets how team `observer` regards team `other` (one direction).
    pub fn set_attitude(&mut self, observer: u32, other: u32, attitude: Attitude) -> Result<()> {
        self.check_idle()?;
        let (a, b) = (check_team(observer, "observer team")?, check_team(other, "other team")?);
        self.attitudes.set(a, b, attitude);
        Ok(())
    }

    /// How team `observer` regards team `other`.
    pub fn attitude(&self, observer: u32, other: u32) -> Result<Attitude> {
        let (a, b) = (check_team(observer, "observer team")?, check_team(other, "other team")?);
        Ok(self.attitudes.get(a, b))
    }

    /// Everything the last step reported.
    pub fn events(&self) -> &StepEvents {
        &self.events
    }

    /// True between `begin_step` and `finish_step` / `cancel_step`.
    pub fn is_step_in_progress(&self) -> bool {
        self.scratch.step_in_progress
    }

    /// Number of live influence maps.
    pub fn influence_map_count(&self) -> usize {
        self.maps.len()
    }
}
