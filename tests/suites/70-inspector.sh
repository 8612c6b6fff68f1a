# The inspector (tools/inspector/argus-inspector.html) in a real browser: Debian's Chromium,
# headless, driven by puppeteer-core (tests/inspector/test.mjs). It opens a hand-made recording
# (every "why" wording, errors), the courtyard demo's recording (checked against the timeline
# and line-of-sight checks the demo prints), and a 60 s recording of the 1,000-guard level (open
# and seek times printed as figures); and issue #46's debugger checks (files cut at any byte,
# nonsense counts, the lose-sight and layer wording, the Why in a 1400 × 900 window, the side
# view, search, events, follow, the legend, the walk graph). Sourced by tests/run_all.sh (uses record/run_one); prints
# its own "N passed, N failed". Where Chromium, Node or puppeteer-core cannot be had, prints a
# loud SKIPPED line and records a failure.
#   ARGUS_INSPECTOR_SCREENSHOT=docs/inspector.png   also writes the docs' screenshot there

inspector_skip() { # reason
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "SKIPPED: inspector browser tests — $1"
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    record "inspector (SKIPPED)" 0 1
}

inspector_suite() {
    local need=()
    command -v chromium >/dev/null || need+=(chromium)
    command -v node >/dev/null || need+=(nodejs)
    command -v npm >/dev/null || need+=(npm)
    if [[ ${#need[@]} -gt 0 && $INSTALL == 1 && $(id -u) -eq 0 ]]; then
        echo "== installing ${need[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" \
                >"$LOGS/inspector-apt.log" 2>&1
    fi
    local chromium
    chromium="$(command -v chromium)"
    if [[ -z "$chromium" ]] || ! "$chromium" --headless=new --no-sandbox --disable-gpu --dump-dom about:blank \
        >"$LOGS/inspector-chromium.log" 2>&1; then
        inspector_skip "Chromium is missing or does not start headless (apt-get install chromium; see $LOGS/inspector-*.log)"
        return
    fi
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        inspector_skip "Node.js or npm is missing (apt-get install nodejs npm)"
        return
    fi
    # puppeteer-core from the npm registry, at the versions of the committed package-lock.json
    # (with --no-install, what is already in tests/inspector/node_modules is used).
    if [[ $INSTALL == 1 || ! -d "$ROOT/tests/inspector/node_modules/puppeteer-core" ]] &&
        ! (cd "$ROOT/tests/inspector" && npm ci --no-audit --no-fund) >"$LOGS/inspector-npm.log" 2>&1; then
        tail -n 20 "$LOGS/inspector-npm.log"
        inspector_skip "npm ci in tests/inspector failed (puppeteer-core from the npm registry; see $LOGS/inspector-npm.log)"
        return
    fi
    # The recordings: the courtyard scene, and the 1,000-guard level for 60 s.
    local work="$TARGET_DIR/inspector"
    mkdir -p "$work"
    if ! cargo run --profile "$PROFILE" --example courtyard -- --out "$work/courtyard.svg" \
        --record "$work/courtyard.argusrec" >"$work/courtyard.txt" 2>"$LOGS/inspector-courtyard.log"; then
        tail -n 20 "$LOGS/inspector-courtyard.log"
        record "inspector-recordings" 0 1
        return
    fi
    if ! cargo run --profile "$PROFILE" --example courtyard -- --guards 1000 --seconds 60 \
        --record "$work/courtyard-1000.argusrec" >"$work/courtyard-1000.txt" 2>"$LOGS/inspector-big.log"; then
        tail -n 20 "$LOGS/inspector-big.log"
        record "inspector-recordings" 0 1
        return
    fi
    grep -h "^recorded" "$work/courtyard.txt" "$work/courtyard-1000.txt"
    # Recording changes nothing the scene does: the same timeline as a run without --record.
    if cargo run --profile "$PROFILE" --example courtyard -- --out "$work/plain.svg" >"$work/plain.txt" 2>/dev/null &&
        diff <(grep -v "^wrote" "$work/plain.txt") \
            <(grep -vE "^(wrote |check |recording: |recorded )" "$work/courtyard.txt") >"$LOGS/inspector-timeline.diff"; then
        record "inspector-recording-keeps-the-timeline" 1 0
    else
        head -n 20 "$LOGS/inspector-timeline.diff"
        record "inspector-recording-keeps-the-timeline" 0 1
    fi
    local shot=()
    [[ -n "${ARGUS_INSPECTOR_SCREENSHOT:-}" ]] && shot=(--screenshot "$ARGUS_INSPECTOR_SCREENSHOT")
    timeout 900 node "$ROOT/tests/inspector/test.mjs" --chromium "$chromium" --work "$work" \
        --courtyard "$work/courtyard.argusrec" --courtyard-log "$work/courtyard.txt" \
        --big "$work/courtyard-1000.argusrec" "${shot[@]}" >"$LOGS/inspector.log" 2>&1
    local rc=$? line p f
    line="$(grep -aoE '^[0-9]+ passed, [0-9]+ failed' "$LOGS/inspector.log" | tail -n 1)"
    p="$(awk '{print $1}' <<<"$line")"
    f="$(awk '{print $3}' <<<"$line")"
    p="${p:-0}" f="${f:-0}"
    if [[ $rc -ne 0 && $f -eq 0 ]]; then f=1; fi   # a crash or a timeout without counts is a failure
    if [[ $p -eq 0 && $f -eq 0 ]]; then f=1; fi    # a run that checked nothing is a failure
    grep -a "^figure:" "$LOGS/inspector.log"
    if [[ $f -ne 0 ]]; then
        echo "---- inspector failed (exit $rc); failures and last lines of $LOGS/inspector.log:"
        grep -a "^FAIL" "$LOGS/inspector.log" | head -n 20
        tail -n 10 "$LOGS/inspector.log"
    fi
    record "inspector" "$p" "$f"
}

inspector_suite
