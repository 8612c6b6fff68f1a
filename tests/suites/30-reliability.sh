# Reliability beyond `cargo test` (whose snapshot fuzzer, extreme-value property test and misuse
# tests run in the "reliability" suite): the C programs under gcc's sanitizers, and coverage-guided
# fuzzing of snapshot loading with cargo-fuzz on the nightly toolchain for a bounded time. The fuzz
# build uses no sanitizer: the core has no `unsafe` but a cache-prefetch hint (which cannot touch memory), so the fuzzer hunts panics,
# aborts, unbounded allocation (-rss_limit_mb) and broken invariants, and ASan would only double the
# (already long: parry3d) nightly build. The first run also installs cargo-fuzz (several minutes).
FUZZ_SECONDS="${ARGUS_FUZZ_SECONDS:-45}"

run_one "c-abi-under-asan-ubsan" cargo test --profile "$PROFILE" --test c_abi -- --ignored --exact \
    c_programs_under_address_and_undefined_sanitizers

reliability_cargo_fuzz() {
    if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
        echo "!!!! NO NIGHTLY TOOLCHAIN: coverage-guided snapshot fuzzing did NOT run (counted as failed)"
        return 1
    fi
    if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
        echo "== installing cargo-fuzz from crates.io"
        cargo install cargo-fuzz --locked || return 1
    fi
    local seeds="$ROOT/fuzz/corpus/snapshot_load"
    mkdir -p "$seeds"
    ARGUS_FUZZ_SEEDS="$seeds" cargo test --profile "$PROFILE" --test snapshot_fuzz \
        the_field_trace_covers_the_whole_payload || return 1
    (cd "$ROOT/fuzz" && cargo +nightly fuzz run --sanitizer none snapshot_load -- -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=1024 && cargo +nightly fuzz run --sanitizer none replay -- -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=1024)
}
run_one "cargo-fuzz-snapshot-load" reliability_cargo_fuzz
