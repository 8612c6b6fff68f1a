//! The world: owns occluders, agents, targets and sounds, and advances them with `step`.

mod agents;
mod beliefs;
mod conclude;
mod due;
mod labels;
mod maps;
mod query;
mod shares;
mod spatial;
mod step;
mod sweep;
mod tactics;
mod team;
mod things;
mod trace;
mod walk;

use crate::agent::{Agent, TuningTable};
use crate::error::{Error, Result, invalid};
use crate::hearing::{HearingPath, Sound, SoundDef, WalkHearing};
use crate::id::{AgentId, DensePool, Pool};
use crate::math::{check_non_negative, check_range};
use crate::occluders::OccluderSet;
use crate::percept::StepEvents;
use crate::rays::RayBackend;
use crate::record::call;
use crate::target::Target;
use crate::team::{Attitude, AttitudeTable, check_team};

pub use beliefs::BeliefOwner;
pub(crate) use beliefs::{HeldBelief, check_owner};
pub(crate) use labels::Labels;
pub use labels::{Labelled, MAX_LABEL_BYTES};
pub(crate) use query::{check_hits, hit_distance_ok};
pub use step::SORTED_STORE_MIN_AGENTS;
#[cfg(any(test, feature = "testing"))]
pub use step::StepPhases;
pub(crate) use step::StepScratch;
pub(crate) use trace::{BLOCKED, SightTrace, TRACE_OFF, TRACE_TICKS, TRACE_WHY};

/// Latest world time a step may reach, in seconds (about 31 years of play). A step that would go
/// beyond it is refused, so the clock and every time derived from it (percept times are `f32`)
/// stay finite, and a world's save always loads.
pub const MAX_WORLD_TIME: f64 = 1.0e9;

/// World-wide settings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WorldDef {
    /// Who answers line-of-sight rays (default the built-in occluder BVH).
    pub ray_backend: RayBackend,
    /// Threads a step splits its work between: the caller's and `worker_threads - 1` of a pool
    /// owned by the world, started with it; 0 or 1 = the caller's thread only. Results are
    /// identical for every count.
    pub worker_threads: u32,
    /// Each sound-muffling occluder crossed multiplies a sound's radius by this (default 1 = off,
    /// the lesson's rule).
    pub sound_occlusion: f32,
    /// Broadphase cell size in metres; 0 = automatic (half the mean sight reach of the agents).
    pub broadphase_cell_size: f32,
    /// Most agents that run a sight tick in one step; 0 = no limit. Overdue agents go first.
    pub max_sight_ticks_per_step: u32,
    /// How sound travels to the agents whose hearing follows the world's setting:
    /// [`HearingPath::Straight`] (default, the lesson) or [`HearingPath::Walk`] (around walls,
    /// along the walk graph; the straight line while the world has no walk graph).
    pub hearing_path: HearingPath,
}

impl Default for WorldDef {
    fn default() -> Self {
        WorldDef {
            ray_backend: RayBackend::Builtin,
            worker_threads: 1,
            sound_occlusion: 1.0,
            broadphase_cell_size: 0.0,
            max_sight_ticks_per_step: 0,
            hearing_path: HearingPath::Straight,
        }
    }
}

impl WorldDef {
    pub(crate) fn validate(&self) -> Result<()> {
        check_range(self.sound_occlusion, 0.0, 1.0, "sound occlusion factor")?;
        check_non_negative(self.broadphase_cell_size, "broadphase cell size")?;
        if self.hearing_path == HearingPath::World {
            return Err(invalid("a world's hearing path must be straight or walk (`World` is an agent's setting)"));
        }
        if self.worker_threads as usize > shares::MAX_WORKERS {
            let most = shares::MAX_WORKERS;
            return Err(invalid(format!("worker threads must be at most {most}, got {}", self.worker_threads)));
        }
        Ok(())
    }
}

/// A perception world. Not thread-safe: use it from one thread at a time (it may use worker
/// threads of its own inside `step`). Worlds are independent of each other.
#[doc(alias = "PerceptionSystem", alias = "AudioPerception")]
pub struct World {
    pub(crate) def: WorldDef,
    pub(crate) time: f64,
    /// In spatial order (see `step::order`), behind their ids.
    pub(crate) agents: DensePool<Agent>,
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
    pub(crate) workers: Option<std::sync::Arc<team::Workers>>,
    /// The recording in progress (see `record`); `None` costs nothing.
    pub(crate) recorder: Option<Box<crate::record::Recorder>>,
    /// Where people can stand and walk (see `walk`), if the world has been given one.
    pub(crate) walk: Option<crate::walk::WalkGraph>,
    /// What walk-hearing agents hear this step, and the floods' working memory.
    pub(crate) walk_hearing: WalkHearing,
    /// Counts the walk graphs this world has had (see [`World::walk_graph_version`]).
    pub(crate) walk_version: u64,
    /// The beliefs kept for the agents that search by belief (see `beliefs`).
    pub(crate) beliefs: Vec<HeldBelief>,
    /// The engine's names for things (see `labels`).
    pub(crate) labels: Labels,
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

fn agent_id(pool: &DensePool<Agent>, index: u32) -> AgentId {
    AgentId { index, generation: pool.generation_at(index) }
}

impl World {
    /// Creates an empty world.
    pub fn new(def: &WorldDef) -> Result<World> {
        def.validate()?;
        let workers = match def.worker_threads {
            0 | 1 => None,
            n => Some(std::sync::Arc::new(
                team::Workers::start(n as usize)
                    .map_err(|e| invalid(format!("could not start {n} worker threads: {e}")))?,
            )),
        };
        Ok(World {
            def: *def,
            time: 0.0,
            agents: DensePool::default(),
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
            recorder: None,
            walk: None,
            walk_hearing: WalkHearing::default(),
            walk_version: 0,
            beliefs: Vec::new(),
            labels: Labels::default(),
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
    /// `Error::OutOfMemory` when the memory is not available (agents reserved before a failed
    /// target reservation stay reserved; nothing observable changes).
    pub fn reserve(&mut self, agents: usize, targets: usize) -> Result<()> {
        self.check_idle()?;
        const LIMIT: usize = 1 << 26;
        if agents > LIMIT || targets > LIMIT {
            return Err(invalid(format!(
                "reserve counts must be at most {LIMIT}, got {agents} agents and {targets} targets"
            )));
        }
        let out_of_memory = |what: &str, n: usize| Error::OutOfMemory(format!("cannot reserve room for {n} {what}"));
        self.agents.reserve(agents).map_err(|_| out_of_memory("agents", agents))?;
        self.targets.reserve(targets).map_err(|_| out_of_memory("targets", targets))?;
        Ok(())
    }

    // ----- sounds, attitudes, events ---------------------------------------------------

    /// Broadcasts a sound; every agent tests it at the next step.
    #[doc(alias = "EmitSound", alias = "AudioPerception")]
    pub fn emit_sound(&mut self, def: &SoundDef) -> Result<()> {
        self.check_idle()?;
        if !def.source.is_null() {
            self.target(def.source)?;
        }
        let sound = Sound::from_def(def)?;
        self.pending_sounds.push(sound);
        self.record_input(call::EMIT_SOUND, |w| w.sound_def(def));
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
        self.record_input(call::SET_ATTITUDE, |w| {
            w.u32(observer);
            w.u32(other);
            w.u8(attitude as u8);
        });
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
