//! `--guards N`: a generated level, run headless, timing every `World::step`.

use std::time::Instant;

use argus_core::{AgentId, Vec3, World, WorldDef};

use crate::level::{self, Leg, Rng};
use crate::script::{Guard, Player};
use crate::timeline::Transitions;

/// A random route for one target: sneak, run and stand still, over and over.
fn route(rng: &mut Rng, start: Vec3, size: f32) -> Vec<Leg> {
    let mut at = start;
    (0..64)
        .map(|_| {
            let roll = rng.range(0.0, 1.0);
            if roll < 0.2 {
                return Leg::Wait(rng.range(0.5, 3.0));
            }
            let next = (at + Vec3::new(rng.range(-10.0, 10.0), 0.0, rng.range(-10.0, 10.0)))
                .clamp(Vec3::ZERO, Vec3::new(size, 0.0, size));
            at = next;
            if roll < 0.7 { Leg::Sneak(next.x, next.z) } else { Leg::Run(next.x, next.z) }
        })
        .collect()
}

pub fn run(n: usize, seconds: f32, dt: f32, threads: u32) -> Result<(), Box<dyn std::error::Error>> {
    let level = level::generated(n, 0x5EED_F00D);
    let mut world = World::new(&WorldDef { worker_threads: threads, ..Default::default() })?;
    let (guard_ids, target_ids) = level::build_generated(&mut world, &level)?;
    let mut guards: Vec<Guard> =
        guard_ids.iter().zip(&level.patrols).map(|(&id, p)| Guard::new(id, "G", p.to_vec())).collect();
    let mut rng = Rng(0xC0FFEE);
    let mut players: Vec<Player> = target_ids
        .iter()
        .zip(&level.targets)
        .map(|(&id, &at)| Player::new(id, at, route(&mut rng, at, level.size)))
        .collect();
    println!(
        "generated level: {} guards, {} targets, {} walls on {:.0} m × {:.0} m; worker threads {threads}; dt 1/{:.0} s",
        guards.len(),
        players.len(),
        level.walls.len(),
        level.size,
        level.size,
        1.0 / dt
    );
    let steps = (seconds / dt).round().max(1.0) as usize;
    let (mut ids, mut positions, mut forwards) = (Vec::<AgentId>::new(), Vec::new(), Vec::new());
    let mut transitions = Transitions::default();
    let (mut total, mut max, mut percepts) = (0.0f64, 0.0f64, 0usize);
    for _ in 0..steps {
        for p in &mut players {
            p.advance(&mut world, dt)?;
        }
        ids.clear();
        positions.clear();
        forwards.clear();
        for g in &mut guards {
            // Walls are ignored for walking here: this run measures perception, not steering.
            let (position, forward) = g.advance(&mut world, &[], dt)?;
            ids.push(g.id);
            positions.push(position);
            forwards.push(forward);
        }
        world.set_agent_poses(&ids, &positions, Some(&forwards))?;
        let start = Instant::now();
        world.step(dt)?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        total += ms;
        max = max.max(ms);
        percepts += world.events().percepts.len();
        for e in &world.events().brain {
            transitions.add(e.from, e.to);
        }
    }
    let mean = total / steps as f64;
    println!(
        "{n} guards: {steps} steps, mean {mean:.3} ms/step, max {max:.3} ms/step, {:.0} steps/s ({:.1}× real time at dt {dt:.4} s)",
        1e3 / mean,
        dt as f64 * 1e3 / mean
    );
    println!("percepts {percepts}; transitions: {}", transitions.summary());
    Ok(())
}
