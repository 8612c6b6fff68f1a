//! The world node's queries, written once over `WorldDim`: the rays they use (Argus's occluders or
//! the physics space), cover and flank positions, and the debug picture.

use argus_core::{AgentId, RayQuery, Vec3};
use godot::prelude::*;

use crate::dim::Dim;
use crate::influence::InfluenceMap;
use crate::sensors::vision::VisionShell;
use crate::world::{WorldDim, WorldShell, node, start};

/// Runs `f` with the rays the world's steps use: the physics space with `use_physics_rays`,
/// else Argus's occluders.
pub fn with_rays<S: WorldShell, R>(this: &mut S, f: impl FnOnce(&argus_core::World, argus_core::Rays) -> R) -> R {
    start(this);
    let space = if this.props().use_physics_rays { <S::D as WorldDim>::space(&node(this)) } else { None };
    match space {
        Some(mut space) => {
            let mut cast =
                |ray: &RayQuery, exclude: &Array<Rid>| <S::D as WorldDim>::physics_ray(&mut space, ray, exclude);
            let cast: &mut crate::hub::CastFn = &mut cast;
            this.core().hub.query(Some(cast), f)
        }
        None => this.core().hub.query(None, f),
    }
}

/// `find_cover`, with the candidates as a slice.
#[allow(clippy::too_many_arguments)]
pub fn find_cover<S: WorldShell>(
    this: &mut S,
    self_position: <S::D as Dim>::Vector,
    threats: VarArray,
    candidates: &[<S::D as Dim>::Vector],
    top_k: i64,
    hidden_from_most: bool,
    danger_map: Option<Gd<InfluenceMap>>,
    obstacle_mask: i64,
) -> Array<VarDictionary> {
    start(this);
    let to_core = |v: &Variant| v.try_to::<<S::D as Dim>::Vector>().ok().map(<S::D as Dim>::to_core);
    let hub = &this.core_ref().hub;
    let threats: Vec<_> = threats.iter_shared().filter_map(|v| crate::tactics::threat_of(hub, &v, to_core)).collect();
    let points: Vec<Vec3> = candidates.iter().map(|p| <S::D as Dim>::to_core(*p)).collect();
    let args = crate::tactics::CoverArgs {
        self_position: <S::D as Dim>::to_core(self_position),
        threats: &threats,
        candidates: &points,
        top_k,
        hidden_from_most,
        map: danger_map,
        obstacle_mask: obstacle_mask as u32,
    };
    match with_rays(this, |w, rays| crate::tactics::cover(args, w, rays)) {
        Ok(out) => crate::tactics::results(<S::D as Dim>::D2, &out),
        Err(e) => {
            godot_error!("{}.find_cover: {e}", <S::D as Dim>::WORLD_CLASS);
            Array::new()
        }
    }
}

/// `find_flank`, with the candidates as a slice.
pub fn find_flank<S: WorldShell>(
    this: &mut S,
    threat: Variant,
    candidates: &[<S::D as Dim>::Vector],
    top_k: i64,
    danger_map: Option<Gd<InfluenceMap>>,
) -> Array<VarDictionary> {
    start(this);
    let to_core = |v: &Variant| v.try_to::<<S::D as Dim>::Vector>().ok().map(<S::D as Dim>::to_core);
    let Some(threat) = crate::tactics::threat_of(&this.core_ref().hub, &threat, to_core) else {
        godot_error!(
            "{}.find_flank: the threat is neither a vision sensor nor a Dictionary",
            <S::D as Dim>::WORLD_CLASS
        );
        return Array::new();
    };
    let points: Vec<Vec3> = candidates.iter().map(|p| <S::D as Dim>::to_core(*p)).collect();
    match crate::tactics::flank(threat, &points, top_k, danger_map) {
        Ok(out) => crate::tactics::results(<S::D as Dim>::D2, &out),
        Err(e) => {
            godot_error!("{}.find_flank: {e}", <S::D as Dim>::WORLD_CLASS);
            Array::new()
        }
    }
}

/// `get_debug_lines` flag drawing the walk graph's edges (the core's own bit, not in its
/// default flags). `flags` = 0 draws them too.
pub const DEBUG_WALK_GRAPH: i64 = argus_core::debug_draw::flags::WALK_GRAPH as i64;

/// The debug picture as segment end points (see `get_debug_lines`); keeps the colours.
pub fn debug_lines<S: WorldShell>(this: &mut S, flags: i64, agent: Option<Gd<Node>>) -> Vec<<S::D as Dim>::Vector> {
    let agent = agent
        .and_then(|a| a.try_cast::<<S::D as Dim>::Vision>().ok())
        .map(|v| v.bind().agent_id())
        .unwrap_or(AgentId::NULL);
    let all = argus_core::debug_draw::flags::ALL | argus_core::debug_draw::flags::WALK_GRAPH;
    let flags = if flags == 0 { all as i64 | DEBUG_BELIEFS } else { flags };
    // The beliefs are the add-on's own bit, drawn here; the rest is the core's picture.
    let options = argus_core::DebugDrawOptions { flags: (flags & !DEBUG_BELIEFS) as u32, agent, ..Default::default() };
    let mut draw = argus_core::DebugDraw::default();
    let drawn = with_rays(this, |w, rays| w.debug_draw_with(&options, &mut draw, rays));
    if let Err(e) = drawn {
        godot_error!("{}.get_debug_lines: {e}", <S::D as Dim>::WORLD_CLASS);
    }
    let mut lines: Vec<(Vec3, Vec3, Color)> =
        draw.lines.iter().map(|l| (l.a, l.b, crate::convert::color_of(l.color))).collect();
    if flags & DEBUG_BELIEFS != 0
        && let Some(world) = this.core_ref().hub.world_ref()
    {
        belief_lines(world, agent, <S::D as Dim>::DISTANCE_SCALE, &mut lines);
    }
    this.core().debug_colors = lines.iter().map(|l| l.2).collect();
    lines.iter().flat_map(|l| [<S::D as Dim>::from_core(l.0), <S::D as Dim>::from_core(l.1)]).collect()
}

/// `get_debug_lines` flag drawing the beliefs of the guards that search by belief (the add-on's
/// own bit, as the Unity package's `GizmoBeliefs`). `flags` = 0 draws them too.
pub const DEBUG_BELIEFS: i64 = 1 << 7;

/// The colour of a node holding the share `t` (0..1] of its belief's peak: blue (little)
/// through green and yellow to red (the peak), more opaque the more it holds (the Unity
/// package's `BeliefColor`).
pub fn belief_color(t: f32) -> Color {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let mix = |a: [f32; 3], b: [f32; 3], k: f32| [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * k);
    let c = if t < 0.5 {
        mix([0.1, 0.3, 1.0], [0.1, 0.9, 0.2], t * 2.0)
    } else {
        mix([1.0, 0.9, 0.1], [1.0, 0.1, 0.05], (t - 0.5) * 2.0)
    };
    Color::from_rgba(c[0], c[1], c[2], 0.35 + 0.6 * t)
}

/// The white of a search point and the line from its guard.
pub const SEARCH_POINT_COLOR: Color = Color::from_rgba(1.0, 1.0, 1.0, 1.0);

/// The beliefs as segments (core space): each node holding probability as a cross (a third
/// of a grid cell, or of the shortest edge, across) coloured by its share of the peak, a belief
/// shared by a team once; each searching guard's search point as a diamond (`scale` × 0.5
/// across: 0.5 m, 32 px in 2D) with a line from the guard. Only `agent`'s when it is not null.
pub fn belief_lines(world: &argus_core::World, agent: AgentId, scale: f32, out: &mut Vec<(Vec3, Vec3, Color)>) {
    let Some(graph) = world.walk_graph() else { return };
    let cell = match graph.grid_def() {
        Some(def) => def.cell_size,
        None => graph.edges().iter().map(|e| e.2).filter(|&l| l > 0.0).fold(f32::MAX, f32::min),
    };
    let r = if cell < f32::MAX { cell / 3.0 } else { 0.15 * scale } * 0.5;
    let lift = Vec3::new(0.0, 0.05, 0.0);
    let mut drawn: Vec<*const argus_core::Belief> = Vec::new();
    for (id, a) in world.agents() {
        if (!agent.is_null() && id != agent) || a.brain_config().search != argus_core::SearchKind::Belief {
            continue;
        }
        let Some(belief) = world.agent_belief(id).ok().flatten() else { continue };
        if !drawn.contains(&(belief as *const _)) {
            drawn.push(belief);
            let peak = belief.peak();
            for (n, &p) in belief.probabilities().iter().enumerate() {
                if p.is_nan() || p <= 0.0 || n >= graph.node_count() {
                    continue;
                }
                let at = graph.position(n as u32) + lift;
                let color = belief_color(if peak > 0.0 { p / peak } else { 1.0 });
                out.push((at - Vec3::new(r, 0.0, 0.0), at + Vec3::new(r, 0.0, 0.0), color));
                out.push((at - Vec3::new(0.0, 0.0, r), at + Vec3::new(0.0, 0.0, r), color));
            }
        }
        if let Some(point) = a.brain().search_point {
            let (p, d) = (point + lift, 0.5 * scale);
            let corners =
                [Vec3::new(d, 0.0, 0.0), Vec3::new(0.0, 0.0, d), Vec3::new(-d, 0.0, 0.0), Vec3::new(0.0, 0.0, -d)];
            for k in 0..4 {
                out.push((p + corners[k], p + corners[(k + 1) % 4], SEARCH_POINT_COLOR));
            }
            out.push((a.position() + lift, p, SEARCH_POINT_COLOR));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use argus_core::{AgentDef, BrainConfig, OccluderDef, SearchKind, SightConfig, TargetDef, WalkGridDef, World};

    /// The core test's level: a wall across a 30 m grid, `guards` guards searching by belief
    /// that lose the player behind it.
    fn searching(guards: usize) -> (World, Vec<AgentId>) {
        let mut world = World::default();
        world.add_occluder(&OccluderDef::cuboid(Vec3::new(12.0, 1.5, 15.0), Vec3::new(12.0, 1.5, 0.3))).unwrap();
        world.set_walk_grid(&WalkGridDef { width: 60, depth: 60, cell_size: 0.5, ..Default::default() }).unwrap();
        let brain = BrainConfig { search: SearchKind::Belief, search_duration: 30.0, ..Default::default() };
        let sight = SightConfig { view_radius: 15.0, view_angle: 120.0, rate_hz: 10.0, ..Default::default() };
        let ids: Vec<AgentId> = (0..guards)
            .map(|k| {
                let position = Vec3::new(4.0 + 2.0 * k as f32, 0.0, 6.0);
                world.create_agent(&AgentDef { position, sight, brain, ..Default::default() }).unwrap()
            })
            .collect();
        let player =
            world.create_target(&TargetDef { position: Vec3::new(6.0, 0.0, 11.0), ..Default::default() }).unwrap();
        for _ in 0..5 {
            world.step(0.1).unwrap();
        }
        world.set_target_pose(player, Vec3::new(20.0, 0.0, 24.0), Vec3::Z).unwrap();
        for _ in 0..3 {
            world.step(0.1).unwrap();
        }
        (world, ids)
    }

    #[test]
    fn the_heat_map_draws_each_node_holding_probability_and_the_search_points() {
        let (world, guards) = searching(2);
        let belief = world.agent_belief(guards[0]).unwrap().expect("a belief");
        let held = belief.probabilities().iter().filter(|&&p| p > 0.0).count();
        let points = guards.iter().filter(|&&g| world.agent(g).unwrap().brain().search_point.is_some()).count();
        assert!(held > 0 && points > 0);
        let mut out = Vec::new();
        belief_lines(&world, AgentId::NULL, 1.0, &mut out);
        assert_eq!(out.len(), 2 * held + 5 * points, "the shared belief once, a diamond and a line per point");
        let mut one = Vec::new();
        belief_lines(&world, guards[0], 1.0, &mut one);
        assert_eq!(one.len(), 2 * held + 5, "one guard's alone");
        // A cross is a third of a cell across; the search point's line ends at the point.
        let (a, b, _) = one[0];
        assert!(((b - a).length() - 0.5 / 3.0).abs() < 1e-5);
        let point = world.agent(guards[0]).unwrap().brain().search_point.unwrap();
        assert!((one.last().unwrap().1 - point).length() < 0.06);
        assert_eq!(one.last().unwrap().2, SEARCH_POINT_COLOR);
    }

    #[test]
    fn belief_colours_run_from_blue_to_red() {
        let (low, high) = (belief_color(0.0), belief_color(1.0));
        assert!(low.b > low.r && high.r > high.b, "{low:?} {high:?}");
        assert!(high.a > low.a && (low.a - 0.35).abs() < 1e-6);
        assert_eq!(belief_color(f32::NAN), low);
        assert_eq!(belief_color(7.0), high);
    }

    #[test]
    fn the_belief_flag_is_the_add_ons_own() {
        use argus_core::debug_draw::flags;
        assert_eq!(DEBUG_BELIEFS & (flags::ALL | flags::WALK_GRAPH) as i64, 0);
    }

    #[test]
    fn a_2d_target_walks_at_the_same_speed_in_pixels() {
        use crate::dim::{D2, D3};
        use crate::sensors::target::default_top_speed;
        assert_eq!(default_top_speed::<D3>(), 1.4);
        assert!((default_top_speed::<D2>() - 89.6).abs() < 1e-4);
    }
}
