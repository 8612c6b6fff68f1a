//! What recording costs: the town (2,000 agents) stepped with and without a recording, round
//! by round side by side (the same steps of identical worlds), the median ratio and its spread;
//! and the recording's size per agent-second.

use std::time::Duration;

use argus_core::{AgentId, RecordOptions, World};

use crate::Size;
use crate::measure::{Row, show, thread_cpu};
use crate::scenes::Town;

const DT: f32 = 1.0 / 60.0;
const AGENTS: usize = 2_000;

/// Thread CPU time of `steps` steps.
fn run(world: &mut World, steps: usize) -> Duration {
    let t = thread_cpu();
    for _ in 0..steps {
        world.step(DT).unwrap();
    }
    thread_cpu() - t
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

struct Variant {
    name: &'static str,
    options: Option<RecordOptions>,
    world: World,
    ratios: Vec<f64>,
    time: Duration,
}

pub fn recording(size: &Size, rows: &mut Vec<Row>) {
    let rounds = if size.rounds <= 3 { 5 } else { 15 };
    let steps = 12; // two cycles of staggered 10 Hz ticks at 60 Hz
    let town = Town::at_town_density(AGENTS, 7);
    for rate in [0.0, 10.0] {
        let make = || {
            let mut w = town.argus(rate, 1);
            w.step(DT).unwrap();
            w
        };
        let focus: Vec<AgentId> = make().agents().map(|(id, _)| id).step_by(AGENTS / 10).take(10).collect();
        let options = [
            ("every agent + why", Some(RecordOptions { focus: Vec::new(), explain: true })),
            ("10 agents in focus + why", Some(RecordOptions { focus, explain: true })),
            ("every agent, no why", Some(RecordOptions { focus: Vec::new(), explain: false })),
        ];
        let only = std::env::var("ARGUS_BENCH_ONLY").ok().and_then(|v| v.parse::<usize>().ok());
        let options: Vec<_> =
            options.into_iter().enumerate().filter(|(k, _)| only.is_none_or(|o| o == *k)).map(|(_, o)| o).collect();
        let mut plain = make();
        let mut variants: Vec<Variant> = options
            .into_iter()
            .map(|(name, options)| Variant { name, options, world: make(), ratios: Vec::new(), time: Duration::ZERO })
            .collect();
        for v in &mut variants {
            v.world.start_recording(v.options.as_ref().unwrap()).unwrap();
        }
        run(&mut plain, steps);
        let mut base = Vec::new();
        for _ in 0..rounds {
            let t0 = run(&mut plain, steps);
            base.push(t0);
            for v in &mut variants {
                let t = run(&mut v.world, steps);
                v.time += t;
                v.ratios.push(t.as_secs_f64() / t0.as_secs_f64());
            }
        }
        let base_median = median(base.iter().map(|d| d.as_secs_f64()).collect());
        let per_step = Duration::from_secs_f64(base_median / steps as f64);
        let simulated = DT as f64 * (steps * (rounds + 1)) as f64;
        for v in &mut variants {
            let bytes = v.world.stop_recording().unwrap();
            let agents = if v.options.as_ref().unwrap().focus.is_empty() { AGENTS } else { 10 };
            let r = median(v.ratios.clone());
            if std::env::var_os("ARGUS_BENCH_MIN").is_some() {
                let t: Vec<f64> = v.ratios.iter().zip(&base).map(|(r, b)| r * b.as_secs_f64()).collect();
                let min = |x: &[f64]| x.iter().cloned().fold(f64::MAX, f64::min);
                let b: Vec<f64> = base.iter().map(|d| d.as_secs_f64()).collect();
                eprintln!("MIN {} {:.3}", v.name, min(&t) / min(&b));
            }
            let (lo, hi) = v.ratios.iter().fold((f64::MAX, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
            let rate_name = if rate == 0.0 { "every step" } else { "10 Hz" };
            rows.push(Row {
                what: format!("recording, town {AGENTS}, sight {rate_name}, {}", v.name),
                argus: show(Duration::from_secs_f64(per_step.as_secs_f64() * r)),
                baseline: format!("{} unrecorded", show(per_step)),
                ratio: format!("{r:.2}× ({lo:.2}–{hi:.2})"),
                goal: "≤ 1.3×".into(),
                met: Some(r <= 1.3),
            });
            let per_agent_second = bytes.len() as f64 / (AGENTS as f64 * simulated);
            rows.push(Row {
                what: format!("  file size, {} ({} agents explained)", v.name, agents),
                argus: format!("{:.0} B/agent·s", per_agent_second),
                baseline: format!("{:.1} MB in {simulated:.1} s", bytes.len() as f64 / 1e6),
                ratio: "-".into(),
                goal: "-".into(),
                met: None,
            });
        }
    }
}
