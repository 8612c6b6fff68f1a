# The Unity package (unity/), compiled and run on Mono 6.8 against the stand-in of UnityEngine
# (tests/unity/standin/): Unity itself cannot run here. Sourced by tests/run_all.sh.
#  - builds libargus.so into unity/Plugins/Linux/x86_64 with unity/build-plugin.sh;
#  - checks every .meta (deterministic GUIDs); Runtime/Bindings is the C# bindings' one copy
#    (bindings/csharp/build.sh compiles the same files), so there is no copy to check;
#  - compiles Runtime/, Editor/, Tests/, tests/unity/ and the sample as Unity 2021.3, 2022.2 and 6000.4
#    (obsolete API is an error: the stand-in marks what Unity's reference source marks);
#  - runs the package's Unity Test Framework tests and the stand-in tests (corpus, frame loop,
#    allocations, package validation, sample) with nunit-console in each variant;
#  - deletes each field-forwarding line in turn: the package's tests must catch every one.
UNITY_OUT="$TARGET_DIR/unity-standin"

unity_prerequisites() {
    local need=()
    command -v mcs >/dev/null || need+=(mono-mcs)
    command -v mono >/dev/null || need+=(mono-runtime)
    command -v nunit-console >/dev/null || need+=(nunit-console)
    pkg-config --exists nunit 2>/dev/null || need+=(libnunit-cil-dev)
    ls /usr/lib/mono/4.5/System.Json.dll >/dev/null 2>&1 || need+=(libmono-system-json4.0-cil)
    command -v python3 >/dev/null || need+=(python3)
    command -v pkg-config >/dev/null || need+=(pkg-config)   # mcs -pkg:nunit asks pkg-config
    [[ ${#need[@]} -eq 0 ]] && return 0
    if [[ $INSTALL != 1 || $(id -u) -ne 0 ]]; then
        echo "unity suite: missing ${need[*]} (run as root without --no-install)"
        return 1
    fi
    echo "== installing ${need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

# Records an nunit-console run (its log in $1) as passed/failed test counts under name $2.
unity_record_nunit() {
    local log="$1" name="$2" run err fail inc notrun
    run=$(sed -n 's/^Tests run: \([0-9]*\), Errors: \([0-9]*\), Failures: \([0-9]*\), Inconclusive: \([0-9]*\).*/\1 \2 \3 \4/p' "$log" | tail -n 1)
    notrun=$(sed -n 's/^ *Not run: \([0-9]*\),.*/\1/p' "$log" | tail -n 1)
    if [[ -z "$run" ]]; then
        echo "---- $name did not report; last lines of $log:"
        tail -n 30 "$log"
        record "$name" 0 1
        return
    fi
    read -r run err fail inc <<<"$run"
    local failed=$((err + fail + inc + ${notrun:-0}))
    [[ $run -eq 0 ]] && failed=$((failed + 1))   # a run of nothing is a failure
    if [[ $failed -gt 0 ]]; then
        echo "---- $name: failures in $log:"
        grep -A 6 -E '^[0-9]+\) ' "$log" | head -n 60
    fi
    record "$name" $((run - err - fail - inc)) "$failed"
}

if ! unity_prerequisites; then
    record "unity (prerequisites)" 0 1
else
    run_one "unity-plugin-build" "$ROOT/unity/build-plugin.sh" --profile "$PROFILE"
    run_one "unity-meta-files" python3 "$ROOT/unity/Tools~/metas.py" --check
    for unity_variant in 2021.3 2022.2 6000.4; do
        unity_dir="$UNITY_OUT/$unity_variant"
        rm -rf "$unity_dir"
        run_one "unity-compile-$unity_variant" "$ROOT/tests/unity/build.sh" "$unity_dir" "$unity_variant"
        if [[ -f "$unity_dir/Argus.Perception.StandInTests.dll" ]]; then
            (cd "$unity_dir" && LD_LIBRARY_PATH="$ROOT/unity/Plugins/Linux/x86_64" ARGUS_ROOT="$ROOT" \
                nunit-console -nologo Argus.Perception.Tests.dll Argus.Perception.StandInTests.dll) \
                >"$LOGS/unity-tests-$unity_variant.log" 2>&1
            grep -o 'managed bytes over .*' "$LOGS/unity-tests-$unity_variant.log"
            unity_record_nunit "$LOGS/unity-tests-$unity_variant.log" "unity-tests-$unity_variant"
        else
            record "unity-tests-$unity_variant" 0 1
        fi
    done
    # What the components cost over the bare bindings (ratio printed, never asserted).
    if [[ -f "$UNITY_OUT/2021.3/Argus.Perception.dll" ]] &&
        mcs -langversion:7 -out:"$UNITY_OUT/2021.3/LayerBench.exe" -r:"$UNITY_OUT/2021.3/UnityEngine.StandIn.dll" \
            -r:"$UNITY_OUT/2021.3/Argus.Perception.dll" "$ROOT/tests/unity/bench/LayerBench.cs" >"$LOGS/unity-layer-bench.log" 2>&1; then
        run_one "unity-layer-bench" env LD_LIBRARY_PATH="$ROOT/unity/Plugins/Linux/x86_64" mono "$UNITY_OUT/2021.3/LayerBench.exe"
        cat "$LOGS/unity-layer-bench.log"
    else
        record "unity-layer-bench" 0 1
    fi
    if [[ -f "$UNITY_OUT/2021.3/Argus.Perception.Tests.dll" ]]; then
        "$ROOT/tests/unity/mutate_fields.sh" "$UNITY_OUT/2021.3" >"$LOGS/unity-field-forwarding.log" 2>&1
        unity_caught=""
        unity_missed=""
        read -r unity_caught unity_missed < <(sed -n 's/^\([0-9]*\) caught, \([0-9]*\) missed$/\1 \2/p' "$LOGS/unity-field-forwarding.log")
        grep -E '^MISSED' "$LOGS/unity-field-forwarding.log"
        [[ -z "$unity_caught" ]] && { unity_caught=0; unity_missed=1; }
        [[ $unity_caught -eq 0 && $unity_missed -eq 0 ]] && unity_missed=1
        record "unity-field-forwarding" "$unity_caught" "$unity_missed"
    else
        record "unity-field-forwarding" 0 1
    fi
fi
