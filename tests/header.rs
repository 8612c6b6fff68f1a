//! The committed include/argus.h must equal what cbindgen generates from src/ffi now.

#[test]
fn committed_header_matches_the_generated_one() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/argus.h"));
    let committed_path = concat!(env!("CARGO_MANIFEST_DIR"), "/include/argus.h");
    let committed = std::fs::read_to_string(committed_path).unwrap_or_default();
    assert!(
        generated == committed,
        "include/argus.h is stale: regenerate it with `ARGUS_WRITE_HEADER=1 cargo build` and commit it"
    );
}

#[test]
fn version_macros_match_the_crate_version() {
    let version =
        format!("{}.{}.{}", argus::ARGUS_VERSION_MAJOR, argus::ARGUS_VERSION_MINOR, argus::ARGUS_VERSION_PATCH);
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    let s = unsafe { std::ffi::CStr::from_ptr(argus::argus_version_string()) };
    assert_eq!(s.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}

/// Every export is built on every target: a `#[cfg(...)]` on an `extern "C"` function (say, a
/// pointer-width cfg meant for a size assert below it) silently drops the export from 32-bit
/// builds (wasm32, armv7) while the header still declares it, and a WebGL or Android link fails.
#[test]
fn no_export_is_behind_a_cfg() {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut checked = 0;
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !(line.contains("extern \"C\" fn ") && line.trim_start().starts_with("pub")) {
                continue;
            }
            checked += 1;
            // The attributes and doc comments right above the function.
            let above = lines[..i].iter().rev().take_while(|l| {
                let t = l.trim_start();
                t.starts_with("#[") || t.starts_with("///") || t.starts_with("//")
            });
            // The panic firewall's test hook is the one export built only for tests (and left
            // out of the header).
            for attribute in above.filter(|a| !a.contains("feature = \"testing\"")) {
                assert!(
                    !attribute.trim_start().starts_with("#[cfg"),
                    "{}:{}: an export behind `{}`",
                    path.display(),
                    i + 1,
                    attribute.trim()
                );
            }
        }
    }
    assert!(checked > 100, "the exports are found ({checked})");
}
