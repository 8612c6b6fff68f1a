//! What the world keeps for each registered sensor and target, and the queue their transform
//! notifications go to.

use std::cell::RefCell;

use argus_core::{AgentId, TargetId};
use godot::prelude::*;

use crate::body::{Body, Pose};
use crate::poses::{PoseSlot, Watch};

/// One registered agent: its sensor node and the optional hearing and brain children.
pub struct AgentSlot {
    /// The vision sensor (the agent).
    pub node: Gd<Node>,
    /// How to read its pose.
    pub body: Body,
    /// Receives `sound_heard`.
    pub hearing: Option<Gd<Node>>,
    /// Receives `state_changed`.
    pub brain: Option<Gd<Node>>,
    /// Colliders physics rays skip.
    pub exclude: Array<Rid>,
    /// The pose last handed to the core (`None` before the first sync).
    pub sent: Option<Pose>,
    /// How its moves are noticed (see `poses`).
    pub watch: Watch,
    /// Its last pose was refused by the core (reported once until a pose is accepted again).
    pub bad_pose: bool,
}

impl PoseSlot for AgentSlot {
    fn parts(&mut self) -> (&Body, &mut Option<Pose>, &mut Watch) {
        (&self.body, &mut self.sent, &mut self.watch)
    }
}

/// One registered target.
pub struct TargetSlot {
    /// The target node.
    pub node: Gd<Node>,
    /// How to read its pose.
    pub body: Body,
    /// Colliders physics rays skip.
    pub exclude: Array<Rid>,
    /// The pose last handed to the core (`None` before the first sync).
    pub sent: Option<Pose>,
    /// How its moves are noticed (see `poses`).
    pub watch: Watch,
    /// Its last pose was refused by the core (reported once until a pose is accepted again).
    pub bad_pose: bool,
}

impl PoseSlot for TargetSlot {
    fn parts(&mut self) -> (&Body, &mut Option<Pose>, &mut Watch) {
        (&self.body, &mut self.sent, &mut self.watch)
    }
}

/// The sensors and targets whose transform notification arrived since the last step, pushed by
/// the nodes and drained by the world's step: with `pose_sync = OnTransformChange` only these
/// are read, without visiting every registered node. An id may appear more than once.
#[derive(Default)]
pub struct MovedQueue {
    pub(crate) agents: RefCell<Vec<AgentId>>,
    pub(crate) targets: RefCell<Vec<TargetId>>,
}

impl MovedQueue {
    pub fn agent_moved(&self, id: AgentId) {
        self.agents.borrow_mut().push(id);
    }

    pub fn target_moved(&self, id: TargetId) {
        self.targets.borrow_mut().push(id);
    }
}
