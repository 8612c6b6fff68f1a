//! Debug drawing: the world as lines and points the engine (or an SVG writer) renders, in the
//! vision-cone card's style — seen targets green with a green line, hidden targets grey with a
//! red ray ending in a red dot on the blocking wall, targets outside the cone dim wireframe.

use crate::error::{Error, Result};
use crate::id::AgentId;
use crate::math::{UP, Vec3};
use crate::occluders::OccluderShape;
use crate::percept::PerceptKind;
use crate::rays::{RaySource, Rays};
use crate::sight::PointStatus;
use crate::world::World;

/// Colours, packed `0xRRGGBBAA`.
pub mod colors {
    /// Guards and their cones.
    pub const AGENT: u32 = 0xFFFF_FFFF;
    /// Cone outline.
    pub const CONE: u32 = 0xFFFF_FFC0;
    /// Peripheral cone outline.
    pub const PERIPHERAL: u32 = 0xFFFF_FF60;
    /// A seen target and the line to it.
    pub const SEEN: u32 = 0x22DD_44FF;
    /// A blocked ray and the dot where it hit.
    pub const BLOCKED: u32 = 0xEE22_22FF;
    /// A target inside the cone but hidden.
    pub const HIDDEN: u32 = 0x9999_99FF;
    /// A target outside every cone.
    pub const OUTSIDE: u32 = 0x8888_8870;
    /// Occluder wireframes.
    pub const OCCLUDER: u32 = 0x7A8C_A8FF;
    /// Memory markers; alpha is scaled by confidence.
    pub const MEMORY: u32 = 0xFFA5_00FF;
    /// Sound radii and the lines to agents that heard them.
    pub const SOUND: u32 = 0x44AA_FFA0;
    /// Where a brain wants to go.
    pub const MOVE_TARGET: u32 = 0xFFE0_40C0;
    /// The walk graph's edges.
    pub const WALK_GRAPH: u32 = 0x5CC8_9A60;
}

/// What to draw: bits of [`DebugDrawOptions::flags`].
pub mod flags {
    /// Occluder wireframes.
    pub const OCCLUDERS: u32 = 1 << 0;
    /// Agent markers, facing arrows and view cones.
    pub const CONES: u32 = 1 << 1;
    /// Target markers and line-of-sight rays.
    pub const SIGHT: u32 = 1 << 2;
    /// Memory records (last known positions, alpha = confidence).
    pub const MEMORY: u32 = 1 << 3;
    /// Sounds of the last step and who heard them.
    pub const HEARING: u32 = 1 << 4;
    /// Brain move targets.
    pub const MOVE_TARGETS: u32 = 1 << 5;
    /// Every layer above (the default).
    pub const ALL: u32 = (1 << 6) - 1;
    /// The walk graph's edges, a hair above the floor: asked for on its own, as a big level's
    /// graph is tens of thousands of lines.
    pub const WALK_GRAPH: u32 = 1 << 6;
}

/// How a point is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PointStyle {
    /// A filled ball or dot.
    Solid = 0,
    /// An outline only.
    Wire = 1,
}

/// A line segment.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DebugLine {
    /// Start.
    pub a: Vec3,
    /// End.
    pub b: Vec3,
    /// `0xRRGGBBAA`.
    pub color: u32,
}

/// A marker ball.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DebugPoint {
    /// Centre.
    pub position: Vec3,
    /// Radius in metres.
    pub radius: f32,
    /// `0xRRGGBBAA`.
    pub color: u32,
    /// Filled or outline.
    pub style: PointStyle,
}

/// Most segments per full circle; larger requests are clamped (a garbage count from an engine
/// must not ask for billions of lines).
pub const MAX_CIRCLE_SEGMENTS: u32 = 1024;

/// What to draw.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DebugDrawOptions {
    /// Bits of [`flags`] (default all).
    pub flags: u32,
    /// Only this agent's cones, rays, memory and move target; null = every agent.
    pub agent: AgentId,
    /// Segments per full circle (default 32), clamped to 3..=[`MAX_CIRCLE_SEGMENTS`].
    pub circle_segments: u32,
}

impl Default for DebugDrawOptions {
    fn default() -> Self {
        DebugDrawOptions { flags: flags::ALL, agent: AgentId::NULL, circle_segments: 32 }
    }
}

/// The buffer a draw fills; reuse it across frames to avoid allocation.
#[derive(Clone, Debug, Default)]
pub struct DebugDraw {
    /// Line segments.
    pub lines: Vec<DebugLine>,
    /// Marker balls.
    pub points: Vec<DebugPoint>,
}

impl DebugDraw {
    fn line(&mut self, a: Vec3, b: Vec3, color: u32) {
        self.lines.push(DebugLine { a, b, color });
    }

    fn point(&mut self, position: Vec3, radius: f32, color: u32, style: PointStyle) {
        self.points.push(DebugPoint { position, radius, color, style });
    }

    /// An arc around `center` in the plane of unit vectors `u`, `v`, from angle `a0` to `a1`.
    #[allow(clippy::too_many_arguments)]
    fn arc(&mut self, center: Vec3, u: Vec3, v: Vec3, radius: f32, a0: f32, a1: f32, segments: u32, color: u32) {
        let n = ((segments as f32 * (a1 - a0).abs() / std::f32::consts::TAU).ceil() as u32).max(1);
        let at = |a: f32| center + (u * a.cos() + v * a.sin()) * radius;
        let mut prev = at(a0);
        for i in 1..=n {
            let next = at(a0 + (a1 - a0) * i as f32 / n as f32);
            self.line(prev, next, color);
            prev = next;
        }
    }
}

fn with_alpha(color: u32, alpha: f32) -> u32 {
    (color & 0xFFFF_FF00) | ((alpha.clamp(0.0, 1.0) * 255.0).round() as u32)
}

/// A horizontal right vector for a facing direction (falls back when looking straight up).
fn right_of(forward: Vec3) -> Vec3 {
    let r = UP.cross(forward);
    if r.length_squared() > 1e-8 { r.normalize() } else { Vec3::X }
}

impl World {
    /// Fills `out` (cleared first) with the current picture. Built-in occluders answer the
    /// sight rays; in an engine-ray world use [`World::debug_draw_with`].
    pub fn debug_draw(&self, options: &DebugDrawOptions, out: &mut DebugDraw) -> Result<()> {
        self.debug_draw_with(options, out, Rays::World)
    }

    /// [`World::debug_draw`] with `rays` answering the sight rays; with [`Rays::World`] an
    /// engine-ray world draws no sight rays (debug drawing never refuses for want of rays).
    pub fn debug_draw_with(&self, options: &DebugDrawOptions, out: &mut DebugDraw, rays: Rays) -> Result<()> {
        let source = match rays {
            Rays::Engine(source) => Some(source),
            Rays::World => None,
        };
        self.draw(options, out, source)
    }

    fn draw(
        &self,
        options: &DebugDrawOptions,
        out: &mut DebugDraw,
        mut source: Option<&mut dyn RaySource>,
    ) -> Result<()> {
        if !options.agent.is_null() {
            self.agent(options.agent)?;
        }
        out.lines.clear();
        out.points.clear();
        let f = options.flags;
        let segments = options.circle_segments.clamp(3, MAX_CIRCLE_SEGMENTS);
        if f & flags::OCCLUDERS != 0 {
            self.draw_occluders(out, segments);
        }
        if f & flags::WALK_GRAPH != 0
            && let Some(graph) = &self.walk
        {
            let lift = Vec3::new(0.0, 0.05, 0.0);
            for (a, b, _) in graph.edges() {
                out.line(graph.position(a) + lift, graph.position(b) + lift, colors::WALK_GRAPH);
            }
        }
        let agents: Vec<AgentId> =
            self.agents().map(|(id, _)| id).filter(|id| options.agent.is_null() || *id == options.agent).collect();
        if f & flags::CONES != 0 {
            for &id in &agents {
                self.draw_cone(id, out, segments);
            }
        }
        if f & flags::SIGHT != 0 {
            self.draw_sight(&agents, out, &mut source)?;
        }
        if f & flags::MEMORY != 0 {
            for &id in &agents {
                let agent = self.agent(id)?;
                for rec in agent.memory().iter().filter(|r| r.confidence > 0.0) {
                    let color = with_alpha(colors::MEMORY, rec.confidence);
                    out.point(rec.last_known_position, 0.35, color, PointStyle::Wire);
                    out.line(
                        agent.position(),
                        rec.last_known_position,
                        with_alpha(colors::MEMORY, rec.confidence * 0.4),
                    );
                }
            }
        }
        if f & flags::HEARING != 0 {
            for sound in self.last_sounds() {
                out.arc(
                    sound.position,
                    Vec3::X,
                    Vec3::Z,
                    sound.loudness,
                    0.0,
                    std::f32::consts::TAU,
                    segments,
                    colors::SOUND,
                );
            }
            for p in self.events().percepts.iter().filter(|p| p.kind == PerceptKind::Sound) {
                if agents.contains(&p.agent) {
                    out.line(p.position, self.agent(p.agent)?.position(), colors::SOUND);
                }
            }
        }
        if f & flags::MOVE_TARGETS != 0 {
            for &id in &agents {
                if let Some(goal) = self.move_target(id)? {
                    out.line(self.agent(id)?.position(), goal, colors::MOVE_TARGET);
                    out.point(goal, 0.2, colors::MOVE_TARGET, PointStyle::Solid);
                }
            }
        }
        Ok(())
    }

    fn draw_occluders(&self, out: &mut DebugDraw, segments: u32) {
        for (_, occ) in self.occluders().iter() {
            let def = occ.def();
            let (p, q) = (def.position, def.rotation);
            let c = colors::OCCLUDER;
            match &def.shape {
                OccluderShape::Box { half_extents: h } => {
                    let corner = |i: u32| {
                        let s = |bit: u32| if i & bit != 0 { 1.0 } else { -1.0 };
                        p + q * Vec3::new(h.x * s(1), h.y * s(2), h.z * s(4))
                    };
                    for i in 0..8u32 {
                        for bit in [1u32, 2, 4] {
                            if i & bit == 0 {
                                out.line(corner(i), corner(i | bit), c);
                            }
                        }
                    }
                }
                OccluderShape::Sphere { radius } => {
                    let axes = [(Vec3::X, Vec3::Z), (Vec3::X, Vec3::Y), (Vec3::Y, Vec3::Z)];
                    for (u, v) in axes {
                        out.arc(p, q * u, q * v, *radius, 0.0, std::f32::consts::TAU, segments, c);
                    }
                }
                OccluderShape::Capsule { half_height, radius } => {
                    let (u, v, up) = (q * Vec3::X, q * Vec3::Z, q * Vec3::Y);
                    for end in [-1.0, 1.0] {
                        out.arc(p + up * half_height * end, u, v, *radius, 0.0, std::f32::consts::TAU, segments, c);
                    }
                    for side in [u, -u, v, -v] {
                        out.line(p + side * *radius - up * *half_height, p + side * *radius + up * *half_height, c);
                    }
                }
                OccluderShape::Mesh { vertices, indices } => {
                    for tri in indices.iter().take(4096) {
                        let v = |k: usize| p + q * vertices[tri[k] as usize];
                        out.line(v(0), v(1), c);
                        out.line(v(1), v(2), c);
                        out.line(v(2), v(0), c);
                    }
                }
            }
        }
    }

    fn draw_cone(&self, id: AgentId, out: &mut DebugDraw, segments: u32) {
        let Ok(agent) = self.agent(id) else { return };
        let s = &agent.def().sight;
        let (eye, forward) = (agent.eye(), agent.forward());
        out.point(agent.position(), 0.3, colors::AGENT, PointStyle::Solid);
        out.line(eye, eye + forward * 1.2, colors::AGENT);
        if !s.enabled {
            return;
        }
        let right = right_of(forward);
        let mut cone = |radius: f32, angle: f32, color: u32| {
            if radius <= 0.0 {
                return;
            }
            let half = (angle.min(360.0) * 0.5).to_radians();
            out.arc(eye, forward, right, radius, -half, half, segments, color);
            if angle < 360.0 {
                for a in [-half, half] {
                    out.line(eye, eye + (forward * a.cos() + right * a.sin()) * radius, color);
                }
            }
        };
        cone(s.view_radius, s.view_angle, colors::CONE);
        cone(s.peripheral_radius, s.peripheral_angle, colors::PERIPHERAL);
    }

    /// Rays per agent; one marker per target with its best status over the drawn agents.
    fn draw_sight(
        &self,
        agents: &[AgentId],
        out: &mut DebugDraw,
        source: &mut Option<&mut dyn RaySource>,
    ) -> Result<()> {
        // Best outcome wins; a filtered point counts as no better than out of range.
        let rank = |s: PointStatus| if s == PointStatus::Filtered { 0 } else { s as u8 };
        let mut best: Vec<(Vec3, PointStatus)> = Vec::new();
        for (tid, target) in self.targets() {
            for point in target.world_points() {
                let mut status = PointStatus::OutOfRange;
                for &aid in agents {
                    let rays = match source {
                        Some(src) => Rays::Engine(&mut **src),
                        None => Rays::World,
                    };
                    let result = match self.can_see_with(aid, tid, rays) {
                        Err(Error::NoRayBackend) => continue, // an engine-ray world without its engine
                        result => result?,
                    };
                    let Some(p) = result.points().iter().find(|p| p.point == point) else { continue };
                    match p.status {
                        PointStatus::Visible => out.line(result.eye, p.point, colors::SEEN),
                        PointStatus::Blocked => {
                            out.line(result.eye, p.hit, colors::BLOCKED);
                            out.point(p.hit, 0.12, colors::BLOCKED, PointStyle::Solid);
                        }
                        _ => {}
                    }
                    if rank(p.status) > rank(status) {
                        status = p.status;
                    }
                }
                best.push((point, status));
            }
        }
        for (point, status) in best {
            match status {
                PointStatus::Visible => out.point(point, 0.3, colors::SEEN, PointStyle::Solid),
                PointStatus::Blocked => out.point(point, 0.3, colors::HIDDEN, PointStyle::Solid),
                _ => out.point(point, 0.3, colors::OUTSIDE, PointStyle::Wire),
            }
        }
        Ok(())
    }
}
