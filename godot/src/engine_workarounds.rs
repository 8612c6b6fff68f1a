//! Every place where the add-on works around the engine (or gdext's generated API) rather than
//! using it as documented, in one module, each with why it exists. When Godot or gdext changes,
//! this is the file to check; everything else uses ordinary engine calls.
//!
//! 1. Raw method binds on per-frame hot paths (`MethodBind`, `TransformReader`), with the
//!    method hashes of the extension API: gdext's generated wrappers check every call (a global
//!    lock for the class name, the object-table lookup, the main thread): ~0.15 µs of a ~0.8 µs
//!    transform read inside a running frame. Here the object pointer comes from the object
//!    table by instance id, which is the liveness check.
//! 2. `Object.has_connections`, newer than the API the add-on is built against (4.3), looked up
//!    at run time by its hash (`has_connections`).
//! 3. The polling heuristic of `pose_sync = OnTransformChange` (`POLL_AFTER_MOVES`,
//!    `NOTIFY_AFTER_STILL`, `notified_in_a_row`): a transform notification costs about what a
//!    read does, and Godot 2D notifies a node moving every frame only at every other step.
//! 4. CSG shapes build their mesh deferred, and the way to get it changed across versions
//!    (`csg_faces`).
//! 5. `_ready` runs once per node (`request_ready_again`).

use godot::prelude::*;
use godot::sys;

/// One engine method, found by class, name and its hash in the extension API.
#[derive(Clone, Copy)]
pub struct MethodBind(sys::GDExtensionMethodBindPtr);

impl MethodBind {
    /// `class.method` with the API `hash`; `None` when the running engine lacks it (callers ask
    /// ClassDB first for methods newer than the API the add-on targets, so none is reported).
    pub fn find(class: &str, method: &str, hash: i64) -> Option<Self> {
        let (class, method) = (StringName::from(class), StringName::from(method));
        // SAFETY: both StringNames outlive the call; null means "not found".
        let bind =
            unsafe { sys::interface_fn!(classdb_get_method_bind)(class.string_sys(), method.string_sys(), hash) };
        (!bind.is_null()).then_some(MethodBind(bind))
    }

    /// Calls the method on `object` with `args` (pointers to the arguments in their engine
    /// layout), writing the result to `ret`.
    ///
    /// # Safety
    /// `object` is live and of the method's class; `args` and `R` match the method's signature.
    pub unsafe fn call<R>(self, object: sys::GDExtensionObjectPtr, args: &[sys::GDExtensionConstTypePtr], ret: &mut R) {
        // SAFETY: as the caller guarantees.
        unsafe { sys::interface_fn!(object_method_bind_ptrcall)(self.0, object, args.as_ptr(), (ret as *mut R).cast()) }
    }
}

/// The engine object behind `node` if it is still alive.
pub fn live_object<T: GodotClass>(node: &Gd<T>) -> Option<sys::GDExtensionObjectPtr> {
    let id = node.instance_id_unchecked().to_i64() as u64;
    // SAFETY: a plain lookup in the engine's object table (null once the object is freed).
    let object = unsafe { sys::interface_fn!(object_get_instance_from_id)(id) };
    (!object.is_null()).then_some(object)
}

/// Reads global transforms: `Node3D.get_global_transform` and `CanvasItem.get_global_transform`
/// (hashes of the 4.3 API, unchanged since).
pub struct TransformReader {
    d3: MethodBind,
    d2: MethodBind,
}

impl TransformReader {
    pub fn new() -> Option<Self> {
        Some(TransformReader {
            d3: MethodBind::find("Node3D", "get_global_transform", 3229777777)?,
            d2: MethodBind::find("CanvasItem", "get_global_transform", 3814499831)?,
        })
    }

    /// `node.get_global_transform()`; `None` once the node is freed.
    pub fn global_3d(&self, node: &Gd<godot::classes::Node3D>) -> Option<Transform3D> {
        let object = live_object(node)?;
        let mut t = Transform3D::IDENTITY;
        // SAFETY: `object` is a live Node3D; the method takes no argument and returns a Transform3D.
        unsafe { self.d3.call(object, &[], &mut t) };
        Some(t)
    }

    /// `node.get_global_transform()`; `None` once the node is freed.
    pub fn global_2d(&self, node: &Gd<godot::classes::Node2D>) -> Option<Transform2D> {
        let object = live_object(node)?;
        let mut t = Transform2D::IDENTITY;
        // SAFETY: `object` is a live Node2D (a CanvasItem); no argument, returns a Transform2D.
        unsafe { self.d2.call(object, &[], &mut t) };
        Some(t)
    }
}

/// `Object.has_connections(signal)` (new in Godot 4.4); `None` on older engines. The add-on is
/// built against the 4.3 API, which lacks the method, so it is looked up at run time (its hash
/// in the 4.4–4.7 APIs); asking ClassDB first keeps 4.3 from printing an error for the lookup.
pub fn has_connections() -> Option<MethodBind> {
    godot::classes::ClassDb::singleton()
        .class_has_method("Object", "has_connections")
        .then(|| MethodBind::find("Object", "has_connections", 2619796661))
        .flatten()
}

// ----- the polling heuristic of `pose_sync = OnTransformChange` (see `poses`) -----------------

/// Notifications in a row (at most one step apart) after which a node is polled instead: the
/// dispatch of a transform notification into the add-on costs about what a read does, so a
/// node moving every frame paid twice.
pub const POLL_AFTER_MOVES: u16 = 8;

/// Steps in a row without a move after which a polled node gets its notification back. A still
/// polled node costs a read a step; going back costs an engine call, and if it moves again, the
/// notifications before it is polled again cost about twice the reads: still this long, it pays.
pub const NOTIFY_AFTER_STILL: u16 = 15;

/// Whether a notification at sync `step` continues a run that had one at `last`: Godot 2D
/// notifies a node that moves every frame at every other step only (a move while its global
/// transform is still stale from the last is not notified again), so a gap of one step counts.
pub fn notified_in_a_row(step: u64, last: u64) -> bool {
    step - last <= 2
}

// ----- other engine behaviour ---------------------------------------------------------------

/// The faces of a root CSG shape's collision mesh, in its local space. A CSG shape builds its
/// mesh deferred, after it entered the tree, so it is built now (`_update_shape`, where the
/// engine has it); `bake_collision_shape` (Godot 4.4+) gives the faces, older engines the
/// second entry of `get_meshes`.
pub fn csg_faces(csg: &Gd<godot::classes::CsgShape3D>) -> Result<PackedVector3Array, String> {
    use godot::classes::{ConcavePolygonShape3D, Mesh};
    if csg.has_method("_update_shape") {
        csg.clone().call("_update_shape", &[]);
    }
    if csg.has_method("bake_collision_shape") {
        csg.clone()
            .call("bake_collision_shape", &[])
            .try_to::<Gd<ConcavePolygonShape3D>>()
            .map(|s| s.get_faces())
            .map_err(|_| "its CSG mesh is empty".into())
    } else {
        csg.get_meshes()
            .get(1)
            .and_then(|m| m.try_to::<Gd<Mesh>>().ok())
            .map(|m| m.get_faces())
            .ok_or_else(|| "its CSG mesh is not built yet (call register_occluders() a frame later)".into())
    }
}

/// Called when a sensor or target leaves the tree: `_ready` runs once per node, so without a
/// new request a node moved to another parent (or taken out of the tree and put back, as node
/// pools do) would never register again.
pub fn request_ready_again(mut node: Gd<Node>) {
    node.request_ready();
}
