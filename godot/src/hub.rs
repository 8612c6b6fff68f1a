//! What `PerceptionWorld3D` and `PerceptionWorld2D` share: the core world, which node stands
//! for which agent and target, pose syncing, and turning one step's event arrays into signals.
//!
//! Signals are built from the step's event arrays (percepts, sight changes, forgotten, awareness,
//! brain), never by asking every node; they are collected (`hub/events.rs`) and emitted by the
//! world node after its own borrow is released, so handlers may call back into the world.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;

use argus_core::{AgentDef, AgentId, Rays, TargetDef, TargetId, Vec3, World, WorldDef};
use godot::classes::Node;
use godot::prelude::*;

pub use crate::body::{Body, Pose};
use crate::engine_workarounds::TransformReader;
use crate::id_table::IdTable;
use crate::poses::{self, PoseRead};
pub use crate::ray_adapter::{CastFn, PerRay};
use crate::signals::{Batch, Emission, SignalKind, Signals};
pub use crate::slots::{AgentSlot, MovedQueue, TargetSlot};

mod events;
pub use events::state_index;

/// The core world plus the node registry.
pub struct Hub {
    /// The core world (created on first use, so children registering before the world node's
    /// `_ready` find it).
    world: Option<World>,
    /// Settings for the world when it is created.
    pub def: WorldDef,
    /// How errors name the world node (its path).
    pub owner: String,
    /// How many registered nodes have a refused pose (see `bad_pose`).
    bad_poses: usize,
    /// 2D nodes (positions and signals as Vector2).
    pub d2: bool,
    pub agents: IdTable<AgentId, AgentSlot>,
    pub targets: IdTable<TargetId, TargetSlot>,
    target_of: HashMap<InstanceId, TargetId>,
    /// Source nodes of the sounds emitted since the last step, aligned with the core's pending sounds.
    pending_sources: Vec<Option<Gd<Node>>>,
    /// Same for the sounds the last step processed.
    last_sources: Vec<Option<Gd<Node>>>,
    agent_poses: Vec<(AgentId, Vec3, Option<Vec3>)>,
    target_poses: Vec<(TargetId, Vec3, Option<Vec3>)>,
    /// Shared with every registered node (see `MovedQueue`).
    moved: Rc<MovedQueue>,
    /// The drained queue, reused between steps.
    moved_agents: Vec<AgentId>,
    moved_targets: Vec<TargetId>,
    /// The nodes read every step with `pose_sync = OnTransformChange` (see `poses`).
    polled_agents: Vec<AgentId>,
    polled_targets: Vec<TargetId>,
    /// Counts pose syncs.
    syncs: u64,
    /// Microseconds the last step spent inside the core (`World::step`/`step_with`).
    pub core_usec: f64,
    /// Microseconds the last step spent reading node poses into the core.
    pub sync_usec: f64,
    /// Microseconds of `sync_usec` spent reading the nodes' transforms (engine calls).
    pub read_usec: f64,
    /// Microseconds the last step spent turning the core's events into signals to emit.
    pub events_usec: f64,
    /// The last step's signals, until the world node emits them; the buffer is reused.
    emissions: Vec<Emission>,
    /// Created on first use (the engine must be running).
    signals: Option<Rc<Signals>>,
    /// Reads poses each step; created on first use.
    reader: OnceCell<Option<TransformReader>>,
}

impl Hub {
    pub fn new(d2: bool) -> Self {
        Hub {
            world: None,
            def: WorldDef::default(),
            owner: String::new(),
            bad_poses: 0,
            d2,
            agents: IdTable::default(),
            targets: IdTable::default(),
            target_of: HashMap::new(),
            pending_sources: Vec::new(),
            last_sources: Vec::new(),
            agent_poses: Vec::new(),
            target_poses: Vec::new(),
            moved: Rc::default(),
            moved_agents: Vec::new(),
            moved_targets: Vec::new(),
            polled_agents: Vec::new(),
            polled_targets: Vec::new(),
            syncs: 0,
            core_usec: 0.0,
            sync_usec: 0.0,
            read_usec: 0.0,
            events_usec: 0.0,
            emissions: Vec::new(),
            signals: None,
            reader: OnceCell::new(),
        }
    }

    /// The core world, created with `def` on first use.
    /// A def the core refuses is reported, naming the world node, and the defaults are used.
    pub fn world(&mut self) -> &mut World {
        if self.world.is_none() {
            let world = World::new(&self.def).unwrap_or_else(|e| {
                godot_error!("{}: world settings refused ({e}); using the default settings", self.owner);
                World::default()
            });
            self.world = Some(world);
        }
        self.world.as_mut().expect("just created")
    }

    /// The core world if it exists.
    pub fn world_ref(&self) -> Option<&World> {
        self.world.as_ref()
    }

    /// True once the core world exists (settings such as the ray backend are then fixed).
    pub fn started(&self) -> bool {
        self.world.is_some()
    }

    // ----- registry ---------------------------------------------------------------------

    /// Registers an agent, labelled with its node's name (see `labels`).
    pub fn add_agent(&mut self, slot: AgentSlot, def: &AgentDef) -> Result<AgentId, String> {
        let id = self.world().create_agent(def).map_err(|e| e.to_string())?;
        self.label_thing(argus_core::world::Labelled::Agent(id), &crate::labels::of(&slot.node));
        self.agents.insert(id, slot);
        Ok(id)
    }

    /// The queue a registered node reports its transform changes to.
    pub fn moved_queue(&self) -> Rc<MovedQueue> {
        self.moved.clone()
    }

    pub fn remove_agent(&mut self, id: AgentId) {
        if self.agents.remove(&id).is_some() {
            let _ = self.world().destroy_agent(id);
        }
    }

    /// Registers a target, labelled with its node's name (see `labels`).
    pub fn add_target(&mut self, slot: TargetSlot, def: &TargetDef) -> Result<TargetId, String> {
        let instance = slot.node.instance_id();
        let id = self.world().create_target(def).map_err(|e| e.to_string())?;
        self.label_thing(argus_core::world::Labelled::Target(id), &crate::labels::of(&slot.node));
        self.targets.insert(id, slot);
        self.target_of.insert(instance, id);
        Ok(id)
    }

    /// Unregisters a target. Every guard that remembers it loses it (`target_lost` if it saw
    /// it at its latest sight tick) and forgets it (`target_forgotten`): the core drops those
    /// memory records. The signals are returned to emit with no borrow held.
    pub fn remove_target(&mut self, id: TargetId) -> (Vec<Emission>, Rc<Signals>) {
        let signals = self.signals().clone();
        let mut out = Vec::new();
        let Some(slot) = self.targets.remove(&id) else { return (out, signals) };
        self.target_of.remove(&slot.node.instance_id());
        if slot.bad_pose {
            self.bad_poses = self.bad_poses.saturating_sub(1);
        }
        let d2 = self.d2;
        self.world();
        let Hub { world, agents, .. } = self;
        let world = world.as_mut().expect("created");
        let mut batch = Batch::new(&signals, &mut out);
        for (agent, agent_slot) in agents.iter() {
            let Ok(Some(r)) = world.memory_of(*agent, id) else { continue };
            if r.seen {
                batch.push(&agent_slot.node, SignalKind::TargetLost, || Some(vec![slot.node.to_variant()]));
            }
            batch.push(&agent_slot.node, SignalKind::TargetForgotten, || {
                Some(vec![slot.node.to_variant(), Body::variant_of(d2, r.last_known_position)])
            });
        }
        let _ = world.destroy_target(id);
        (out, signals)
    }

    /// The targets `agent` saw at its latest sight tick (what `target_seen`/`target_lost` track),
    /// in the order it first remembered them.
    pub fn seen_targets(&self, agent: AgentId) -> Vec<TargetId> {
        let Some(agent) = self.world.as_ref().and_then(|w| w.agent(agent).ok()) else { return Vec::new() };
        agent.memory().iter().filter(|r| r.seen).map(|r| r.target).collect()
    }

    /// The target id of a registered target node.
    pub fn target_id_of(&self, node: &Gd<Node>) -> Option<TargetId> {
        self.target_of.get(&node.instance_id()).copied()
    }

    /// The node of a target id.
    pub fn target_node(&self, id: TargetId) -> Option<Gd<Node>> {
        self.targets.get(&id).map(|s| s.node.clone())
    }

    /// Broadcasts a sound heard at the next step; `source` may be a registered target node (its
    /// memory is refreshed), any other node (reported back as the source), or none.
    pub fn emit_sound(
        &mut self,
        position: Vec3,
        loudness: f32,
        source: Option<Gd<Node>>,
        team_and_layers: Option<(u32, u32)>,
    ) -> Result<(), String> {
        let target = source.as_ref().and_then(|n| self.target_id_of(n)).unwrap_or(TargetId::NULL);
        let mut sound = argus_core::SoundDef { position, loudness, source: target, ..Default::default() };
        if let Some((team, layers)) = team_and_layers {
            (sound.team, sound.layers) = (team, layers);
        }
        self.world().emit_sound(&sound).map_err(|e| e.to_string())?;
        self.pending_sources.push(source);
        Ok(())
    }

    /// Runs `query` on the world with the engine answering rays through `cast` (or the
    /// built-in occluders when `cast` is `None`).
    pub fn query<R>(&mut self, cast: Option<&mut CastFn<'_>>, query: impl FnOnce(&World, Rays) -> R) -> R {
        self.world();
        let Hub { world, agents, targets, .. } = self;
        let world = world.as_ref().expect("created");
        match cast {
            Some(cast) => query(world, Rays::Engine(&mut PerRay { agents, targets, cast })),
            None => query(world, Rays::World),
        }
    }

    // ----- stepping ---------------------------------------------------------------------

    /// Copies registered nodes' poses into the core (one batch per kind): every node, or with
    /// `only_moved` those whose transform notification arrived since the last step and those that
    /// keep moving (see `poses`). A pose equal to the one last handed over is not handed over again.
    pub fn sync_poses(&mut self, only_moved: bool) {
        let started = std::time::Instant::now();
        std::mem::swap(&mut self.moved_agents, &mut *self.moved.agents.borrow_mut());
        std::mem::swap(&mut self.moved_targets, &mut *self.moved.targets.borrow_mut());
        self.agent_poses.clear();
        self.target_poses.clear();
        let reader = self.reader.get_or_init(TransformReader::new).as_ref();
        self.syncs += 1;
        let step = self.syncs;
        let mut agents = PoseRead { reader, step, out: &mut self.agent_poses };
        let mut targets = PoseRead { reader, step, out: &mut self.target_poses };
        if only_moved {
            self.moved_agents.sort_unstable();
            self.moved_agents.dedup();
            self.moved_targets.sort_unstable();
            self.moved_targets.dedup();
            poses::read_moved(&mut self.agents, &self.moved_agents, &mut self.polled_agents, &mut agents);
            poses::read_moved(&mut self.targets, &self.moved_targets, &mut self.polled_targets, &mut targets);
        } else {
            poses::read_all(&mut self.agents, &mut agents);
            poses::read_all(&mut self.targets, &mut targets);
        }
        self.moved_agents.clear();
        self.moved_targets.clear();
        self.read_usec = started.elapsed().as_secs_f64() * 1e6;
        self.world();
        let Hub { world, agents, targets, agent_poses, target_poses, bad_poses, .. } = self;
        let world = world.as_mut().expect("created");
        if world.set_agent_poses_by(agent_poses.len(), |i| agent_poses[i]).is_err() {
            // One bad pose (a NaN transform) must not freeze everyone: fall back to one by one,
            // and name the node the core refused.
            for &(id, p, f) in agent_poses.iter() {
                let f = f.unwrap_or_else(|| world.agent(id).map(|a| a.forward()).unwrap_or(Vec3::Z));
                if let Some(slot) = agents.get_mut(&id) {
                    refused(&slot.node, &mut slot.bad_pose, bad_poses, world.set_agent_pose(id, p, f));
                }
            }
        } else if *bad_poses > 0 {
            for (id, ..) in agent_poses.iter() {
                if let Some(slot) = agents.get_mut(id) {
                    refused(&slot.node, &mut slot.bad_pose, bad_poses, Ok(()));
                }
            }
        }
        if world.set_target_poses_by(target_poses.len(), |i| target_poses[i]).is_err() {
            for &(id, p, f) in target_poses.iter() {
                let f = f.unwrap_or_else(|| world.target(id).map(|t| t.forward()).unwrap_or(Vec3::Z));
                if let Some(slot) = targets.get_mut(&id) {
                    refused(&slot.node, &mut slot.bad_pose, bad_poses, world.set_target_pose(id, p, f));
                }
            }
        } else if *bad_poses > 0 {
            for (id, ..) in target_poses.iter() {
                if let Some(slot) = targets.get_mut(id) {
                    refused(&slot.node, &mut slot.bad_pose, bad_poses, Ok(()));
                }
            }
        }
    }

    /// Syncs one agent and one target (or every target) before an immediate query.
    pub fn sync_for_query(&mut self, agent: AgentId, target: Option<TargetId>) {
        self.world();
        let Hub { world, agents, targets, bad_poses, .. } = self;
        let world = world.as_mut().expect("created");
        if let Some(slot) = agents.get_mut(&agent) {
            let (p, f) = slot.body.pose();
            slot.sent = Some((p, f));
            let f = f.unwrap_or_else(|| world.agent(agent).map(|a| a.forward()).unwrap_or(Vec3::Z));
            refused(&slot.node, &mut slot.bad_pose, bad_poses, world.set_agent_pose(agent, p, f));
        }
        for (id, slot) in targets.iter_mut() {
            if target.is_none_or(|t| t == *id) {
                let (p, f) = slot.body.pose();
                slot.sent = Some((p, f));
                let f = f.unwrap_or_else(|| world.target(*id).map(|t| t.forward()).unwrap_or(Vec3::Z));
                refused(&slot.node, &mut slot.bad_pose, bad_poses, world.set_target_pose(*id, p, f));
            }
        }
    }

    /// One step: poses in (see `sync_poses`), the core step (built-in occluders, or `rays` answering
    /// every ray), and the signals it produced collected for `take_emissions`.
    pub fn step(&mut self, dt: f32, only_moved: bool, cast: Option<&mut CastFn<'_>>) -> Result<(), String> {
        let synced = std::time::Instant::now();
        self.sync_poses(only_moved);
        self.sync_usec = synced.elapsed().as_secs_f64() * 1e6;
        let started = std::time::Instant::now();
        let Hub { world, agents, targets, .. } = self;
        let world = world.as_mut().expect("synced");
        let result = match cast {
            Some(cast) => world.step_with(dt, Rays::Engine(&mut PerRay { agents, targets, cast })),
            None => world.step(dt),
        };
        self.core_usec = started.elapsed().as_secs_f64() * 1e6;
        result.map_err(|e| e.to_string())?;
        self.last_sources = std::mem::take(&mut self.pending_sources);
        let collecting = std::time::Instant::now();
        let mut out = std::mem::take(&mut self.emissions);
        out.clear();
        self.collect_emissions(&mut out);
        self.emissions = out;
        self.events_usec = collecting.elapsed().as_secs_f64() * 1e6;
        Ok(())
    }

    /// The last step's signals, to emit with no borrow of the world node held.
    pub fn take_emissions(&mut self) -> (Vec<Emission>, Rc<Signals>) {
        (std::mem::take(&mut self.emissions), self.signals().clone())
    }

    /// Hands the emitted buffer back, so the next step reuses its allocation.
    pub fn recycle_emissions(&mut self, emitted: Vec<Emission>) {
        self.emissions = emitted;
    }

    fn signals(&mut self) -> &Rc<Signals> {
        self.signals.get_or_insert_with(Rc::default)
    }
}

/// Reports a pose the core refused (a NaN transform, a coordinate past ±1e6) once, naming the
/// node, until one of its poses is accepted again; the core keeps the last accepted pose.
fn refused(node: &Gd<Node>, bad: &mut bool, count: &mut usize, result: argus_core::Result<()>) {
    match result {
        Ok(()) if *bad => {
            *bad = false;
            *count = count.saturating_sub(1);
        }
        Ok(()) => {}
        Err(_) if *bad => {}
        Err(e) => {
            *bad = true;
            *count += 1;
            godot_error!(
                "{}: pose refused ({e}); perception keeps its last valid pose until it is valid again",
                crate::sensors::node_label(node)
            );
        }
    }
}
