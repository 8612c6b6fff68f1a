//! The editor help's class reference (tests only): every class, method, property, signal and
//! constant the add-on registers has a description in the docs gdext hands the editor (the
//! `register-docs` feature: `///` comments, sent at the editor init level).
//!
//! Godot's `--doctool --gdextension-docs` lists what ClassDB registers but never the extension's
//! descriptions (its XML is empty even for documented classes), so it gives the list and gdext's
//! XML gives the descriptions. `tests/suites/50-godot.sh` dumps the list and runs this test with
//! `ARGUS_GODOT_DOCTOOL_DIR` set to it; without the list the test cannot run, so it is ignored
//! by a plain `cargo test` rather than passing unchecked.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The items a class XML names, as "kind name" (`method can_see`, `member view_radius`, ...).
fn items(xml: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for kind in ["method", "member", "signal", "constant"] {
        let open = format!("<{kind} name=\"");
        let mut rest = xml;
        while let Some(at) = rest.find(&open) {
            rest = &rest[at + open.len()..];
            let name = &rest[..rest.find('"').unwrap_or(0)];
            out.insert(format!("{kind} {name}"));
        }
    }
    out
}

/// Text between `<tag>` and `</tag>`, trimmed ("" when absent).
fn inner<'a>(xml: &'a str, tag: &str) -> &'a str {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    match (xml.find(&open), xml.find(&close)) {
        (Some(a), Some(b)) if a + open.len() <= b => xml[a + open.len()..b].trim(),
        _ => "",
    }
}

/// The class name of a class XML.
fn class_name(xml: &str) -> String {
    let at = xml.find("<class name=\"").map(|a| a + 13).unwrap_or(0);
    xml[at..].split('"').next().unwrap_or("").to_string()
}

/// gdext's docs: per class, whether it has a description and the documented items (gdext leaves
/// an item without a `///` comment out of its XML).
fn gdext_docs() -> HashMap<String, (bool, BTreeSet<String>)> {
    let mut out = HashMap::new();
    for xml in godot::docs::__gather_xml_docs() {
        let described = !inner(&xml, "brief_description").is_empty();
        out.insert(class_name(&xml), (described, items(&xml)));
    }
    out
}

#[test]
#[ignore = "needs Godot's --doctool list: run by tests/suites/50-godot.sh"]
fn every_registered_class_and_member_is_documented_in_the_editor_help() {
    let dir = std::env::var("ARGUS_GODOT_DOCTOOL_DIR").expect("ARGUS_GODOT_DOCTOOL_DIR: the --doctool output");
    let docs = gdext_docs();
    let mut missing = Vec::new();
    let mut classes = 0;
    for entry in std::fs::read_dir(Path::new(&dir)).expect("the --doctool directory") {
        let path = entry.expect("dir entry").path();
        let xml = std::fs::read_to_string(&path).expect("a class XML");
        let class = class_name(&xml);
        classes += 1;
        let Some((described, documented)) = docs.get(&class) else {
            missing.push(format!("{class} (no docs at all)"));
            continue;
        };
        if !described {
            missing.push(format!("{class} (class description)"));
        }
        missing.extend(items(&xml).difference(documented).map(|item| format!("{class}.{item}")));
    }
    assert!(classes >= 10, "the --doctool list holds the add-on's classes ({classes} found in {dir})");
    assert!(missing.is_empty(), "{} undocumented in the editor help:\n{}", missing.len(), missing.join("\n"));
}

#[test]
fn the_docs_reader_finds_items_and_descriptions() {
    let xml = r#"<class name="A" inherits="Node"><brief_description>Hi</brief_description>
<methods><method name="go"><description>x</description></method></methods>
<members><member name="speed" type="f32" default="1">y</member></members></class>"#;
    assert_eq!(class_name(xml), "A");
    assert_eq!(inner(xml, "brief_description"), "Hi");
    let found: Vec<String> = items(xml).into_iter().collect();
    assert_eq!(found, ["member speed", "method go"]);
    assert!(gdext_docs().get("VisionSensor3D").is_some_and(|(described, _)| *described), "gdext's docs are gathered");
}
