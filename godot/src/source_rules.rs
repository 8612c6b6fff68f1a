//! Checks on the add-on's own source (tests only): the rules of tracker issue #36 that keep
//! the node code thin, so they cannot quietly erode.

use std::path::{Path, PathBuf};

/// The longest `macro_rules!` allowed, from its first line to its closing brace.
const MAX_MACRO_LINES: usize = 30;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).expect("source file")
}

/// Line counts of every `macro_rules!` in `text` (brace matching from the macro's first `{`;
/// braces inside strings or comments are not expected in our macros).
pub fn macro_lengths(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        if !line.trim_start().starts_with("macro_rules!") {
            continue;
        }
        let mut depth = 0i32;
        let mut opened = false;
        for (k, l) in lines[start..].iter().enumerate() {
            for c in l.chars() {
                match c {
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth == 0 {
                out.push(k + 1);
                break;
            }
        }
    }
    out
}

#[test]
fn the_counter_measures_a_macro() {
    let text = "x\nmacro_rules! m {\n    () => {\n        1\n    };\n}\ny\n";
    assert_eq!(macro_lengths(text), vec![5]);
}

#[test]
fn no_macro_in_the_add_on_is_longer_than_30_lines() {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() > 10, "found the sources");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source file");
        for n in macro_lengths(&text) {
            assert!(n <= MAX_MACRO_LINES, "{}: a macro of {n} lines (at most {MAX_MACRO_LINES})", file.display());
        }
    }
}

/// `b` with the 2D names turned into the 3D ones, without the lines that may differ
/// (module docs, and lines holding one of `skip`).
fn as_3d(text: &str, skip: &[&str]) -> Vec<String> {
    let names = [
        ("VisionSensor2D", "VisionSensor3D"),
        ("HearingSensor2D", "HearingSensor3D"),
        ("PerceptionTarget2D", "PerceptionTarget3D"),
        ("vision2d", "vision3d"),
        ("PerceptionWorld2D", "PerceptionWorld3D"),
        ("INode2D", "INode3D"),
        ("CanvasItemNotification", "Node3DNotification"),
        ("Node2D", "Node3D"),
        ("D2", "D3"),
        ("flags_2d_physics", "flags_3d_physics"),
        ("PackedVector2Array", "PackedVector3Array"),
        ("Vector2", "Vector3"),
        ("Rect2", "Aabb"),
        ("bounds_2d", "bounds_3d"),
    ];
    text.lines()
        .filter(|l| !l.starts_with("//!") && !skip.iter().any(|s| l.contains(s)))
        .map(|l| names.iter().fold(l.to_string(), |l, (a, b)| l.replace(a, b)))
        .collect()
}

/// The part of a file from the line holding `marker` up to (not including) the line holding
/// `end`.
fn between<'a>(text: &'a str, marker: &str, end: &str) -> &'a str {
    let start = from(text, marker);
    &start[..start.find(end).expect("end marker")]
}

/// The part of a file from the line holding `from` on.
fn from<'a>(text: &'a str, marker: &str) -> &'a str {
    &text[text.find(marker).expect("marker")..]
}

#[test]
fn the_2d_and_3d_vision_sensor_classes_are_the_same_shell() {
    let skip = ["A guard's eyes and mind"];
    let (d3, d2) = (read("src/sensors/vision3d.rs"), read("src/sensors/vision2d.rs"));
    assert_eq!(as_3d(&d2, &skip), as_3d(&d3, &skip));
    let (d3, d2) = (read("src/sensors/vision3d_queries.rs"), read("src/sensors/vision2d_queries.rs"));
    assert_eq!(as_3d(&d2, &skip), as_3d(&d3, &skip));
}

#[test]
fn the_2d_and_3d_world_classes_are_the_same_shell() {
    let skip = ["/// ", "Gd<Node>) -> bool", "Gd<CollisionShape3D>) -> bool", "// 3D only", "// 2D only"];
    let (d3, d2) = (read("src/world3d.rs"), read("src/world2d.rs"));
    let (d3, d2) = (from(&d3, "#[derive(GodotClass)]"), from(&d2, "#[derive(GodotClass)]"));
    assert_eq!(as_3d(d2, &skip), as_3d(d3, &skip));
    let (d3, d2) = (read("src/world3d_walk.rs"), read("src/world2d_walk.rs"));
    let skip = ["/// ", "plane_to_core", "convert::to_core"];
    assert_eq!(as_3d(&d2, &skip), as_3d(&d3, &skip));
}

/// Files holding both classes of a pair: the 3D class from its doc comment up to the 2D class's,
/// against the 2D class from there to the end.
#[test]
fn the_2d_and_3d_target_and_hearing_classes_are_the_same_shell() {
    let text = read("src/sensors/target_nodes.rs");
    let (d3, d2) = ("/// Something 3D guards", "/// Something 2D guards");
    let skip = ["/// Something"];
    let pair = |text: &str, d3: &str, d2: &str| {
        // Blank lines between the classes are not part of either.
        let trim = |mut v: Vec<String>| {
            while v.last().is_some_and(|l| l.is_empty()) {
                v.pop();
            }
            v
        };
        (trim(as_3d(between(text, d3, d2), &skip)), trim(as_3d(from(text, d2), &skip)))
    };
    let (three, two) = pair(&text, d3, d2);
    assert!(three.len() > 50, "found the 3D class");
    assert_eq!(two, three);
    let text = read("src/sensors/hearing.rs");
    let (three, two) = pair(&text, "/// Ears for the parent VisionSensor3D", "/// Ears for the parent VisionSensor2D");
    assert!(three.len() > 50, "found the 3D class");
    assert_eq!(two, three);
}
