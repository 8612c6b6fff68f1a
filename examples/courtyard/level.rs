//! The levels: the hand-made courtyard of the scripted scene, and a generated level of any size
//! for the headless timing run. Coordinates are metres on the ground plane (X, Z); +Y is up.

use argus_core::{AgentDef, AgentId, Labelled, OccluderDef, OccluderId, TargetDef, TargetId, Vec3, World};

/// Courtyard size along X and Z.
pub const WIDTH: f32 = 32.0;
pub const DEPTH: f32 = 22.0;

/// An axis-aligned box wall: centre and half extents.
#[derive(Copy, Clone, Debug)]
pub struct Wall {
    pub center: Vec3,
    pub half: Vec3,
}

impl Wall {
    /// A wall standing on the ground, `height` tall, spanning `x0..x1` × `z0..z1`.
    fn span(x0: f32, z0: f32, x1: f32, z1: f32, height: f32) -> Wall {
        let half = Vec3::new((x1 - x0) * 0.5, height * 0.5, (z1 - z0) * 0.5);
        Wall { center: Vec3::new((x0 + x1) * 0.5, height * 0.5, (z0 + z1) * 0.5), half }
    }

    /// True if `p` lies inside the wall's box grown by `margin`.
    pub fn contains(&self, p: Vec3, margin: f32) -> bool {
        (p - self.center).abs().cmple(self.half + Vec3::splat(margin)).all()
    }

    /// True if the ground point `p` lies within `margin` of the wall's footprint.
    pub fn blocks(&self, p: Vec3, margin: f32) -> bool {
        (p.x - self.center.x).abs() < self.half.x + margin && (p.z - self.center.z).abs() < self.half.z + margin
    }
}

/// A guard: its name and the patrol loop it walks while Idle.
pub struct GuardSpec {
    pub name: &'static str,
    pub patrol: Vec<Vec3>,
}

/// One leg of the player's script.
#[derive(Copy, Clone, Debug)]
pub enum Leg {
    /// Walk quietly to (x, z): footsteps of loudness 6.
    Sneak(f32, f32),
    /// Run to (x, z): footsteps of loudness 15.
    Run(f32, f32),
    /// Stand still (hidden, silent) for this many seconds.
    Wait(f32),
}

/// Everything the scripted scene is made of.
pub struct Level {
    pub walls: Vec<Wall>,
    pub guards: Vec<GuardSpec>,
    pub player_start: Vec3,
    pub legs: Vec<Leg>,
}

fn p(x: f32, z: f32) -> Vec3 {
    Vec3::new(x, 0.0, z)
}

/// The walled courtyard: outer walls, a long wall across the middle, a short wall in the east,
/// crates; three guards; the player's route (sneak along the middle wall and freeze, run east,
/// sneak round the end of the east wall and hide behind it).
pub fn courtyard() -> Level {
    let t = 0.5; // outer wall thickness
    let walls = vec![
        Wall::span(-t, -t, WIDTH + t, 0.0, 3.0),
        Wall::span(-t, DEPTH, WIDTH + t, DEPTH + t, 3.0),
        Wall::span(-t, 0.0, 0.0, DEPTH, 3.0),
        Wall::span(WIDTH, 0.0, WIDTH + t, DEPTH, 3.0),
        Wall::span(9.0, 10.6, 21.0, 11.4, 2.5),  // the long middle wall
        Wall::span(24.6, 12.5, 25.4, 20.0, 2.5), // the east wall
        Wall::span(4.0, 15.0, 6.0, 17.0, 2.0),   // a stack of crates
        Wall::span(5.0, 4.0, 7.0, 6.0, 2.0),     // a crate in the north-west
        Wall::span(28.0, 5.0, 29.5, 6.5, 2.5),   // a pillar in the north-east
    ];
    let guards = vec![
        GuardSpec { name: "G1", patrol: vec![p(20.0, 8.0), p(6.0, 8.0)] },
        GuardSpec { name: "G2", patrol: vec![p(12.0, 20.5), p(3.0, 20.5), p(20.0, 20.5)] },
        GuardSpec { name: "G3", patrol: vec![p(22.0, 2.5), p(30.5, 2.5)] },
    ];
    let legs = vec![
        Leg::Sneak(11.5, 13.0), // south of the middle wall; G1 patrols north of it
        Leg::Wait(5.4),         // frozen while G1 comes to look
        Leg::Run(25.9, 12.1),   // a dash east: every guard hears it, G2 sees it
        Leg::Sneak(26.3, 13.2), // round the end of the east wall, quietly
        Leg::Sneak(26.3, 16.5),
        Leg::Wait(30.0), // hidden behind the east wall
    ];
    Level { walls, guards, player_start: p(4.0, 13.0), legs }
}

/// A guard as the scene uses it: the library defaults (10 m, 90°, 10 Hz, eye 1.6 m).
fn guard_def(position: Vec3, forward: Vec3) -> AgentDef {
    AgentDef { position, forward, ..Default::default() }
}

/// Creates the walls, guards (facing their second waypoint) and the player; returns the guards,
/// the player and the walls' occluder ids (in `level.walls` order).
pub fn build(world: &mut World, level: &Level) -> argus_core::Result<(Vec<AgentId>, TargetId, Vec<OccluderId>)> {
    let mut walls = Vec::new();
    for w in &level.walls {
        walls.push(world.add_occluder(&OccluderDef::cuboid(w.center, w.half))?);
    }
    let mut guards = Vec::new();
    for g in &level.guards {
        let forward = (g.patrol[1] - g.patrol[0]).normalize();
        let id = world.create_agent(&guard_def(g.patrol[0], forward))?;
        // The names a recording keeps and the inspector shows.
        world.set_label(Labelled::Agent(id), g.name)?;
        guards.push(id);
    }
    let player = world.create_target(&TargetDef { position: level.player_start, ..Default::default() })?;
    world.set_label(Labelled::Target(player), "player")?;
    Ok((guards, player, walls))
}

/// A tiny deterministic generator (xorshift64*): the generated level needs no extra crates.
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
}

/// A generated level: `n` guards with two-point patrols, a target per 10 guards and a wall per
/// 2 guards, on a square whose side grows with √n so the density stays that of a courtyard.
pub struct Generated {
    pub size: f32,
    pub walls: Vec<Wall>,
    pub patrols: Vec<[Vec3; 2]>,
    pub targets: Vec<Vec3>,
}

pub fn generated(n: usize, seed: u64) -> Generated {
    let mut rng = Rng(seed.max(1));
    let size = (n as f32 * 150.0).sqrt().max(20.0);
    let spot = |rng: &mut Rng| p(rng.range(0.0, size), rng.range(0.0, size));
    let walls = (0..n.div_ceil(2))
        .map(|_| {
            let c = spot(&mut rng);
            let (hx, hz) =
                if rng.range(0.0, 1.0) < 0.5 { (rng.range(1.0, 4.0), 0.3) } else { (0.3, rng.range(1.0, 4.0)) };
            Wall { center: Vec3::new(c.x, 1.25, c.z), half: Vec3::new(hx, 1.25, hz) }
        })
        .collect();
    let patrols = (0..n)
        .map(|_| {
            let a = spot(&mut rng);
            let d = p(rng.range(-8.0, 8.0), rng.range(-8.0, 8.0));
            [a, (a + d).clamp(Vec3::ZERO, Vec3::new(size, 0.0, size))]
        })
        .collect();
    let targets = (0..n.div_ceil(10).max(1)).map(|_| spot(&mut rng)).collect();
    Generated { size, walls, patrols, targets }
}

/// Creates a generated level in `world`.
pub fn build_generated(world: &mut World, level: &Generated) -> argus_core::Result<(Vec<AgentId>, Vec<TargetId>)> {
    for w in &level.walls {
        world.add_occluder(&OccluderDef::cuboid(w.center, w.half))?;
    }
    let mut guards = Vec::with_capacity(level.patrols.len());
    for [a, b] in &level.patrols {
        let forward = if a.distance_squared(*b) > 1e-6 { (*b - *a).normalize() } else { Vec3::Z };
        guards.push(world.create_agent(&guard_def(*a, forward))?);
    }
    let mut targets = Vec::new();
    for t in &level.targets {
        targets.push(world.create_target(&TargetDef { position: *t, ..Default::default() })?);
    }
    Ok((guards, targets))
}
