//! Shared builders for the integration tests.
#![allow(dead_code)]

use argus_core::*;

pub mod finite;

/// An agent as the lesson has it: eye at its position, sensing every step, facing `forward`.
pub fn lesson_agent(position: Vec3, forward: Vec3) -> AgentDef {
    let mut def = AgentDef { position, forward, ..Default::default() };
    def.sight.eye_offset = Vec3::ZERO;
    def.sight.rate_hz = 0.0;
    def
}

/// A target whose single check point is its position.
pub fn point_target(position: Vec3) -> TargetDef {
    TargetDef { position, check_points: vec![Vec3::ZERO], ..Default::default() }
}

/// A world with one lesson agent at the origin facing +Z.
pub fn lesson_world() -> (World, AgentId) {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let agent = world.create_agent(&lesson_agent(Vec3::ZERO, Vec3::Z)).unwrap();
    (world, agent)
}

/// Position on the XZ plane at `degrees` from +Z towards +X, `distance` away.
pub fn at_angle(degrees: f32, distance: f32) -> Vec3 {
    let r = degrees.to_radians();
    Vec3::new(r.sin() * distance, 0.0, r.cos() * distance)
}

/// A wall: a box occluder centred at `center`.
pub fn wall(center: Vec3, half_extents: Vec3) -> OccluderDef {
    OccluderDef::cuboid(center, half_extents)
}

/// A tiny deterministic generator (xorshift64*), so tests need no extra crates.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next_u64() % n as u64) as u32
    }
    pub fn chance(&mut self, p: f32) -> bool {
        self.range(0.0, 1.0) < p
    }
}

/// A random level that moves: guards, players, walls and noises, driven by a seed.
pub struct Scenario {
    pub rng: Rng,
    pub agents: Vec<AgentId>,
    pub targets: Vec<TargetId>,
    pub movers: Vec<OccluderId>,
    pub size: f32,
}

impl Scenario {
    pub fn build(world: &mut World, seed: u64, agents: usize, targets: usize, walls: usize) -> Scenario {
        let mut rng = Rng(seed.max(1));
        let size = 40.0;
        let mut movers = Vec::new();
        for i in 0..walls {
            let def = OccluderDef {
                shape: OccluderShape::Box {
                    half_extents: Vec3::new(rng.range(0.3, 3.0), rng.range(0.5, 2.5), rng.range(0.3, 3.0)),
                },
                position: Vec3::new(rng.range(-size, size), 1.0, rng.range(-size, size)),
                rotation: Quat::from_rotation_y(rng.range(0.0, std::f32::consts::TAU)),
                movable: i % 4 == 0,
                ..Default::default()
            };
            let id = world.add_occluder(&def).unwrap();
            if def.movable {
                movers.push(id);
            }
        }
        let mut agent_ids = Vec::new();
        for i in 0..agents {
            let mut def = AgentDef {
                position: Vec3::new(rng.range(-size, size), 0.0, rng.range(-size, size)),
                forward: Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)) + Vec3::new(0.01, 0.0, 0.0),
                ..Default::default()
            };
            def.sight.view_radius = rng.range(6.0, 18.0);
            def.sight.view_angle = rng.range(60.0, 200.0);
            def.sight.rate_hz = [0.0, 5.0, 10.0, 30.0][i % 4];
            if i % 3 == 0 {
                def.sight.lose_sight_radius = def.sight.view_radius * 1.3;
            }
            if i % 5 == 0 {
                def.sight.peripheral_radius = 4.0;
            }
            def.awareness.enabled = i % 2 == 0;
            def.memory.decay_per_second = rng.range(0.1, 0.6);
            agent_ids.push(world.create_agent(&def).unwrap());
        }
        let mut target_ids = Vec::new();
        for i in 0..targets {
            let points = (0..(1 + i % 4)).map(|k| Vec3::new(0.0, 0.4 + 0.45 * k as f32, 0.0)).collect();
            let def = TargetDef {
                position: Vec3::new(rng.range(-size, size), 0.0, rng.range(-size, size)),
                check_points: points,
                ..Default::default()
            };
            target_ids.push(world.create_target(&def).unwrap());
        }
        Scenario { rng, agents: agent_ids, targets: target_ids, movers, size }
    }

    /// Moves everything a little and makes some noise; call before each step.
    pub fn drive(&mut self, world: &mut World) {
        let rng = &mut self.rng;
        for &t in &self.targets {
            let p = world.target(t).unwrap().position();
            let step = Vec3::new(rng.range(-1.5, 1.5), 0.0, rng.range(-1.5, 1.5));
            let next = (p + step).clamp(Vec3::splat(-self.size), Vec3::splat(self.size));
            world.set_target_pose(t, next, Vec3::Z).unwrap();
            if rng.chance(0.1) {
                let loudness = if rng.chance(0.5) { 15.0 } else { 6.0 };
                world.emit_sound(&SoundDef { position: next, loudness, source: t, ..Default::default() }).unwrap();
            }
        }
        let poses: Vec<(AgentId, Vec3, Vec3)> = self
            .agents
            .iter()
            .map(|&a| {
                let agent = world.agent(a).unwrap();
                let turn = Quat::from_rotation_y(rng.range(-0.3, 0.3));
                (
                    a,
                    agent.position() + Vec3::new(rng.range(-0.5, 0.5), 0.0, rng.range(-0.5, 0.5)),
                    turn * agent.forward(),
                )
            })
            .collect();
        let ids: Vec<_> = poses.iter().map(|p| p.0).collect();
        let positions: Vec<_> = poses.iter().map(|p| p.1).collect();
        let forwards: Vec<_> = poses.iter().map(|p| p.2).collect();
        world.set_agent_poses(&ids, &positions, Some(&forwards)).unwrap();
        for &o in &self.movers {
            let p = world.occluder(o).unwrap().def().position;
            let r = Quat::from_rotation_y(rng.range(0.0, std::f32::consts::TAU));
            world.set_occluder_pose(o, p + Vec3::new(rng.range(-0.5, 0.5), 0.0, rng.range(-0.5, 0.5)), r).unwrap();
        }
        if rng.chance(0.2) {
            let a = self.agents[rng.below(self.agents.len() as u32) as usize];
            world.report_arrived(a).unwrap();
        }
    }
}

/// Everything a step reported, for exact comparisons.
pub fn snapshot_events(world: &World) -> StepEvents {
    world.events().clone()
}
