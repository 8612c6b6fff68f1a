//! The few things that differ between the 3D and the top-down 2D nodes, as one trait: the
//! vector type and its mapping to the core's space, the base node, the sibling classes a node
//! looks for, group names and the distance defaults. The node logic is written once, generic
//! over `Dim`; the `#[godot_api]` classes are shells that forward to it.

use argus_core::Vec3;
use godot::classes::{Node2D, Node3D};
use godot::meta::{FromGodot, ToGodot};
use godot::obj::{Inherits, WithBaseField};
use godot::prelude::*;

use crate::body::Body;
use crate::convert::{core_to_plane, from_core, plane_to_core, to_core};

/// One dimension of the add-on (see the module's note). Implemented by [`D3`] and [`D2`].
pub trait Dim: Sized + 'static {
    /// `Vector3` or `Vector2` (positions in signals, check points, `remember`).
    type Vector: Copy + ToGodot + FromGodot;
    /// `Node3D` or `Node2D`: the base of the world, sensor and target nodes.
    type Node: GodotClass + Inherits<Node>;
    /// The world node class sensors and targets join.
    type World: WithBaseField + Inherits<Node> + crate::sensors::WorldNode;
    /// The vision sensor class (the parent of hearing sensors).
    type Vision: WithBaseField + Inherits<Node> + crate::sensors::vision::VisionShell<D = Self>;
    /// The hearing sensor class (a child of vision sensors).
    type Hearing: WithBaseField + Inherits<Node> + crate::sensors::hearing::HearingShell;

    /// Positions and signals as `Vector2` (for the world's shared hub).
    const D2: bool;
    /// Class names, as errors and warnings spell them.
    const WORLD_CLASS: &'static str;
    const VISION_CLASS: &'static str;
    const TARGET_CLASS: &'static str;
    /// The groups the world, sensor and target nodes join (how they find each other).
    const WORLD_GROUP: &'static str;
    const AGENTS_GROUP: &'static str;
    const TARGETS_GROUP: &'static str;
    /// The sensor's default eye height (0 in 2D: 2D walls reach 1 unit above the plane).
    const EYE_HEIGHT: f32;
    /// Where a target's single default check point sits above its node (chest height in 3D).
    const CHECK_HEIGHT: f32;
    /// The factor on the core's metre defaults (2D: 64 px per metre).
    const DISTANCE_SCALE: f32;

    fn to_core(v: Self::Vector) -> Vec3;
    fn from_core(v: Vec3) -> Self::Vector;
    /// How the world reads the pose of `node` (a node of class `Self::Node`).
    fn body(node: Gd<Node>) -> Body;
}

/// Godot 3D: metres, +Y up, forward −Z.
pub struct D3;

/// Top-down Godot 2D: (x, y) is the core's ground-plane point (x, 0, y); forward +X.
pub struct D2;

impl Dim for D3 {
    type Vector = Vector3;
    type Node = Node3D;
    type World = crate::PerceptionWorld3D;
    type Vision = crate::VisionSensor3D;
    type Hearing = crate::HearingSensor3D;
    const D2: bool = false;
    const WORLD_CLASS: &'static str = "PerceptionWorld3D";
    const VISION_CLASS: &'static str = "VisionSensor3D";
    const TARGET_CLASS: &'static str = "PerceptionTarget3D";
    const WORLD_GROUP: &'static str = "argus_perception_world_3d";
    const AGENTS_GROUP: &'static str = "argus_agents_3d";
    const TARGETS_GROUP: &'static str = "argus_targets_3d";
    const EYE_HEIGHT: f32 = 1.6;
    const CHECK_HEIGHT: f32 = 1.3;
    const DISTANCE_SCALE: f32 = 1.0;

    fn to_core(v: Vector3) -> Vec3 {
        to_core(v)
    }
    fn from_core(v: Vec3) -> Vector3 {
        from_core(v)
    }
    fn body(node: Gd<Node>) -> Body {
        Body::D3(node.cast())
    }
}

impl Dim for D2 {
    type Vector = Vector2;
    type Node = Node2D;
    type World = crate::PerceptionWorld2D;
    type Vision = crate::VisionSensor2D;
    type Hearing = crate::HearingSensor2D;
    const D2: bool = true;
    const WORLD_CLASS: &'static str = "PerceptionWorld2D";
    const VISION_CLASS: &'static str = "VisionSensor2D";
    const TARGET_CLASS: &'static str = "PerceptionTarget2D";
    const WORLD_GROUP: &'static str = "argus_perception_world_2d";
    const AGENTS_GROUP: &'static str = "argus_agents_2d";
    const TARGETS_GROUP: &'static str = "argus_targets_2d";
    const EYE_HEIGHT: f32 = 0.0;
    const CHECK_HEIGHT: f32 = 0.0;
    const DISTANCE_SCALE: f32 = 64.0;

    fn to_core(v: Vector2) -> Vec3 {
        plane_to_core(v)
    }
    fn from_core(v: Vec3) -> Vector2 {
        core_to_plane(v)
    }
    fn body(node: Gd<Node>) -> Body {
        Body::D2(node.cast())
    }
}
