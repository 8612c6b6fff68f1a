#!/usr/bin/env bash
# Runs every Argus test suite, installing what is missing first (on Debian/Ubuntu, as root).
#   tests/run_all.sh            everything
#   tests/run_all.sh --no-install   skip package installation
# Prints a count per suite and a final "N passed, N failed"; exits non-zero if anything failed.
# A suite whose prerequisites cannot be installed counts as failed, never as skipped.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PROFILE=ci
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET_DIR/$PROFILE"
LOGS="$TARGET_DIR/test-logs"
mkdir -p "$LOGS"
INSTALL=1
[[ "${1:-}" == "--no-install" ]] && INSTALL=0

TOTAL_PASSED=0
TOTAL_FAILED=0
SUMMARY=()

record() { # suite passed failed
    TOTAL_PASSED=$((TOTAL_PASSED + $2))
    TOTAL_FAILED=$((TOTAL_FAILED + $3))
    SUMMARY+=("$(printf '%-28s %6d passed %4d failed' "$1" "$2" "$3")")
    printf '== %s: %d passed, %d failed\n' "$1" "$2" "$3"
}

# Sums "test result: ... N passed; M failed" lines of cargo test output (file $1).
cargo_counts() {
    awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
         END { printf "%d %d\n", p, f }' "$1"
}

# Runs a command as one test: 1 passed or 1 failed; output in $LOGS/<name>.log.
run_one() { # suite-name command...
    local name="$1"; shift
    if "$@" >"$LOGS/$name.log" 2>&1; then
        record "$name" 1 0
    else
        echo "---- $name failed; last lines of $LOGS/$name.log:"
        tail -n 30 "$LOGS/$name.log"
        record "$name" 0 1
    fi
}

# ---- prerequisites -------------------------------------------------------------------------
source "$ROOT/tests/suites/prerequisites.sh"
if [[ $INSTALL == 1 ]]; then
    install_prerequisites || echo "warning: some packages could not be installed"
fi

# ---- build once --------------------------------------------------------------------------
echo "== building (profile $PROFILE)"
if ! cargo build --profile "$PROFILE" --all-targets 2>&1 | tail -n 3; then
    record "build" 0 1
fi

# ---- Rust: unit, integration, doc, header, C/C++ ABI, reliability --------------------------
echo "== cargo test"
cargo test --profile "$PROFILE" --no-fail-fast >"$LOGS/cargo-test.log" 2>&1
awk -v logs="$LOGS" '
    /Running unittests src\/lib.rs/ { suite = "rust-unit" }
    /Running tests\//               { suite = "rust-integration" }
    /Running tests\/c_abi.rs/       { suite = "c-and-cpp-abi" }
    /Running tests\/header.rs/      { suite = "header-freshness" }
    /Running tests\/(differential|ffi_fuzz|snapshot|determinism|extremes|misuse)/ { suite = "reliability" }
    /Doc-tests/                     { suite = "rust-doc" }
    { if (suite != "") print > (logs "/suite-" suite ".log") }
' "$LOGS/cargo-test.log"
for suite in rust-unit rust-integration rust-doc header-freshness c-and-cpp-abi reliability; do
    if [[ -f "$LOGS/suite-$suite.log" ]]; then
        read -r p f < <(cargo_counts "$LOGS/suite-$suite.log")
        [[ $p -eq 0 && $f -eq 0 ]] && f=1   # a suite that ran nothing is a failure
        record "$suite" "$p" "$f"
    else
        record "$suite" 0 1
    fi
    rm -f "$LOGS/suite-$suite.log"
done
grep -E "^(test .* FAILED|failures:|---- )" "$LOGS/cargo-test.log" | head -n 40

# ---- C ABI under valgrind memcheck ---------------------------------------------------------
if command -v valgrind >/dev/null; then
    ARGUS_VALGRIND=1 cargo test --profile "$PROFILE" --test c_abi >"$LOGS/valgrind.log" 2>&1
    read -r p f < <(cargo_counts "$LOGS/valgrind.log")
    [[ $p -eq 0 && $f -eq 0 ]] && f=1
    record "c-abi-under-valgrind" "$p" "$f"
else
    record "c-abi-under-valgrind" 0 1
fi

# ---- examples, benchmarks and later suites (tests/suites/NN-*.sh) ----------------------------
for suite in "$ROOT"/tests/suites/[0-9]*.sh; do
    source "$suite"
done

# ---- summary -------------------------------------------------------------------------------
echo
echo "Suites:"
printf '  %s\n' "${SUMMARY[@]}"
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[[ $TOTAL_FAILED -eq 0 ]]
