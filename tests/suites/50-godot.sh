# Godot add-on: engine-free glue by `cargo test -p argus-godot`, then the GDScript engine tests
# inside a real Godot 4.6.3 (Debian sid only, so it runs in a sid chroot: the binary needs a newer
# glibc than this machine's), headless, and the editor tests in a real, windowed editor under Xvfb
# with Mesa's software GL (llvmpipe). Sourced by tests/run_all.sh (uses record/run_one).
# Where the chroot cannot be built, prints a loud SKIPPED line and records a failure.

GODOT_CHROOT="${ARGUS_GODOT_CHROOT:-/var/cache/argus-godot/sid}"
# The add-on is built as users ship it (release): the ci profile's debug assertions switch gdext
# to its strict safeguards, which cost ~1 µs per engine call and would skew the benchmark.
GODOT_PROFILE="${ARGUS_GODOT_PROFILE:-release}"

godot_skip() { # reason
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "SKIPPED: Godot engine tests — $1"
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    record "godot-engine (SKIPPED)" 0 1
}

# The sid chroot with Godot, built once and reused (about a minute and 1 GB).
godot_chroot() {
    if [[ -x "$GODOT_CHROOT/usr/bin/godot" ]]; then
        return 0
    fi
    [[ $(id -u) -eq 0 ]] || { echo "building the Godot chroot needs root"; return 1; }
    command -v debootstrap >/dev/null || {
        DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    } || return 1
    # The Debian mirror this machine already uses.
    local mirror
    mirror="$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
        /etc/apt/sources.list.d/*.list 2>/dev/null | grep -oE 'https?://[^ ]+/debian/?' | grep -v security | head -n 1)"
    mirror="${mirror:-http://deb.debian.org/debian}"
    # --one-file-system: never into a /proc or sysfs mount a killed run may have left inside.
    rm -rf --one-file-system "$GODOT_CHROOT"
    mkdir -p "$(dirname "$GODOT_CHROOT")"
    debootstrap --variant=minbase sid "$GODOT_CHROOT" "$mirror" >"$LOGS/godot-debootstrap.log" 2>&1 || return 1
    mount -t proc proc "$GODOT_CHROOT/proc" || return 1
    chroot "$GODOT_CHROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends godot \
        >"$LOGS/godot-install.log" 2>&1
    local rc=$?
    umount "$GODOT_CHROOT/proc"
    [[ $rc -eq 0 && -x "$GODOT_CHROOT/usr/bin/godot" ]]
}

# The X server and OpenGL the windowed editor tests need, in the chroot: Xvfb and Mesa's DRI
# drivers (llvmpipe, software GL). Installed once; also into a chroot built before they were needed.
godot_chroot_x() {
    local lib="$GODOT_CHROOT/usr/lib/x86_64-linux-gnu"
    if [[ -x "$GODOT_CHROOT/usr/bin/Xvfb" && -e "$lib/dri/swrast_dri.so" && -e "$lib/libGLX_mesa.so.0" ]]; then
        return 0
    fi
    [[ $(id -u) -eq 0 ]] || { echo "installing Xvfb into the Godot chroot needs root"; return 1; }
    local apt=(chroot "$GODOT_CHROOT" env DEBIAN_FRONTEND=noninteractive apt-get)
    local pkgs=(install -y --no-install-recommends xvfb libgl1-mesa-dri)
    mount -t proc proc "$GODOT_CHROOT/proc" 2>/dev/null
    # An older chroot's package lists may name files the mirror no longer has: refresh and retry
    # (accepting a mirror snapshot past its Release's Valid-Until, as this machine's apt does).
    { "${apt[@]}" "${pkgs[@]}" ||
        { "${apt[@]}" -o Acquire::Check-Valid-Until=false update && "${apt[@]}" "${pkgs[@]}"; }; } \
        >"$LOGS/godot-x-install.log" 2>&1
    umount "$GODOT_CHROOT/proc" 2>/dev/null
    [[ -x "$GODOT_CHROOT/usr/bin/Xvfb" && -e "$lib/dri/swrast_dri.so" && -e "$lib/libGLX_mesa.so.0" ]]
}

# Records a Godot run's "N passed, N failed" line (the last one in its log). A crash or non-zero
# exit without failures, a run that checked nothing, and a GDScript runtime error (it aborts the
# function it happens in: checks after it never ran) each count as a failure.
godot_record() { # name log exit-code [further failures]
    local name="$1" log="$2" rc="$3" line p f
    line="$(grep -aoE '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)"
    p="$(awk '{print $1}' <<<"$line")"
    f="$(awk '{print $3}' <<<"$line")"
    p="${p:-0}" f="${f:-0}"
    if [[ $rc -ne 0 && $f -eq 0 ]]; then f=1; fi
    if [[ $p -eq 0 && $f -eq 0 ]]; then f=1; fi
    if grep -aq "SCRIPT ERROR" "$log"; then f=$((f + 1)); fi
    f=$((f + ${4:-0}))
    if [[ $f -ne 0 ]]; then
        echo "---- godot-$name failed (exit $rc); last lines of $log:"
        tail -n 30 "$log"
    fi
    record "godot-$name" "$p" "$f"
}

# Runs one GDScript test in the chroot; records its "N passed, N failed" line. Further arguments
# are environment settings for Godot (NAME=value).
godot_script() { # name script.gd [NAME=value ...]
    local name="$1" script="$2" log="$LOGS/godot-$1.log"
    shift 2
    mount -t proc proc "$GODOT_CHROOT/proc" 2>/dev/null
    timeout 600 chroot "$GODOT_CHROOT" env HOME=/tmp "$@" godot --headless --path /argus-test --script "res://$script" \
        >"$log" 2>&1
    local rc=$?
    umount "$GODOT_CHROOT/proc" 2>/dev/null
    godot_record "$name" "$log" "$rc"
}

# Opens a project in the real, windowed editor (the Compatibility renderer on Mesa's llvmpipe, on
# the Xvfb display $GODOT_DISPLAY, a fresh $HOME: no editor settings or doc cache from earlier
# runs); its test plugin (godot/tests/editor/addons/argus_editor_test) runs the checks `mode`
# names, prints its counts and quits the editor. Records them as godot_script does; a crash too.
godot_editor() { # name /project-in-chroot mode
    local name="$1" project="$2" mode="$3" log="$LOGS/godot-$1.log" home="/tmp/argus-$1-home"
    rm -rf "${GODOT_CHROOT:?}$home" "$GODOT_CHROOT/argus-editor-shots/$mode" && mkdir -p "$GODOT_CHROOT$home" \
        "$GODOT_CHROOT/argus-editor-shots/$mode"
    timeout 120 chroot "$GODOT_CHROOT" env HOME="$home" DISPLAY=":$GODOT_DISPLAY" ARGUS_EDITOR_TEST="$mode" \
        ARGUS_EDITOR_SHOTS="/argus-editor-shots/$mode" godot --editor --path "$project" --rendering-driver opengl3 \
        >"$log" 2>&1
    local rc=$? crashed=0
    # A crash after the counts were printed (as Godot's first headless import does on quitting).
    grep -aq "FATAL\|handle_crash" "$log" && crashed=1
    # The captured editor windows, for a person to look at.
    rm -rf "$LOGS/godot-editor-shots/$mode" && mkdir -p "$LOGS/godot-editor-shots" &&
        cp -r "$GODOT_CHROOT/argus-editor-shots/$mode" "$LOGS/godot-editor-shots/"
    godot_record "$name" "$log" "$rc" "$crashed"
}

# The windowed editor tests: an X server (Xvfb picks a free display and writes its number on
# fd 1), then each editor run. No X server or GL is a recorded failure of each test, never a skip.
godot_editor_tests() {
    local names=(editor-draw editor-fresh)
    if ! godot_chroot_x; then
        echo "!!!! godot editor tests: could not install Xvfb and Mesa in $GODOT_CHROOT (see $LOGS/godot-x-install.log)"
        for n in "${names[@]}"; do record "godot-$n" 0 1; done
        return
    fi
    # The drawing test's project (its test plugin and scenes) with the add-on, installed as the
    # README says (the extension list written first).
    local project="$GODOT_CHROOT/argus-editor"
    rm -rf "$project" && mkdir -p "$project/.godot" "$project/addons"
    cp -r "$ROOT/godot/tests/editor/." "$project/"
    cp -r "$ROOT/godot/addons/argus" "$project/addons/"
    echo "res://addons/argus/argus.gdextension" >"$project/.godot/extension_list.cfg"
    # A fresh project as a developer makes one: the add-on copied in, opened in the editor with
    # no .godot folder at all (no extension list written first: the step the headless first
    # import needs). Its project.godot only enables the test plugin.
    local fresh="$GODOT_CHROOT/argus-editor-fresh"
    rm -rf "$fresh" && mkdir -p "$fresh/addons"
    cp -r "$ROOT/godot/addons/argus" "$ROOT/godot/tests/editor/addons/argus_editor_test" "$fresh/addons/"
    printf '%s\n' 'config_version=5' '' '[application]' 'config/name="fresh"' '' '[editor_plugins]' \
        'enabled=PackedStringArray("res://addons/argus_editor_test/plugin.cfg")' >"$fresh/project.godot"

    mount -t proc proc "$GODOT_CHROOT/proc" 2>/dev/null
    local display="$LOGS/godot-xvfb.display" xvfb
    rm -f "$display"
    chroot "$GODOT_CHROOT" Xvfb -displayfd 1 -screen 0 1600x900x24 -nolisten tcp >"$display" \
        2>"$LOGS/godot-xvfb.log" &
    xvfb=$!
    for _ in $(seq 100); do   # up to 10 s, less if it exits
        if [[ -s "$display" ]] || ! kill -0 "$xvfb" 2>/dev/null; then break; fi
        sleep 0.1
    done
    GODOT_DISPLAY="$(tr -dc 0-9 <"$display")"
    if [[ -z "$GODOT_DISPLAY" ]]; then
        echo "!!!! godot editor tests: Xvfb did not start; last lines of $LOGS/godot-xvfb.log:"
        tail -n 10 "$LOGS/godot-xvfb.log"
        for n in "${names[@]}"; do record "godot-$n" 0 1; done
    else
        godot_editor editor-draw /argus-editor draw
        godot_editor editor-fresh /argus-editor-fresh fresh
    fi
    kill "$xvfb" 2>/dev/null
    wait "$xvfb" 2>/dev/null
    umount "$GODOT_CHROOT/proc" 2>/dev/null
}

godot_suite() {
    local p f
    cargo test --profile "$GODOT_PROFILE" -p argus-godot >"$LOGS/godot-glue.log" 2>&1
    read -r p f < <(cargo_counts "$LOGS/godot-glue.log")
    [[ $p -eq 0 && $f -eq 0 ]] && f=1
    record "godot-glue" "$p" "$f"

    run_one "godot-clippy" cargo clippy --profile "$GODOT_PROFILE" -p argus-godot --all-targets -- -D warnings
    if ! "$ROOT/godot/build.sh" "$GODOT_PROFILE" >"$LOGS/godot-build.log" 2>&1; then
        tail -n 30 "$LOGS/godot-build.log"
        record "godot-addon-build" 0 1
        return
    fi
    # The add-on must not re-export the C ABI: it links the core crate, not the argus C library.
    local lib="$ROOT/godot/addons/argus/bin/libargus_godot.linux.x86_64.so"
    # (grep without -q reads to the end: under pipefail, nm cut off by an early exit would fail.)
    if nm -D --defined-only "$lib" | grep ' gdext_rust_init$' >/dev/null && ! nm -D --defined-only "$lib" | grep ' argus_' >/dev/null; then
        record "godot-addon-symbols" 1 0
    else
        echo "godot add-on: expected gdext_rust_init and no argus_* exports"
        record "godot-addon-symbols" 0 1
    fi
    # build.sh's default is the release profile, stripped (what a game ships).
    if grep -q '^profile="${1:-release}"' "$ROOT/godot/build.sh" && file -L "$lib" | grep -q ', stripped'; then
        record "godot-addon-release-stripped" 1 0
    else
        echo "godot add-on: build.sh should default to release and strip it: $(file -L "$lib")"
        record "godot-addon-release-stripped" 0 1
    fi

    if ! godot_chroot; then
        godot_skip "could not build the Debian sid chroot with Godot at $GODOT_CHROOT (see $LOGS/godot-*.log)"
        return
    fi
    # A fresh copy of the test project with the add-on inside the chroot. The first --import of
    # a project holding a GDExtension crashes, so the extension list is written instead.
    local project="$GODOT_CHROOT/argus-test"
    rm -rf "$project"
    mkdir -p "$project/.godot" "$project/addons" "$project/scenarios"
    cp -r "$ROOT/godot/tests/project/." "$project/"
    cp -r "$ROOT/godot/addons/argus" "$project/addons/"
    cp "$ROOT"/tests/scenarios/*.json "$project/scenarios/" 2>/dev/null
    echo "res://addons/argus/argus.gdextension" >"$project/.godot/extension_list.cfg"
    # The editor help documents every class and member the add-on registers: Godot's --doctool
    # lists them (never their descriptions), godot/src/docs_check.rs checks gdext's docs against it.
    local doctool="$GODOT_CHROOT/argus-doctool"
    rm -rf "$doctool" && mkdir -p "$doctool"
    mount -t proc proc "$GODOT_CHROOT/proc" 2>/dev/null
    timeout 300 chroot "$GODOT_CHROOT" env HOME=/tmp godot --headless --path /argus-test --doctool /argus-doctool \
        --gdextension-docs >"$LOGS/godot-doctool.log" 2>&1
    umount "$GODOT_CHROOT/proc" 2>/dev/null
    ARGUS_GODOT_DOCTOOL_DIR="$doctool/doc_classes" cargo test --profile "$GODOT_PROFILE" -p argus-godot docs_check \
        -- --ignored >"$LOGS/godot-docs.log" 2>&1
    read -r p f < <(cargo_counts "$LOGS/godot-docs.log")
    [[ $p -eq 0 && $f -eq 0 ]] && f=1
    [[ $f -ne 0 ]] && grep -aA40 "undocumented\|panicked" "$LOGS/godot-docs.log" | head -n 60
    record "godot-docs" "$p" "$f"
    godot_script 3d test_3d.gd
    godot_script 2d test_2d.gd
    godot_script recording test_recording.gd
    godot_script corpus test_corpus.gd
    godot_script corpus2d test_corpus_2d.gd
    # What each corpus runner ran and skipped (skips are listed with their reason, never counted).
    grep -ahE '^corpus(2d)?: [0-9]+ scenario files|SKIPPED scenario' "$LOGS/godot-corpus.log" "$LOGS/godot-corpus2d.log"
    # A fresh project's first `--import` with the add-on: Godot 4.6.3 crashes headless when it
    # discovers any GDExtension during that import's scan (it regenerates the editor docs while
    # --import quits: godotengine/godot#111048); the README's install step writes
    # .godot/extension_list.cfg first, as here, and this checks that the step is enough (exit 0).
    local fresh="$GODOT_CHROOT/argus-fresh"
    rm -rf "$fresh"
    mkdir -p "$fresh/addons" "$fresh/.godot"
    cp -r "$ROOT/godot/addons/argus" "$fresh/addons/"
    printf 'config_version=5\n\n[application]\nconfig/name="fresh"\n' >"$fresh/project.godot"
    echo "res://addons/argus/argus.gdextension" >"$fresh/.godot/extension_list.cfg"
    mount -t proc proc "$GODOT_CHROOT/proc" 2>/dev/null
    timeout 300 chroot "$GODOT_CHROOT" env HOME=/tmp godot --headless --path /argus-fresh --import \
        >"$LOGS/godot-fresh-import.log" 2>&1
    local import_rc=$?
    umount "$GODOT_CHROOT/proc" 2>/dev/null
    if [[ $import_rc -eq 0 ]] && ! grep -aq "FATAL\|handle_crash" "$LOGS/godot-fresh-import.log"; then
        record "godot-fresh-import" 1 0
    else
        tail -n 20 "$LOGS/godot-fresh-import.log"
        record "godot-fresh-import" 0 1
    fi
    # The editor picture over the 2D and 3D viewports, and a fresh project opened in the editor.
    godot_editor_tests
    # The demo project runs headless for 300 physics frames with a scripted player.
    local demo="$GODOT_CHROOT/argus-demo"
    rm -rf "$demo"
    mkdir -p "$demo/.godot"
    cp -r "$ROOT/godot/demo/." "$demo/"
    rm -rf "$demo/addons" && mkdir -p "$demo/addons" && cp -r "$ROOT/godot/addons/argus" "$demo/addons/"
    echo "res://addons/argus/argus.gdextension" >"$demo/.godot/extension_list.cfg"
    mount -t proc proc "$GODOT_CHROOT/proc" 2>/dev/null
    timeout 300 chroot "$GODOT_CHROOT" env HOME=/tmp godot --headless --path /argus-demo -- --frames 300 \
        >"$LOGS/godot-demo.log" 2>&1
    umount "$GODOT_CHROOT/proc" 2>/dev/null
    if grep -q "^demo: 300 frames" "$LOGS/godot-demo.log" && ! grep -q "SCRIPT ERROR" "$LOGS/godot-demo.log"; then
        record "godot-demo" 1 0
    else
        tail -n 30 "$LOGS/godot-demo.log"
        record "godot-demo" 0 1
    fi
    if [[ "${ARGUS_GODOT_BENCH:-1}" == 1 ]]; then
        # Godot's heap on transparent huge pages (glibc's malloc asks for them when told to and when
        # it can read the kernel's THP mode, so that sysfs directory is lent to the chroot). On these
        # virtual machines a 4 KB page nobody touched for ~100 ms costs 1–400 µs on its next touch,
        # which bare metal does not do: the add-on's listener checks land on guard nodes idle for
        # seconds. Huge pages take most of that host artefact out of both sides of each ratio.
        local thp="$GODOT_CHROOT/sys/kernel/mm/transparent_hugepage" lent=0
        if [[ -r /sys/kernel/mm/transparent_hugepage/enabled ]] && mkdir -p "$thp" &&
            mount --bind /sys/kernel/mm/transparent_hugepage "$thp" 2>/dev/null; then
            lent=1
        fi
        godot_script bench bench.gd GLIBC_TUNABLES=glibc.malloc.hugetlb=1
        [[ $lent == 1 ]] && umount "$thp"
        grep -aE '^bench' "$LOGS/godot-bench.log"
    fi
}

godot_suite
