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
