//! Debug drawing through the C ABI: line and point arrays with packed RGBA colours.

use super::boundary::{input, output, with_world};
use super::enums::*;
use super::types::*;
use super::world::ArgusWorld;
use argus_core::debug_draw::{DebugDrawOptions, colors, flags};

/// Occluder wireframes.
pub const ARGUS_DRAW_OCCLUDERS: u32 = 1;
/// Agent markers, facing arrows and view cones.
pub const ARGUS_DRAW_CONES: u32 = 2;
/// Target markers and line-of-sight rays (green seen, red blocked with a dot at the hit).
pub const ARGUS_DRAW_SIGHT: u32 = 4;
/// Memory records (alpha = confidence).
pub const ARGUS_DRAW_MEMORY: u32 = 8;
/// Sounds of the last step and who heard them.
pub const ARGUS_DRAW_HEARING: u32 = 16;
/// Brain move targets.
pub const ARGUS_DRAW_MOVE_TARGETS: u32 = 32;
/// Every layer above (the default).
pub const ARGUS_DRAW_ALL: u32 = 63;
/// The walk graph's edges, a hair above the floor; not in `ARGUS_DRAW_ALL` (a big level's
/// graph is tens of thousands of lines): add it to the flags to draw it.
pub const ARGUS_DRAW_WALK_GRAPH: u32 = 64;
/// Colour of the walk graph's edges.
pub const ARGUS_COLOR_WALK_GRAPH: u32 = 0x5CC89A60;

/// Colour of seen targets and their lines (0xRRGGBBAA).
pub const ARGUS_COLOR_SEEN: u32 = 0x22DD44FF;
/// Colour of blocked rays and hit dots.
pub const ARGUS_COLOR_BLOCKED: u32 = 0xEE2222FF;
/// Colour of targets in the cone but hidden.
pub const ARGUS_COLOR_HIDDEN: u32 = 0x999999FF;
/// Colour of targets outside every cone.
pub const ARGUS_COLOR_OUTSIDE: u32 = 0x88888870;
/// Colour of cone outlines.
pub const ARGUS_COLOR_CONE: u32 = 0xFFFFFFC0;

/// What to draw. Fill with `argus_default_debug_draw_options()`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusDebugDrawOptions {
    /// `ARGUS_DRAW_*` bits (default all).
    pub flags: u32,
    /// Only this agent; null = all agents.
    pub agent: ArgusAgentId,
    /// Segments per full circle (default 32, minimum 3).
    pub circle_segments: u32,
}

/// A line segment.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusDebugLine {
    /// Start.
    pub a: ArgusVec3,
    /// End.
    pub b: ArgusVec3,
    /// Packed 0xRRGGBBAA.
    pub color: u32,
}

/// A marker ball.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusDebugPoint {
    /// Centre.
    pub position: ArgusVec3,
    /// Radius in metres.
    pub radius: f32,
    /// Packed 0xRRGGBBAA.
    pub color: u32,
    /// How to draw it.
    pub style: ArgusPointStyle,
}

/// The picture: arrays owned by the world, valid until the next debug draw or destroy.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusDebugDraw {
    /// Lines (NULL when `line_count` is 0).
    pub lines: *const ArgusDebugLine,
    /// Number of lines.
    pub line_count: u32,
    /// Points (NULL when `point_count` is 0).
    pub points: *const ArgusDebugPoint,
    /// Number of points.
    pub point_count: u32,
}

/// Default options: draw everything for every agent, 32 segments per circle.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_debug_draw_options() -> ArgusDebugDrawOptions {
    let d = DebugDrawOptions::default();
    ArgusDebugDrawOptions { flags: d.flags, agent: ArgusAgentId::default(), circle_segments: d.circle_segments }
}

/// Draws the world into buffers the world owns and points `*out` at them: cones, sight rays,
/// target markers, occluders, memory and hearing, in the vision-cone card's colours. Sight rays
/// use the ray callback if set (an engine-ray world without one draws no rays).
///
/// # Safety
/// `world` NULL or live; `options` NULL or readable; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_debug_draw(
    world: *mut ArgusWorld,
    options: *const ArgusDebugDrawOptions,
    out: *mut ArgusDebugDraw,
) -> ArgusResult {
    with_world(world, |w| {
        let out = output(out, "out")?;
        let o = input(options, "options")?;
        let options =
            DebugDrawOptions { flags: o.flags, agent: o.agent.core(w.tag)?, circle_segments: o.circle_segments };
        let mut draw = std::mem::take(&mut w.debug);
        let result = w.with_rays(|world, rays| world.debug_draw_with(&options, &mut draw, rays));
        w.debug = draw;
        result?;
        w.debug_lines.clear();
        w.debug_lines.extend(w.debug.lines.iter().map(|l| ArgusDebugLine {
            a: l.a.into(),
            b: l.b.into(),
            color: l.color,
        }));
        w.debug_points.clear();
        w.debug_points.extend(w.debug.points.iter().map(|p| ArgusDebugPoint {
            position: p.position.into(),
            radius: p.radius,
            color: p.color,
            style: p.style.into(),
        }));
        *out = ArgusDebugDraw {
            lines: if w.debug_lines.is_empty() { std::ptr::null() } else { w.debug_lines.as_ptr() },
            line_count: w.debug_lines.len() as u32,
            points: if w.debug_points.is_empty() { std::ptr::null() } else { w.debug_points.as_ptr() },
            point_count: w.debug_points.len() as u32,
        };
        Ok(())
    })
}

// The header needs literals; these keep them equal to the core's values.
const _: () = assert!(ARGUS_DRAW_ALL == flags::ALL && ARGUS_DRAW_MOVE_TARGETS == flags::MOVE_TARGETS);
const _: () = assert!(ARGUS_DRAW_OCCLUDERS == flags::OCCLUDERS && ARGUS_DRAW_CONES == flags::CONES);
const _: () = assert!(ARGUS_DRAW_SIGHT == flags::SIGHT && ARGUS_DRAW_MEMORY == flags::MEMORY);
const _: () = assert!(ARGUS_DRAW_HEARING == flags::HEARING && ARGUS_COLOR_CONE == colors::CONE);
const _: () = assert!(ARGUS_DRAW_WALK_GRAPH == flags::WALK_GRAPH && ARGUS_COLOR_WALK_GRAPH == colors::WALK_GRAPH);
const _: () = assert!(ARGUS_COLOR_SEEN == colors::SEEN && ARGUS_COLOR_BLOCKED == colors::BLOCKED);
const _: () = assert!(ARGUS_COLOR_HIDDEN == colors::HIDDEN && ARGUS_COLOR_OUTSIDE == colors::OUTSIDE);
const _: () = assert!(size_of::<ArgusDebugLine>() == 28);
const _: () = assert!(size_of::<ArgusDebugDrawOptions>() == 16);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<ArgusDebugDraw>() == 32);
const _: () = assert!(size_of::<ArgusDebugPoint>() == 24);
