//! What of the town step runs on one thread only, from the step's own phase timings (the core's
//! `last_step_phases` hook): measured, so the 2-threads-vs-1 row can be read against the bound
//! it sets (Amdahl: a step whose serial part is s of it runs at most 1 / (s + (1 − s) / 2) times
//! faster on two cores).

use std::time::{Duration, Instant};

use argus_core::{StepPhases, World};

use crate::measure::{Row, show};

/// One cycle of `steps` steps of `world`: its phases and its wall time (every part of the step
/// outside the phases, such as the room made before it, counts as serial), summed.
fn cycle(world: &mut World, steps: usize, dt: f32) -> (StepPhases, Duration) {
    let (mut sum, mut wall) = (StepPhases::default(), Duration::ZERO);
    for _ in 0..steps {
        let t = Instant::now();
        world.step(dt).unwrap();
        wall += t.elapsed();
        let p = world.last_step_phases();
        sum.prepare += p.prepare;
        sum.pass += p.pass;
        sum.commit += p.commit;
    }
    (sum, wall)
}

/// The median of `v` (sorted here).
fn median<T: PartialOrd + Copy>(v: &mut [T]) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Rows for the serial part of the step of `one` (1 thread) and the pass's own speed-up on `two`
/// (2 worker threads), over `rounds` cycles of `steps` steps each, the worlds alternated.
pub fn rows(one: &mut World, two: &mut World, rounds: usize, steps: usize, dt: f32, rows: &mut Vec<Row>) {
    let (mut fractions, mut prepares, mut commits, mut others) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut passes, mut serial_two) = (Vec::new(), Vec::new());
    let per_step = |d: Duration| d / steps as u32;
    for _ in 0..rounds.max(1) {
        let (a, wall) = cycle(one, steps, dt);
        let (b, wall_two) = cycle(two, steps, dt);
        fractions.push(1.0 - a.pass.as_secs_f64() / wall.as_secs_f64());
        prepares.push(per_step(a.prepare));
        commits.push(per_step(a.commit));
        others.push(per_step(wall.saturating_sub(a.total())));
        passes.push(a.pass.as_secs_f64() / b.pass.as_secs_f64());
        serial_two.push(1.0 - b.pass.as_secs_f64() / wall_two.as_secs_f64());
    }
    let s = median(&mut fractions);
    let (prepare, commit, other) = (median(&mut prepares), median(&mut commits), median(&mut others));
    rows.push(Row {
        what: "  serial fraction of the town step, 1 thread".into(),
        argus: format!("{:.1}%", 100.0 * s),
        baseline: format!("{} + {} + {}", show(prepare), show(commit), show(other)),
        ratio: format!("≤ {:.2}×", 1.0 / (s + (1.0 - s) / 2.0)),
        goal: String::new(),
        met: None,
    });
    rows.push(Row {
        what: "    (prepare + commit + outside the phases; ≤: Amdahl)".into(),
        argus: String::new(),
        baseline: String::new(),
        ratio: String::new(),
        goal: String::new(),
        met: None,
    });
    rows.push(Row {
        what: "    2 threads: parallel pass alone vs 1; serial".into(),
        argus: format!("{:.1}%", 100.0 * median(&mut serial_two)),
        baseline: String::new(),
        ratio: format!("{:.2}×", median(&mut passes)),
        goal: String::new(),
        met: None,
    });
}
