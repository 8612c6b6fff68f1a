//! `cargo bench --bench report` — Argus side by side with the lesson-literal reference and with
//! the hardware floor, as ratios measured in one run. `-- --quick` runs a small version (CI).

#[path = "../../tests/support/reference.rs"]
mod reference;

mod belief;
mod chart;
mod hearing;
mod measure;
mod recording;
mod scenes;
mod search;
mod sections;
mod serial;

use measure::{Counting, Row};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Sizes of the run: the numbers, or a small version for CI smoke runs.
pub struct Size {
    pub town_agents: usize,
    pub scale: Vec<usize>,
    pub grid: u32,
    pub sources: usize,
    pub candidates: usize,
    pub ffi_agents: usize,
    pub rounds: usize,
    /// Sizes measured only for the scaling chart, and the largest the lesson's loop is run at.
    pub chart_extra: Vec<usize>,
    pub lesson_max: usize,
    /// Seconds of 60 Hz steps per run of the frame-time section, and how many runs.
    pub frame_seconds: f32,
    pub frame_runs: usize,
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let size = if quick {
        Size {
            town_agents: 1_000,
            scale: vec![500, 1_000, 5_000],
            grid: 256,
            sources: 100,
            candidates: 200,
            ffi_agents: 2_000,
            rounds: 3,
            chart_extra: vec![],
            lesson_max: 1_000,
            frame_seconds: 2.0,
            frame_runs: 2,
        }
    } else {
        Size {
            town_agents: 10_000,
            scale: vec![1_000, 10_000, 100_000],
            grid: 1024,
            sources: 1_000,
            candidates: 1_000,
            ffi_agents: 10_000,
            rounds: 7,
            chart_extra: vec![3_000, 30_000],
            lesson_max: 10_000,
            frame_seconds: 8.0,
            frame_runs: 3,
        }
    };
    // A child run of one section prints its rows for the parent (see below).
    let child = std::env::args().skip_while(|a| a != "--section").nth(1);
    type Section = fn(&Size, &mut Vec<Row>);
    let all: [(&str, Section); 13] = [
        ("town", sections::town),
        ("frames", sections::frames),
        ("engine", sections::engine),
        ("scale", sections::scale),
        ("influence", sections::influence),
        ("tactics", sections::tactics),
        ("ffi", sections::ffi),
        ("memory", sections::memory),
        ("hearing", hearing::hearing),
        ("belief", belief::belief),
        ("search", search::search),
        ("recording", recording::recording),
        ("flight", recording::flight),
    ];
    if let Some(name) = child {
        let mut rows = Vec::new();
        if let Some((_, section)) = all.iter().find(|(n, _)| *n == name) {
            section(&size, &mut rows);
        }
        rows.iter().for_each(|r| println!("{}", r.encode()));
        return;
    }
    println!("argus benchmark report ({}; single thread unless noted)", if quick { "quick" } else { "full" });
    // Every figure holds for this host only: its processor first, before any section runs.
    println!(
        "host: {}, {} cores",
        measure::processor_model(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    // Any other argument picks sections by name, e.g. `-- influence tactics`.
    let picked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| picked.is_empty() || picked.iter().any(|p| name.contains(p.as_str()));
    // Each section runs in a fresh process, so one section's heap (the 100,000-agent world,
    // say) never decides where the next one's buffers land.
    let mut rows: Vec<Row> = Vec::new();
    let mut points: Vec<chart::Point> = Vec::new();
    for (name, _) in all.iter().filter(|(n, _)| wanted(n)) {
        let mut cmd = std::process::Command::new(std::env::current_exe().expect("own path"));
        cmd.args(["--section", name]);
        if quick {
            cmd.arg("--quick");
        }
        let out = cmd.output().expect("the benchmark can run itself");
        if !out.status.success() {
            eprintln!("section {name} failed:\n{}", String::from_utf8_lossy(&out.stderr));
            std::process::exit(1);
        }
        let text = String::from_utf8_lossy(&out.stdout);
        rows.extend(text.lines().filter_map(Row::decode));
        points.extend(text.lines().filter_map(chart::Point::decode));
    }
    measure::print(&rows);
    if !points.is_empty() {
        // The full run draws the README's chart; the quick one only proves the chart is drawn.
        let path = if quick {
            std::env::temp_dir().join("argus-perf-scaling-quick.svg")
        } else {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/perf-scaling.svg")
        };
        match chart::write(&path, &points) {
            Ok(()) => println!("\nscaling chart: {}", path.display()),
            Err(e) => {
                eprintln!("could not write the scaling chart {}: {e}", path.display());
                std::process::exit(1);
            }
        }
    }
    let missed = rows.iter().filter(|r| r.met == Some(false)).count();
    println!("\n{} goals met, {missed} missed", rows.iter().filter(|r| r.met == Some(true)).count());
}
