//! Argus's C ABI: every `extern "C"` item of Argus, and nothing else. Each function checks its
//! arguments, converts them, and calls the core; a panic never crosses this boundary.
//!
//! Conventions (see `include/argus.h`): `argus_` functions, `Argus` types, `ARGUS_` constants;
//! the world is an opaque pointer owned by the caller; things it owns are `{index, generation}`
//! ids where zero is null; defs come from `argus_default_<thing>_def()`; every fallible
//! function returns an [`ArgusResult`] and writes its out-parameters only on success.
//!
//! The rules live in the `argus_core` crate; this crate only converts and forwards.

mod agent;
mod belief;
mod boundary;
mod debug;
mod enums;
mod events;
mod influence;
mod influence_ops;
mod labels;
mod occluder;
mod query;
mod rays;
mod recording;
mod settings;
mod snapshot;
mod tactics;
mod tactics_phases;
mod tactics_query;
mod target;
mod types;
mod user_data;
mod walk;
mod world;

pub use agent::*;
pub use belief::*;
pub use debug::*;
pub use enums::*;
pub use events::*;
pub use influence::*;
pub use influence_ops::*;
pub use labels::*;
pub use occluder::*;
pub use query::*;
pub use rays::*;
pub use recording::*;
pub use settings::*;
pub use snapshot::*;
pub use tactics::*;
pub use tactics_phases::*;
pub use tactics_query::*;
pub use target::*;
pub use types::*;
pub use walk::*;
pub use world::*;
