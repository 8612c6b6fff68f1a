//! `cargo bench --bench report` — Argus side by side with the lesson-literal reference and with
//! the hardware floor, as ratios measured in one run. `-- --quick` runs a small version (CI).

#[path = "../../tests/support/reference.rs"]
mod reference;

mod measure;
mod scenes;
mod sections;

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
        }
    };
    println!("argus benchmark report ({}; single thread unless noted)", if quick { "quick" } else { "full" });
    // Any other argument picks sections by name, e.g. `-- influence tactics`.
    let picked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| picked.is_empty() || picked.iter().any(|p| name.contains(p.as_str()));
    let mut rows: Vec<Row> = Vec::new();
    type Section = fn(&Size, &mut Vec<Row>);
    let all: [(&str, Section); 6] = [
        ("town", sections::town),
        ("scale", sections::scale),
        ("influence", sections::influence),
        ("tactics", sections::tactics),
        ("ffi", sections::ffi),
        ("memory", sections::memory),
    ];
    for (name, section) in all {
        if wanted(name) {
            section(&size, &mut rows);
        }
    }
    measure::print(&rows);
    let missed = rows.iter().filter(|r| r.met == Some(false)).count();
    println!("\n{} goals met, {missed} missed", rows.iter().filter(|r| r.met == Some(true)).count());
}
