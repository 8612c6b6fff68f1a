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
    let options = argus_core::DebugDrawOptions {
        flags: if flags == 0 { all } else { flags as u32 },
        agent,
        ..Default::default()
    };
    let mut draw = argus_core::DebugDraw::default();
    let drawn = with_rays(this, |w, rays| w.debug_draw_with(&options, &mut draw, rays));
    if let Err(e) = drawn {
        godot_error!("{}.get_debug_lines: {e}", <S::D as Dim>::WORLD_CLASS);
    }
    this.core().debug_colors = draw.lines.iter().map(|l| crate::convert::color_of(l.color)).collect();
    draw.lines.iter().flat_map(|l| [<S::D as Dim>::from_core(l.a), <S::D as Dim>::from_core(l.b)]).collect()
}
