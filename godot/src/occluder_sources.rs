//! Which nodes become occluders: the nodes of the occluder group and the static bodies on the
//! world's occluder collision mask, their collision shapes, and the other static collision
//! sources a level is built from (CSG shapes, `CollisionPolygon3D`, `TileMapLayer`; those with
//! collision layers of their own are found through the mask too, as Godot's rays hit them), plus
//! the static sources that block physics rays but are neither grouped nor on the mask (so the
//! world can say that sight passes through them; floors and sources marked not to be walls are
//! left out of that warning). Plain code shared by the 2D and 3D world nodes.

use std::collections::HashSet;

use godot::classes::SceneTree;
use godot::prelude::*;

/// What one dimension counts as what.
pub struct Kinds {
    /// A collision shape node the world node turns into an occluder itself.
    pub is_shape: fn(&Gd<Node>) -> bool,
    /// Another static collision source (`extra_occluders` of the world file).
    pub is_extra: fn(&Gd<Node>) -> bool,
    /// The collision layers of a static collision source of this dimension that Godot's rays
    /// hit on those layers (a static body, a root CSG shape with collision, a tile layer with
    /// physics tiles); `None` for anything else.
    pub static_layer: fn(&Gd<Node>) -> Option<u32>,
    /// A source that is a floor (or ceiling), not a wall: not warned about when ignored.
    pub is_floor: fn(&Gd<Node>) -> bool,
}

/// The metadata a user sets to `false` on a static body (or other source) that is not a wall,
/// so that the world does not warn that sight passes through it.
pub const NOT_A_WALL_META: &str = "argus_occluder";

/// True when `node` is marked `argus_occluder = false`.
fn marked_not_a_wall(node: &Gd<Node>) -> bool {
    let key = StringName::from(NOT_A_WALL_META);
    node.has_meta(&key) && node.get_meta(&key).try_to::<bool>().is_ok_and(|b| !b)
}

/// What `gather` found.
#[derive(Default)]
pub struct Found {
    /// Collision shape nodes, each once.
    pub shapes: Vec<Gd<Node>>,
    /// Other sources, and grouped nodes that hold no source at all (to be warned about).
    pub others: Vec<Gd<Node>>,
    /// Static bodies with collision shapes that are neither grouped nor on the mask.
    pub ignored: Vec<Gd<Node>>,
}

/// Walks the group and (with a mask) the whole tree.
pub fn gather(tree: &Gd<SceneTree>, group: &StringName, mask: u32, kinds: &Kinds) -> Found {
    let mut found = Found::default();
    let mut seen = HashSet::new();
    let take = |node: Gd<Node>, found: &mut Found, seen: &mut HashSet<InstanceId>| {
        if !seen.insert(node.instance_id()) {
            return;
        }
        if (kinds.is_shape)(&node) {
            found.shapes.push(node);
            return;
        }
        if (kinds.is_extra)(&node) {
            found.others.push(node);
            return;
        }
        // A body counts its shape and source children.
        let mut any = false;
        for c in node.get_children().iter_shared() {
            if (kinds.is_shape)(&c) && seen.insert(c.instance_id()) {
                found.shapes.push(c);
                any = true;
            } else if (kinds.is_extra)(&c) && seen.insert(c.instance_id()) {
                found.others.push(c);
                any = true;
            }
        }
        if !any {
            found.others.push(node);
        }
    };
    if !group.is_empty() {
        for node in tree.get_nodes_in_group(group).iter_shared() {
            take(node, &mut found, &mut seen);
        }
    }
    let Some(root) = tree.get_root() else { return found };
    let mut stack: Vec<Gd<Node>> = vec![root.upcast()];
    while let Some(node) = stack.pop() {
        stack.extend(node.get_children().iter_shared());
        let Some(layer) = (kinds.static_layer)(&node) else { continue };
        if mask != 0 && layer & mask != 0 {
            take(node, &mut found, &mut seen);
        } else if !seen.contains(&node.instance_id())
            && layer != 0
            && ((kinds.is_extra)(&node) || node.get_children().iter_shared().any(|c| (kinds.is_shape)(&c)))
            && !marked_not_a_wall(&node)
            && !(kinds.is_floor)(&node)
        {
            found.ignored.push(node);
        }
    }
    found
}
