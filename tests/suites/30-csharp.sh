# C# bindings (bindings/csharp) on Mono with NUnit 2.6, against libargus built from this checkout:
# drift (functions, symbols, layouts), generator freshness, object model, engine rays, allocations,
# and the conformance corpus. Sourced by tests/run_all.sh; prints its own "N passed, N failed".
csharp_suite() {
    local need=()
    command -v mcs >/dev/null || need+=(mono-mcs)
    command -v mono >/dev/null || need+=(mono-runtime)
    command -v nunit-console >/dev/null || need+=(nunit-console)
    [[ -f /usr/lib/pkgconfig/nunit.pc ]] || need+=(libnunit-cil-dev)
    ls /usr/lib/mono/4.5/System.Json.dll >/dev/null 2>&1 || need+=(libmono-system-json4.0-cil)
    ls /usr/lib/mono/4.5/System.Numerics.dll >/dev/null 2>&1 || need+=(libmono-system-numerics4.0-cil)
    command -v python3 >/dev/null || need+=(python3)
    if [[ ${#need[@]} -gt 0 && $INSTALL == 1 && $(id -u) -eq 0 ]]; then
        echo "== installing ${need[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    fi
    if ! command -v mcs >/dev/null || ! command -v nunit-console >/dev/null; then
        echo "---- csharp: Mono or NUnit missing (mono-mcs mono-runtime nunit-console libnunit-cil-dev)"
        record "csharp" 0 1
        return
    fi
    local out="$TARGET_DIR/csharp"
    # `testing`: the panic firewall's test hook (argus_testing_trigger_panic), left out of shipped builds.
    if ! cargo build --profile "$PROFILE" --lib --features testing >"$LOGS/csharp-build.log" 2>&1 ||
        ! "$ROOT/bindings/csharp/build.sh" --tests "$out" >>"$LOGS/csharp-build.log" 2>&1; then
        echo "---- csharp build failed; last lines of $LOGS/csharp-build.log:"
        tail -n 30 "$LOGS/csharp-build.log"
        record "csharp" 0 1
        return
    fi
    (cd "$out" && ARGUS_ROOT="$ROOT" ARGUS_LIB_DIR="$OUT" LD_LIBRARY_PATH="$OUT${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        nunit-console -nologo -xml="$out/TestResult.xml" Argus.Tests.dll) >"$LOGS/csharp.log" 2>&1
    local status=$?
    local total failures errors notrun passed failed
    read -r total failures errors notrun < <(sed -n 's/.*<test-results [^>]*total="\([0-9]*\)" errors="\([0-9]*\)" failures="\([0-9]*\)" not-run="\([0-9]*\)".*/\1 \3 \2 \4/p' "$out/TestResult.xml" 2>/dev/null)
    total=${total:-0} failures=${failures:-0} errors=${errors:-0} notrun=${notrun:-0}
    failed=$((failures + errors + notrun))
    passed=$((total - failures - errors))
    [[ $status -ne 0 && $failed -eq 0 ]] && failed=1   # a crash or a failed run is never a pass
    [[ $passed -eq 0 && $failed -eq 0 ]] && failed=1
    echo "csharp: $passed passed, $failed failed"
    if [[ $failed -gt 0 ]]; then
        grep -v '^at ' "$LOGS/csharp.log" | sed -n '/Errors and Failures/,$p' | head -n 40
    fi
    grep -hoE "(managed bytes per|gen-0 collections).*" "$LOGS/csharp.log" || true
    record "csharp" "$passed" "$failed"
}
csharp_suite
# The C#-vs-Rust benchmark, small: proves both drivers run and do identical work (the ratio is
# printed, not asserted).
if command -v mono >/dev/null; then
    run_one "csharp-benchmark-quick" "$ROOT/bindings/csharp/bench/run.sh" 500 60 3
fi
