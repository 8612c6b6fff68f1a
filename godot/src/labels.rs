//! The engine's names in the core (#46): every vision sensor, target and wall labels its core
//! thing with its node's name (`Node.name`), so that recordings and the inspector say "G1" and
//! "Player" where they would say `#3` (`World::set_label`; docs/recording.md, "Names").
//!
//! When: a sensor or target when it registers, and again at `NOTIFICATION_PATH_RENAMED` (the
//! node or an ancestor renamed; the label changes only when the node's own name did). A wall when
//! its occluder is made; a rename of a collision shape, collision object or other source
//! (`SceneTree.node_renamed`, watched by the world node) relabels the walls before the next step
//! or query. A wall made from a collision shape is named after its body ("NorthWall"), or
//! "Body/Shape" when the body holds several shapes; a CSG shape, polygon or tile layer after
//! itself. A name longer than a label (255 bytes of UTF-8) is cut at a character boundary.

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use argus_core::world::{Labelled, MAX_LABEL_BYTES};
use argus_core::{OccluderId, Replay};
use godot::classes::FileAccess;
use godot::global::Error;
use godot::prelude::*;

use crate::dim::Dim;
use crate::hub::Hub;
use crate::world::{WorldDim, WorldShell, node};

/// `name` as a label: cut at a NUL, and to at most `MAX_LABEL_BYTES` bytes at a character boundary.
pub fn fit(name: &str) -> &str {
    let name = name.split('\0').next().unwrap_or("");
    if name.len() <= MAX_LABEL_BYTES {
        return name;
    }
    let mut end = MAX_LABEL_BYTES;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// A node's name, as a label.
pub fn of(node: &Gd<Node>) -> String {
    fit(&node.get_name().to_string()).to_owned()
}

impl Hub {
    /// Labels `thing` with `label` unless it has it already (a label set again would be recorded
    /// again). A refusal (a thing gone) changes nothing and is not reported: a name decides nothing.
    pub fn label_thing(&mut self, thing: Labelled, label: &str) {
        let world = self.world();
        if world.label(thing).unwrap_or("") != label {
            let _ = world.set_label(thing, label);
        }
    }
}

// ----- walls --------------------------------------------------------------------------------

/// What a world node keeps to name its walls: the node each occluder is named after, and the
/// `SceneTree.node_renamed` watcher that says when one may have been renamed.
#[derive(Default)]
pub struct WallNames {
    /// Occluder → the node it is named after (a collision shape, or another source).
    nodes: HashMap<OccluderId, Gd<Node>>,
    /// Set by the watcher: a wall's node (or its body) was renamed.
    renamed: Rc<Cell<bool>>,
    watcher: Option<Callable>,
}

/// A wall's label: a collision shape's body's name ("Body/Shape" when the body holds more than
/// one collision shape), else the source's own name.
fn wall_label<D: WorldDim>(source: &Gd<Node>) -> String {
    let body = source.get_parent().filter(|p| {
        (D::KINDS.is_shape)(source) && (p.is_class("CollisionObject3D") || p.is_class("CollisionObject2D"))
    });
    let Some(body) = body else { return of(source) };
    let shapes = body.get_children().iter_shared().filter(|c| (D::KINDS.is_shape)(c)).count();
    if shapes > 1 { fit(&format!("{}/{}", body.get_name(), source.get_name())).to_owned() } else { of(&body) }
}

/// A wall was made from `source`: named now, and again when a node is renamed.
pub fn wall_made<S: WorldShell>(this: &mut S, id: OccluderId, source: &Gd<Node>) {
    let label = wall_label::<S::D>(source);
    let core = this.core();
    core.hub.label_thing(Labelled::Occluder(id), &label);
    core.names.nodes.insert(id, source.clone());
}

/// Every wall is about to be registered again (`register_occluders`).
pub fn walls_cleared<S: WorldShell>(this: &mut S) {
    this.core().names.nodes.clear();
}

/// A wall's occluder was removed (a moving shape made again, or dropped).
pub fn wall_removed<S: WorldShell>(this: &mut S, id: OccluderId) {
    this.core().names.nodes.remove(&id);
}

/// Before a step or query: after a rename of a wall's node, every wall takes its node's name.
pub fn walls_renamed<S: WorldShell>(this: &mut S) {
    if !this.core_ref().names.renamed.replace(false) {
        return;
    }
    let core = this.core();
    let walls: Vec<(OccluderId, Gd<Node>)> = core.names.nodes.iter().map(|(id, n)| (*id, n.clone())).collect();
    for (id, source) in walls {
        if source.is_instance_valid() {
            let label = wall_label::<S::D>(&source);
            core.hub.label_thing(Labelled::Occluder(id), &label);
        }
    }
}

/// Watches `SceneTree.node_renamed` for renamed collision shapes, collision objects and other
/// wall sources (`_ready`, and `_enter_tree` when the world comes back).
pub fn watch_renames<S: WorldShell>(this: &mut S) {
    if this.core_ref().names.watcher.is_some() {
        return;
    }
    let flag = this.core_ref().names.renamed.clone();
    let kinds = <S::D as WorldDim>::KINDS;
    let (is_shape, is_extra) = (kinds.is_shape, kinds.is_extra);
    let watcher = Callable::from_fn("argus_wall_renamed", move |args| {
        let node = args.first().and_then(|a| a.try_to::<Gd<Node>>().ok());
        if node.is_some_and(|n| {
            is_shape(&n) || is_extra(&n) || n.is_class("CollisionObject3D") || n.is_class("CollisionObject2D")
        }) {
            flag.set(true);
        }
    });
    node(this).get_tree().connect("node_renamed", &watcher);
    this.core().names.watcher = Some(watcher);
}

/// `_exit_tree`: stops watching (see `watch_renames`); a rename while out is caught on return.
pub fn unwatch_renames<S: WorldShell>(this: &mut S) {
    if let Some(watcher) = this.core().names.watcher.take() {
        let mut tree = node(this).get_tree();
        if tree.is_connected("node_renamed", &watcher) {
            tree.disconnect("node_renamed", &watcher);
        }
    }
    this.core_ref().names.renamed.set(true);
}

// ----- a recording's labels ---------------------------------------------------------------------

/// `recording_labels(path, steps)`: the labels of the world rebuilt from the recording in `path`
/// after its first `steps` steps (-1: all of them), as `{"agents": PackedStringArray, "targets":
/// ..., "occluders": ...}`, each in id order, unnamed things left out; an empty dictionary (and an
/// error naming the path and what is wrong) for a file that cannot be read or replayed.
pub fn recording_labels<D: Dim>(path: &GString, steps: i64) -> VarDictionary {
    let who = format!("{}.recording_labels", D::WORLD_CLASS);
    let mut out = VarDictionary::new();
    if !FileAccess::file_exists(path) {
        godot_error!("{who}: {path} does not exist");
        return out;
    }
    let bytes = FileAccess::get_file_as_bytes(path);
    let e = FileAccess::get_open_error();
    if e != Error::OK {
        godot_error!("{who}: cannot read {path} ({e:?})");
        return out;
    }
    let replayed = Replay::new(bytes.as_slice()).and_then(|mut r| {
        if steps < 0 {
            r.run_to_end()?; // the names set after the last step included
            return Ok(r);
        }
        if steps > i64::from(r.step_count()) {
            return Err(argus_core::Error::InvalidArgument(format!(
                "steps is {steps} but the recording holds {} steps (-1: all of them)",
                r.step_count()
            )));
        }
        while i64::from(r.steps_done()) < steps {
            r.next_step()?;
        }
        Ok(r)
    });
    let replay = match replayed {
        Ok(r) => r,
        Err(e) => {
            godot_error!("{who}: {path}: {e}");
            return out;
        }
    };
    let (mut agents, mut targets, mut occluders) =
        (PackedStringArray::new(), PackedStringArray::new(), PackedStringArray::new());
    for (thing, label) in replay.world().labels() {
        match thing {
            Labelled::Agent(_) => agents.push(label),
            Labelled::Target(_) => targets.push(label),
            Labelled::Occluder(_) => occluders.push(label),
        }
    }
    out.set("agents", &agents.to_variant());
    out.set("targets", &targets.to_variant());
    out.set("occluders", &occluders.to_variant());
    out
}

#[cfg(test)]
mod tests {
    use super::fit;

    #[test]
    fn a_name_longer_than_a_label_is_cut_at_a_character_boundary() {
        assert_eq!(fit("G1"), "G1");
        assert_eq!(fit("G1\0hidden"), "G1");
        let euros = "€".repeat(100); // 300 bytes
        assert_eq!(fit(&euros), "€".repeat(85), "85 × 3 = 255 bytes");
        let bricks = format!("a{}", "🧱".repeat(64)); // 257 bytes
        assert_eq!(fit(&bricks), format!("a{}", "🧱".repeat(63)), "253 bytes: never half a character");
        assert_eq!(fit(&"x".repeat(255)).len(), 255);
    }
}
