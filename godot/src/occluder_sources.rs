//! Which nodes become occluders: the nodes of the occluder group and the static bodies on the
//! world's occluder collision mask, their collision shapes, and the other static collision
//! sources a level is built from (CSG shapes, `CollisionPolygon3D`, `TileMapLayer`), plus the
//! static bodies that block physics rays but are neither grouped nor on the mask (so the world
//! can say that sight passes through them). Plain code shared by the 2D and 3D world nodes.

use std::collections::HashSet;

use godot::classes::SceneTree;
use godot::prelude::*;

/// What one dimension counts as what.
pub struct Kinds {
    /// A collision shape node the world node turns into an occluder itself.
    pub is_shape: fn(&Gd<Node>) -> bool,
    /// Another static collision source (`extra_occluders` of the world file).
    pub is_extra: fn(&Gd<Node>) -> bool,
    /// The collision layer of a static body of this dimension (`None` for anything else).
    pub static_layer: fn(&Gd<Node>) -> Option<u32>,
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
            && node.get_children().iter_shared().any(|c| (kinds.is_shape)(&c))
        {
            found.ignored.push(node);
        }
    }
    found
}
