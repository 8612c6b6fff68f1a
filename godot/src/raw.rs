//! Engine calls on the per-frame hot paths, made through their method binds directly. gdext's
//! generated wrappers check every call (a global lock for the class name, the object-table
//! lookup, the main thread): ~0.15 µs of a ~0.8 µs transform read inside a running frame. Here
//! the object pointer comes from the object table by instance id, which is the liveness check.

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
