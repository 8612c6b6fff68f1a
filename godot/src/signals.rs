//! Turning a step's events into Godot signals. Signal names are interned once, and a signal
//! nobody is connected to is neither built nor emitted where the engine can tell (Godot 4.4+):
//! each emit is an engine call into cache-cold objects (several µs inside a running frame), and
//! most guards' signals have no handler.

use godot::prelude::*;
use godot::sys;

use crate::engine_workarounds::{MethodBind, has_connections, live_object};

/// The signals a step emits.
#[derive(Clone, Copy)]
pub enum SignalKind {
    TargetSeen,
    TargetLost,
    TargetForgotten,
    AwarenessChanged,
    SoundHeard,
    StateChanged,
    SoundHeardEx,
}

/// A signal to emit once the world node's borrow is released.
pub struct Emission {
    /// The node that emits.
    pub node: Gd<Node>,
    pub signal: SignalKind,
    /// Arguments.
    pub args: Vec<Variant>,
}

/// What emitting needs, made once per world (the engine must be running).
pub struct Signals {
    /// Every `SignalKind`'s name as a StringName: making one per emit costs a hash and a lookup in
    /// the engine's string table.
    names: [StringName; 7],
    /// `Object.has_connections` (new in Godot 4.4); `None` on older engines.
    has_connections: Option<MethodBind>,
}

impl Default for Signals {
    fn default() -> Self {
        let names = [
            "target_seen",
            "target_lost",
            "target_forgotten",
            "awareness_changed",
            "sound_heard",
            "state_changed",
            "sound_heard_ex",
        ]
        .map(StringName::from);
        Signals { names, has_connections: has_connections() }
    }
}

impl Signals {
    fn name(&self, kind: SignalKind) -> &StringName {
        &self.names[kind as usize]
    }

    /// False when `node` is gone, or when the engine says nothing is connected to its `kind`
    /// signal. Asked afresh every time: a handler connected at any moment is seen by the next call.
    pub fn listened(&self, node: &Gd<Node>, kind: SignalKind) -> bool {
        let Some(object) = live_object(node) else { return false };
        let Some(has_connections) = self.has_connections else { return true };
        let mut answer: sys::GDExtensionBool = 0;
        // SAFETY: `object` is live (looked up just above, no code ran since) and the bind is
        // `bool Object::has_connections(const StringName &) const`.
        unsafe { has_connections.call(object, &[self.name(kind).string_sys().cast()], &mut answer) };
        answer != 0
    }
}

/// One step's signals, queued in event order. Until the first signal somebody listens to, a
/// signal without listeners is dropped: no user code runs before that emit, so nobody can connect
/// in between. From then on every signal is queued (a handler may connect to a later one), and
/// `emit_all` asks again right before each emit.
pub struct Batch<'a> {
    signals: &'a Signals,
    out: &'a mut Vec<Emission>,
    listening: bool,
}

impl<'a> Batch<'a> {
    pub fn new(signals: &'a Signals, out: &'a mut Vec<Emission>) -> Self {
        Batch { signals, out, listening: false }
    }

    /// Queues `node`'s `signal` with the arguments `args` makes (`None`: not emitted).
    pub fn push(&mut self, node: &Gd<Node>, signal: SignalKind, args: impl FnOnce() -> Option<Vec<Variant>>) {
        if !self.listening && !self.signals.listened(node, signal) {
            return;
        }
        self.listening = true;
        if let Some(args) = args() {
            self.out.push(Emission { node: node.clone(), signal, args });
        }
    }
}

/// Emits queued signals (call with no Rust borrow of the world held); leaves `emissions` empty.
pub fn emit_all(emissions: &mut Vec<Emission>, signals: &Signals) {
    for Emission { mut node, signal, args } in emissions.drain(..) {
        if signals.listened(&node, signal) {
            node.emit_signal(signals.name(signal), &args);
        }
    }
}
