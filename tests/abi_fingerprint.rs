//! The binary interface is fingerprinted: every declaration of include/argus.h (functions,
//! structs, enums, typedefs, constants), with comments and layout whitespace removed, hashed.
//! include/argus.abi records one `<ARGUS_ABI_VERSION> <fingerprint>` line per ABI version, newest
//! last. Any change to a signature or a struct layout changes the fingerprint, and this test fails
//! until ARGUS_ABI_VERSION is bumped and the new line appended, so wrappers checking
//! `argus_abi_version()` at load never meet a changed ABI under an old number.

const RECORD: &str = "include/argus.abi";

/// Declarations only: comments dropped, whitespace collapsed, version macros left out (the
/// library version moves without the ABI, and the ABI version is what the record checks).
fn normalised(header: &str) -> String {
    let mut code = String::with_capacity(header.len());
    let mut rest = header;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
            code.push(' ');
        } else if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |end| &after[end..]);
        } else {
            let c = rest.chars().next().unwrap();
            code.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    code.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("#define ARGUS_VERSION_") && !l.starts_with("#define ARGUS_ABI_VERSION"))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// FNV-1a, 64 bits: stable across Rust versions and platforms (unlike `DefaultHasher`).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3))
}

fn current() -> String {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/argus.h")).unwrap();
    format!("{:016x}", fnv1a(&normalised(&header)))
}

fn record() -> Vec<(u32, String)> {
    let text = std::fs::read_to_string(format!("{}/{RECORD}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (v, h) = l.split_once(' ').unwrap_or_else(|| panic!("{RECORD}: bad line {l:?}"));
            (v.trim().parse().unwrap_or_else(|_| panic!("{RECORD}: bad version in {l:?}")), h.trim().to_string())
        })
        .collect()
}

#[test]
fn abi_fingerprint_matches_the_abi_version() {
    let now = current();
    let lines = record();
    let (version, fingerprint) = lines.last().cloned().unwrap_or((0, String::new()));
    let next = version.max(argus::ARGUS_ABI_VERSION) + 1;
    assert!(
        fingerprint == now,
        "the C ABI changed (fingerprint {now}, recorded {fingerprint} for ABI {version}).\n\
         If the change is intended: set ARGUS_ABI_VERSION to {next} in src/types.rs, regenerate the header \
         (ARGUS_WRITE_HEADER=1 cargo build), and append the line `{next} {now}` to {RECORD}."
    );
    assert_eq!(
        version,
        argus::ARGUS_ABI_VERSION,
        "{RECORD} records the current ABI as version {version} but ARGUS_ABI_VERSION is {}",
        argus::ARGUS_ABI_VERSION
    );
    assert_eq!(argus::argus_abi_version(), argus::ARGUS_ABI_VERSION);
}

#[test]
fn every_recorded_version_has_its_own_fingerprint() {
    let lines = record();
    for pair in lines.windows(2) {
        assert!(pair[0].0 < pair[1].0, "{RECORD}: versions must increase: {pair:?}");
        assert!(pair[0].1 != pair[1].1, "{RECORD}: two versions share a fingerprint: {pair:?}");
    }
}

#[test]
fn the_fingerprint_sees_layout_and_signature_changes_but_not_comments() {
    let base = "/* doc */ typedef struct ArgusX { uint32_t a; float b; } ArgusX;\nArgusResult argus_f(ArgusX x);";
    let h = |s: &str| fnv1a(&normalised(s));
    assert_eq!(h(base), h(&base.replace("/* doc */", "/** other\n * words */").replace("; ", ";\n    ")));
    assert_eq!(h(base), h(&format!("#define ARGUS_VERSION_PATCH 7\n{base}")));
    assert_ne!(h(base), h(&base.replace("uint32_t a; float b;", "float b; uint32_t a;")));
    assert_ne!(h(base), h(&base.replace("uint32_t a", "uint16_t a")));
    assert_ne!(h(base), h(&base.replace("argus_f(ArgusX x)", "argus_f(const ArgusX *x)")));
    assert_ne!(h(base), h(&format!("#define ARGUS_MAX_BATCH 7\n{base}")));
}
