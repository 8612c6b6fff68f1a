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

/// CPU time of the whole process so far in ms (all threads): unlike wall time, it does not
/// count the time this process waited for a shared core.
fn cpu_ms() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid out-pointer to a local.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 * 1e-6
}

pub fn run(
    n: usize,
    seconds: f32,
    dt: f32,
    threads: u32,
    record: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
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
    if let Some(path) = record {
        // The step times below then include the recorder's work.
        crate::record::start(&mut world, path)?;
    }
    let (mut ids, mut positions, mut forwards) = (Vec::<AgentId>::new(), Vec::new(), Vec::new());
    let mut transitions = Transitions::default();
    let mut times = Vec::with_capacity(steps);
    let (mut cpu_times, mut sounds) = (Vec::with_capacity(steps), Vec::with_capacity(steps));
    let mut percepts = 0usize;
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
        sounds.push(world.pending_sounds().len());
        let (start, cpu) = (Instant::now(), cpu_ms());
        world.step(dt)?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
        cpu_times.push(cpu_ms() - cpu);
        percepts += world.events().percepts.len();
        for e in &world.events().brain {
            transitions.add(e.from, e.to);
        }
    }
    if let Some(path) = record {
        let bytes = crate::record::finish(&mut world, path)?;
        println!("recorded {steps} steps into {path} ({bytes} bytes; the step times include recording)");
    }
    let mean = times.iter().sum::<f64>() / steps as f64;
    println!(
        "{n} guards: {steps} steps, mean {mean:.3} ms/step, {:.0} steps/s ({:.1}× real time at dt {dt:.4} s)",
        1e3 / mean,
        dt as f64 * 1e3 / mean
    );
    // A game budgets for its worst frame: the spread, and the worst step once the first second
    // (when every agent's first sight tick and every buffer's growth happen) is over.
    let first_second = ((1.0 / dt).round() as usize).min(steps);
    for (what, t) in [("wall", &times), ("process CPU", &cpu_times)] {
        let after = &t[first_second..];
        let max_after = after.iter().copied().fold(0.0f64, f64::max);
        let mut sorted = t.clone();
        sorted.sort_by(f64::total_cmp);
        let pick = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        let (p50, p99, max) = (pick(0.5), pick(0.99), sorted[sorted.len() - 1]);
        println!(
            "per step ({what}): p50 {p50:.3} ms, p99 {p99:.3} ms, max {max:.3} ms (step {}); after the first second: max {max_after:.3} ms = {:.2}× p50",
            t.iter().position(|&x| x == max).unwrap_or(0),
            if after.is_empty() { 0.0 } else { max_after / p50 }
        );
    }
    println!(
        "  (CPU time leaves out the waits for a core shared with other processes; with worker threads it adds theirs)"
    );
    // For finding where spikes come from: per step, wall ms / process CPU ms / sounds heard.
    if std::env::var_os("ARGUS_STEP_TIMES").is_some() {
        for (i, ((t, c), s)) in times.iter().zip(&cpu_times).zip(&sounds).enumerate() {
            println!("step {i}: {t:.3} ms wall, {c:.3} ms cpu, {s} sounds");
        }
    }
    println!("percepts {percepts}; transitions: {}", transitions.summary());
    Ok(())
}
