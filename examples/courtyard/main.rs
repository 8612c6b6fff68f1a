//! The courtyard demo: a scripted stealth scene on Argus, printed as a timeline and drawn as an
//! SVG strip from the library's debug-draw buffer.
//!
//! ```text
//! cargo run --release --example courtyard -- --out courtyard.svg
//! cargo run --release --example courtyard -- --guards 10000
//! cargo run --release --example courtyard -- --record courtyard.argusrec
//! ```

mod bench;
mod level;
mod moments;
mod record;
mod script;
mod svg;
mod tactical;
mod timeline;

use std::process::ExitCode;

use argus_core::{BrainState, World, WorldDef};

use script::{Guard, Player};
use timeline::Timeline;

/// Fixed step: the scene is the same on every machine.
const DT: f32 = 1.0 / 30.0;

const HELP: &str = "\
courtyard: a scripted stealth scene on Argus, printed as a timeline and drawn as an SVG.

USAGE: courtyard [--out FILE] [--seconds S] [--guards N [--threads T]] [--record FILE]

  --out FILE     SVG to write (default courtyard.svg)
  --record FILE  record the run (every step, docs/recording.md) into FILE, for the inspector
                 tools/inspector/argus-inspector.html; works with --guards too
  --seconds S    simulated seconds (default 20)
  --guards N     instead of the scene: a generated level with N guards (and N/10 targets,
                 N/2 walls), run headless, printing the time per step
  --threads T    worker threads for --guards (default 2 from 1000 guards, else 1)
  --help         this text

Exits with 1 if the scene did not show Investigating, Chasing, Searching and a give-up.";

struct Args {
    out: String,
    seconds: f32,
    guards: Option<usize>,
    threads: Option<u32>,
    record: Option<String>,
}

/// Hand-written parsing: `--flag value` or `--flag=value`. `Ok(None)` means help was asked for.
fn parse(mut argv: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = Args { out: "courtyard.svg".into(), seconds: 20.0, guards: None, threads: None, record: None };
    while let Some(arg) = argv.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        if !matches!(flag.as_str(), "--out" | "--seconds" | "--guards" | "--threads" | "--record") {
            return Err(format!("unknown argument '{arg}'"));
        }
        let value = inline.or_else(|| argv.next()).ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |what: &str| format!("{flag}: expected {what}, got '{value}'");
        match flag.as_str() {
            "--out" if !value.is_empty() => args.out = value,
            "--out" => return Err(bad("a file name")),
            "--record" if !value.is_empty() => args.record = Some(value),
            "--record" => return Err(bad("a file name")),
            "--seconds" => match value.parse::<f32>() {
                Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => args.seconds = s,
                _ => return Err(bad("seconds in (0, 3600]")),
            },
            "--guards" => match value.parse::<usize>() {
                Ok(n) if (1..=1_000_000).contains(&n) => args.guards = Some(n),
                _ => return Err(bad("a guard count from 1 to 1000000")),
            },
            _ => match value.parse::<u32>() {
                Ok(t) if (1..=256).contains(&t) => args.threads = Some(t),
                _ => return Err(bad("a thread count from 1 to 256")),
            },
        }
    }
    if args.threads.is_some() && args.guards.is_none() {
        return Err("--threads only applies with --guards".into());
    }
    Ok(Some(args))
}

/// The scripted scene. Returns whether every brain state showed up.
fn scene(args: &Args) -> Result<bool, Box<dyn std::error::Error>> {
    let level = level::courtyard();
    let mut world = World::new(&WorldDef::default())?;
    let (guard_ids, player_id, wall_ids) = level::build(&mut world, &level)?;
    let mut guards: Vec<Guard> =
        level.guards.iter().zip(&guard_ids).map(|(spec, &id)| Guard::new(id, spec.name, spec.patrol.clone())).collect();
    let mut player = Player::new(player_id, level.player_start, level.legs.clone());
    let names: Vec<_> = guards.iter().map(|g| (g.id, g.name)).collect();
    let mut timeline = Timeline::new(&names, player_id);
    let mut director = moments::Director::new(&names, player_id);
    let danger = tactical::Danger::new(&mut world, (level::WIDTH, level::DEPTH))?;
    let mut frames = Vec::new();
    println!(
        "courtyard: {} guards, 1 player, {} walls; dt 1/30 s, {} s",
        guards.len(),
        level.walls.len(),
        args.seconds
    );
    println!("  time     who event");
    let mut checks = record::Checks::new();
    if let Some(path) = &args.record {
        record::start(&mut world, path)?;
        record::print_ids(&names, player_id);
    }
    let steps = (args.seconds / DT).round() as usize;
    // Every ten simulated minutes of a recorded run: its resident memory, which stays flat.
    let every = (600.0 / DT).round() as usize;
    for step in 0..steps {
        if args.record.is_some()
            && step % every == 0
            && let Some(mb) = record::resident_mb()
        {
            println!("recording: {:5.0} s simulated, resident memory {mb:.1} MB", step as f32 * DT);
        }
        player.advance(&mut world, DT)?;
        for g in &mut guards {
            let (position, forward) = g.advance(&mut world, &level.walls, DT)?;
            world.set_agent_pose(g.id, position, forward)?;
        }
        checks.before(&world, &names)?;
        world.step(DT)?;
        if args.record.is_some() {
            checks.after(&world, &names, player_id, &level.walls, &wall_ids)?;
        }
        danger.update(&mut world, &guard_ids)?;
        let changes = timeline.record(&world)?;
        for caption in director.observe(&world, &changes, player.doing)? {
            let picks = danger.picks(&world, &level.walls, &guard_ids, player_id)?;
            frames.push(moments::capture(&world, &names, player_id, caption, Some(danger.heat(&world)?), picks)?);
        }
    }
    if frames.is_empty() {
        let caption = ("the end".to_string(), format!("player {}", player.doing));
        frames.push(moments::capture(&world, &names, player_id, caption, Some(danger.heat(&world)?), Vec::new())?);
    }
    if let Some(path) = &args.record {
        let bytes = record::finish(&mut world, path)?;
        let rss = record::resident_mb().map(|mb| format!("; resident memory {mb:.1} MB")).unwrap_or_default();
        println!("recorded {steps} steps into {path} ({bytes} bytes{rss})");
    }
    let t = &timeline.transitions;
    let gave_up = t.get(BrainState::Searching, BrainState::Idle);
    let reached = [
        ("Investigating", t.entering(BrainState::Investigating)),
        ("Chasing", t.entering(BrainState::Chasing)),
        ("Searching", t.entering(BrainState::Searching)),
        ("gave up (Searching→Idle)", gave_up),
    ];
    println!("transitions: {}", t.summary());
    let missing: Vec<_> = reached.iter().filter(|(_, n)| *n == 0).map(|(s, _)| *s).collect();
    println!(
        "summary: {}{}",
        reached.iter().map(|(s, n)| format!("{s} {n}")).collect::<Vec<_>>().join(", "),
        if missing.is_empty() { String::new() } else { format!("; NEVER HAPPENED: {}", missing.join(", ")) }
    );
    let title = "Argus courtyard — top-down view, X → right, Z ↓ down (1 m = 15 px); drawn from World::debug_draw";
    std::fs::write(&args.out, svg::render(&frames, (level::WIDTH, level::DEPTH), title))?;
    println!("wrote {} ({} frames)", args.out, frames.len());
    Ok(missing.is_empty())
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("courtyard: {message} (see --help)");
            return ExitCode::from(2);
        }
    };
    let result = match args.guards {
        Some(n) => {
            let threads = args.threads.unwrap_or(if n >= 1000 { 2 } else { 1 });
            bench::run(n, args.seconds, DT, threads, args.record.as_deref()).map(|()| true)
        }
        None => scene(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("courtyard: {e}");
            ExitCode::from(1)
        }
    }
}
