//! The conformance corpus (`tests/scenarios/*.json`): the lesson's and the card's worked traces
//! and the README's beyond-lesson behaviours, as data every surface runs. This is the Rust API's
//! runner; the format is documented in `tests/scenarios/README.md`.

mod scenario_runner;

use std::path::Path;

use scenario_runner::{run_text, scenario_files};

#[test]
fn every_scenario_passes_through_the_rust_api() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let files = scenario_files(&dir);
    assert!(!files.is_empty(), "no scenario files in {}: the corpus must not be empty", dir.display());
    let (mut failures, mut failed_files) = (Vec::new(), 0);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let found = run_text(&name, &text);
        if found.is_empty() {
            println!("{name}: ok");
        } else {
            println!("{name}: {} failure(s)", found.len());
            failed_files += 1;
        }
        failures.extend(found);
    }
    println!("conformance corpus: {} files passed, {failed_files} failed", files.len() - failed_files);
    assert!(
        failures.is_empty(),
        "{} failure(s) in {failed_files} of {} scenario files:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn the_corpus_readme_lists_every_scenario_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("tests/scenarios/README.md");
    for path in scenario_files(&dir) {
        let stem = path.file_stem().unwrap().to_string_lossy();
        assert!(readme.contains(&format!("| `{stem}` |")), "tests/scenarios/README.md does not list {stem}");
    }
}

/// A small valid scenario; the self-tests below break it on purpose.
const SEEN_AHEAD: &str = r#"{
  "name": "self", "source": "runner self-test", "tolerance": 1e-5,
  "agents": [{ "name": "guard", "sight": { "eye_offset": [0, 0, 0], "rate_hz": 0 } }],
  "targets": [{ "name": "player", "position": [0, 0, 5], "check_points": [[0, 0, 0]] }],
  "timeline": [
    { "do": "step", "dt": 0.5 },
    { "do": "can_see", "agent": "guard", "target": "player", "expect": { "seen": true, "fraction": 1.0 } },
    { "do": "memory", "agent": "guard", "target": "player", "expect": { "exists": true, "confidence": 1.0 } }
  ]
}"#;

#[test]
fn the_self_test_scenario_passes_as_written() {
    assert_eq!(run_text("self.json", SEEN_AHEAD), Vec::<String>::new());
}

#[test]
fn a_wrong_expectation_is_reported_with_file_step_expected_and_actual() {
    let wrong = SEEN_AHEAD.replace(r#""confidence": 1.0"#, r#""confidence": 0.5"#);
    let failures = run_text("self.json", &wrong);
    assert_eq!(failures.len(), 1, "{failures:?}");
    let message = &failures[0];
    for part in ["self.json", "timeline[2]", "memory", "confidence", "expected 0.5", "got 1"] {
        assert!(message.contains(part), "{message:?} should mention {part:?}");
    }
    let wrong = SEEN_AHEAD.replace(r#""seen": true"#, r#""seen": false"#);
    let failures = run_text("self.json", &wrong);
    assert!(
        failures.len() == 1 && failures[0].contains("timeline[1] can_see: seen: expected false, got true"),
        "{failures:?}"
    );
}

#[test]
fn an_unknown_action_or_field_makes_the_file_fail() {
    let unknown = SEEN_AHEAD.replace(r#""do": "step""#, r#""do": "teleport""#);
    let failures = run_text("self.json", &unknown);
    assert!(failures.len() == 1 && failures[0].contains("unknown variant `teleport`"), "{failures:?}");
    let typo = SEEN_AHEAD.replace(r#""fraction""#, r#""fractoin""#);
    let failures = run_text("self.json", &typo);
    assert!(failures.len() == 1 && failures[0].contains("fractoin"), "{failures:?}");
}

#[test]
fn an_api_error_stops_the_scenario_and_names_the_step() {
    let bad = SEEN_AHEAD.replace(r#""dt": 0.5"#, r#""dt": -1"#);
    let failures = run_text("self.json", &bad);
    assert!(failures.len() == 1 && failures[0].contains("timeline[0] step: API error"), "{failures:?}");
}
