# The release artifacts, installed and used the way a user would (GUIDE §7): tools/release.sh
# builds dist/, then each package is unpacked into a fresh project under /tmp, outside the
# repository, and used from there. Sourced by tests/run_all.sh (uses record/run_one/LOGS).
# A step that cannot run is recorded as a failure, never skipped.
REL_TMP="/tmp/argus-release-test"
CROSS_CHROOT="${ARGUS_CROSS_CACHE:-/var/cache/argus-cross}/sid"

release_fail() { # name message
    echo "!!!! release: $1 — $2"
    record "$1" 0 1
}

# The installed C SDK: a CMake project outside the repo finds it and runs the lesson's trace.
release_c_linux() {
    local sdk="$REL_TMP/sdk-linux" app="$REL_TMP/c-app"
    if ! command -v cmake >/dev/null && [[ $INSTALL == 1 ]]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends cmake >/dev/null 2>&1 ||
            { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends cmake; } >/dev/null 2>&1
    fi
    command -v cmake >/dev/null || { release_fail release-c-linux "cmake missing and not installable"; return; }
    mkdir -p "$sdk" "$app" && tar -C "$sdk" --strip-components=1 -xzf "$ROOT"/dist/argus-sdk-*-linux-x86_64.tar.gz
    cp "$ROOT"/tests/release/c/CMakeLists.txt "$ROOT"/tests/c/lesson_traces.c "$ROOT"/tests/c/check.h "$app/"
    run_one release-c-linux-cmake bash -c "cmake -S '$app' -B '$app/build' -DCMAKE_PREFIX_PATH='$sdk' && cmake --build '$app/build'"
    run_one release-c-linux-shared "$app/build/lesson_traces"
    run_one release-c-linux-static "$app/build/lesson_traces_static"
    # pkg-config, as the SDK README shows it.
    run_one release-c-linux-pkgconfig bash -c "cc -o '$app/pc' '$app/lesson_traces.c' \$(PKG_CONFIG_PATH='$sdk/lib/pkgconfig' pkg-config --cflags --libs argus) -lm -Wl,-rpath,'$sdk/lib' && '$app/pc'"
    # Without the library the loader names it: what a user must install.
    mv "$sdk/lib/libargus.so" "$sdk/lib/libargus.so.away"
    "$app/build/lesson_traces" >"$LOGS/release-c-linux-missing.log" 2>&1
    if [[ $? -ne 0 ]] && grep -q "libargus.so" "$LOGS/release-c-linux-missing.log"; then
        record release-c-linux-missing-lib 1 0
    else
        cat "$LOGS/release-c-linux-missing.log"; record release-c-linux-missing-lib 0 1
    fi
    mv "$sdk/lib/libargus.so.away" "$sdk/lib/libargus.so"
}

# The same source and CMake project cross-built with MinGW in the cross chroot, run under Wine.
release_c_windows() {
    [[ -f "$CROSS_CHROOT/.argus-ready" ]] || { release_fail release-c-windows "no cross chroot at $CROSS_CHROOT"; return; }
    local inside="$CROSS_CHROOT/tmp/argus-win" log="$LOGS/release-c-windows.log"
    rm -rf "$inside" && mkdir -p "$inside/sdk" "$inside/app"
    (cd "$inside/sdk" && unzip -q "$ROOT"/dist/argus-sdk-*-windows-x86_64.zip && mv argus-sdk-*/* . )
    cp "$ROOT"/tests/release/c/CMakeLists.txt "$ROOT"/tests/release/c/mingw.cmake "$ROOT"/tests/c/lesson_traces.c "$ROOT"/tests/c/check.h "$inside/app/"
    mount -t proc proc "$CROSS_CHROOT/proc" 2>/dev/null
    chroot "$CROSS_CHROOT" bash -c 'set -e; cd /tmp/argus-win/app
        cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=mingw.cmake -DCMAKE_PREFIX_PATH=/tmp/argus-win/sdk
        cmake --build build
        cp /tmp/argus-win/sdk/bin/argus.dll build/
        export WINEPREFIX=/tmp/argus-wine WINEDEBUG=-all
        echo "== shared"; wine build/lesson_traces.exe
        echo "== static"; wine build/lesson_traces_static.exe
        echo "== MSVC import library: an __imp_ symbol for every export of the .def"
        n=$(llvm-nm /tmp/argus-win/sdk/lib/argus.lib | grep -c " __imp_argus_"); echo "$n"
        test "$n" -eq "$(grep -c "^    argus_" /tmp/argus-win/sdk/lib/argus.def)" -a "$n" -gt 100' >"$log" 2>&1
    local rc=$?
    umount "$CROSS_CHROOT/proc" 2>/dev/null
    local p f
    read -r p f < <(tr -d '\r' <"$log" | sed -n 's/^lesson_traces.c: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' | awk '{p+=$1; f+=$2} END {print p+0, f+0}')
    [[ $rc -ne 0 ]] && { tail -n 20 "$log"; f=$((f + 1)); }
    [[ $(tr -d '\r' <"$log" | grep -c '^lesson_traces.c:') -eq 2 ]] || f=$((f + 1))
    record release-c-windows-wine "$p" "$f"
}

# Unity: the tarball unpacked into a fresh stand-in project's Packages/, compiled and tested there
# with its own native library.
release_unity() {
    local proj="$REL_TMP/unity-project" out="$REL_TMP/unity-build"
    mkdir -p "$proj/Packages" "$proj/Assets"
    tar -C "$proj/Packages" -xzf "$ROOT"/dist/com.argus.perception-*.tgz && mv "$proj/Packages/package" "$proj/Packages/com.argus.perception"
    local pkg="$proj/Packages/com.argus.perception"
    run_one release-unity-compile env ARGUS_UNITY_PACKAGE="$pkg" "$ROOT/tests/unity/build.sh" "$out" 2021.3
    if [[ -f "$out/Argus.Perception.StandInTests.dll" ]]; then
        (cd "$out" && ARGUS_UNITY_PACKAGE="$pkg" LD_LIBRARY_PATH="$pkg/Plugins/Linux/x86_64" ARGUS_ROOT="$ROOT" \
            nunit-console -nologo Argus.Perception.Tests.dll Argus.Perception.StandInTests.dll) >"$LOGS/release-unity-tests.log" 2>&1
        unity_record_nunit "$LOGS/release-unity-tests.log" release-unity-tests
        # The package's own assembly, with no library found: the message names the package to install.
        mcs -langversion:7 -out:"$out/Trace.exe" -r:"$out/Argus.Perception.dll" "$ROOT/tests/release/csharp/Trace.cs" \
            >"$LOGS/release-unity-missing.log" 2>&1
        (cd "$out" && LD_LIBRARY_PATH= mono Trace.exe) >>"$LOGS/release-unity-missing.log" 2>&1
        if [[ $? -eq 3 ]] && grep -q "com.argus.perception-<version>.tgz" "$LOGS/release-unity-missing.log"; then
            record release-unity-missing-lib 1 0
        else
            cat "$LOGS/release-unity-missing.log"; record release-unity-missing-lib 0 1
        fi
        # The same program with the package's Plugins folder on the search path, as Unity loads it:
        # the lesson's trace runs on the package's own library.
        (cd "$out" && LD_LIBRARY_PATH="$pkg/Plugins/Linux/x86_64" mono Trace.exe) >"$LOGS/release-unity-trace.log" 2>&1
        if grep -q "^loaded: $pkg/Plugins/Linux/x86_64/libargus.so" "$LOGS/release-unity-trace.log" &&
            grep -q "^trace: [1-9][0-9]* passed, 0 failed" "$LOGS/release-unity-trace.log"; then
            record release-unity-own-library 1 0
        else
            cat "$LOGS/release-unity-trace.log"; record release-unity-own-library 0 1
        fi
    else
        record release-unity-tests 0 1
    fi
    # Every platform library with its importer .meta, and no .meta without its library.
    run_one release-unity-plugins bash -c "cd '$pkg/Plugins' && for l in Linux/x86_64/libargus.so Windows/x86_64/argus.dll macOS/libargus.dylib; do
        test -s \$l && grep -q PluginImporter \$l.meta || { echo \"missing \$l or its meta\"; exit 1; }; done
        for m in \$(find . -name '*.meta'); do test -e \${m%.meta} || { echo \"orphan \$m\"; exit 1; }; done"
}

# Godot: the zip extracted into a fresh copy of the demo project, imported, then the demo scene
# runs headless in Godot 4.6.3 (the sid chroot of 50-godot.sh).
release_godot() {
    declare -f godot_chroot >/dev/null && godot_chroot ||
        { release_fail release-godot-demo "no Godot chroot (tests/suites/50-godot.sh builds it)"; return; }
    local demo="$GODOT_CHROOT/argus-release-demo"
    rm -rf "$demo" && mkdir -p "$demo"
    cp -r "$ROOT/godot/demo/." "$demo/" && rm -rf "$demo/addons" "$demo/.godot"
    (cd "$demo" && unzip -q "$ROOT"/dist/argus-godot-*.zip)
    run_one release-godot-zip bash -c "cd '$demo/addons/argus' && for l in \$(sed -n 's|.*\"res://addons/argus/\(bin/[^\"]*\)\".*|\1|p' argus.gdextension); do
        test -s \$l || { echo \"listed but missing: \$l\"; exit 1; }; done
        test \$(ls bin | wc -l) -eq \$(grep -c '\"res://addons/argus/bin/' argus.gdextension | xargs -I{} expr {} / 2) &&
        ! file -L bin/* | grep 'not stripped' >/dev/null"
    # The editor's import, as a user's first start does. Godot 4.6.3 (Debian) crashes headless at the
    # end of a first --import of a project holding a GDExtension (see 50-godot.sh), after it has
    # imported: its exit status is ignored, and what it must have written is checked instead.
    mount -t proc proc "$GODOT_CHROOT/proc" 2>/dev/null
    timeout 300 chroot "$GODOT_CHROOT" env HOME=/tmp godot --headless --path /argus-release-demo --import \
        >"$LOGS/release-godot-import.log" 2>&1
    if grep -qx "res://addons/argus/argus.gdextension" "$demo/.godot/extension_list.cfg" 2>/dev/null &&
        [[ -d "$demo/.godot/imported" ]]; then
        record release-godot-import 1 0
    else
        tail -n 20 "$LOGS/release-godot-import.log"; record release-godot-import 0 1
    fi
    timeout 300 chroot "$GODOT_CHROOT" env HOME=/tmp godot --headless --path /argus-release-demo -- --frames 300 \
        >"$LOGS/release-godot-demo.log" 2>&1
    # A zip without this platform's library: Godot's own message names the platform and the
    # add-on's .gdextension (the zip to install), and the demo does not run.
    local bare="$GODOT_CHROOT/argus-release-bare"
    rm -rf "$bare" && cp -r "$demo" "$bare" && rm -f "$bare"/addons/argus/bin/*linux*
    sed -i '/linux\./d' "$bare/addons/argus/argus.gdextension"
    timeout 120 chroot "$GODOT_CHROOT" env HOME=/tmp godot --headless --path /argus-release-bare -- --frames 30 \
        >"$LOGS/release-godot-missing.log" 2>&1
    umount "$GODOT_CHROOT/proc" 2>/dev/null
    if grep -q "No GDExtension library found for current OS and architecture (linux.x86_64).*argus.gdextension" \
        "$LOGS/release-godot-missing.log" && ! grep -q "^demo: 30 frames" "$LOGS/release-godot-missing.log"; then
        record release-godot-missing-lib 1 0
    else
        tail -n 20 "$LOGS/release-godot-missing.log"; record release-godot-missing-lib 0 1
    fi
    if grep -q "^demo: 300 frames" "$LOGS/release-godot-demo.log" && ! grep -q "SCRIPT ERROR" "$LOGS/release-godot-demo.log"; then
        record release-godot-demo 1 0
    else
        tail -n 30 "$LOGS/release-godot-demo.log"
        record release-godot-demo 0 1
    fi
}

# C#: a console program referencing only the packaged assembly, its native library beside it.
release_csharp() {
    local pkg="$REL_TMP/nupkg" app="$REL_TMP/cs-app"
    mkdir -p "$pkg" "$app" && (cd "$pkg" && unzip -q "$ROOT"/dist/Argus.*.nupkg)
    cp "$pkg/lib/net45/Argus.dll" "$pkg/lib/net45/Argus.xml" "$app/"
    run_one release-csharp-compile mcs -langversion:7 -out:"$app/Trace.exe" -r:"$app/Argus.dll" "$ROOT/tests/release/csharp/Trace.cs"
    # No native library yet: the message must say what to install.
    (cd "$app" && mono Trace.exe) >"$LOGS/release-csharp-missing.log" 2>&1
    local rc=$?
    if [[ $rc -eq 3 ]] && grep -q "Argus NuGet package" "$LOGS/release-csharp-missing.log"; then
        record release-csharp-missing-lib 1 0
    else
        cat "$LOGS/release-csharp-missing.log"; record release-csharp-missing-lib 0 1
    fi
    cp "$pkg/runtimes/linux-x64/native/libargus.so" "$app/"
    (cd "$app" && mono Trace.exe) >"$LOGS/release-csharp-trace.log" 2>&1
    rc=$?
    local p f
    read -r p f < <(sed -n 's/^trace: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$LOGS/release-csharp-trace.log")
    p=${p:-0} f=${f:-1}
    [[ $rc -ne 0 && $f -eq 0 ]] && f=1
    grep -q "^loaded: $app/libargus.so" "$LOGS/release-csharp-trace.log" || f=$((f + 1))   # the package's, not a build tree's
    [[ $f -ne 0 ]] && cat "$LOGS/release-csharp-trace.log"
    record release-csharp-trace "$p" "$f"
}

# One version in every artifact: the source of truth and each place stamped from it.
release_versions() {
    local v; v="$(python3 "$ROOT/tools/version.py")"
    run_one release-version-sources python3 "$ROOT/tools/version.py" --check
    run_one release-version-artifacts bash -c "set -e; cd '$REL_TMP'
        grep -q '\"version\": \"$v\"' unity-project/Packages/com.argus.perception/package.json
        grep -q '<version>$v</version>' nupkg/Argus.nuspec
        grep -q 'set(PACKAGE_VERSION \"$v\")' sdk-linux/lib/cmake/Argus/ArgusConfigVersion.cmake
        grep -q '^Version: $v\$' sdk-linux/lib/pkgconfig/argus.pc
        grep -q '; Argus $v ' '$GODOT_CHROOT/argus-release-demo/addons/argus/argus.gdextension'
        grep -q '^Argus $v, assembly $v.0\$' '$LOGS/release-csharp-trace.log'
        grep -q 'Argus $v' '$LOGS/release-c-linux-cmake.log'
        test -f '$ROOT/dist/com.argus.perception-$v.tgz' -a -f '$ROOT/dist/Argus.$v.nupkg' -a -f '$ROOT/dist/argus-godot-$v.zip'"
}

# The shipped libraries' exports, dependencies and Mach-O settings, read with the cross chroot's
# LLVM tools: Windows and macOS export exactly the Linux library's argus_* functions, the Godot
# libraries only gdext_rust_init, the DLL needs no MinGW runtime DLL, the dylib is found by @rpath,
# needs only libSystem and keeps its ad-hoc signature (Apple Silicon loads nothing unsigned).
release_symbols() {
    [[ -f "$CROSS_CHROOT/.argus-ready" ]] || { release_fail release-library-symbols "no cross chroot at $CROSS_CHROOT"; return; }
    local d="$CROSS_CHROOT/tmp/argus-syms" linux_n
    rm -rf "$d" && mkdir -p "$d"
    (cd "$d" && unzip -q "$ROOT"/dist/argus-sdk-*-windows-x86_64.zip && tar -xzf "$ROOT"/dist/argus-sdk-*-macos-universal.tar.gz &&
        unzip -q "$ROOT"/dist/argus-godot-*.zip && tar -xzf "$ROOT"/dist/argus-sdk-*-linux-x86_64.tar.gz)
    cp "$ROOT/tests/release/macho_signature.py" "$d/"
    linux_n=$(nm -D --defined-only "$d"/argus-sdk-*-linux-x86_64/lib/libargus.so | grep -c ' T argus_')
    run_one release-library-symbols chroot "$CROSS_CHROOT" bash -c 'set -e; cd /tmp/argus-syms; L='"$linux_n"'
        w=$(ls -d argus-sdk-*-windows-x86_64); m=$(ls -d argus-sdk-*-macos-universal)
        exports() { llvm-readobj --coff-exports "$1" | sed -n "s/^ *Name: //p"; }
        echo "linux: $L argus_ functions"
        test "$L" -gt 100
        test "$(exports $w/bin/argus.dll | grep -c "^argus_")" -eq "$L" && test "$(exports $w/bin/argus.dll | wc -l)" -eq "$L"
        ! x86_64-w64-mingw32-objdump -p $w/bin/argus.dll | grep -iE "DLL Name: (libgcc|libwinpthread|libstdc)"
        test "$(exports addons/argus/bin/argus_godot.windows.x86_64.dll)" = gdext_rust_init
        for arch in arm64 x86_64; do
            test "$(llvm-nm -gU --arch=$arch $m/lib/libargus.dylib | grep -c " _argus_")" -eq "$L"
            test "$(llvm-nm -gU --arch=$arch $m/lib/libargus.dylib | grep -cE "^[0-9a-f]+ [A-Za-z] ")" -eq "$L"
        done
        llvm-lipo -thin arm64 $m/lib/libargus.dylib -output arm64.dylib
        python3 macho_signature.py arm64.dylib
        python3 macho_signature.py addons/argus/bin/libargus_godot.macos.dylib
        llvm-objdump --macho --dylib-id --arch=arm64 $m/lib/libargus.dylib | grep -qx "@rpath/libargus.dylib"
        test "$(llvm-objdump --macho --dylibs-used --arch=arm64 $m/lib/libargus.dylib | tail -n +2 | grep -vc libargus)" -eq 1
        llvm-objdump --macho --dylibs-used --arch=arm64 $m/lib/libargus.dylib | grep -q /usr/lib/libSystem.B.dylib
        test "$(llvm-nm -gU addons/argus/bin/libargus_godot.macos.dylib | grep -E "^[0-9a-f]+ [A-Za-z] " | awk "{print \$3}")" = _gdext_rust_init
        echo "all checks passed"'
}

# The recordings' inspector ships in every package a user may hold without the repository.
release_inspector() {
    local html="$ROOT/tools/inspector/argus-inspector.html"
    run_one release-inspector-shipped bash -c "set -eo pipefail
        tar -xzOf '$ROOT'/dist/argus-sdk-*-linux-x86_64.tar.gz --wildcards '*/tools/argus-inspector.html' | cmp - '$html'
        tar -xzOf '$ROOT'/dist/argus-sdk-*-macos-universal.tar.gz --wildcards '*/tools/argus-inspector.html' | cmp - '$html'
        unzip -p '$ROOT'/dist/argus-sdk-*-windows-x86_64.zip '*/tools/argus-inspector.html' | cmp - '$html'
        tar -xzOf '$ROOT'/dist/com.argus.perception-*.tgz 'package/Tools~/argus-inspector.html' | cmp - '$html'
        unzip -p '$ROOT'/dist/argus-godot-*.zip 'addons/argus/tools/argus-inspector.html' | cmp - '$html'
        unzip -l '$ROOT'/dist/argus-godot-*.zip | grep 'addons/argus/tools/.gdignore' >/dev/null"
}

release_suite() {
    if [[ "${ARGUS_RELEASE_REUSE_DIST:-0}" == 1 && -f "$ROOT/dist/SHA256SUMS" ]]; then
        # For iterating on the tests only: CI always builds.
        echo "== release: REUSING the existing dist/ (ARGUS_RELEASE_REUSE_DIST=1)"
    elif echo "== release: tools/release.sh (log: $LOGS/release-build.log)" &&
        ! "$ROOT/tools/release.sh" >"$LOGS/release-build.log" 2>&1; then
        tail -n 40 "$LOGS/release-build.log"
        record release-build 0 1
        return
    else
        record release-build 1 0
    fi
    sed -n '/stage times/,$p' "$LOGS/release-build.log"
    rm -rf "$REL_TMP" && mkdir -p "$REL_TMP"
    release_c_linux
    release_c_windows
    release_symbols
    if declare -f unity_record_nunit >/dev/null; then release_unity; else release_fail release-unity "40-unity.sh was not sourced"; fi
    release_godot
    release_csharp
    release_versions
    release_inspector
}
release_suite
