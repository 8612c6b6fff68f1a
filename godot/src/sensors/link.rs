//! What a sensor or target keeps of its registration (its core id, its world node, the queue its
//! transform notifications go to), and the tree-lifecycle steps both kinds share.

use std::rc::Rc;

use argus_core::world::Labelled;
use argus_core::{AgentId, TargetId};
use godot::obj::WithBaseField;
use godot::prelude::*;

use super::{WorldNode, find_world, node_label};
use crate::dim::Dim;
use crate::hub::MovedQueue;

/// A core id of a node kind (agent or target).
pub trait NodeId: Copy {
    const NULL: Self;
    fn is_null(&self) -> bool;
    /// Reports a transform change of the node with this id.
    fn moved(self, queue: &MovedQueue);
    /// What a label of this id names.
    fn labelled(self) -> Labelled;
}

impl NodeId for AgentId {
    const NULL: Self = AgentId::NULL;
    fn is_null(&self) -> bool {
        AgentId::is_null(*self)
    }
    fn moved(self, queue: &MovedQueue) {
        queue.agent_moved(self)
    }
    fn labelled(self) -> Labelled {
        Labelled::Agent(self)
    }
}

impl NodeId for TargetId {
    const NULL: Self = TargetId::NULL;
    fn is_null(&self) -> bool {
        TargetId::is_null(*self)
    }
    fn moved(self, queue: &MovedQueue) {
        queue.target_moved(self)
    }
    fn labelled(self) -> Labelled {
        Labelled::Target(self)
    }
}

/// A node's registration with a world node of dimension `D`.
pub struct Link<D: Dim, I> {
    pub id: I,
    pub world: Option<Gd<D::World>>,
    /// Where this node reports transform changes once registered.
    pub moved: Option<Rc<MovedQueue>>,
}

impl<D: Dim, I: NodeId> Default for Link<D, I> {
    fn default() -> Self {
        Link { id: I::NULL, world: None, moved: None }
    }
}

impl<D: Dim, I: NodeId> Link<D, I> {
    /// The world this node is registered with. Once that world is freed the node unregisters,
    /// reports it once (naming `node`), and waits for the next world (which registers it).
    pub fn live(&mut self, node: &Gd<Node>) -> Option<(I, Gd<D::World>)> {
        match &self.world {
            Some(w) if w.is_instance_valid() && !self.id.is_null() => Some((self.id, w.clone())),
            Some(_) => {
                *self = Self::default();
                godot_error!(
                    "{}: its perception world was freed; unregistered until another world appears",
                    node_label(node)
                );
                None
            }
            None => None,
        }
    }

    /// `live`, with an error naming `node` and `method` when the node has no world at all (none
    /// in reach, or settings refused); a freed world is reported by `live` itself.
    pub fn live_for(&mut self, node: &Gd<Node>, method: &str) -> Option<(I, Gd<D::World>)> {
        let linked = self.world.is_some();
        let live = self.live(node);
        if live.is_none() && !linked {
            godot_error!(
                "{}.{method}: not registered with a {} (none above it or in the scene, or its settings are refused), so it does nothing",
                node_label(node),
                D::WORLD_CLASS
            );
        }
        live
    }

    pub fn is_registered(&self) -> bool {
        !self.id.is_null() && self.world.as_ref().is_some_and(|w| w.is_instance_valid())
    }

    /// The node's transform changed (its notification): queued for the next step.
    pub fn on_moved(&self) {
        if let Some(queue) = &self.moved {
            self.id.moved(queue);
        }
    }

    /// `NOTIFICATION_PATH_RENAMED` (the node or an ancestor renamed): the core thing takes the
    /// node's name, if that is what changed (see `labels`). Nothing while unregistered.
    pub fn renamed(&mut self, node: &Gd<Node>) {
        if let Some((id, mut w)) = self.live(node) {
            let label = crate::labels::of(node);
            w.bind_mut().hub_mut().label_thing(id.labelled(), &label);
        }
    }

    /// Registration done: `id` in `world`, reporting moves to `queue`.
    pub fn attach(&mut self, id: I, queue: Rc<MovedQueue>, world: Gd<D::World>) {
        *self = Link { id, world: Some(world), moved: Some(queue) };
    }

    /// Forgets the registration; the world (when still alive) and the id it had.
    pub fn detach(&mut self) -> (Option<Gd<D::World>>, I) {
        let id = self.id;
        let world = std::mem::take(self).world.filter(|w| w.is_instance_valid());
        (world, id)
    }
}

/// `_enter_tree` of a sensor or target: joins `group` (how the world and warnings find it) and
/// asks for transform notifications (how `pose_sync = OnTransformChange` learns of moves).
pub fn enter_tree<S: WithBaseField + Inherits<Node>, D: Dim>(this: &mut S, group: &str) {
    let mut node = this.to_gd().upcast::<Node>();
    node.add_to_group(group);
    D::body(node).set_notify_transform(true);
}

/// `_exit_tree` of a sensor or target: see `engine_workarounds::request_ready_again`.
pub fn request_ready<S: WithBaseField + Inherits<Node>>(this: &mut S) {
    crate::engine_workarounds::request_ready_again(this.to_gd().upcast());
}

/// The node's world node: the nearest ancestor, else the first world in the scene.
pub fn world_in_reach<D: Dim>(node: &Gd<Node>) -> Option<Gd<D::World>> {
    find_world::<D::World>(node, D::WORLD_GROUP)
}

/// The configuration warning of a sensor or target with no world in reach (`what` says what
/// follows from it), shared by both.
pub fn no_world_warning<D: Dim>(node: &Gd<Node>, what: &str) -> Option<String> {
    world_in_reach::<D>(node)
        .is_none()
        .then(|| format!("No {} above this node or in the scene: {what}", D::WORLD_CLASS))
}

/// `true` once the node is in the tree and ready (scene loading sets properties one by one
/// before that, so they are checked at `_ready`).
pub fn ready_in_tree<S: WithBaseField + Inherits<Node>>(this: &S) -> bool {
    let node = this.to_gd().upcast::<Node>();
    node.is_inside_tree() && node.is_node_ready()
}
