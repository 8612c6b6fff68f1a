//! Generates the C header from src/ with cbindgen into OUT_DIR. The committed copy in
//! include/argus.h is compared against it by tests/header.rs; set ARGUS_WRITE_HEADER=1 to
//! rewrite the committed copy.
//!
//! It also sets what the shared library carries about itself:
//! - on Linux (and Android), the SONAME `libargus.so`, so a program linked against it records
//!   that name rather than the path the library was found at, and finds it wherever the loader
//!   looks (rpath, `$ORIGIN`, `LD_LIBRARY_PATH`) after the SDK moves;
//! - on Windows with MinGW, a version resource (file and product version, copyright), compiled
//!   with `windres` (`ARGUS_WINDRES`, default `x86_64-w64-mingw32-windres` / `windres`). A missing
//!   `windres` only warns, unless `ARGUS_REQUIRE_VERSION_RESOURCE=1` (the release build sets it).

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=ARGUS_WRITE_HEADER");
    println!("cargo:rerun-if-env-changed=ARGUS_WINDRES");
    println!("cargo:rerun-if-env-changed=ARGUS_REQUIRE_VERSION_RESOURCE");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let out = out_dir.join("argus.h");
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

    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" || os == "android" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libargus.so");
    }
    if os == "windows" && env == "gnu" {
        version_resource(&out_dir);
    }
}

/// Compiles a VERSIONINFO resource into an object the DLL links.
fn version_resource(out_dir: &std::path::Path) {
    let version = std::env::var("CARGO_PKG_VERSION").expect("set by cargo");
    let mut parts: Vec<u32> = version.split(['.', '-']).take(3).map(|p| p.parse().unwrap_or(0)).collect();
    parts.resize(3, 0);
    let (major, minor, patch) = (parts[0], parts[1], parts[2]);
    let rc = format!(
        r#"1 VERSIONINFO
FILEVERSION {major},{minor},{patch},0
PRODUCTVERSION {major},{minor},{patch},0
FILEFLAGSMASK 0x3f
FILEFLAGS 0x0
FILEOS 0x40004
FILETYPE 0x2
FILESUBTYPE 0x0
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904b0"
    BEGIN
      VALUE "CompanyName", "The Argus developers"
      VALUE "FileDescription", "Argus game-AI perception (C ABI)"
      VALUE "FileVersion", "{version}"
      VALUE "InternalName", "argus"
      VALUE "LegalCopyright", "Copyright (c) 2026 The Argus developers. MIT OR Apache-2.0"
      VALUE "OriginalFilename", "argus.dll"
      VALUE "ProductName", "Argus"
      VALUE "ProductVersion", "{version}"
    END
  END
  BLOCK "VarFileInfo"
  BEGIN
    VALUE "Translation", 0x409, 1200
  END
END
"#
    );
    let rc_path = out_dir.join("argus_version.rc");
    let obj = out_dir.join("argus_version_res.o");
    std::fs::write(&rc_path, rc).expect("write the .rc");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let candidates: Vec<String> = match std::env::var("ARGUS_WINDRES") {
        Ok(w) => vec![w],
        Err(_) => vec![format!("{arch}-w64-mingw32-windres"), "windres".into()],
    };
    let required = std::env::var_os("ARGUS_REQUIRE_VERSION_RESOURCE").is_some_and(|v| v == "1");
    for windres in &candidates {
        let status = Command::new(windres).arg("-O").arg("coff").arg("-i").arg(&rc_path).arg("-o").arg(&obj).status();
        match status {
            Ok(s) if s.success() => {
                println!("cargo:rustc-cdylib-link-arg={}", obj.display());
                return;
            }
            Ok(s) if required => panic!("{windres} failed ({s}) on {}", rc_path.display()),
            _ => {}
        }
    }
    if required {
        panic!("no windres found (tried {candidates:?}): the DLL's version resource cannot be made");
    }
    println!("cargo:warning=no windres found (tried {candidates:?}): argus.dll has no version resource");
}
