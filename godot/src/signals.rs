//! Turning a step's events into Godot signals. Signal names are interned once, and a signal
//! nobody is connected to is neither built nor emitted where the engine can tell (Godot 4.4+):
//! each emit is an engine call into cache-cold objects (several µs inside a running frame), and
//! most guards' signals have no handler.

use godot::classes::ClassDb;
use godot::prelude::*;
use godot::sys;

/// The signals a step emits.
#[derive(Clone, Copy)]
pub enum SignalKind {
    TargetSeen,
    TargetLost,
    TargetForgotten,
    AwarenessChanged,
    SoundHeard,
    StateChanged,
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
    names: [StringName; 6],
    /// `Object.has_connections` (new in Godot 4.4); null on older engines.
    has_connections: sys::GDExtensionMethodBindPtr,
}

/// `Object.has_connections`'s hash in the 4.4–4.7 extension APIs.
const HAS_CONNECTIONS_HASH: i64 = 2619796661;

impl Default for Signals {
    fn default() -> Self {
        let names =
            ["target_seen", "target_lost", "target_forgotten", "awareness_changed", "sound_heard", "state_changed"]
                .map(StringName::from);
        // The add-on is built against the 4.3 API, which lacks the method, so it is looked up at
        // run time; asking ClassDB first keeps 4.3 from printing an error for the lookup.
        let (object, method) = (StringName::from("Object"), StringName::from("has_connections"));
        let has_connections = if ClassDb::singleton().class_has_method(&object, &method) {
            // SAFETY: both StringNames outlive the call; a null result means "not available".
            unsafe {
                sys::interface_fn!(classdb_get_method_bind)(
                    object.string_sys(),
                    method.string_sys(),
                    HAS_CONNECTIONS_HASH,
                )
            }
        } else {
            std::ptr::null_mut()
        };
        Signals { names, has_connections }
    }
}

impl Signals {
    fn name(&self, kind: SignalKind) -> &StringName {
        &self.names[kind as usize]
    }

    /// False when `node` is gone, or when the engine says nothing is connected to its `kind`
    /// signal. Asked afresh every time: a handler connected at any moment is seen by the next call.
    pub fn listened(&self, node: &Gd<Node>, kind: SignalKind) -> bool {
        // The object pointer through the instance id: null once the node is freed (the lookup is
        // the liveness check, so the id is taken unchecked).
        let id = node.instance_id_unchecked().to_i64() as u64;
        // SAFETY: a plain lookup in the engine's object table.
        let object = unsafe { sys::interface_fn!(object_get_instance_from_id)(id) };
        if object.is_null() {
            return false;
        }
        if self.has_connections.is_null() {
            return true;
        }
        let name = self.name(kind).string_sys();
        let args = [name as sys::GDExtensionConstTypePtr];
        let mut answer: sys::GDExtensionBool = 0;
        // SAFETY: `object` is live (looked up just above, no code ran since), the bind is
        // `bool Object::has_connections(const StringName &) const`, `args` holds one StringName
        // pointer and `answer` receives the bool.
        unsafe {
            sys::interface_fn!(object_method_bind_ptrcall)(
                self.has_connections,
                object,
                args.as_ptr(),
                (&raw mut answer).cast(),
            );
        }
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
