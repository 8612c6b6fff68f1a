//! Random worlds for `tests/differential.rs`: a seeded xorshift, generators that produce the
//! reference's plain values, and converters to argus's definitions, so both sides are built from
//! the very same numbers.
#![allow(dead_code)]

use argus_core::*;

use super::reference::*;

/// xorshift64* — tiny, seeded, no dependencies.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // splitmix64 scrambles the seed so neighbouring seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [lo, hi).
    pub fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, p: f32) -> bool {
        self.f(0.0, 1.0) < p
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    pub fn bits(&mut self) -> u32 {
        if self.chance(0.6) { u32::MAX } else { self.below(8) as u32 }
    }
    /// A facing: mostly level, sometimes tilted, sometimes exactly along an axis.
    pub fn facing(&mut self) -> Vec3 {
        if self.chance(0.1) {
            return self.pick(&[Vec3::Z, Vec3::X, Vec3::NEG_Z, Vec3::NEG_X]);
        }
        let a = self.f(0.0, std::f32::consts::TAU);
        let y = if self.chance(0.2) { self.f(-0.6, 0.6) } else { 0.0 };
        Vec3::new(a.sin(), y, a.cos()) * self.f(0.5, 2.0)
    }
    pub fn rotation(&mut self) -> Quat {
        match self.below(10) {
            0..=2 => Quat::IDENTITY,
            3..=6 => Quat::from_rotation_y(self.f(0.0, 6.3)),
            _ => loop {
                let q = Quat::from_xyzw(self.f(-1.0, 1.0), self.f(-1.0, 1.0), self.f(-1.0, 1.0), self.f(-1.0, 1.0));
                if q.length_squared() > 0.05 {
                    break q;
                }
            },
        }
    }
}

/// How big the level is and how much is in it.
#[derive(Copy, Clone, Debug)]
pub struct Sizes {
    pub arena: f32,
    pub agents: usize,
    pub targets: usize,
    pub occluders: usize,
    pub steps: usize,
    /// Only dt values that are binary fractions, so decay and timers land exactly on thresholds.
    pub binary_dt: bool,
    /// Chance per step that each occluder moves (high enough in some worlds to rebuild the BVH).
    pub occluder_moves: f32,
}

pub fn sizes(rng: &mut Rng) -> Sizes {
    let binary_dt = rng.chance(0.15);
    let occluder_moves = if rng.chance(0.05) { 0.6 } else { 0.08 };
    if rng.chance(0.1) {
        // A crowd, so the broadphase does real culling instead of visiting every target.
        let (agents, targets) = (1 + rng.below(6), 5 + rng.below(20));
        Sizes {
            arena: 30.0,
            agents,
            targets,
            occluders: rng.below(7),
            steps: 5 + rng.below(26),
            binary_dt,
            occluder_moves,
        }
    } else {
        let (agents, targets) = (1 + rng.below(4), 1 + rng.below(4));
        Sizes {
            arena: 12.0,
            agents,
            targets,
            occluders: rng.below(7),
            steps: 5 + rng.below(26),
            binary_dt,
            occluder_moves,
        }
    }
}

pub fn world_def(rng: &mut Rng) -> WorldDef {
    WorldDef {
        worker_threads: if rng.chance(0.02) { 2 + rng.below(3) as u32 } else { 1 },
        broadphase_cell_size: if rng.chance(0.5) { 0.0 } else { rng.f(0.5, 25.0) },
        // Some worlds hand their rays to "the engine", answered by the reference's ray cast.
        ray_backend: if rng.chance(0.1) { RayBackend::Engine } else { RayBackend::Builtin },
        ..Default::default()
    }
}

pub fn agent(rng: &mut Rng, arena: f32) -> RefAgentDef {
    let mut d = RefAgentDef::default();
    let y = if rng.chance(0.2) { rng.f(-1.0, 2.0) } else { 0.0 };
    d.position = Vec3::new(rng.f(-arena, arena), y, rng.f(-arena, arena));
    d.forward = rng.facing();
    d.team = rng.pick(&[0, 0, 0, 0, 0, 1, 2]);
    d.detect = if rng.chance(0.8) { SEE_HOSTILE } else { rng.below(8) as u32 };
    d.sight_enabled = rng.chance(0.95);
    d.eye_offset = match rng.below(5) {
        0 | 1 => Vec3::new(0.0, 1.6, 0.0),
        2 => Vec3::ZERO,
        _ => Vec3::new(rng.f(-0.3, 0.3), rng.f(0.0, 2.0), rng.f(-0.3, 0.3)),
    };
    d.view_radius = match rng.below(30) {
        0 => 0.0,
        1..=6 => 10.0,
        _ => rng.f(1.0, 20.0),
    };
    d.view_angle = match rng.below(40) {
        0 => 0.0,
        1..=8 => 90.0,
        9..=14 => 360.0,
        15..=16 => 180.0,
        _ => rng.f(1.0, 359.9),
    };
    d.target_mask = rng.bits();
    d.obstacle_mask = rng.bits();
    d.hearing_enabled = rng.chance(0.9);
    d.hearing_sensitivity = match rng.below(30) {
        0 => 0.0,
        1..=15 => 1.0,
        _ => rng.f(0.2, 3.0),
    };
    d.sound_mask = if rng.chance(0.8) { u32::MAX } else { rng.below(4) as u32 };
    d.decay_per_second = match rng.below(20) {
        0 => 0.0,
        1..=4 => 0.2,
        5..=6 => rng.pick(&[0.25, 0.5, 1.0]),
        _ => rng.f(0.0, 1.5),
    };
    d.forget_threshold = match rng.below(20) {
        0 => 0.0,
        1..=8 => 0.05,
        9..=10 => rng.pick(&[0.25, 0.5]),
        _ => rng.f(0.0, 0.9),
    };
    d.brain.enabled = rng.chance(0.95);
    d.brain.search_duration = match rng.below(10) {
        0 => 0.0,
        1..=2 => 4.0,
        3 => rng.pick(&[0.5, 1.0]),
        _ => rng.f(0.0, 3.0),
    };
    d.brain.investigate_timeout = match rng.below(10) {
        0 => 0.0,
        1..=2 => 10.0,
        3 => rng.pick(&[0.5, 1.0]),
        _ => rng.f(0.0, 3.0),
    };
    d
}

pub fn check_points(rng: &mut Rng) -> Vec<Vec3> {
    match rng.below(10) {
        0..=4 => vec![Vec3::new(0.0, 1.3, 0.0)],
        5 => vec![Vec3::ZERO],
        _ => {
            let spread = if rng.chance(0.1) { 4.0 } else { 0.5 };
            (0..1 + rng.below(4))
                .map(|_| Vec3::new(rng.f(-spread, spread), rng.f(0.0, 2.2), rng.f(-spread, spread)))
                .collect()
        }
    }
}

pub fn target(rng: &mut Rng, arena: f32) -> RefTarget {
    RefTarget {
        position: Vec3::new(
            rng.f(-arena, arena),
            if rng.chance(0.1) { rng.f(-1.0, 2.0) } else { 0.0 },
            rng.f(-arena, arena),
        ),
        team: rng.pick(&[1, 1, 1, 1, 1, 0, 2]),
        layers: rng.pick(&[1, 1, 1, 2, 3, 4]),
        check_points: check_points(rng),
        enabled: rng.chance(0.9),
    }
}

pub fn shape(rng: &mut Rng) -> RefShape {
    match rng.below(20) {
        0..=7 => RefShape::Box { half_extents: Vec3::new(rng.f(0.1, 3.0), rng.f(0.2, 2.5), rng.f(0.1, 3.0)) },
        8..=11 => RefShape::Sphere { radius: rng.f(0.2, 2.0) },
        12..=16 => RefShape::Capsule {
            half_height: if rng.chance(0.1) { 0.0 } else { rng.f(0.1, 1.5) },
            radius: rng.f(0.1, 1.0),
        },
        _ => {
            let (w, h) = (rng.f(0.5, 3.0), rng.f(0.5, 2.0));
            let vertices =
                vec![Vec3::new(-w, -h, 0.0), Vec3::new(w, -h, 0.0), Vec3::new(w, h, 0.0), Vec3::new(-w, h, 0.0)];
            RefShape::Mesh { vertices, indices: vec![[0, 1, 2], [0, 2, 3]] }
        }
    }
}

pub fn occluder_pose(rng: &mut Rng, arena: f32) -> (Vec3, Quat) {
    (Vec3::new(rng.f(-arena, arena), rng.f(0.0, 2.5), rng.f(-arena, arena)), rng.rotation())
}

pub fn dt(rng: &mut Rng, binary: bool) -> f32 {
    if binary {
        return rng.pick(&[0.125, 0.25, 0.25, 0.5]);
    }
    match rng.below(20) {
        0 => 0.0,
        1..=4 => 1.0 / 60.0,
        5..=8 => 0.1,
        9..=11 => 0.25,
        12..=13 => 0.5,
        _ => rng.f(0.0, 0.6),
    }
}

// ----- converters: the same numbers, as argus definitions ---------------------------------------

pub fn argus_agent(d: &RefAgentDef) -> AgentDef {
    let mut a =
        AgentDef { position: d.position, forward: d.forward, team: d.team, detect: d.detect, ..Default::default() };
    a.sight = SightConfig {
        enabled: d.sight_enabled,
        eye_offset: d.eye_offset,
        view_radius: d.view_radius,
        view_angle: d.view_angle,
        target_mask: d.target_mask,
        obstacle_mask: d.obstacle_mask,
        rate_hz: 0.0, // every step, like the lesson's Update
        ..Default::default()
    };
    a.hearing = HearingConfig {
        enabled: d.hearing_enabled,
        sensitivity: d.hearing_sensitivity,
        sound_mask: d.sound_mask,
        ..Default::default()
    };
    a.memory = MemoryConfig { decay_per_second: d.decay_per_second, forget_threshold: d.forget_threshold };
    a.brain = BrainConfig {
        enabled: d.brain.enabled,
        search_duration: d.brain.search_duration,
        investigate_timeout: d.brain.investigate_timeout,
        ..Default::default()
    };
    a.awareness.enabled = false; // the lesson has no awareness meter: the brain chases on sight
    a
}

pub fn argus_target(t: &RefTarget) -> TargetDef {
    TargetDef {
        position: t.position,
        team: t.team,
        layers: t.layers,
        check_points: t.check_points.clone(),
        enabled: t.enabled,
        ..Default::default()
    }
}

pub fn argus_occluder(shape: &RefShape, position: Vec3, rotation: Quat, layers: u32) -> OccluderDef {
    let shape = match shape.clone() {
        RefShape::Box { half_extents } => OccluderShape::Box { half_extents },
        RefShape::Sphere { radius } => OccluderShape::Sphere { radius },
        RefShape::Capsule { half_height, radius } => OccluderShape::Capsule { half_height, radius },
        RefShape::Mesh { vertices, indices } => OccluderShape::Mesh { vertices, indices },
    };
    OccluderDef { shape, position, rotation, layers, ..Default::default() }
}

pub fn argus_id(id: Option<RefId>) -> TargetId {
    id.map_or(TargetId::NULL, |i| TargetId { index: i.index, generation: i.generation })
}

pub fn ref_id(id: TargetId) -> Option<RefId> {
    (!id.is_null()).then_some(RefId { index: id.index, generation: id.generation })
}

pub fn ref_state(s: BrainState) -> RefState {
    match s {
        BrainState::Idle => RefState::Idle,
        BrainState::Investigating => RefState::Investigating,
        BrainState::Chasing => RefState::Chasing,
        BrainState::Searching => RefState::Searching,
    }
}

pub fn argus_attitude(a: RefAttitude) -> Attitude {
    match a {
        RefAttitude::Hostile => Attitude::Hostile,
        RefAttitude::Neutral => Attitude::Neutral,
        RefAttitude::Friendly => Attitude::Friendly,
    }
}
