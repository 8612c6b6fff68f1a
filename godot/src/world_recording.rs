//! Recording a world node (`docs/recording.md`), written once over `WorldDim`: start with the
//! vision sensors in focus — in memory, streamed to a file as it is made (memory bounded), or as
//! the flight recorder that keeps the last seconds — stop to a file (`FileAccess`: `user://`,
//! `res://` or a plain path) or to bytes, save the flight recorder's window on demand (a call, or
//! an input action), verify a file by replaying it, record without script (`record_on_ready`,
//! `flight_recorder`), and say so when a world is freed while it records.
//!
//! The core records everything itself, the engine's ray answers of a `use_physics_rays` world
//! included; 2D worlds record in pixels, as the core sees them. A streamed recording is written by
//! the core's recording thread with `std::fs` (Godot's `FileAccess` stays on the main thread), at
//! the path `ProjectSettings.globalize_path` gives.

use std::io::{self, Write};

use argus_core::{AgentId, RecordOptions, RecordTo, Replay};
use godot::builtin::AnyArray;
use godot::classes::file_access::ModeFlags;
use godot::classes::{DirAccess, FileAccess, InputEvent, InputMap, ProjectSettings, Time};
use godot::global::Error;
use godot::prelude::*;

use crate::dim::Dim;
use crate::sensors::vision::VisionShell;
use crate::sensors::{in_editor, node_label};
use crate::world::{WorldCore, WorldDim, WorldShell, node, start};

/// The recording properties of a world node, as plain values.
pub struct RecordingProps {
    /// `record_on_ready`: stream every agent to `recording_path` from the end of `_ready`.
    pub record_on_ready: bool,
    /// `recording_path`.
    pub recording_path: GString,
    /// `flight_recorder`: keep the last `flight_recorder_seconds` from the end of `_ready`.
    pub flight_recorder: bool,
    /// `flight_recorder_seconds`.
    pub flight_recorder_seconds: f32,
    /// `save_flight_recording_action`: the input action that saves the window (empty: none).
    pub save_action: StringName,
    /// `flight_recording_path`: where a save without a path goes (`{time}` replaced).
    pub flight_recording_path: GString,
}

/// Where the recording under way goes (`None` in `Recording::to`: not recording, or started
/// by none of this module's calls).
pub enum Mode {
    Memory,
    /// Streamed to `path` (as given) at `os_path` (globalized).
    File {
        path: GString,
        os_path: String,
    },
    Flight,
}

/// A world node's recording state besides the core's.
#[derive(Default)]
pub struct Recording {
    pub to: Option<Mode>,
}

/// How errors name a call on this world: `PerceptionWorld3D.start_recording (/root/World)`.
fn who<S: WorldShell>(this: &S, method: &str) -> String {
    format!("{}.{method} ({})", <S::D as Dim>::WORLD_CLASS, node_label(&node(this)))
}

fn recording<S: WorldShell>(this: &S) -> bool {
    this.core_ref().hub.world_ref().is_some_and(|w| w.is_recording())
}

fn flying<S: WorldShell>(this: &S) -> bool {
    matches!(this.core_ref().recording.to, Some(Mode::Flight)) && recording(this)
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

/// What a start needs to know about where the bytes go (the file is created only once every
/// other check passed).
enum Start<'a> {
    Memory,
    File(&'a GString),
    Flight(f32),
}

/// Starts a recording of the agents in `focus` (empty: every agent), starting the world if it
/// has not started. False, changing nothing (and creating no file), on error.
fn begin<S: WorldShell>(this: &mut S, focus: &AnyArray, to: Start, who: &str) -> bool {
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
    if let Start::Flight(seconds) = to
        && !(seconds > 0.0 && seconds <= argus_core::MAX_FLIGHT_SECONDS)
    {
        godot_error!(
            "{who}: flight_recorder_seconds {seconds} is not in (0, {}]; not recording",
            argus_core::MAX_FLIGHT_SECONDS
        );
        return false;
    }
    start(this);
    let options = RecordOptions { focus: agents, ..Default::default() };
    let (core_to, mode) = match to {
        Start::Memory => (RecordTo::Memory, Mode::Memory),
        Start::Flight(seconds) => (RecordTo::Flight { seconds }, Mode::Flight),
        Start::File(path) => {
            if path.is_empty() {
                godot_error!("{who}: the recording's path is empty; not recording");
                return false;
            }
            let os_path = ProjectSettings::singleton().globalize_path(path).to_string();
            match std::fs::File::create(&os_path) {
                Ok(file) => {
                    let out = io::BufWriter::with_capacity(1 << 20, file);
                    (RecordTo::Stream(Box::new(out)), Mode::File { path: path.clone(), os_path })
                }
                Err(e) => {
                    godot_error!("{who}: cannot create {path} ({e}); not recording");
                    return false;
                }
            }
        }
    };
    let file = match &mode {
        Mode::File { os_path, .. } => Some(os_path.clone()),
        _ => None,
    };
    match this.core().hub.world().start_recording_to(&options, core_to) {
        Ok(()) => {
            this.core().recording.to = Some(mode);
            true
        }
        Err(e) => {
            godot_error!("{who}: {e}");
            if let Some(file) = file {
                let _ = std::fs::remove_file(file);
            }
            false
        }
    }
}

/// `start_recording(focus)`: in memory, until `stop_recording`.
pub fn start_recording<S: WorldShell>(this: &mut S, focus: &AnyArray) -> bool {
    let who = who(this, "start_recording");
    begin(this, focus, Start::Memory, &who)
}

/// `start_recording_to_file(path, focus)`: streamed to `path` as it is made.
pub fn start_recording_to_file<S: WorldShell>(this: &mut S, path: &GString, focus: &AnyArray) -> bool {
    let who = who(this, "start_recording_to_file");
    begin(this, focus, Start::File(path), &who)
}

/// `start_flight_recorder(focus)`: the last `flight_recorder_seconds`.
pub fn start_flight_recorder<S: WorldShell>(this: &mut S, focus: &AnyArray) -> bool {
    let who = who(this, "start_flight_recorder");
    let seconds = this.recording_props().flight_recorder_seconds;
    begin(this, focus, Start::Flight(seconds), &who)
}

/// True while the world records.
pub fn is_recording<S: WorldShell>(this: &S) -> bool {
    recording(this)
}

/// True while the world's flight recorder runs.
pub fn is_flight_recording<S: WorldShell>(this: &S) -> bool {
    flying(this)
}

/// Ends the recording (the core's `stop_recording`: a recording in memory's bytes; empty for a
/// stream, whose file is then whole, or a flight recorder, whose window is dropped). The mode is
/// forgotten whatever happens: a stream that failed has ended all the same.
fn end<S: WorldShell>(this: &mut S, who: &str) -> Option<Vec<u8>> {
    this.core().recording.to = None;
    match this.core().hub.world().stop_recording() {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            godot_error!("{who}: {e}");
            None
        }
    }
}

/// `stop_recording_bytes()`: the recording as bytes (empty, with an error, when not recording);
/// the flight recorder's window, then it stops; a recording streamed to a file is refused (it
/// goes on): `stop_recording("")` ends it in its file.
pub fn stop_recording_bytes<S: WorldShell>(this: &mut S) -> PackedByteArray {
    let who = who(this, "stop_recording_bytes");
    if !recording(this) {
        godot_error!("{who}: this world is not recording");
        return PackedByteArray::new();
    }
    match &this.core_ref().recording.to {
        Some(Mode::File { path, .. }) => {
            godot_error!(
                "{who}: this world records straight to {path}: call stop_recording(\"\") to end it there (it goes on)"
            );
            PackedByteArray::new()
        }
        Some(Mode::Flight) => {
            let mut bytes = Vec::new();
            if let Err(e) = this.core().hub.world().save_flight_recording(&mut bytes) {
                godot_error!("{who}: {e}; the flight recorder goes on");
                return PackedByteArray::new();
            }
            end(this, &who);
            PackedByteArray::from(bytes.as_slice())
        }
        _ => end(this, &who).map(|b| PackedByteArray::from(b.as_slice())).unwrap_or_default(),
    }
}

/// `stop_recording(path)`: ends the recording; see the node method's documentation.
pub fn stop_recording<S: WorldShell>(this: &mut S, path: &GString) -> Error {
    stop_to_file(this, path, "stop_recording")
}

fn stop_to_file<S: WorldShell>(this: &mut S, path: &GString, method: &str) -> Error {
    let who = who(this, method);
    if !recording(this) {
        godot_error!("{who}: this world is not recording (nothing written to {path})");
        return Error::ERR_UNCONFIGURED;
    }
    if let Some(Mode::File { path: own, os_path }) = &this.core_ref().recording.to {
        let (own, os_path) = (own.clone(), os_path.clone());
        if !path.is_empty() && ProjectSettings::singleton().globalize_path(path).to_string() != os_path {
            godot_error!(
                "{who}: this world records straight to {own}, not to {path}: call stop_recording(\"\") (or with \
                 that path) to end it there; it goes on"
            );
            return Error::ERR_INVALID_PARAMETER;
        }
        if end(this, &who).is_none() {
            return Error::ERR_FILE_CANT_WRITE;
        }
        godot_print!("{}: recording written to {own}", node_label(&node(this)));
        return Error::OK;
    }
    if flying(this) {
        let path = if path.is_empty() { this.recording_props().flight_recording_path } else { path.clone() };
        let e = save_window(this, &timed_path(&path), &who);
        if e == Error::OK {
            end(this, &who);
        }
        return e;
    }
    let path = if path.is_empty() { this.recording_props().recording_path } else { path.clone() };
    let Some(mut file) = FileAccess::open(&path, ModeFlags::WRITE) else {
        let e = FileAccess::get_open_error();
        godot_error!("{who}: cannot open {path} for writing ({e:?}); the world is still recording");
        return if e == Error::OK { Error::ERR_CANT_OPEN } else { e };
    };
    let Some(bytes) = end(this, &who) else {
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

/// A Godot file as a Rust writer (on the main thread), in pieces of at most a megabyte.
struct GodotFile(Gd<FileAccess>);

impl Write for GodotFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let n = bytes.len().min(1 << 20);
        self.0.store_buffer(&PackedByteArray::from(&bytes[..n]));
        match self.0.get_error() {
            Error::OK => Ok(n),
            e => Err(io::Error::other(format!("{e:?}"))),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush();
        match self.0.get_error() {
            Error::OK => Ok(()),
            e => Err(io::Error::other(format!("{e:?}"))),
        }
    }
}

/// `path` with `{time}` replaced by the local date and time (`20261204-153012`), and `-2`, `-3`,
/// ... after it when that file exists.
fn timed_path(path: &GString) -> GString {
    let text = path.to_string();
    if !text.contains("{time}") {
        return path.clone();
    }
    let stamp: String = Time::singleton()
        .get_datetime_string_from_system()
        .to_string()
        .chars()
        .filter_map(|c| match c {
            'T' => Some('-'),
            '-' | ':' => None,
            c => Some(c),
        })
        .collect();
    let mut candidate = GString::from(&text.replace("{time}", &stamp));
    let mut n = 2;
    while FileAccess::file_exists(&candidate) {
        candidate = GString::from(&text.replace("{time}", &format!("{stamp}-{n}")));
        n += 1;
    }
    candidate
}

/// Writes the flight recorder's window to `path` (already resolved); a file partly written is
/// removed. The flight recorder goes on.
fn save_window<S: WorldShell>(this: &mut S, path: &GString, who: &str) -> Error {
    let Some(file) = FileAccess::open(path, ModeFlags::WRITE) else {
        let e = FileAccess::get_open_error();
        godot_error!("{who}: cannot open {path} for writing ({e:?}); the flight recorder goes on");
        return if e == Error::OK { Error::ERR_CANT_OPEN } else { e };
    };
    let mut out = GodotFile(file);
    let written = this.core().hub.world().save_flight_recording(&mut out);
    out.0.close();
    match written {
        Ok(size) => {
            godot_print!("{}: flight recording saved to {path} ({size} bytes)", node_label(&node(this)));
            Error::OK
        }
        Err(e) => {
            let _ = DirAccess::remove_absolute(path);
            godot_error!("{who}: {e}; nothing saved to {path}, the flight recorder goes on");
            Error::ERR_FILE_CANT_WRITE
        }
    }
}

/// `save_flight_recording(path)`: the flight recorder's window to `path` ("" =
/// `flight_recording_path`), `{time}` replaced.
pub fn save_flight_recording<S: WorldShell>(this: &mut S, path: &GString) -> Error {
    save_flight(this, path, "save_flight_recording")
}

fn save_flight<S: WorldShell>(this: &mut S, path: &GString, method: &str) -> Error {
    let who = who(this, method);
    if !flying(this) {
        godot_error!(
            "{who}: this world is not running its flight recorder (set flight_recorder, or call \
             start_flight_recorder); nothing written"
        );
        return Error::ERR_UNCONFIGURED;
    }
    let path = if path.is_empty() { this.recording_props().flight_recording_path } else { path.clone() };
    if path.is_empty() {
        godot_error!("{who}: no path (flight_recording_path is empty); nothing written");
        return Error::ERR_INVALID_PARAMETER;
    }
    let path = timed_path(&path);
    save_window(this, &path, &who)
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

/// The end of `_ready`: `record_on_ready` streams every agent to `recording_path`; otherwise
/// `flight_recorder` starts the flight recorder of every agent.
pub fn ready<S: WorldShell>(this: &mut S) {
    if recording(this) {
        return;
    }
    let props = this.recording_props();
    let everyone = VarArray::new().upcast_any_array();
    if props.record_on_ready {
        let who = who(this, "record_on_ready");
        if props.flight_recorder {
            godot_warn!("{who}: flight_recorder is ignored while record_on_ready records everything to recording_path");
        }
        begin(this, &everyone, Start::File(&props.recording_path), &who);
    } else if props.flight_recorder {
        let who = who(this, "flight_recorder");
        if begin(this, &everyone, Start::Flight(props.flight_recorder_seconds), &who)
            && !props.save_action.is_empty()
            && !InputMap::singleton().has_action(&props.save_action)
        {
            godot_warn!(
                "{who}: save_flight_recording_action \"{}\" is not an action of the Input Map (Project Settings > \
                 Input Map); only save_flight_recording() saves",
                props.save_action
            );
        }
    }
}

/// `_unhandled_input`: `save_flight_recording_action` pressed saves the flight recorder's window
/// to `flight_recording_path` (and marks the event handled).
pub fn unhandled_input<S: WorldShell>(this: &mut S, event: &Gd<InputEvent>) {
    if !matches!(this.core_ref().recording.to, Some(Mode::Flight)) || in_editor() {
        return;
    }
    let action = this.recording_props().save_action;
    if action.is_empty() || !InputMap::singleton().has_action(&action) || !event.is_action_pressed(&action) {
        return;
    }
    if let Some(mut viewport) = node(this).get_viewport() {
        viewport.set_input_as_handled();
    }
    save_flight(this, &GString::new(), "save_flight_recording_action");
}

/// `_exit_tree`: with `record_on_ready`, the recording is made whole in `recording_path` (a
/// streamed one in its file; one a script started in memory written there). Without it, a
/// recording started by script goes on (the node may come back); see `Drop` below. The flight
/// recorder goes on too.
pub fn exit_tree<S: WorldShell>(this: &mut S) {
    if this.recording_props().record_on_ready && recording(this) && !flying(this) {
        let path = this.recording_props().recording_path;
        if !matches!(this.core_ref().recording.to, Some(Mode::File { .. })) {
            if stop_to_file(this, &path, "exit_tree") == Error::OK {
                godot_print!("{}: recording written to {path}", node_label(&node(this)));
            }
        } else {
            stop_to_file(this, &GString::new(), "exit_tree");
        }
    }
}

/// A world freed while it records: a recording streamed to a file is made whole there (one
/// line says so); the flight recorder's window is dropped quietly (it is written only when
/// asked); a recording in memory is lost, and one warning says so.
impl<D: WorldDim> Drop for WorldCore<D> {
    fn drop(&mut self) {
        if !self.hub.world_ref().is_some_and(|w| w.is_recording()) {
            return;
        }
        match self.recording.to.take() {
            Some(Mode::Flight) => {}
            Some(Mode::File { path, .. }) => match self.hub.world().stop_recording() {
                Ok(_) => godot_print!(
                    "{} {}: freed while recording; recording written to {path}",
                    D::WORLD_CLASS,
                    self.hub.owner
                ),
                Err(e) => godot_error!("{} {}: freed while recording to {path}: {e}", D::WORLD_CLASS, self.hub.owner),
            },
            _ => godot_warn!(
                "{} {}: freed while recording; the recording is discarded (call stop_recording(path) before \
                 freeing the world, or set record_on_ready to write it to recording_path when it leaves the tree)",
                D::WORLD_CLASS,
                self.hub.owner
            ),
        }
    }
}
