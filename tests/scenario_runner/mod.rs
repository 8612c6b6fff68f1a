//! The conformance corpus runner for the Rust API: reads `tests/scenarios/*.json` (format in
//! `tests/scenarios/README.md`) and reports every failed expectation with file, timeline index,
//! action, expected and actual.

mod check;
mod format;
mod mapping;
mod run;

use std::path::{Path, PathBuf};

/// Parses and runs one scenario text; returns the failure messages (empty = passed).
pub fn run_text(file: &str, text: &str) -> Vec<String> {
    let scenario: format::Scenario = match serde_json::from_str(text) {
        Ok(s) => s,
        Err(e) => return vec![format!("{file}: cannot read the scenario: {e}")],
    };
    let mut checks = check::Checks::new();
    run::run(&scenario, file, &mut checks);
    checks.failures
}

/// Every `.json` file of `dir`, sorted by name.
pub fn scenario_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}
