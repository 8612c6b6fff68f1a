//! How a registered node's pose is read: a Godot 3D node, or a 2D node on the core's ground
//! plane, and the colliders physics rays skip for it.

use argus_core::Vec3;
use godot::classes::{CollisionObject2D, CollisionObject3D, Node, Node2D, Node3D};
use godot::prelude::*;

use crate::convert::{core_to_plane, forward_3d, from_core, plane_to_core, to_core};
use crate::engine_workarounds::TransformReader;

/// A node's position and forward in core terms (forward `None` when degenerate).
pub type Pose = (Vec3, Option<Vec3>);

/// How a node's pose is read: Godot 3D, or Godot 2D on the core's ground plane.
#[derive(Clone)]
pub enum Body {
    /// Position = global origin, forward = −Z of the global basis.
    D3(Gd<Node3D>),
    /// Position (x, y) → (x, 0, y), forward = the global +X axis (Godot 2D's facing).
    D2(Gd<Node2D>),
}

impl Body {
    /// The node's pose in core terms; forward `None` when degenerate (a zero scale).
    pub fn pose(&self) -> Pose {
        match self {
            Body::D3(n) => pose_3d(&n.get_global_transform()),
            Body::D2(n) => pose_2d(&n.get_global_transform()),
        }
    }

    /// Switches the node's transform notification (a freed node is left alone).
    pub fn set_notify_transform(&self, on: bool) {
        match self {
            Body::D3(n) if n.is_instance_valid() => n.clone().set_notify_transform(on),
            Body::D2(n) if n.is_instance_valid() => n.clone().set_notify_transform(on),
            _ => {}
        }
    }

    /// True when the node has a script attached (a freed node has none, and is left alone).
    pub fn has_script(&self) -> bool {
        match self {
            Body::D3(n) => n.is_instance_valid() && n.get_script().is_some(),
            Body::D2(n) => n.is_instance_valid() && n.get_script().is_some(),
        }
    }

    /// `pose` through the reader's direct engine calls (the per-step path); `None` once the
    /// node is freed.
    pub fn read_pose(&self, reader: &TransformReader) -> Option<Pose> {
        match self {
            Body::D3(n) => reader.global_3d(n).map(|t| pose_3d(&t)),
            Body::D2(n) => reader.global_2d(n).map(|t| pose_2d(&t)),
        }
    }

    /// The collision objects a physics ray must ignore for this node: itself or its nearest
    /// collision-object ancestor (the guard's or the player's own body).
    pub fn own_colliders(&self) -> Array<Rid> {
        let mut out = Array::new();
        let mut node: Option<Gd<Node>> = Some(match self {
            Body::D3(n) => n.clone().upcast(),
            Body::D2(n) => n.clone().upcast(),
        });
        while let Some(n) = node {
            if let Ok(c) = n.clone().try_cast::<CollisionObject3D>() {
                out.push(c.get_rid());
                break;
            }
            if let Ok(c) = n.clone().try_cast::<CollisionObject2D>() {
                out.push(c.get_rid());
                break;
            }
            node = n.get_parent();
        }
        out
    }

    /// A core point as the Godot vector of this dimension.
    pub fn variant_of(d2: bool, p: Vec3) -> Variant {
        if d2 { core_to_plane(p).to_variant() } else { from_core(p).to_variant() }
    }
}

fn pose_3d(t: &Transform3D) -> Pose {
    let f = forward_3d(&t.basis);
    (to_core(t.origin), (f.length_squared() > 1e-12).then_some(f))
}

fn pose_2d(t: &Transform2D) -> Pose {
    let f = plane_to_core(t.a);
    (plane_to_core(t.origin), (f.length_squared() > 1e-12).then_some(f))
}
