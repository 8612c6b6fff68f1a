//! The scenario file format (documented in `tests/scenarios/README.md`), as serde types.
//! Unknown fields and unknown actions are errors, so a typo can never silently skip a check.

use serde::{Deserialize, Deserializer};

/// `[x, y, z]` in metres, +Y up.
pub type V3 = [f32; 3];

/// Distinguishes an absent field (`None`: not checked) from `null` (`Some(None)`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// Which lesson section, card rule or README behaviour this encodes (free text).
    pub source: String,
    /// For readers only.
    #[serde(default)]
    #[allow(dead_code)]
    pub description: String,
    /// Default absolute tolerance of every float comparison in the file.
    pub tolerance: f32,
    #[serde(default)]
    pub world: WorldSpec,
    #[serde(default)]
    pub occluders: Vec<OccluderSpec>,
    /// The world's walk graph, set after the occluders (a grid sees them).
    pub walk_graph: Option<WalkGraphSpec>,
    #[serde(default)]
    pub agents: Vec<AgentSpec>,
    #[serde(default)]
    pub targets: Vec<TargetSpec>,
    #[serde(default)]
    pub maps: Vec<MapSpec>,
    pub timeline: Vec<Action>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct WorldSpec {
    /// "builtin" (default) or "engine".
    pub ray_backend: Option<String>,
    pub sound_occlusion: Option<f32>,
    /// "straight" (default) or "walk".
    pub hearing_path: Option<String>,
    /// `[observer team, other team, "hostile" | "neutral" | "friendly"]` entries set at creation.
    #[serde(default)]
    pub attitudes: Vec<(u32, u32, String)>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct OccluderSpec {
    pub name: String,
    /// "box" (needs `half_extents`), "sphere" (`radius`), "capsule" (`half_height`, `radius`).
    pub shape: String,
    pub position: V3,
    pub half_extents: Option<V3>,
    pub radius: Option<f32>,
    pub half_height: Option<f32>,
    /// Quaternion `[x, y, z, w]`; default identity.
    pub rotation: Option<[f32; 4]>,
    pub layers: Option<u32>,
    /// The fraction of reach sound keeps through it; absent = none of its own.
    pub sound_transmission: Option<f32>,
}

/// Exactly one of `grid` or `nodes` (with `edges` and `snap_distance`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct WalkGraphSpec {
    pub grid: Option<WalkGridSpec>,
    pub nodes: Option<Vec<V3>>,
    /// `[a, b, length]` each.
    pub edges: Option<Vec<(u32, u32, f32)>>,
    pub snap_distance: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct WalkGridSpec {
    pub origin: Option<V3>,
    pub width: u32,
    pub depth: u32,
    pub cell_size: Option<f32>,
    pub band_min: Option<f32>,
    pub band_max: Option<f32>,
    pub layers: Option<u32>,
    pub snap_distance: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AgentSpec {
    pub name: String,
    pub position: Option<V3>,
    pub forward: Option<V3>,
    pub team: Option<u32>,
    /// Attitudes perceived, e.g. `["hostile", "neutral"]`.
    pub detect: Option<Vec<String>>,
    #[serde(default)]
    pub sight: SightSpec,
    #[serde(default)]
    pub hearing: HearingSpec,
    #[serde(default)]
    pub memory: MemorySpec,
    #[serde(default)]
    pub brain: BrainSpec,
    #[serde(default)]
    pub awareness: AwarenessSpec,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct SightSpec {
    pub enabled: Option<bool>,
    pub eye_offset: Option<V3>,
    pub view_radius: Option<f32>,
    pub view_angle: Option<f32>,
    pub lose_sight_radius: Option<f32>,
    pub peripheral_radius: Option<f32>,
    pub peripheral_angle: Option<f32>,
    pub target_mask: Option<u32>,
    pub obstacle_mask: Option<u32>,
    pub rate_hz: Option<f32>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct HearingSpec {
    pub enabled: Option<bool>,
    pub sensitivity: Option<f32>,
    pub sound_mask: Option<u32>,
    pub obstacle_mask: Option<u32>,
    /// "world" (default), "straight" or "walk".
    pub path: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct MemorySpec {
    pub decay_per_second: Option<f32>,
    pub forget_threshold: Option<f32>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct BrainSpec {
    pub enabled: Option<bool>,
    pub search_duration: Option<f32>,
    pub investigate_timeout: Option<f32>,
    /// "last_known_position" (the lesson's, the default) or "belief".
    pub search: Option<String>,
    pub give_up_probability: Option<f32>,
    pub share_belief: Option<bool>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct AwarenessSpec {
    pub enabled: Option<bool>,
    pub rise_per_second: Option<f32>,
    pub fall_per_second: Option<f32>,
    pub far_factor: Option<f32>,
    pub edge_factor: Option<f32>,
    pub suspicious_threshold: Option<f32>,
    pub alert_threshold: Option<f32>,
    pub aware_threshold: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    pub name: String,
    pub position: Option<V3>,
    pub forward: Option<V3>,
    pub team: Option<u32>,
    pub layers: Option<u32>,
    /// Offsets from the position (1 to 8); default one at chest height.
    pub check_points: Option<Vec<V3>>,
    pub enabled: Option<bool>,
    /// Metres per second a belief about it spreads at.
    pub top_speed: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    pub name: String,
    pub width: u32,
    pub height: u32,
    pub cell_size: Option<f32>,
    pub origin: Option<V3>,
}

/// One timeline entry; `do` names the action.
#[derive(Deserialize, Debug)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Step {
        dt: f32,
        rays: Option<RaySpec>,
        tolerance: Option<f32>,
        expect: Option<StepExpect>,
    },
    SetAgentPose {
        agent: String,
        position: V3,
        forward: V3,
    },
    SetTargetPose {
        target: String,
        position: V3,
        forward: V3,
    },
    SetTargetEnabled {
        target: String,
        enabled: bool,
    },
    DestroyTarget {
        target: String,
    },
    SetOccluderPose {
        occluder: String,
        position: V3,
        rotation: Option<[f32; 4]>,
    },
    EmitSound {
        position: V3,
        loudness: f32,
        source: Option<String>,
        team: Option<u32>,
        layers: Option<u32>,
    },
    ReportArrived {
        agent: String,
    },
    SetAttitude {
        observer: u32,
        other: u32,
        attitude: String,
    },
    CanSee {
        agent: String,
        target: String,
        rays: Option<RaySpec>,
        tolerance: Option<f32>,
        expect: SightExpect,
    },
    VisibleTargets {
        agent: String,
        rays: Option<RaySpec>,
        expect: Vec<String>,
    },
    Memory {
        agent: String,
        target: String,
        tolerance: Option<f32>,
        expect: MemoryExpect,
    },
    AgentState {
        agent: String,
        tolerance: Option<f32>,
        expect: StateExpect,
    },
    AddInfluence {
        map: String,
        position: V3,
        value: f32,
        radius: i32,
    },
    Blur {
        map: String,
    },
    InfluenceCells {
        map: String,
        tolerance: Option<f32>,
        /// `height` rows (row r = cells with Z index r), each `width` values from X index 0.
        expect: Vec<Vec<f32>>,
    },
    InfluenceValue {
        map: String,
        position: V3,
        tolerance: Option<f32>,
        expect: f32,
    },
    FindCover {
        self_position: V3,
        threats: Vec<ThreatSpec>,
        candidates: Vec<V3>,
        map: Option<String>,
        mode: Option<String>,
        top_k: Option<u32>,
        tolerance: Option<f32>,
        expect: TacticalExpect,
    },
    FindWalk {
        from: V3,
        to: V3,
        limit: f32,
        tolerance: Option<f32>,
        expect: WalkExpect,
    },
    FindFlank {
        threat: ThreatSpec,
        candidates: Vec<V3>,
        map: Option<String>,
        top_k: Option<u32>,
        tolerance: Option<f32>,
        expect: TacticalExpect,
    },
}

/// `find_walk`: `found`, and when found its `distance` and `node_count`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct WalkExpect {
    pub found: bool,
    pub distance: Option<f32>,
    pub node_count: Option<u32>,
}

/// How the runner answers the rays of an engine-ray world (ignored rules for a builtin world
/// are an error: the file would be lying about what is tested).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RaySpec {
    /// "clear" (no hit) or "blocked" (a hit at `distance`, default half the ray's length).
    pub answer: String,
    pub distance: Option<f32>,
    /// The rays the library must ask for, in order: `[agent name, target name]` each.
    pub expect: Option<Vec<(String, String)>>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct StepExpect {
    pub percepts: Option<Vec<PerceptExpect>>,
    pub brain: Option<Vec<BrainEventExpect>>,
    pub forgotten: Option<Vec<ForgetExpect>>,
    pub awareness: Option<Vec<AwarenessEventExpect>>,
    /// Targets seen at this step's sight ticks and not at the previous ones (C ABI:
    /// `argus_world_get_seen_events`).
    pub seen: Option<Vec<SightEventExpect>>,
    /// Targets seen at the previous sight ticks and not at this step's
    /// (`argus_world_get_lost_events`).
    pub lost: Option<Vec<SightEventExpect>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SightEventExpect {
    pub agent: String,
    pub target: String,
    /// Seen: the target's position; lost: where it was last perceived.
    pub position: Option<V3>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PerceptExpect {
    pub agent: String,
    /// "sight" or "sound".
    pub kind: String,
    /// Target name, or `null` for an anonymous sound; absent = not checked.
    #[serde(default, deserialize_with = "present")]
    pub target: Option<Option<String>>,
    pub position: Option<V3>,
    pub strength: Option<f32>,
    pub time: Option<f32>,
    /// Sound percepts: which sound, its index in emission order since the previous step.
    pub sound_index: Option<u32>,
    /// Sound percepts: the sound's loudness as emitted.
    pub loudness: Option<f32>,
    /// Sound percepts: the metres it travelled (straight line or walk).
    pub distance: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct BrainEventExpect {
    pub agent: String,
    pub from: String,
    pub to: String,
    #[serde(default, deserialize_with = "present")]
    pub target: Option<Option<String>>,
    pub time: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ForgetExpect {
    pub agent: String,
    pub target: String,
    pub position: Option<V3>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AwarenessEventExpect {
    pub agent: String,
    pub target: String,
    pub from: String,
    pub to: String,
    pub level: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SightExpect {
    pub seen: bool,
    pub perceivable: Option<bool>,
    pub fraction: Option<f32>,
    /// One entry per check point, in order.
    pub points: Option<Vec<PointExpect>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PointExpect {
    /// "out_of_range", "outside_cone", "blocked", "visible" or "filtered".
    pub status: String,
    /// Where the ray hit the occluder (blocked points only).
    pub hit: Option<V3>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MemoryExpect {
    /// Whether the agent holds a record of the target (a forgotten record is dropped).
    pub exists: bool,
    pub confidence: Option<f32>,
    pub last_known_position: Option<V3>,
    pub seen: Option<bool>,
    pub awareness: Option<f32>,
    pub stage: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct StateExpect {
    pub brain_state: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub focus: Option<Option<String>>,
    pub timer: Option<f32>,
    /// Where the brain wants to go, `null` when Idle.
    #[serde(default, deserialize_with = "present")]
    pub move_target: Option<Option<V3>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ThreatSpec {
    pub position: V3,
    pub forward: V3,
    /// Where cover rays start (cover needs it; flanks ignore it).
    pub eye: Option<V3>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TacticalExpect {
    /// The best spot, or the fallback (cover: `self_position`; flank: the threat) when none.
    pub position: V3,
    pub found: u32,
    /// The ranked results, best first (checked when present).
    pub results: Option<Vec<TacticalResultExpect>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TacticalResultExpect {
    pub position: V3,
    pub score: f32,
    pub candidate_index: u32,
    pub hidden_from: Option<u32>,
}
