//! What recording costs: the town (2,000 agents) stepped with and without a recording, each
//! recording variant side by side with an identical unrecorded world, round by round (the same
//! steps), the median ratio and its spread, in the town as it stands and with everything in it
//! moving; the work of the recording's own thread (which
//! writes part of each frame and gathers the file); and the recording's size per agent-second.
//! A round is one second of 60 Hz steps, so each holds one key frame (`docs/recording.md`).

use std::time::{Duration, Instant};

use argus_core::{AgentId, RecordOptions, RecordTo, TargetId, Vec3, World};

use crate::Size;
use crate::measure::{Row, process_cpu, show, thread_cpu};
use crate::scenes::Town;

const DT: f32 = 1.0 / 60.0;
const AGENTS: usize = 2_000;
/// Steps a round: one second, one key frame.
const STEPS: usize = 60;

/// Thread CPU time of `steps` steps, each after `sway` moved the world (if any).
fn run(world: &mut World, steps: usize, sway: Option<&Sway>) -> Duration {
    let t = thread_cpu();
    for _ in 0..steps {
        if let Some(sway) = sway {
            sway.apply(world);
        }
        world.step(DT).unwrap();
    }
    thread_cpu() - t
}

/// Every agent and target of the town moved at every step, on a circle of half a metre around
/// where the town put it (a game's level, where nothing stands still): the same poses in every
/// world at the same time. Agents and targets were created in order, so their slots are their
/// places in the town.
struct Sway<'t> {
    town: &'t Town,
    agents: Vec<AgentId>,
    targets: Vec<TargetId>,
}

impl Sway<'_> {
    fn apply(&self, world: &mut World) {
        let t = world.time() as f32;
        let around = |p: Vec3, phase: f32| p + 0.5 * Vec3::new((t + phase).sin(), 0.0, (t + phase).cos());
        let agent = |i: usize| (self.agents[i], around(self.town.agents[i].0, i as f32), None);
        world.set_agent_poses_by(self.agents.len(), agent).unwrap();
        let target = |i: usize| (self.targets[i], around(self.town.targets[i], 0.37 * i as f32), None);
        world.set_target_poses_by(self.targets.len(), target).unwrap();
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn recording(size: &Size, rows: &mut Vec<Row>) {
    let rounds = if size.rounds <= 3 { 5 } else { 11 };
    let town = Town::at_town_density(AGENTS, 7);
    for rate in [0.0, 10.0] {
        let make = || {
            let mut w = town.argus(rate, 1);
            w.step(DT).unwrap();
            w
        };
        let (agents, targets) = {
            let w = make();
            let mut agents: Vec<AgentId> = w.agents().map(|(id, _)| id).collect();
            let mut targets: Vec<TargetId> = w.targets().map(|(id, _)| id).collect();
            agents.sort_by_key(|id| id.index);
            targets.sort_by_key(|id| id.index);
            (agents, targets)
        };
        let focus: Vec<AgentId> = agents.iter().copied().step_by(AGENTS / 10).take(10).collect();
        let sway = Sway { town: &town, agents, targets };
        let every = || RecordOptions { focus: Vec::new(), explain: true };
        let variants = [
            ("every agent + why", every(), AGENTS, None),
            ("10 agents in focus + why", RecordOptions { focus, explain: true }, 10, None),
            ("every agent, no why", RecordOptions { focus: Vec::new(), explain: false }, AGENTS, None),
            ("every agent + why, all moving", every(), AGENTS, Some(&sway)),
        ];
        let rate_name = if rate == 0.0 { "every step" } else { "10 Hz" };
        for (name, options, explained, sway) in variants {
            let (mut plain, mut recorded) = (make(), make());
            recorded.start_recording(&options).unwrap();
            run(&mut plain, STEPS, sway);
            run(&mut recorded, STEPS, sway);
            let (mut ratios, mut base) = (Vec::new(), Vec::new());
            // The recording thread works at its own pace: its CPU time is the process's less
            // this thread's, from here to the end of `stop_recording`.
            let (process, this_thread) = (process_cpu(), thread_cpu());
            for _ in 0..rounds {
                let t0 = run(&mut plain, STEPS, sway);
                let t = run(&mut recorded, STEPS, sway);
                ratios.push(t.as_secs_f64() / t0.as_secs_f64());
                base.push(t0.as_secs_f64());
            }
            let stop = Instant::now();
            let bytes = recorded.stop_recording().unwrap();
            let stop = stop.elapsed();
            let other = (process_cpu() - process).saturating_sub(thread_cpu() - this_thread);
            let other = other / (rounds * STEPS) as u32;
            let per_step = Duration::from_secs_f64(median(base) / STEPS as f64);
            let r = median(ratios.clone());
            let (lo, hi) = ratios.iter().fold((f64::MAX, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
            rows.push(Row {
                what: format!("recording, town {AGENTS}, sight {rate_name}, {name}"),
                argus: show(Duration::from_secs_f64(per_step.as_secs_f64() * r)),
                baseline: format!("{} unrecorded", show(per_step)),
                ratio: format!("{r:.2}× ({lo:.2}–{hi:.2})"),
                // The goal is for the town as it stands; the moving town is shown beside it.
                goal: if sway.is_none() { "≤ 1.3×" } else { "-" }.into(),
                met: sway.is_none().then_some(r <= 1.3),
            });
            let simulated = DT as f64 * (STEPS * (rounds + 1)) as f64;
            let per_agent_second = bytes.len() as f64 / (AGENTS as f64 * simulated);
            rows.push(Row {
                what: format!("  file size ({explained} agents explained); stop_recording; recording thread"),
                argus: format!("{per_agent_second:.0} B/agent·s"),
                baseline: format!(
                    "{:.1} MB in {simulated:.0} s; {}; {} a step",
                    bytes.len() as f64 / 1e6,
                    show(stop),
                    show(other)
                ),
                ratio: "-".into(),
                goal: "-".into(),
                met: None,
            });
        }
    }
}

/// The flight recorder of the town (2,000 agents, sight at every step, the Why for every agent,
/// standing still): what it holds after more than its window of 60 Hz steps, and how long saving
/// its window to a file takes (the goals: a 60 s window in at most 200 MB, saved in
/// under 1 s). The quick report keeps a 10 s window.
pub fn flight(size: &Size, rows: &mut Vec<Row>) {
    let seconds: f32 = if size.rounds <= 3 { 10.0 } else { 60.0 };
    let town = Town::at_town_density(AGENTS, 7);
    let mut world = town.argus(0.0, 1);
    world.step(DT).unwrap();
    world.start_recording_to(&RecordOptions::default(), RecordTo::Flight { seconds }).unwrap();
    let steps = ((seconds + 10.0) / DT) as usize;
    let mut held = 0;
    for _ in 0..steps {
        world.step(DT).unwrap();
        held = held.max(world.flight_recorder_bytes().unwrap());
    }
    let path = std::env::temp_dir().join(format!("argus-flight-bench-{}.argusrec", std::process::id()));
    let saved = Instant::now();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let written = world.save_flight_recording(&mut file).unwrap();
    std::io::Write::flush(&mut file).unwrap();
    drop(file);
    let saved = saved.elapsed();
    std::fs::remove_file(&path).ok();
    world.stop_recording().unwrap();
    rows.push(Row {
        what: format!("flight recorder, town {AGENTS}, every agent + why, {seconds:.0} s window: most held"),
        argus: format!("{:.0} MB", held as f64 / 1e6),
        baseline: format!("after {:.0} s of steps", steps as f32 * DT),
        ratio: "-".into(),
        goal: if seconds == 60.0 { "≤ 200 MB" } else { "-" }.into(),
        met: (seconds == 60.0).then_some(held <= 200_000_000),
    });
    rows.push(Row {
        what: "  its window saved to a file".into(),
        argus: show(saved),
        baseline: format!("{:.0} MB written", written as f64 / 1e6),
        ratio: "-".into(),
        goal: if seconds == 60.0 { "< 1 s" } else { "-" }.into(),
        met: (seconds == 60.0).then_some(saved.as_secs_f64() < 1.0),
    });
}
