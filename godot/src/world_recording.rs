//! Recording a world node (`docs/recording.md`), written once over `WorldDim`: start with the
//! vision sensors in focus, stop to a file (`FileAccess`: `user://`, `res://` or a plain path) or
//! to bytes, verify a file by replaying it, record without script (`record_on_ready`), and say so
//! when a world is freed while it records.
//!
//! The core records everything itself, the engine's ray answers of a `use_physics_rays` world
//! included; 2D worlds record in pixels, as the core sees them.

use argus_core::{AgentId, RecordOptions, Replay};
use godot::builtin::AnyArray;
use godot::classes::FileAccess;
use godot::classes::file_access::ModeFlags;
use godot::global::Error;
use godot::prelude::*;

use crate::dim::Dim;
use crate::sensors::node_label;
use crate::sensors::vision::VisionShell;
use crate::world::{WorldCore, WorldDim, WorldShell, node, start};

/// How errors name a call on this world: `PerceptionWorld3D.start_recording (/root/World)`.
fn who<S: WorldShell>(this: &S, method: &str) -> String {
    format!("{}.{method} ({})", <S::D as Dim>::WORLD_CLASS, node_label(&node(this)))
}

fn recording<S: WorldShell>(this: &S) -> bool {
    this.core_ref().hub.world_ref().is_some_and(|w| w.is_recording())
}

/// The agent of one focus entry: a vision sensor registered in this world.
fn focus_agent<S: WorldShell>(this: &S, entry: &Variant) -> Result<AgentId, String> {
    let vision_class = <S::D as Dim>::VISION_CLASS;
    let Ok(node) = entry.try_to::<Gd<Node>>() else {
        return Err(format!("a focus entry is not a node ({entry}); focus takes {vision_class} nodes"));
    };
    let label = node_label(&node);
    let Ok(vision) = node.clone().try_cast::<<S::D as Dim>::Vision>() else {
        return Err(format!("the focus node {label} is not a {vision_class}"));
    };
    let id = vision.bind().agent_id();
    match this.core_ref().hub.agents.get(&id) {
        Some(slot) if !id.is_null() && slot.node == node => Ok(id),
        _ => Err(format!("the focus node {label} is not a sensor registered in this world")),
    }
}

/// `start_recording(focus)`: the vision sensors in `focus` (empty: every agent) get their memory
/// and "why" recorded. Starts the world if it has not started. False, changing nothing, on error.
pub fn start_recording<S: WorldShell>(this: &mut S, focus: &AnyArray) -> bool {
    let who = who(this, "start_recording");
    if recording(this) {
        godot_error!("{who}: this world is already recording (stop_recording first)");
        return false;
    }
    let mut agents = Vec::with_capacity(focus.len());
    for entry in focus.iter_shared() {
        match focus_agent(this, &entry) {
            Ok(id) => agents.push(id),
            Err(e) => {
                godot_error!("{who}: {e}; not recording");
                return false;
            }
        }
    }
    start(this);
    let options = RecordOptions { focus: agents, ..Default::default() };
    match this.core().hub.world().start_recording(&options) {
        Ok(()) => true,
        Err(e) => {
            godot_error!("{who}: {e}");
            false
        }
    }
}

/// True while the world records.
pub fn is_recording<S: WorldShell>(this: &S) -> bool {
    recording(this)
}

/// Ends the recording and returns its bytes; `None` (with an error naming `method`) when the
/// world is not recording.
fn take_recording<S: WorldShell>(this: &mut S, who: &str) -> Option<Vec<u8>> {
    if !recording(this) {
        godot_error!("{who}: this world is not recording");
        return None;
    }
    match this.core().hub.world().stop_recording() {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            godot_error!("{who}: {e}");
            None
        }
    }
}

/// `stop_recording_bytes()`: the recording as bytes (empty, with an error, when not recording).
pub fn stop_recording_bytes<S: WorldShell>(this: &mut S) -> PackedByteArray {
    let who = who(this, "stop_recording_bytes");
    take_recording(this, &who).map(|b| PackedByteArray::from(b.as_slice())).unwrap_or_default()
}

/// `stop_recording(path)`: ends the recording and writes it to `path`. The file is opened before
/// the recording stops: a path that cannot be opened changes nothing (the world keeps
/// recording, so the caller can try another path or `stop_recording_bytes()`). A write that
/// fails once the file is open leaves the recording stopped and the file incomplete.
pub fn stop_recording<S: WorldShell>(this: &mut S, path: &GString) -> Error {
    stop_to_file(this, path, "stop_recording")
}

fn stop_to_file<S: WorldShell>(this: &mut S, path: &GString, method: &str) -> Error {
    let who = who(this, method);
    if !recording(this) {
        godot_error!("{who}: this world is not recording (nothing written to {path})");
        return Error::ERR_UNCONFIGURED;
    }
    let Some(mut file) = FileAccess::open(path, ModeFlags::WRITE) else {
        let e = FileAccess::get_open_error();
        godot_error!("{who}: cannot open {path} for writing ({e:?}); the world is still recording");
        return if e == Error::OK { Error::ERR_CANT_OPEN } else { e };
    };
    let Some(bytes) = take_recording(this, &who) else {
        file.close();
        return Error::FAILED;
    };
    file.store_buffer(&PackedByteArray::from(bytes.as_slice()));
    let e = file.get_error();
    file.close();
    if e != Error::OK {
        godot_error!("{who}: writing {path} failed ({e:?}); the recording is stopped and the file incomplete");
        return e;
    }
    Error::OK
}

/// `verify_recording(path)`: replays the recording in `path` and checks every step; the number
/// of steps replayed, or -1 (with an error naming the path and what is wrong).
pub fn verify_recording<D: Dim>(path: &GString) -> i64 {
    let who = format!("{}.verify_recording", D::WORLD_CLASS);
    if !FileAccess::file_exists(path) {
        godot_error!("{who}: {path} does not exist");
        return -1;
    }
    let bytes = FileAccess::get_file_as_bytes(path);
    let e = FileAccess::get_open_error();
    if e != Error::OK {
        godot_error!("{who}: cannot read {path} ({e:?})");
        return -1;
    }
    let replayed = Replay::new(bytes.as_slice()).and_then(|mut r| r.run_to_end().map(|()| r.step_count()));
    match replayed {
        Ok(steps) => steps as i64,
        Err(e) => {
            godot_error!("{who}: {path}: {e}");
            -1
        }
    }
}

/// The end of `_ready`: with `record_on_ready`, start recording every agent.
pub fn ready<S: WorldShell>(this: &mut S) {
    if this.record_on_ready() && !recording(this) {
        start_recording(this, &VarArray::new().upcast_any_array());
    }
}

/// `_exit_tree`: with `record_on_ready`, the recording is written to `recording_path`. Without
/// it, a recording started by script goes on (the node may come back); see `Drop` below.
pub fn exit_tree<S: WorldShell>(this: &mut S) {
    if this.record_on_ready() && recording(this) {
        let path = this.recording_path();
        if stop_to_file(this, &path, "exit_tree") == Error::OK {
            godot_print!("{}: recording written to {path}", node_label(&node(this)));
        }
    }
}

/// A world freed while it records loses the recording: say so (once: a node drops once).
impl<D: WorldDim> Drop for WorldCore<D> {
    fn drop(&mut self) {
        if self.hub.world_ref().is_some_and(|w| w.is_recording()) {
            godot_warn!(
                "{} {}: freed while recording; the recording is discarded (call stop_recording(path) before \
                 freeing the world, or set record_on_ready to write it to recording_path when it leaves the tree)",
                D::WORLD_CLASS,
                self.hub.owner
            );
        }
    }
}
