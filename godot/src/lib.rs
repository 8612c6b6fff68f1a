//! Argus for Godot 4: perception nodes (vision, hearing, memory, awareness, the guard brain)
//! over the Argus core, linked directly as a Rust crate (no C ABI in between: this library
//! exports only `gdext_rust_init`, not the `argus_*` C functions, which live in the separate
//! `argus` C library for engines that need them).

use godot::prelude::*;

pub mod body;
pub mod brain;
pub mod convert;
pub mod dim;
#[cfg(test)]
mod docs_check;
pub mod editor_plugin;
pub mod engine_workarounds;
pub mod hub;
pub mod id_table;
pub mod influence;
pub mod labels;
pub mod navigation;
pub mod occluder_sources;
mod occluders2d;
mod occluders3d;
pub mod poses;
pub mod ray_adapter;
pub mod sensors;
pub mod shapes;
pub mod signals;
pub mod slots;
#[cfg(test)]
mod source_rules;
pub mod tactics;
pub mod walk_nav;
pub mod world;
pub mod world2d;
mod world2d_walk;
pub mod world3d;
mod world3d_walk;
pub mod world_occluders;
pub mod world_queries;
pub mod world_recording;
pub mod world_walk;

pub use brain::EnemyBrain;
pub use sensors::{
    HearingSensor2D, HearingSensor3D, PerceptionTarget2D, PerceptionTarget3D, VisionSensor2D, VisionSensor3D,
};
pub use world2d::PerceptionWorld2D;
pub use world3d::PerceptionWorld3D;

struct ArgusExtension;

#[gdextension]
unsafe impl ExtensionLibrary for ArgusExtension {}
