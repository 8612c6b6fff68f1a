//! Seeded scenes built identically in argus and in the lesson-literal reference.

use argus_core::{AgentDef, OccluderDef, OccluderShape, Quat, TargetDef, Vec3, World, WorldDef};

use crate::reference::{RefAgentDef, RefShape, RefTarget, RefWorld};

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// The town: agents (15 m, 110°), targets and rotated box occluders (0.5–3.5 m half extents)
/// scattered over a square `side` metres wide.
pub struct Town {
    pub agents: Vec<(Vec3, Vec3)>,
    pub targets: Vec<Vec3>,
    pub boxes: Vec<(Vec3, Vec3, Quat)>,
}

impl Town {
    /// `agents` agents at the density of the town (10,000 on 256 m × 256 m, with 1,000
    /// targets and 2,000 boxes).
    pub fn at_town_density(agents: usize, seed: u64) -> Town {
        let side = 256.0 * (agents as f32 / 10_000.0).sqrt();
        Town::new(agents, agents / 10, agents / 5, side, seed)
    }

    pub fn new(agents: usize, targets: usize, boxes: usize, side: f32, seed: u64) -> Town {
        let mut rng = Rng(seed | 1);
        let spot = |rng: &mut Rng| Vec3::new(rng.f(0.0, side), 0.0, rng.f(0.0, side));
        let boxes = (0..boxes)
            .map(|_| {
                let half = Vec3::new(rng.f(0.5, 3.5), rng.f(0.5, 3.5), rng.f(0.5, 3.5));
                let mut p = spot(&mut rng);
                p.y = half.y;
                (p, half, Quat::from_rotation_y(rng.f(0.0, std::f32::consts::TAU)))
            })
            .collect();
        let agents = (0..agents)
            .map(|_| {
                let p = spot(&mut rng);
                let a = rng.f(0.0, std::f32::consts::TAU);
                (p, Vec3::new(a.sin(), 0.0, a.cos()))
            })
            .collect();
        let targets = (0..targets).map(|_| spot(&mut rng)).collect();
        Town { agents, targets, boxes }
    }

    pub fn argus(&self, rate_hz: f32, threads: u32) -> World {
        let mut world = World::new(&WorldDef { worker_threads: threads, ..Default::default() }).unwrap();
        for &(position, half, rotation) in &self.boxes {
            let def = OccluderDef {
                shape: OccluderShape::Box { half_extents: half },
                position,
                rotation,
                ..Default::default()
            };
            world.add_occluder(&def).unwrap();
        }
        for &(position, forward) in &self.agents {
            let mut def = AgentDef { position, forward, ..Default::default() };
            def.sight.view_radius = 15.0;
            def.sight.view_angle = 110.0;
            def.sight.rate_hz = rate_hz;
            world.create_agent(&def).unwrap();
        }
        for &position in &self.targets {
            world.create_target(&TargetDef { position, ..Default::default() }).unwrap();
        }
        world
    }

    pub fn reference(&self) -> RefWorld {
        let mut world = RefWorld::new();
        for &(position, half, rotation) in &self.boxes {
            world.add_occluder(RefShape::Box { half_extents: half }, position, rotation, 1);
        }
        for &(position, forward) in &self.agents {
            world.add_agent(&RefAgentDef {
                position,
                forward,
                view_radius: 15.0,
                view_angle: 110.0,
                ..Default::default()
            });
        }
        for &position in &self.targets {
            world.add_target(RefTarget { position, ..Default::default() });
        }
        world
    }
}
