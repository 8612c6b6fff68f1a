//! The perception nodes: `VisionSensor3D`/`2D` (the agent: sight, memory, awareness), their
//! hearing children and `PerceptionTarget3D`/`2D`. Each kind's logic is written once, generic
//! over `Dim` (`vision.rs`, `hearing.rs`, `target.rs`); the classes are shells that hold the
//! exported properties and forward. Here: what they share (the world-node trait, the
//! settings-to-def mapping and the world lookup).

use argus_core::{
    AgentDef, AgentId, AwarenessConfig, BrainConfig, HearingConfig, MemoryConfig, SightConfig, TargetId, Vec3,
};
use godot::prelude::*;

/// What a sensor or target needs from its world node.
pub trait WorldNode {
    /// The shared registry and core world.
    fn hub_mut(&mut self) -> &mut crate::hub::Hub;
    /// Immediate line of sight, answered the way the world's steps answer it.
    fn query_can_see(&mut self, agent: AgentId, target: TargetId) -> Option<argus_core::SightResult>;
    /// Every target the agent can see now, the same way.
    fn query_visible(&mut self, agent: AgentId) -> Vec<TargetId>;
}

/// The sight, memory and awareness settings of a vision sensor, as the core's configs (one
/// place maps node properties to core defs).
pub struct SensorSettings {
    pub detect: u32,
    pub sight: SightConfig,
    pub memory: MemoryConfig,
    pub awareness: AwarenessConfig,
    pub team: u32,
}

/// Assembles the agent def from the sensor's settings and its optional children (no hearing
/// child: deaf; no brain child: the brain stays Idle).
pub fn agent_def(
    s: &SensorSettings,
    hearing: Option<HearingConfig>,
    brain: Option<BrainConfig>,
    position: Vec3,
    forward: Option<Vec3>,
) -> AgentDef {
    AgentDef {
        position,
        forward: forward.unwrap_or(Vec3::Z),
        team: s.team,
        detect: s.detect,
        sight: s.sight,
        hearing: hearing.unwrap_or(HearingConfig { enabled: false, ..Default::default() }),
        memory: s.memory,
        brain: brain.unwrap_or(BrainConfig { enabled: false, ..Default::default() }),
        awareness: s.awareness,
    }
}

/// Finds the world node: the nearest ancestor of class `W`, else the first node of `group`.
pub fn find_world<W: GodotClass + Inherits<Node>>(node: &Gd<Node>, group: &str) -> Option<Gd<W>> {
    let mut at = node.get_parent();
    while let Some(n) = at {
        if let Ok(w) = n.clone().try_cast::<W>() {
            return Some(w);
        }
        at = n.get_parent();
    }
    if !node.is_inside_tree() {
        return None;
    }
    node.get_tree().get_first_node_in_group(group)?.try_cast::<W>().ok()
}

/// True in the editor: the nodes are tool classes (for their configuration warnings) but do not
/// register, step or read poses there.
pub fn in_editor() -> bool {
    godot::classes::Engine::singleton().is_editor_hint()
}

/// How errors name a node: its scene path inside the tree, else its name.
pub fn node_label(node: &Gd<Node>) -> String {
    if node.is_inside_tree() { node.get_path().to_string() } else { node.get_name().to_string() }
}

/// The core's verdict on an agent def, without a registration (a scratch world checks it).
pub fn check_agent_def(def: &AgentDef) -> Result<(), String> {
    argus_core::World::default().create_agent(def).map(|_| ()).map_err(|e| e.to_string())
}

/// The core's verdict on a target def, the same way.
pub fn check_target_def(def: &argus_core::TargetDef) -> Result<(), String> {
    argus_core::World::default().create_target(def).map(|_| ()).map_err(|e| e.to_string())
}

pub mod hearing;
pub mod link;
pub mod target;
mod target_nodes;
pub mod vision;
mod vision2d;
mod vision2d_queries;
mod vision3d;
mod vision3d_queries;
mod vision_queries;
mod vision_settings;

pub use hearing::{HearingSensor2D, HearingSensor3D};
pub use target_nodes::{PerceptionTarget2D, PerceptionTarget3D};
pub use vision2d::VisionSensor2D;
pub use vision3d::VisionSensor3D;

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SensorSettings {
        SensorSettings {
            sight: SightConfig { view_radius: 7.0, ..Default::default() },
            memory: MemoryConfig::default(),
            awareness: AwarenessConfig::default(),
            team: 2,
            detect: argus_core::AgentDef::default().detect,
        }
    }

    #[test]
    fn a_sensor_without_children_is_deaf_and_its_brain_idle() {
        let def = agent_def(&settings(), None, None, Vec3::ONE, Some(Vec3::X));
        assert!(!def.hearing.enabled);
        assert!(!def.brain.enabled);
        assert_eq!((def.position, def.forward, def.team, def.sight.view_radius), (Vec3::ONE, Vec3::X, 2, 7.0));
    }

    #[test]
    fn children_settings_reach_the_def() {
        let hearing = HearingConfig { sensitivity: 2.5, ..Default::default() };
        let brain = BrainConfig { search_duration: 9.0, ..Default::default() };
        let def = agent_def(&settings(), Some(hearing), Some(brain), Vec3::ZERO, None);
        assert!(def.hearing.enabled && def.brain.enabled);
        assert_eq!((def.hearing.sensitivity, def.brain.search_duration), (2.5, 9.0));
        assert_eq!(def.forward, Vec3::Z, "a degenerate node basis falls back to a valid forward");
        argus_core::World::default().create_agent(&def).expect("the mapped def is valid");
    }
}
