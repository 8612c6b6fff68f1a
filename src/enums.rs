//! Every enum of the C ABI, as `#[repr(u32)]` C enums, each tied to the core's enum by
//! exhaustive conversions both ways (a variant added on either side stops the build).
//!
//! Soundness: a Rust enum holding a value outside its variants is undefined behaviour, and C can
//! put any number in a `uint32_t`. So every struct field or parameter the caller fills is, on the
//! Rust side, a plain `u32` newtype (`Raw<Enum>`, generated below and invisible to cbindgen) that
//! `cbindgen.toml` renames to the enum's name: the header shows `ArgusPlane plane`, while Rust
//! reads a `u32` and checks it with [`RawPlane::get`] (unknown → `INVALID_ARGUMENT`, nothing
//! changed). Structs only the library writes use the enums themselves.

use super::boundary::{FfiResult, invalid};
use argus_core::awareness::AwarenessStage;
use argus_core::brain::{BrainState, SearchKind};
use argus_core::debug_draw::PointStyle;
use argus_core::hearing::HearingPath;
use argus_core::influence::{CombineOp, Plane};
use argus_core::percept::PerceptKind;
use argus_core::rays::RayBackend;
use argus_core::sight::PointStatus;
use argus_core::tactics::CoverMode;
use argus_core::team::Attitude;
use argus_core::walk::WalkGraphKind;

/// Which sense produced a percept.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusPerceptKind {
    /// Sight.
    #[default]
    Sight = 0,
    /// Hearing.
    Sound = 1,
}

/// The guard brain's state.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusBrainState {
    /// Nothing going on.
    #[default]
    Idle = 0,
    /// Going to look at a sound (or glimpse).
    Investigating = 1,
    /// Chasing a seen target.
    Chasing = 2,
    /// Searching the last known position until a timer runs out.
    Searching = 3,
}

/// An awareness meter's stage.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusAwarenessStage {
    /// Below the suspicious threshold.
    #[default]
    Unaware = 0,
    /// Suspicious.
    Suspicious = 1,
    /// Alert.
    Alert = 2,
    /// Aware (the brain chases from here).
    Aware = 3,
}

/// One check point's sight outcome.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusPointStatus {
    /// Farther than every radius.
    #[default]
    OutOfRange = 0,
    /// In range but outside the cone(s).
    OutsideCone = 1,
    /// In view but an occluder blocks the ray (`hit` says where).
    Blocked = 2,
    /// Visible.
    Visible = 3,
    /// Not tested: the agent does not perceive this target at all (team attitude, detect mask,
    /// target or layer mask, or the target is disabled), whatever its distance.
    Filtered = 4,
}

/// How a debug-draw point is drawn.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusPointStyle {
    /// A filled dot.
    #[default]
    Solid = 0,
    /// An outline.
    Wire = 1,
}

/// The plane an influence map's grid (or a candidate pattern) lies in.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusPlane {
    /// X and Z (a 3D game with +Y up): rows follow +Z.
    #[default]
    Xz = 0,
    /// X and Y (a 2D game): rows follow +Y, Z is ignored.
    Xy = 1,
}

/// How `argus_influence_map_combine` merges its inputs.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusCombineOp {
    /// Σ wᵢ · layerᵢ (e.g. danger − allies with weights 1 and −1).
    #[default]
    WeightedSum = 0,
    /// maxᵢ wᵢ · layerᵢ.
    Max = 1,
    /// minᵢ wᵢ · layerᵢ.
    Min = 2,
    /// Πᵢ wᵢ · layerᵢ (e.g. danger masked by a 0/1 visibility layer).
    Multiply = 3,
    /// The weighted sum divided by its largest absolute value, so it lies in [−1, 1].
    Normalize = 4,
}

/// An occluder's shape; picks which fields of `ArgusOccluderDef` are read.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusShapeKind {
    /// An oriented box (`half_extents`).
    #[default]
    Box = 0,
    /// A sphere (`radius`).
    Sphere = 1,
    /// A capsule along local Y (`half_height`, `radius`).
    Capsule = 2,
    /// A triangle mesh (`vertices`, `indices`).
    Mesh = 3,
}

/// Where a tactical query looks; picks which fields of `ArgusCandidates` are read.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusCandidateKind {
    /// The caller's `points[0..point_count]`, in order.
    #[default]
    Points = 0,
    /// A square of (2·half_count + 1)² points `spacing` apart around `center`, row by row from
    /// −row to +row (rows along +Z, or +Y on `ARGUS_PLANE_XY`), each row from −X to +X.
    Grid = 1,
    /// `rings` × `per_ring` points around `center`: ring k has radius
    /// inner + (outer − inner)·(k + 0.5)/rings, its points start on +X and turn towards +Z (+Y on
    /// `ARGUS_PLANE_XY`) in equal steps; ring by ring outwards.
    Ring = 2,
}

/// Which spots count as cover.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusCoverMode {
    /// Hidden from every threat (the lesson's rule).
    #[default]
    HiddenFromAll = 0,
    /// Ranked by how many threats cannot see the spot (at least one), then by score.
    HiddenFromMost = 1,
}

/// Who answers line-of-sight rays.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusRayBackend {
    /// The world's own occluders (parry3d BVH).
    #[default]
    Builtin = 0,
    /// The engine (a ray callback, or step_begin / step_finish).
    Engine = 1,
}

/// How one team regards another.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusAttitude {
    /// Perceived by default.
    #[default]
    Hostile = 0,
    /// Neutral.
    Neutral = 1,
    /// Ignored by default.
    Friendly = 2,
}

/// Where a recording goes.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusRecordTo {
    /// Kept in the world until `argus_world_stop_recording`, then copied out with
    /// `argus_world_get_recording` (the default).
    #[default]
    Memory = 0,
    /// Written to the file at `ArgusRecordDef.path` as it is made (memory stays bounded).
    File = 1,
    /// Handed to `ArgusRecordDef.write` as it is made (memory stays bounded).
    Callback = 2,
    /// The flight recorder: only the last `ArgusRecordDef.flight_seconds` are kept, saved on
    /// demand by `argus_world_save_flight_recording` or `argus_world_write_flight_recording`.
    Flight = 3,
}

/// Which way sound travels to a listener.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusHearingPath {
    /// An agent's setting only: its world's setting (the default).
    #[default]
    World = 0,
    /// The straight line (the lesson; a world's default).
    Straight = 1,
    /// Around walls, along the world's walk graph (the straight line while it has none).
    Walk = 2,
}

/// How a brain searches for a target it lost.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusSearchKind {
    /// The lesson's: go to the last known position and wait there (the default).
    #[default]
    LastKnownPosition = 0,
    /// By a belief of where the target can be now, over the world's walk graph: from one
    /// search point to the next (the lesson's while the world has no walk graph).
    Belief = 1,
}

/// How a world's walk graph was made.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ArgusWalkGraphKind {
    /// The world has no walk graph.
    #[default]
    None = 0,
    /// Built by Argus as a grid over the occluders (`argus_world_set_walk_grid`).
    Grid = 1,
    /// Handed by the engine (`argus_world_set_walk_graph`).
    Given = 2,
}

/// Declares the caller-filled `u32` form of an enum and its checked conversion.
macro_rules! raw_enum {
    ($ffi:ident, $raw:ident { $($v:ident),* $(,)? }) => {
        #[doc = concat!("A `", stringify!($ffi), "` as the caller passed it: any `u32`, checked by `get`.")]
        #[repr(transparent)]
        #[derive(Copy, Clone, Default, PartialEq, Eq)]
        pub struct $raw(pub u32);

        /// The variant's name when the value names one (as the enum prints), else the number.
        impl std::fmt::Debug for $raw {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.get() {
                    Ok(e) => write!(f, "{e:?}"),
                    Err(_) => write!(f, "{}({})", stringify!($raw), self.0),
                }
            }
        }

        impl From<$ffi> for $raw {
            fn from(e: $ffi) -> $raw {
                $raw(e as u32)
            }
        }

        impl $raw {
            /// The enum, or `INVALID_ARGUMENT` for a value that names no variant.
            pub(crate) fn get(self) -> FfiResult<$ffi> {
                $(if self.0 == $ffi::$v as u32 {
                    return Ok($ffi::$v);
                })*
                Err(invalid(format!("{} is not a valid {}", self.0, stringify!($ffi))))
            }
        }

        const _: () = assert!(size_of::<$ffi>() == 4 && size_of::<$raw>() == 4);
    };
}

/// Exhaustive conversions between an ABI enum and the core's twin, both ways.
macro_rules! core_twin {
    ($ffi:ident <=> $core:ident { $($v:ident <=> $c:ident),* $(,)? }) => {
        impl From<$ffi> for $core {
            fn from(e: $ffi) -> $core {
                match e { $($ffi::$v => $core::$c),* }
            }
        }
        impl From<$core> for $ffi {
            fn from(e: $core) -> $ffi {
                match e { $($core::$c => $ffi::$v),* }
            }
        }
    };
}

// Only the enums a caller passes in need a checked form; the rest are only ever written by
// the library.
raw_enum!(ArgusPlane, RawPlane { Xz, Xy });
raw_enum!(ArgusCombineOp, RawCombineOp { WeightedSum, Max, Min, Multiply, Normalize });
raw_enum!(ArgusShapeKind, RawShapeKind { Box, Sphere, Capsule, Mesh });
raw_enum!(ArgusCandidateKind, RawCandidateKind { Points, Grid, Ring });
raw_enum!(ArgusCoverMode, RawCoverMode { HiddenFromAll, HiddenFromMost });
raw_enum!(ArgusRayBackend, RawRayBackend { Builtin, Engine });
raw_enum!(ArgusAttitude, RawAttitude { Hostile, Neutral, Friendly });
raw_enum!(ArgusHearingPath, RawHearingPath { World, Straight, Walk });
raw_enum!(ArgusSearchKind, RawSearchKind { LastKnownPosition, Belief });
raw_enum!(ArgusRecordTo, RawRecordTo { Memory, File, Callback, Flight });

core_twin!(ArgusPerceptKind <=> PerceptKind { Sight <=> Sight, Sound <=> Sound });
core_twin!(ArgusBrainState <=> BrainState {
    Idle <=> Idle, Investigating <=> Investigating, Chasing <=> Chasing, Searching <=> Searching
});
core_twin!(ArgusAwarenessStage <=> AwarenessStage {
    Unaware <=> Unaware, Suspicious <=> Suspicious, Alert <=> Alert, Aware <=> Aware
});
core_twin!(ArgusPointStatus <=> PointStatus {
    OutOfRange <=> OutOfRange, OutsideCone <=> OutsideCone, Blocked <=> Blocked, Visible <=> Visible,
    Filtered <=> Filtered
});
core_twin!(ArgusPointStyle <=> PointStyle { Solid <=> Solid, Wire <=> Wire });
core_twin!(ArgusPlane <=> Plane { Xz <=> XZ, Xy <=> XY });
core_twin!(ArgusCombineOp <=> CombineOp {
    WeightedSum <=> WeightedSum, Max <=> Max, Min <=> Min, Multiply <=> Multiply, Normalize <=> Normalize
});
core_twin!(ArgusCoverMode <=> CoverMode { HiddenFromAll <=> HiddenFromAll, HiddenFromMost <=> HiddenFromMost });
core_twin!(ArgusRayBackend <=> RayBackend { Builtin <=> Builtin, Engine <=> Engine });
core_twin!(ArgusAttitude <=> Attitude { Hostile <=> Hostile, Neutral <=> Neutral, Friendly <=> Friendly });
core_twin!(ArgusHearingPath <=> HearingPath { World <=> World, Straight <=> Straight, Walk <=> Walk });
core_twin!(ArgusSearchKind <=> SearchKind { LastKnownPosition <=> LastKnownPosition, Belief <=> Belief });
// The core's shapes and candidate generators carry data, so `ArgusShapeKind` and
// `ArgusCandidateKind` have no fieldless twin; `occluder.rs` and `tactics.rs` match them
// exhaustively instead.

// The core's own discriminants, where it fixes them, agree with the ABI's.
const _: () = assert!(PerceptKind::Sound as u32 == ArgusPerceptKind::Sound as u32);
const _: () = assert!(BrainState::Searching as u32 == ArgusBrainState::Searching as u32);
const _: () = assert!(AwarenessStage::Aware as u32 == ArgusAwarenessStage::Aware as u32);
const _: () = assert!(PointStatus::Visible as u32 == ArgusPointStatus::Visible as u32);
const _: () = assert!(PointStyle::Wire as u32 == ArgusPointStyle::Wire as u32);
const _: () = assert!(Attitude::Friendly as u32 == ArgusAttitude::Friendly as u32);
const _: () = assert!(HearingPath::Walk as u32 == ArgusHearingPath::Walk as u32);
const _: () = assert!(SearchKind::Belief as u32 == ArgusSearchKind::Belief as u32);
const _: () = assert!(WalkGraphKind::Grid as u32 == ArgusWalkGraphKind::Grid as u32);
const _: () = assert!(WalkGraphKind::Given as u32 == ArgusWalkGraphKind::Given as u32);
