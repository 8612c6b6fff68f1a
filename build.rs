//! Generates the C header from src/ with cbindgen into OUT_DIR. The committed copy in
//! include/argus.h is compared against it by tests/header.rs; set ARGUS_WRITE_HEADER=1 to
//! rewrite the committed copy.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=ARGUS_WRITE_HEADER");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("argus.h");
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/lib.rs"))
        .generate()
        .expect("cbindgen could not read src/");
    bindings.write_to_file(&out);
    if std::env::var_os("ARGUS_WRITE_HEADER").is_some_and(|v| v == "1") {
        bindings.write_to_file(root.join("include/argus.h"));
    }
}
