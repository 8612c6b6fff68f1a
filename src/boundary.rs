//! The panic firewall and argument checks every export goes through.

use std::cell::RefCell;
use std::ffi::CString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering;

use super::types::{ARGUS_DEF_COOKIE, ArgusResult};
use super::world::{ArgusWorld, WorldState};
use argus_core::error::Error;

/// Why an FFI call failed: a code and, when there is a world to hold it, a message.
pub(crate) struct Fail {
    pub code: ArgusResult,
    pub message: String,
}

pub(crate) type FfiResult<T = ()> = Result<T, Fail>;

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        Fail { code: (&e).into(), message: e.to_string() }
    }
}

pub(crate) fn fail(code: ArgusResult, message: impl Into<String>) -> Fail {
    Fail { code, message: message.into() }
}

pub(crate) fn invalid(message: impl Into<String>) -> Fail {
    fail(ArgusResult::InvalidArgument, message)
}

thread_local! {
    /// The message of the last failed call on this thread (see `argus_last_error`).
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records a failure's message for `argus_last_error` on the calling thread.
pub(crate) fn set_thread_error(message: &str) {
    LAST_ERROR.with(|e| *e.borrow_mut() = c_message(message));
}

/// The calling thread's last error message; valid until the next failing call on this thread.
pub(crate) fn thread_error() -> *const std::ffi::c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Runs `f` behind `catch_unwind`; for calls that have no world to report into.
pub(crate) fn guard(f: impl FnOnce() -> FfiResult) -> ArgusResult {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => ArgusResult::Ok,
        Ok(Err(fail)) => {
            set_thread_error(&fail.message);
            fail.code
        }
        Err(_) => {
            set_thread_error("panic inside argus");
            ArgusResult::Panic
        }
    }
}

/// Runs `f` on a world behind `catch_unwind`: records the error message in the world, and
/// poisons the world if `f` panicked (its state may be half-updated).
pub(crate) fn with_world(world: *mut ArgusWorld, f: impl FnOnce(&mut WorldState) -> FfiResult) -> ArgusResult {
    // SAFETY: the caller promises `world` is NULL or a live pointer from `argus_world_create`.
    let Some(handle) = (unsafe { world.as_ref() }) else {
        set_thread_error("world must not be NULL");
        return ArgusResult::InvalidArgument;
    };
    if let Err(code) = enter(handle) {
        set_thread_error(if code == ArgusResult::Reentrant {
            "argus was called from inside this world's ray callback"
        } else {
            "another thread is inside a call on this world"
        });
        return code;
    }
    // SAFETY: `enter` guarantees no other reference to the state exists until `leave`.
    let w = unsafe { &mut *handle.state.get() };
    let result = run_on_state(w, f);
    leave(handle);
    result
}

thread_local! {
    /// Its address names the calling thread (non-zero, unique among live threads). A constant
    /// without a destructor: no state is kept, and nothing needs tearing down at unload.
    static THREAD_MARK: u8 = const { 0 };
}

fn thread_mark() -> usize {
    THREAD_MARK.with(|m| m as *const u8 as usize)
}

/// Makes this thread the world's only user, with one atomic compare-exchange: `REENTRANT` if this
/// thread is already inside a call on it (from the ray callback), `BUSY` if another thread is.
pub(crate) fn enter(handle: &ArgusWorld) -> Result<(), ArgusResult> {
    let me = thread_mark();
    match handle.owner.compare_exchange(0, me, Ordering::Acquire, Ordering::Relaxed) {
        Ok(_) => Ok(()),
        Err(owner) if owner == me => Err(ArgusResult::Reentrant),
        Err(_) => Err(ArgusResult::Busy),
    }
}

/// Ends the call `enter` began.
pub(crate) fn leave(handle: &ArgusWorld) {
    handle.owner.store(0, Ordering::Release);
}

fn run_on_state(w: &mut WorldState, f: impl FnOnce(&mut WorldState) -> FfiResult) -> ArgusResult {
    if w.poisoned {
        set_thread_error("world poisoned by an earlier panic; destroy it");
        w.set_error("world poisoned by an earlier panic; destroy it");
        return ArgusResult::WorldPoisoned;
    }
    match catch_unwind(AssertUnwindSafe(|| f(w))) {
        Ok(Ok(())) => {
            w.clear_error();
            ArgusResult::Ok
        }
        Ok(Err(fail)) => {
            set_thread_error(&fail.message);
            w.set_error(&fail.message);
            fail.code
        }
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            w.poisoned = true;
            set_thread_error(&format!("panic inside argus: {why}"));
            w.set_error(&format!("panic inside argus: {why}"));
            ArgusResult::Panic
        }
    }
}

/// Like [`with_world`] for read-only calls.
pub(crate) fn with_world_ref(world: *const ArgusWorld, f: impl FnOnce(&WorldState) -> FfiResult) -> ArgusResult {
    with_world(world as *mut ArgusWorld, |w| f(w))
}

/// A yes/no question about a world (`argus_*_is_valid`): 0 for NULL, a busy or a poisoned world,
/// and on any panic.
pub(crate) fn peek(world: *const ArgusWorld, f: impl FnOnce(&WorldState) -> bool) -> u8 {
    let mut answer = false;
    let result = with_world(world as *mut ArgusWorld, |w| {
        answer = f(w);
        Ok(())
    });
    (result == ArgusResult::Ok && answer) as u8
}

/// A required input pointer.
pub(crate) fn input<'a, T>(ptr: *const T, what: &str) -> FfiResult<&'a T> {
    // SAFETY: non-null pointers from the caller point at a valid T for the call's duration.
    unsafe { ptr.as_ref() }.ok_or_else(|| invalid(format!("{what} must not be NULL")))
}

/// A required output pointer; checked before any work so a NULL never costs a state change.
pub(crate) fn output<'a, T>(ptr: *mut T, what: &str) -> FfiResult<&'a mut T> {
    // SAFETY: non-null pointers from the caller point at writable memory for a T.
    unsafe { ptr.as_mut() }.ok_or_else(|| invalid(format!("{what} must not be NULL")))
}

/// A caller array of `count` items; NULL is accepted only when `count` is 0. `limit` bounds
/// `count` before the pointer is ever read, so a garbage count cannot walk off the buffer's
/// logical end into the void.
pub(crate) fn slice<'a, T>(ptr: *const T, count: u32, limit: usize, what: &str) -> FfiResult<&'a [T]> {
    if count as usize > limit {
        return Err(invalid(format!("{what}: count {count} exceeds the limit of {limit}")));
    }
    if count == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(invalid(format!("{what} must not be NULL when the count is {count}")));
    }
    if !(ptr as usize).is_multiple_of(align_of::<T>()) {
        return Err(invalid(format!("{what} is misaligned")));
    }
    // SAFETY: the caller promises `count` readable items at `ptr`; null/alignment checked.
    Ok(unsafe { std::slice::from_raw_parts(ptr, count as usize) })
}

/// A caller byte array of `size` (a 64-bit size; beyond this platform's address space it is
/// refused before the pointer is read); NULL only when `size` is 0.
pub(crate) fn bytes64<'a>(ptr: *const u8, size: u64, what: &str) -> FfiResult<&'a [u8]> {
    let n = usize::try_from(size)
        .ok()
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| invalid(format!("{what}: size {size} exceeds this platform's address space")))?;
    if n == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(invalid(format!("{what} must not be NULL when the size is {size}")));
    }
    // SAFETY: the caller promises `size` readable bytes at `ptr`; null checked.
    Ok(unsafe { std::slice::from_raw_parts(ptr, n) })
}

/// Checks a def's cookie.
pub(crate) fn check_cookie(cookie: u32, def: &str) -> FfiResult {
    if cookie == ARGUS_DEF_COOKIE {
        Ok(())
    } else {
        Err(fail(ArgusResult::DefNotInitialized, format!("{def} was not initialised with argus_default_{def}()")))
    }
}

/// Copies `items` into a caller buffer, or reports the needed count.
pub(crate) fn fill<T: Copy>(items: &[T], buffer: *mut T, capacity: u32, out_count: *mut u32) -> FfiResult {
    let count = output(out_count, "out_count")?;
    if items.len() > capacity as usize {
        *count = items.len() as u32;
        return Err(fail(ArgusResult::BufferTooSmall, format!("buffer holds {capacity}, {} needed", items.len())));
    }
    if !items.is_empty() {
        if buffer.is_null() {
            return Err(invalid("buffer must not be NULL"));
        }
        // SAFETY: the caller promises `capacity` writable items at `buffer`.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), buffer, items.len()) };
    }
    *count = items.len() as u32;
    Ok(())
}

/// Copies `bytes` into a caller buffer of `capacity`, or reports the size needed.
pub(crate) fn copy_out(bytes: &[u8], buffer: *mut u8, capacity: u32, size: &mut u32, what: &str) -> FfiResult {
    let n = u32::try_from(bytes.len())
        .map_err(|_| fail(ArgusResult::InvalidArgument, format!("the {what} exceeds 4 GiB")))?;
    if n > capacity {
        *size = n;
        return Err(fail(ArgusResult::BufferTooSmall, format!("the {what} needs {n} bytes, buffer holds {capacity}")));
    }
    if buffer.is_null() {
        return Err(fail(ArgusResult::InvalidArgument, "buffer must not be NULL"));
    }
    // SAFETY: the caller promises `capacity >= n` writable bytes at `buffer`.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer, bytes.len()) };
    *size = n;
    Ok(())
}

/// [`copy_out`] with 64-bit sizes.
pub(crate) fn copy_out64(bytes: &[u8], buffer: *mut u8, capacity: u64, size: &mut u64, what: &str) -> FfiResult {
    let n = bytes.len() as u64;
    if n > capacity {
        *size = n;
        return Err(fail(ArgusResult::BufferTooSmall, format!("the {what} needs {n} bytes, buffer holds {capacity}")));
    }
    if n > 0 {
        if buffer.is_null() {
            return Err(fail(ArgusResult::InvalidArgument, "buffer must not be NULL"));
        }
        // SAFETY: the caller promises `capacity >= n` writable bytes at `buffer`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer, bytes.len()) };
    }
    *size = n;
    Ok(())
}

/// A message as a C string (interior NULs replaced).
pub(crate) fn c_message(message: &str) -> CString {
    CString::new(message.replace('\0', " ")).unwrap_or_default()
}
