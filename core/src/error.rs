//! The one error type of the core. The C ABI maps each variant onto an `ArgusResult` code.

use std::fmt;

/// Why a call into the core was refused. A refused call never changes the world.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// An argument was out of range, not finite, or otherwise unusable; the text says which.
    InvalidArgument(String),
    /// An id was null, never issued, or refers to something already destroyed.
    InvalidId(&'static str),
    /// A caller-supplied buffer cannot hold the answer; `needed` is the size that would.
    BufferTooSmall {
        /// Elements (or bytes) the buffer must hold.
        needed: usize,
    },
    /// `begin_step` was called and its rays have not been answered by `finish_step` yet.
    StepInProgress,
    /// `finish_step` or `pending_rays` without a `begin_step` first.
    NoStepInProgress,
    /// The world uses engine rays and no ray source was given for an immediate query.
    NoRayBackend,
    /// A snapshot was truncated, corrupted, or from an unsupported format version.
    BadSnapshot(String),
    /// An allocation the call needed failed (the host is out of memory or address space).
    OutOfMemory(String),
    /// The engine's ray source reported that it could not answer the rays (its caster failed);
    /// the call that asked ends with this error and changes nothing.
    RaySourceFailed(String),
    /// A replayed step's outputs differ from the recording's (see [`crate::record::Replay`]):
    /// the step (0 for the first recorded) and the section of its frame that differs (or
    /// "input" when a recorded call was refused or made another id, "scene", "step", "rays").
    ReplayMismatch {
        /// The step, counted from the first recorded.
        step: u32,
        /// What differs.
        section: &'static str,
    },
    /// A recording's bytes could not be written where they go (a file, the caller's stream or
    /// write callback); the text says what failed.
    WriteFailed(String),
}

/// Result of a core call.
pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidArgument(what) => write!(f, "invalid argument: {what}"),
            Error::InvalidId(kind) => write!(f, "invalid {kind} id (null, unknown or destroyed)"),
            Error::BufferTooSmall { needed } => {
                write!(f, "buffer too small: {needed} elements needed")
            }
            Error::StepInProgress => {
                write!(f, "a step is waiting for engine ray results (call finish_step first)")
            }
            Error::NoStepInProgress => write!(f, "no step is waiting for ray results"),
            Error::NoRayBackend => {
                write!(f, "this world uses engine rays: give a ray source for this query")
            }
            Error::BadSnapshot(why) => write!(f, "snapshot rejected: {why}"),
            Error::OutOfMemory(what) => write!(f, "out of memory: {what}"),
            Error::RaySourceFailed(why) => write!(f, "the engine's ray source failed: {why}"),
            Error::ReplayMismatch { step, section } => {
                write!(f, "replay mismatch at step {step}: the {section} differ from the recording")
            }
            Error::WriteFailed(why) => write!(f, "write failed: {why}"),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand for an `InvalidArgument` error.
pub(crate) fn invalid(what: impl Into<String>) -> Error {
    Error::InvalidArgument(what.into())
}
