//! One crate per layer: the core (`argus-core`) exports no C symbol, so a crate that depends on
//! it alone (the Godot add-on) never carries `argus_*` exports; the C ABI crate's `libargus.so`
//! exports them. Read with `nm` from the libraries cargo built for this very test run.

use std::path::{Path, PathBuf};
use std::process::Command;

/// target/<profile>/deps, where cargo leaves the rlibs and libargus.so for integration tests.
fn deps_dir() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().to_path_buf()
}

/// Names of the global symbols `lib` defines, as `nm` lists them.
fn defined_symbols(lib: &Path, dynamic: bool) -> Vec<String> {
    let mut cmd = Command::new("nm");
    cmd.args(["--defined-only", "-g"]);
    if dynamic {
        cmd.arg("-D");
    }
    let out = cmd.arg(lib).output().unwrap_or_else(|e| panic!("nm could not run ({e}); install binutils"));
    // An rlib also holds `lib.rmeta`, which nm reports as "no symbols" on stderr: not a failure.
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned)).collect()
}

/// Every `libargus_core-*.rlib` cargo built in this profile (one per feature set).
fn core_rlibs() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(deps_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("libargus_core-") && name.ends_with(".rlib")
        })
        .collect();
    found.sort();
    found
}

#[test]
fn the_core_exports_no_c_symbol() {
    let rlibs = core_rlibs();
    assert!(!rlibs.is_empty(), "no libargus_core-*.rlib in {}", deps_dir().display());
    for rlib in rlibs {
        let symbols = defined_symbols(&rlib, false);
        // The core's own code is there (mangled Rust names), so an empty list cannot pass.
        assert!(
            symbols.iter().any(|s| s.contains("10argus_core")),
            "{} lists none of the core's functions: is nm reading it?",
            rlib.display()
        );
        let c_symbols: Vec<&String> = symbols.iter().filter(|s| s.starts_with("argus_")).collect();
        assert!(c_symbols.is_empty(), "{} exports C symbols: {c_symbols:?}", rlib.display());
    }
}

#[test]
fn the_c_abi_library_exports_the_c_symbols() {
    let so = deps_dir().join("libargus.so");
    assert!(so.exists(), "{} was not built", so.display());
    let symbols = defined_symbols(&so, true);
    for name in ["argus_world_create", "argus_world_step", "argus_agent_can_see", "argus_world_find_cover"] {
        assert!(symbols.iter().any(|s| s == name), "libargus.so does not export {name}");
    }
    // Only the C surface is exported: no mangled Rust symbol of the core leaks into the .so.
    let leaked: Vec<&String> = symbols.iter().filter(|s| s.contains("10argus_core")).take(5).collect();
    assert!(leaked.is_empty(), "libargus.so exports Rust symbols of the core: {leaked:?}");
}
