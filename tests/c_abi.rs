//! Builds every C (and C++) program in tests/c/ with strict warnings against include/argus.h and
//! the freshly built cdylib, runs it, and fails on a non-zero exit. With ARGUS_VALGRIND=1 the
//! programs run under valgrind memcheck (zero errors, zero definite leaks).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// target/<profile>/deps, where cargo leaves libargus.so for integration tests.
fn lib_dir() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().to_path_buf()
}

fn build(source: &Path) -> PathBuf {
    build_with(source, &[])
}

fn build_with(source: &Path, extra_flags: &[&str]) -> PathBuf {
    let is_cpp = source.extension().is_some_and(|e| e == "cpp");
    let out_dir = lib_dir().join("c-tests");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join(source.file_stem().unwrap());
    let mut cmd = Command::new(if is_cpp { "g++" } else { "gcc" });
    if is_cpp {
        cmd.args(["-std=c++17", "-Wall", "-Wextra", "-Werror"]);
    } else {
        cmd.args(["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]);
    }
    let lib = lib_dir();
    cmd.args(extra_flags);
    cmd.arg("-g")
        .arg(format!("-I{}", root().join("include").display()))
        .arg(format!("-I{}", root().join("bindings/cpp").display()))
        .arg(format!("-I{}", root().join("tests/c").display()))
        .arg(source)
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", lib.display()))
        .arg("-largus")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        // DT_RPATH, searched before LD_LIBRARY_PATH (which cargo points at target/debug): the
        // programs load the library of this profile, never a stale one from another build.
        .arg("-Wl,--disable-new-dtags")
        .arg("-lm");
    let output = cmd.output().expect("a C compiler (gcc/g++) must be installed");
    assert!(
        output.status.success(),
        "compiling {} failed:\n{}",
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

fn run(name: &str) {
    let source = root().join("tests/c").join(name);
    let exe = build(&source);
    let valgrind = std::env::var_os("ARGUS_VALGRIND").is_some_and(|v| v == "1");
    let mut cmd = if valgrind {
        let mut c = Command::new("valgrind");
        c.args(["--quiet", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite"]);
        c.arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    let output = cmd.output().unwrap_or_else(|e| panic!("running {}: {e}", exe.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(output.status.success(), "{name} failed ({}):\n{stdout}\n{stderr}", output.status);
    if valgrind {
        assert!(!stderr.contains("definitely lost"), "{name} leaks under valgrind:\n{stderr}");
    }
}

#[test]
fn c_lesson_traces() {
    run("lesson_traces.c");
}

#[test]
fn c_engine_rays() {
    run("engine_rays.c");
}

#[test]
fn c_events_v3() {
    run("events_v3.c");
}

#[test]
fn c_recording() {
    run("recording.c");
}

#[test]
fn c_labels() {
    run("labels.c");
}

#[test]
fn c_recording_streams() {
    run("recording_streams.c");
}

#[test]
fn c_snapshot() {
    run("snapshot.c");
}

#[test]
fn c_abi_shape() {
    run("abi_shape.c");
}

#[test]
fn c_hostile() {
    run("hostile.c");
}

#[test]
fn c_debug_draw() {
    run("debug_draw.c");
}

#[test]
fn c_cpp_wrapper() {
    run("cpp_wrapper.cpp");
}

#[test]
fn c_influence() {
    run("influence.c");
}

#[test]
fn c_influence_hostile() {
    run("influence_hostile.c");
}

#[test]
fn c_tactics() {
    run("tactics.c");
}

#[test]
fn c_tactics_hostile() {
    run("tactics_hostile.c");
}

#[test]
fn c_walk() {
    run("walk.c");
}

#[test]
fn c_belief() {
    run("belief.c");
}

#[test]
fn c_belief_hostile() {
    run("belief_hostile.c");
}

/// Every C and C++ program again, built with gcc's AddressSanitizer and UndefinedBehaviorSanitizer
/// (any report aborts the program). The library itself is not instrumented, but every buffer it
/// reads or writes for the caller is checked by ASan's interceptors and the caller's own code.
/// Leaks are left to the valgrind run (`ARGUS_VALGRIND=1`).
#[test]
#[ignore = "slow (every program rebuilt and rerun): run by tests/suites/30-reliability.sh"]
fn c_programs_under_address_and_undefined_sanitizers() {
    let mut names: Vec<_> = std::fs::read_dir(root().join("tests/c"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c" || e == "cpp"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "the C programs are found");
    let flags = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"];
    for source in &names {
        let exe = build_with(source, &flags);
        let sanitized = exe.with_file_name(format!("{}-sanitized", exe.file_name().unwrap().to_string_lossy()));
        std::fs::rename(&exe, &sanitized).unwrap();
        let output = Command::new(&sanitized)
            .env("ARGUS_SANITIZED", "1")
            .env("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0:halt_on_error=1")
            .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && !stderr.contains("Sanitizer"),
            "{} under -fsanitize=address,undefined failed ({}):\n{}\n{stderr}",
            source.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout)
        );
    }
}

/// The README's C and C++ quick starts, wrapped in `main`, must build (as strictly as the other
/// programs) and run.
#[test]
fn readme_c_and_cpp_examples_build_and_run() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block = |lang: &str| {
        let start = readme.find(&format!("```{lang}\n")).unwrap_or_else(|| panic!("README has a {lang} block"));
        let body = &readme[start + lang.len() + 4..];
        body[..body.find("```").unwrap()].to_string()
    };
    let out = lib_dir().join("c-tests");
    std::fs::create_dir_all(&out).unwrap();
    for (lang, name) in [("c", "readme_quickstart.c"), ("cpp", "readme_quickstart.cpp")] {
        let code = block(lang);
        let (include, rest) = code.split_once('\n').unwrap();
        let program = format!("{include}\n#include <stdio.h>\nint main(void) {{\n{rest}\n(void)0;\nreturn 0;\n}}\n")
            .replace("int main(void)", if lang == "cpp" { "int main()" } else { "int main(void)" });
        let source = out.join(name);
        std::fs::write(&source, program).unwrap();
        let exe = build_with(&source, &["-Wno-unused-variable", "-Wno-unused-but-set-variable"]);
        let status = Command::new(&exe).status().unwrap();
        assert!(status.success(), "README {lang} example failed");
    }
}
