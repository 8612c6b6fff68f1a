//! JSON → Rust API: one small function per concept. Each starts from the library's default and
//! overrides only what the file says, so "absent" always means "the library's default".

use argus_core::influence::InfluenceMapDef;
use argus_core::team::{Attitude, AttitudeMask};
use argus_core::*;
use std::result::Result;

use super::format::*;

pub fn v3(v: V3) -> Vec3 {
    Vec3::from_array(v)
}

pub fn quat(q: Option<[f32; 4]>) -> Quat {
    q.map_or(Quat::IDENTITY, Quat::from_array)
}

pub fn world_def(w: &WorldSpec) -> Result<WorldDef, String> {
    let mut def = WorldDef::default();
    if let Some(b) = &w.ray_backend {
        def.ray_backend = match b.as_str() {
            "builtin" => RayBackend::Builtin,
            "engine" => RayBackend::Engine,
            other => return Err(format!("unknown ray_backend {other:?} (builtin | engine)")),
        };
    }
    if let Some(f) = w.sound_occlusion {
        def.sound_occlusion = f;
    }
    if let Some(path) = &w.hearing_path {
        def.hearing_path = hearing_path(path)?;
    }
    Ok(def)
}

pub fn search_kind(name: &str) -> Result<SearchKind, String> {
    match name {
        "last_known_position" => Ok(SearchKind::LastKnownPosition),
        "belief" => Ok(SearchKind::Belief),
        other => Err(format!("unknown search {other:?} (last_known_position | belief)")),
    }
}

pub fn hearing_path(name: &str) -> Result<HearingPath, String> {
    match name {
        "world" => Ok(HearingPath::World),
        "straight" => Ok(HearingPath::Straight),
        "walk" => Ok(HearingPath::Walk),
        other => Err(format!("unknown hearing path {other:?} (world | straight | walk)")),
    }
}

/// Sets the file's walk graph on `world`.
pub fn set_walk_graph(world: &mut World, g: &WalkGraphSpec) -> Result<(), String> {
    let api = |r: argus_core::Result<()>| r.map_err(|e| format!("API error: {e}"));
    match (&g.grid, &g.nodes) {
        (Some(grid), None) if g.edges.is_none() && g.snap_distance.is_none() => {
            let mut def = WalkGridDef { width: grid.width, depth: grid.depth, ..Default::default() };
            set(&mut def.origin, grid.origin.map(v3));
            set(&mut def.cell_size, grid.cell_size);
            set(&mut def.band_min, grid.band_min);
            set(&mut def.band_max, grid.band_max);
            set(&mut def.layers, grid.layers);
            set(&mut def.snap_distance, grid.snap_distance);
            api(world.set_walk_grid(&def))
        }
        (None, Some(nodes)) => {
            let nodes: Vec<Vec3> = nodes.iter().copied().map(v3).collect();
            let edges: Vec<WalkEdge> =
                g.edges.iter().flatten().map(|&(a, b, length)| WalkEdge { a, b, length }).collect();
            let snap = g.snap_distance.ok_or("walk_graph: nodes need snap_distance")?;
            api(world.set_walk_graph(&nodes, &edges, snap))
        }
        _ => Err("walk_graph: give either `grid` or `nodes` (with `edges`, `snap_distance`)".into()),
    }
}

pub fn occluder_def(o: &OccluderSpec) -> Result<OccluderDef, String> {
    let need = |v: Option<f32>, what: &str| v.ok_or_else(|| format!("occluder {:?}: {} needs {what}", o.name, o.shape));
    let shape = match o.shape.as_str() {
        "box" => OccluderShape::Box {
            half_extents: v3(o.half_extents.ok_or_else(|| format!("occluder {:?}: box needs half_extents", o.name))?),
        },
        "sphere" => OccluderShape::Sphere { radius: need(o.radius, "radius")? },
        "capsule" => OccluderShape::Capsule {
            half_height: need(o.half_height, "half_height")?,
            radius: need(o.radius, "radius")?,
        },
        other => return Err(format!("occluder {:?}: unknown shape {other:?} (box | sphere | capsule)", o.name)),
    };
    let mut def = OccluderDef { shape, position: v3(o.position), rotation: quat(o.rotation), ..Default::default() };
    if let Some(l) = o.layers {
        def.layers = l;
    }
    def.sound_transmission = o.sound_transmission;
    Ok(def)
}

/// Overwrites `slot` when the file gives a value.
fn set<T: Copy>(slot: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *slot = v;
    }
}

pub fn agent_def(a: &AgentSpec) -> Result<AgentDef, String> {
    let mut def = AgentDef::default();
    set(&mut def.position, a.position.map(v3));
    set(&mut def.forward, a.forward.map(v3));
    set(&mut def.team, a.team);
    if let Some(list) = &a.detect {
        def.detect = detect_mask(list)?;
    }
    let (s, spec) = (&mut def.sight, &a.sight);
    set(&mut s.enabled, spec.enabled);
    set(&mut s.eye_offset, spec.eye_offset.map(v3));
    set(&mut s.view_radius, spec.view_radius);
    set(&mut s.view_angle, spec.view_angle);
    set(&mut s.lose_sight_radius, spec.lose_sight_radius);
    set(&mut s.peripheral_radius, spec.peripheral_radius);
    set(&mut s.peripheral_angle, spec.peripheral_angle);
    set(&mut s.target_mask, spec.target_mask);
    set(&mut s.obstacle_mask, spec.obstacle_mask);
    set(&mut s.rate_hz, spec.rate_hz);
    let (h, spec) = (&mut def.hearing, &a.hearing);
    set(&mut h.enabled, spec.enabled);
    set(&mut h.sensitivity, spec.sensitivity);
    set(&mut h.sound_mask, spec.sound_mask);
    set(&mut h.obstacle_mask, spec.obstacle_mask);
    if let Some(path) = &spec.path {
        h.path = hearing_path(path)?;
    }
    set(&mut def.memory.decay_per_second, a.memory.decay_per_second);
    set(&mut def.memory.forget_threshold, a.memory.forget_threshold);
    set(&mut def.brain.enabled, a.brain.enabled);
    set(&mut def.brain.search_duration, a.brain.search_duration);
    set(&mut def.brain.investigate_timeout, a.brain.investigate_timeout);
    if let Some(search) = &a.brain.search {
        def.brain.search = search_kind(search)?;
    }
    set(&mut def.brain.give_up_probability, a.brain.give_up_probability);
    set(&mut def.brain.share_belief, a.brain.share_belief);
    let (w, spec) = (&mut def.awareness, &a.awareness);
    set(&mut w.enabled, spec.enabled);
    set(&mut w.rise_per_second, spec.rise_per_second);
    set(&mut w.fall_per_second, spec.fall_per_second);
    set(&mut w.far_factor, spec.far_factor);
    set(&mut w.edge_factor, spec.edge_factor);
    set(&mut w.suspicious_threshold, spec.suspicious_threshold);
    set(&mut w.alert_threshold, spec.alert_threshold);
    set(&mut w.aware_threshold, spec.aware_threshold);
    Ok(def)
}

pub fn target_def(t: &TargetSpec) -> TargetDef {
    let mut def = TargetDef::default();
    set(&mut def.position, t.position.map(v3));
    set(&mut def.forward, t.forward.map(v3));
    set(&mut def.team, t.team);
    set(&mut def.layers, t.layers);
    set(&mut def.enabled, t.enabled);
    set(&mut def.top_speed, t.top_speed);
    if let Some(points) = &t.check_points {
        def.check_points = points.iter().copied().map(v3).collect();
    }
    def
}

pub fn map_def(m: &MapSpec) -> InfluenceMapDef {
    let mut def = InfluenceMapDef { width: m.width, height: m.height, ..Default::default() };
    set(&mut def.cell_size, m.cell_size);
    set(&mut def.origin, m.origin.map(v3));
    def
}

pub fn sound_def(position: V3, loudness: f32, source: TargetId, team: Option<u32>, layers: Option<u32>) -> SoundDef {
    let mut def = SoundDef { position: v3(position), loudness, source, ..Default::default() };
    set(&mut def.team, team);
    set(&mut def.layers, layers);
    def
}

pub fn attitude(name: &str) -> Result<Attitude, String> {
    match name {
        "hostile" => Ok(Attitude::Hostile),
        "neutral" => Ok(Attitude::Neutral),
        "friendly" => Ok(Attitude::Friendly),
        other => Err(format!("unknown attitude {other:?} (hostile | neutral | friendly)")),
    }
}

fn detect_mask(names: &[String]) -> Result<AttitudeMask, String> {
    names.iter().try_fold(0, |mask, n| Ok(mask | attitude(n)?.bit()))
}

// ----- names of the library's enums, as the files spell them --------------------------------

pub fn brain_state_name(s: BrainState) -> &'static str {
    match s {
        BrainState::Idle => "idle",
        BrainState::Investigating => "investigating",
        BrainState::Chasing => "chasing",
        BrainState::Searching => "searching",
    }
}

pub fn stage_name(s: AwarenessStage) -> &'static str {
    match s {
        AwarenessStage::Unaware => "unaware",
        AwarenessStage::Suspicious => "suspicious",
        AwarenessStage::Alert => "alert",
        AwarenessStage::Aware => "aware",
    }
}

pub fn kind_name(k: PerceptKind) -> &'static str {
    match k {
        PerceptKind::Sight => "sight",
        PerceptKind::Sound => "sound",
    }
}

pub fn status_name(s: PointStatus) -> &'static str {
    match s {
        PointStatus::OutOfRange => "out_of_range",
        PointStatus::OutsideCone => "outside_cone",
        PointStatus::Blocked => "blocked",
        PointStatus::Visible => "visible",
        PointStatus::Filtered => "filtered",
    }
}

pub fn cover_mode(name: Option<&str>) -> Result<argus_core::tactics::CoverMode, String> {
    use argus_core::tactics::CoverMode;
    match name {
        None | Some("hidden_from_all") => Ok(CoverMode::HiddenFromAll),
        Some("hidden_from_most") => Ok(CoverMode::HiddenFromMost),
        Some(other) => Err(format!("unknown cover mode {other:?} (hidden_from_all | hidden_from_most)")),
    }
}
