//! Plain data shared by every part of the C ABI: vectors, ids, the result enum, versions.

use super::boundary::{FfiResult, fail};
use argus_core::error::Error;
use argus_core::id::{AgentId, InfluenceMapId, OccluderId, TargetId};
use argus_core::math::{Quat, Vec3};

/// Major version of this library.
pub const ARGUS_VERSION_MAJOR: u32 = 0;
/// Minor version of this library.
pub const ARGUS_VERSION_MINOR: u32 = 1;
/// Patch version of this library.
pub const ARGUS_VERSION_PATCH: u32 = 0;
/// Version of the binary interface: bumped on any change to a struct layout or signature.
/// Wrappers compare it with `argus_abi_version()` at load.
pub const ARGUS_ABI_VERSION: u32 = 6;
/// Largest accepted magnitude of a coordinate component (positions, offsets, extents, map
/// origins, candidate points), in metres. Beyond it → `ARGUS_RESULT_INVALID_ARGUMENT`.
pub const ARGUS_MAX_COORDINATE: f32 = 1.0e6;
/// Largest accepted scalar (radii, loudness, sensitivity and other multipliers, rates,
/// durations, weights, influence values, dt). Within these limits no value Argus returns is
/// ever infinite or NaN.
pub const ARGUS_MAX_MAGNITUDE: f32 = 1.0e9;
/// Latest world time a step may reach, in seconds; a step beyond it is refused.
pub const ARGUS_MAX_WORLD_TIME: f64 = 1.0e9;
const _: () = assert!(ARGUS_MAX_COORDINATE == argus_core::math::MAX_COORDINATE);
const _: () = assert!(ARGUS_MAX_MAGNITUDE == argus_core::math::MAX_MAGNITUDE);
const _: () = assert!(ARGUS_MAX_WORLD_TIME == argus_core::world::MAX_WORLD_TIME);
/// Value of `internal_cookie` in a def filled by `argus_default_<thing>_def()`; a def without
/// it is refused with `ARGUS_RESULT_DEF_NOT_INITIALIZED`.
pub const ARGUS_DEF_COOKIE: u32 = 0x4152_4755;

/// A 3D vector (Y up, metres).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusVec3 {
    /// X.
    pub x: f32,
    /// Y (up).
    pub y: f32,
    /// Z.
    pub z: f32,
}

/// A rotation quaternion (x, y, z, w), normalised on input.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ArgusQuat {
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Z.
    pub z: f32,
    /// W (1 for no rotation).
    pub w: f32,
}

impl From<ArgusVec3> for Vec3 {
    fn from(v: ArgusVec3) -> Vec3 {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<Vec3> for ArgusVec3 {
    fn from(v: Vec3) -> ArgusVec3 {
        ArgusVec3 { x: v.x, y: v.y, z: v.z }
    }
}

impl From<ArgusQuat> for Quat {
    fn from(q: ArgusQuat) -> Quat {
        Quat::from_xyzw(q.x, q.y, q.z, q.w)
    }
}

impl From<Quat> for ArgusQuat {
    fn from(q: Quat) -> ArgusQuat {
        ArgusQuat { x: q.x, y: q.y, z: q.z, w: q.w }
    }
}

/// An agent (a guard: something that perceives). Layout `{uint32_t index; uint16_t world; uint16_t generation;}`,
/// 8 bytes, blittable. All zero is null, and nothing else is: any other id with generation 0 was
/// never issued and is treated as an unknown id. `world` is the issuing world's
/// `argus_world_tag()`: a world refuses another world's id with `ARGUS_RESULT_INVALID_ID`, and a
/// destroyed thing's id by its generation. A world never issues the same id twice: a slot whose
/// generation reaches 65,535 is retired when that thing is destroyed, instead of wrapping.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgusAgentId {
    /// Slot index.
    pub index: u32,
    /// Tag of the world that issued the id (never 0 for a live thing).
    pub world: u16,
    /// Slot generation (never 0 for a live thing).
    pub generation: u16,
}

/// A target (something agents perceive). Layout `{uint32_t index; uint16_t world; uint16_t generation;}`,
/// 8 bytes, blittable. All zero is null, and nothing else is: any other id with generation 0 was
/// never issued and is treated as an unknown id. `world` is the issuing world's
/// `argus_world_tag()`: a world refuses another world's id with `ARGUS_RESULT_INVALID_ID`, and a
/// destroyed thing's id by its generation. A world never issues the same id twice: a slot whose
/// generation reaches 65,535 is retired when that thing is destroyed, instead of wrapping.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgusTargetId {
    /// Slot index.
    pub index: u32,
    /// Tag of the world that issued the id (never 0 for a live thing).
    pub world: u16,
    /// Slot generation (never 0 for a live thing).
    pub generation: u16,
}

/// An occluder (level geometry that blocks sight and sound). Layout `{uint32_t index; uint16_t world; uint16_t generation;}`,
/// 8 bytes, blittable. All zero is null, and nothing else is: any other id with generation 0 was
/// never issued and is treated as an unknown id. `world` is the issuing world's
/// `argus_world_tag()`: a world refuses another world's id with `ARGUS_RESULT_INVALID_ID`, and a
/// destroyed thing's id by its generation. A world never issues the same id twice: a slot whose
/// generation reaches 65,535 is retired when that thing is destroyed, instead of wrapping.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgusOccluderId {
    /// Slot index.
    pub index: u32,
    /// Tag of the world that issued the id (never 0 for a live thing).
    pub world: u16,
    /// Slot generation (never 0 for a live thing).
    pub generation: u16,
}

/// An influence map owned by a world. Layout `{uint32_t index; uint16_t world; uint16_t generation;}`,
/// 8 bytes, blittable. All zero is null, and nothing else is: any other id with generation 0 was
/// never issued and is treated as an unknown id. `world` is the issuing world's
/// `argus_world_tag()`: a world refuses another world's id with `ARGUS_RESULT_INVALID_ID`, and a
/// destroyed thing's id by its generation. A world never issues the same id twice: a slot whose
/// generation reaches 65,535 is retired when that thing is destroyed, instead of wrapping.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgusInfluenceMapId {
    /// Slot index.
    pub index: u32,
    /// Tag of the world that issued the id (never 0 for a live thing).
    pub world: u16,
    /// Slot generation (never 0 for a live thing).
    pub generation: u16,
}

/// Ids of the C ABI: the core's `{index, generation}` plus the issuing world's tag.
pub(crate) trait WorldId: Copy + PartialEq + Default {
    /// The core's id type.
    type Core;
    /// What it names, for error messages.
    const KIND: &'static str;
    /// The core id, without checking the world (only after [`WorldId::core`] accepted it).
    fn core_unchecked(self) -> Self::Core;
    /// The C id of a core id issued by the world tagged `world` (null stays all zero).
    fn abi(id: Self::Core, world: u16) -> Self;

    /// The core id, refusing an id of another world; null (all zero, and nothing else) passes
    /// through as the core's null, which the core refuses or treats as "none" as each call
    /// documents. An id of this world with generation 0 was never issued: it reaches the core as
    /// an id no slot ever holds (generation `u32::MAX`), so the core treats it exactly as any
    /// unknown id, in the same order of checks, and `{0, own tag, 0}` is not a second null.
    fn core(self, world: u16) -> FfiResult<Self::Core> {
        if self == Self::default() {
            Ok(self.core_unchecked())
        } else if self.world_tag() != world {
            Err(fail(ArgusResult::InvalidId, format!("this {} id belongs to another world", Self::KIND)))
        } else if self.generation() == 0 {
            Ok(Self::never_issued(self.index()))
        } else {
            Ok(self.core_unchecked())
        }
    }

    /// The `index` field.
    fn index(self) -> u32;
    /// A core id at `index` that no slot ever holds (never null).
    fn never_issued(index: u32) -> Self::Core;
    /// The `generation` field.
    fn generation(self) -> u16;

    /// The `world` field.
    fn world_tag(self) -> u16;
}

// cbindgen cannot see macro-generated items, so the structs above are spelled out and only
// the conversions are generated. Core generations never exceed `MAX_GENERATION` (16 bits).
macro_rules! world_ids {
    ($($ffi:ident <=> $core:ident),*) => {$(
        impl WorldId for $ffi {
            type Core = $core;
            const KIND: &'static str = $core::KIND;
            fn core_unchecked(self) -> $core {
                $core { index: self.index, generation: self.generation as u32 }
            }
            fn abi(id: $core, world: u16) -> $ffi {
                if id.is_null() {
                    $ffi::default()
                } else {
                    $ffi { index: id.index, world, generation: id.generation as u16 }
                }
            }
            fn world_tag(self) -> u16 {
                self.world
            }
            fn generation(self) -> u16 {
                self.generation
            }
            fn index(self) -> u32 {
                self.index
            }
            fn never_issued(index: u32) -> $core {
                $core { index, generation: NEVER_ISSUED_GENERATION }
            }
        }
    )*};
}

world_ids!(ArgusAgentId <=> AgentId, ArgusTargetId <=> TargetId, ArgusOccluderId <=> OccluderId, ArgusInfluenceMapId <=> InfluenceMapId);
const _: () = assert!(argus_core::id::MAX_GENERATION == u16::MAX as u32);
/// Above every generation a slot holds, retired ones included.
const NEVER_ISSUED_GENERATION: u32 = u32::MAX;
const _: () = assert!(NEVER_ISSUED_GENERATION > argus_core::id::RETIRED_GENERATION);

/// The outcome of every fallible call. Values are fixed forever; new ones are only appended.
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArgusResult {
    /// Success.
    Ok = 0,
    /// A pointer was NULL, a number NaN/infinite/out of range, or a count too large; nothing changed.
    InvalidArgument = 1,
    /// An id was null, unknown, or of something already destroyed; nothing changed.
    InvalidId = 2,
    /// A caller buffer is too small; the needed count was written to the count out-parameter.
    BufferTooSmall = 3,
    /// `argus_world_step_begin` is waiting for `argus_world_step_finish` (or `_cancel`).
    StepInProgress = 4,
    /// `argus_world_step_finish` without `argus_world_step_begin`; likewise a `_finish` or
    /// `_cancel` of a two-phase cover query that was not begun.
    NoStepInProgress = 5,
    /// The world uses engine rays and no ray callback is set for this call.
    NoRayBackend = 6,
    /// A snapshot was truncated, corrupted or of an unsupported version; nothing changed.
    BadSnapshot = 7,
    /// A def was not filled by its `argus_default_<thing>_def()` first.
    DefNotInitialized = 8,
    /// A panic was caught inside the library; the world it happened in is poisoned and refuses
    /// every further call except destroy.
    Panic = 9,
    /// The world was poisoned by an earlier panic.
    WorldPoisoned = 10,
    /// A call on a world was made from inside that world's own ray callback; refused, because
    /// the world is in the middle of the call that invoked the callback.
    Reentrant = 11,
    /// Another thread is inside a call on this world right now; refused without touching it. A
    /// world is used from one thread at a time (calls on different worlds may run in parallel).
    Busy = 12,
    /// An allocation the call needed failed (out of memory or address space); nothing changed.
    OutOfMemory = 13,
    /// The engine's ray callback returned a result other than `ARGUS_RESULT_OK`: the call that
    /// invoked it (a step, a sight or cover query, a debug draw) ended there and changed
    /// nothing (a failed `argus_world_step` leaves the clock, memories, brains, pending sounds
    /// and event arrays as they were). The callback's code is named in the last error.
    CallbackFailed = 14,
    /// A recording was truncated (no `END` chunk), corrupted (its checksum or a chunk does not
    /// hold), or of an unsupported format version; nothing changed and nothing was created.
    BadRecording = 15,
    /// Replaying a recording, a step gave outputs that differ from the recorded ones (the step
    /// and what differed are in the last error); nothing changed and nothing was created.
    ReplayMismatch = 16,
    /// A recording's bytes could not be written: its file could not be created or written, or
    /// the write callback returned a code other than `ARGUS_RESULT_OK` (the last error says which).
    WriteFailed = 17,
}

impl ArgusResult {
    /// A stable, NUL-terminated name for the code.
    pub fn name(self) -> &'static std::ffi::CStr {
        match self {
            ArgusResult::Ok => c"ARGUS_RESULT_OK",
            ArgusResult::InvalidArgument => c"ARGUS_RESULT_INVALID_ARGUMENT",
            ArgusResult::InvalidId => c"ARGUS_RESULT_INVALID_ID",
            ArgusResult::BufferTooSmall => c"ARGUS_RESULT_BUFFER_TOO_SMALL",
            ArgusResult::StepInProgress => c"ARGUS_RESULT_STEP_IN_PROGRESS",
            ArgusResult::NoStepInProgress => c"ARGUS_RESULT_NO_STEP_IN_PROGRESS",
            ArgusResult::NoRayBackend => c"ARGUS_RESULT_NO_RAY_BACKEND",
            ArgusResult::BadSnapshot => c"ARGUS_RESULT_BAD_SNAPSHOT",
            ArgusResult::DefNotInitialized => c"ARGUS_RESULT_DEF_NOT_INITIALIZED",
            ArgusResult::Panic => c"ARGUS_RESULT_PANIC",
            ArgusResult::WorldPoisoned => c"ARGUS_RESULT_WORLD_POISONED",
            ArgusResult::Reentrant => c"ARGUS_RESULT_REENTRANT",
            ArgusResult::Busy => c"ARGUS_RESULT_BUSY",
            ArgusResult::OutOfMemory => c"ARGUS_RESULT_OUT_OF_MEMORY",
            ArgusResult::CallbackFailed => c"ARGUS_RESULT_CALLBACK_FAILED",
            ArgusResult::BadRecording => c"ARGUS_RESULT_BAD_RECORDING",
            ArgusResult::ReplayMismatch => c"ARGUS_RESULT_REPLAY_MISMATCH",
            ArgusResult::WriteFailed => c"ARGUS_RESULT_WRITE_FAILED",
        }
    }
}

impl From<&Error> for ArgusResult {
    fn from(e: &Error) -> ArgusResult {
        match e {
            Error::InvalidArgument(_) => ArgusResult::InvalidArgument,
            Error::InvalidId(_) => ArgusResult::InvalidId,
            Error::BufferTooSmall { .. } => ArgusResult::BufferTooSmall,
            Error::StepInProgress => ArgusResult::StepInProgress,
            Error::NoStepInProgress => ArgusResult::NoStepInProgress,
            Error::NoRayBackend => ArgusResult::NoRayBackend,
            Error::BadSnapshot(_) => ArgusResult::BadSnapshot,
            Error::OutOfMemory(_) => ArgusResult::OutOfMemory,
            Error::RaySourceFailed(_) => ArgusResult::CallbackFailed,
            Error::ReplayMismatch { .. } => ArgusResult::ReplayMismatch,
            Error::WriteFailed(_) => ArgusResult::WriteFailed,
        }
    }
}

/// True for any non-zero byte (C's notion of true).
pub(crate) fn flag(b: u8) -> bool {
    b != 0
}

// Layout checks: the same numbers are asserted in tests/c and bindings/csharp.
const _: () = assert!(size_of::<ArgusVec3>() == 12);
const _: () = assert!(size_of::<ArgusQuat>() == 16);
const _: () = assert!(size_of::<ArgusAgentId>() == 8);
const _: () = assert!(size_of::<ArgusTargetId>() == 8);
const _: () = assert!(size_of::<ArgusOccluderId>() == 8);
const _: () = assert!(size_of::<ArgusInfluenceMapId>() == 8);
const _: () = assert!(size_of::<ArgusResult>() == 4);
