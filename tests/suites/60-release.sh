# The release artifacts, installed and used the way a user would (GUIDE §7): tools/release.sh
# builds dist/, then each package is unpacked into a fresh project under /tmp, outside the
# repository, and used from there. Sourced by tests/run_all.sh (uses record/run_one/LOGS).
# A step that cannot run is recorded as a failure, never skipped.
REL_TMP="/tmp/argus-release-test"
# The phone, web and Linux arm64 checks (release_reach_*), one file per group of platforms.
for reach_tests in "$ROOT"/tests/suites/release/*.sh; do source "$reach_tests"; done
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
    # The library names itself libargus.so (SONAME), so the program records that name, not the
    # SDK's path: it still runs when the SDK moves (found through LD_LIBRARY_PATH, or a project
    # configured again against the new place) and with the library copied beside it ($ORIGIN).
    run_one release-c-linux-soname bash -c "set -eo pipefail
        readelf -d '$sdk/lib/libargus.so' | grep -F '(SONAME)' | grep -F '[libargus.so]'
        readelf -d '$app/build/lesson_traces' | grep -F '(NEEDED)' | grep -F '[libargus.so]'
        ! readelf -d '$app/build/lesson_traces' | grep -F '(NEEDED)' | grep -F '/libargus.so'"
    local moved="$REL_TMP/elsewhere/argus-sdk" app2="$REL_TMP/c-app-moved"
    mkdir -p "$REL_TMP/elsewhere" && mv "$sdk" "$moved"
    run_one release-c-linux-moved-sdk bash -c "set -e
        echo '== the SDK moved: the program is found through LD_LIBRARY_PATH'
        LD_LIBRARY_PATH='$moved/lib' '$app/build/lesson_traces'
        echo '== the library copied beside the program'
        cp '$moved/lib/libargus.so' '$app/build/' && '$app/build/lesson_traces'; rm -f '$app/build/libargus.so'
        echo '== a project configured against the SDK at its new place'
        mkdir -p '$app2' && cp '$app'/CMakeLists.txt '$app'/lesson_traces.c '$app'/check.h '$app2/'
        cmake -S '$app2' -B '$app2/build' -DCMAKE_PREFIX_PATH='$moved' && cmake --build '$app2/build'
        '$app2/build/lesson_traces' && '$app2/build/lesson_traces_static'
        echo '== the SDK moved once more: that program too finds a copy beside it'
        mv '$moved' '$moved.2' && cp '$moved.2/lib/libargus.so' '$app2/build/' && '$app2/build/lesson_traces'
        mv '$moved.2' '$moved'"
    mv "$moved" "$sdk"
    # The README's glibc claim is the newest GLIBC_ symbol version the library needs.
    run_one release-c-linux-glibc bash -c "set -eo pipefail
        need=\$(objdump -T '$sdk/lib/libargus.so' | grep -oE 'GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
        echo \"needs glibc \$need\"
        claims=\$(grep -oE 'glibc [0-9.]+\+' '$sdk/README.md' | sort -u)
        echo \"README: \$claims\"
        test \"\$claims\" = \"glibc \$need+\""
}

# The CMake package as CMake users meet it beyond the plain build: a project with no languages
# (LANGUAGES NONE, empty CMAKE_SIZEOF_VOID_P: CMake's own version files accept it), a 32-bit
# project (refused), and MSVC, where the MinGW static archive is not offered.
release_cmake() {
    local sdk="$REL_TMP/sdk-linux" win="$REL_TMP/sdk-windows" t="$REL_TMP/cmake-checks"
    mkdir -p "$t/none" "$t/bits32" "$t/msvc" "$t/msvc-static" "$win"
    (cd "$win" && unzip -q "$ROOT"/dist/argus-sdk-*-windows-x86_64.zip && mv argus-sdk-*/* . )
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(none LANGUAGES NONE)\nfind_package(Argus 0.1 CONFIG REQUIRED)\nif(NOT TARGET Argus::argus)\n  message(FATAL_ERROR "no Argus::argus")\nendif()\nmessage(STATUS "found Argus ${Argus_VERSION}")\n' >"$t/none/CMakeLists.txt"
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(bits32 LANGUAGES NONE)\nset(CMAKE_SIZEOF_VOID_P 4)\nfind_package(Argus 0.1 CONFIG)\nif(Argus_FOUND)\n  message(FATAL_ERROR "a 32-bit project took the 64-bit library")\nendif()\n' >"$t/bits32/CMakeLists.txt"
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(msvc LANGUAGES NONE)\nset(WIN32 1)\nset(MSVC 1)\nfind_package(Argus 0.1 CONFIG REQUIRED)\nget_target_property(implib Argus::argus IMPORTED_IMPLIB)\nmessage(STATUS "implib ${implib}")\nif(NOT implib MATCHES "/lib/argus.lib$")\n  message(FATAL_ERROR "MSVC import library: ${implib}")\nendif()\nif(TARGET Argus::argus_static)\n  message(FATAL_ERROR "Argus::argus_static defined under MSVC")\nendif()\n' >"$t/msvc/CMakeLists.txt"
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(msvcstatic LANGUAGES NONE)\nset(WIN32 1)\nset(MSVC 1)\nfind_package(Argus 0.1 CONFIG REQUIRED COMPONENTS argus_static)\n' >"$t/msvc-static/CMakeLists.txt"
    run_one release-cmake-languages-none cmake -S "$t/none" -B "$t/none/build" -DCMAKE_PREFIX_PATH="$sdk"
    run_one release-cmake-32bit-refused cmake -S "$t/bits32" -B "$t/bits32/build" -DCMAKE_PREFIX_PATH="$sdk"
    run_one release-cmake-msvc-no-static cmake -S "$t/msvc" -B "$t/msvc/build" -DCMAKE_PREFIX_PATH="$win"
    # Asking for the static library under MSVC stops with the reason, not a MinGW archive.
    cmake -S "$t/msvc-static" -B "$t/msvc-static/build" -DCMAKE_PREFIX_PATH="$win" >"$LOGS/release-cmake-msvc-static.log" 2>&1
    if [[ $? -ne 0 ]] && tr -s ' \n' ' ' <"$LOGS/release-cmake-msvc-static.log" | grep -q "not available with MSVC: lib/libargus.a of this SDK is a MinGW archive"; then
        record release-cmake-msvc-static-refused 1 0
    else
        cat "$LOGS/release-cmake-msvc-static.log"; record release-cmake-msvc-static-refused 0 1
    fi
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
    run_one release-unity-plugins bash -c "cd '$pkg/Plugins' && for l in Linux/x86_64/libargus.so Windows/x86_64/argus.dll macOS/libargus.dylib \
        Android/libs/arm64-v8a/libargus.so Android/libs/armeabi-v7a/libargus.so iOS/libargus.a WebGL/libargus.a; do
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
    # The editor's first headless import, as godot/README.md's install section tells a build server
    # to run it: Godot 4.6.3 crashes when a headless session discovers any GDExtension during its
    # first scan (it regenerates the editor docs while --import quits: godotengine/godot#111048),
    # so the extension list is written first. The exit status counts.
    mkdir -p "$demo/.godot" && echo "res://addons/argus/argus.gdextension" >"$demo/.godot/extension_list.cfg"
    mount -t proc proc "$GODOT_CHROOT/proc" 2>/dev/null
    timeout 300 chroot "$GODOT_CHROOT" env HOME=/tmp godot --headless --path /argus-release-demo --import \
        >"$LOGS/release-godot-import.log" 2>&1
    local import_rc=$?
    if [[ $import_rc -eq 0 ]] && ! grep -aq "FATAL\|handle_crash" "$LOGS/release-godot-import.log" &&
        [[ -d "$demo/.godot/imported" ]]; then
        record release-godot-import 1 0
    else
        echo "first import: exit $import_rc"; tail -n 20 "$LOGS/release-godot-import.log"; record release-godot-import 0 1
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
    # lib/netstandard2.0: netstandard 2.0 its only reference, its TargetFramework, and the same trace on Mono.
    run_one release-csharp-netstandard "$ROOT/tests/release/netstandard_check.sh" \
        "$pkg/lib/netstandard2.0/Argus.dll" "$pkg/runtimes/linux-x64/native/libargus.so"
}

# Linux arm64, Android, iOS and the web: each SDK unpacked as a user would, the Godot add-on's
# Android libraries from its zip, checked and run as far as this machine allows (qemu-user, Node).
release_reach() {
    local d="$REL_TMP/reach" p
    for p in linux-arm64 android ios-arm64 web-wasm32; do
        mkdir -p "$d/$p" && tar -C "$d/$p" --strip-components=1 -xzf "$ROOT"/dist/argus-sdk-*-$p.tar.gz ||
            { release_fail "release-reach-$p" "no SDK for $p in dist/"; return; }
    done
    mkdir -p "$d/godot" && (cd "$d/godot" && unzip -q "$ROOT"/dist/argus-godot-*.zip)
    release_reach_linux_arm64 "$d/linux-arm64"
    release_reach_web "$d/web-wasm32"
    release_reach_ios "$d/ios-arm64" "$d/godot/addons/argus/bin"
    release_reach_android "$d/android/lib" "$d/godot/addons/argus/bin"
    # The .nupkg carries the same Linux arm64 and Android libraries, byte for byte.
    run_one release-nupkg-reach-libraries bash -c "set -e; cd '$REL_TMP/nupkg/runtimes'
        cmp linux-arm64/native/libargus.so '$d/linux-arm64/lib/libargus.so'
        cmp android-arm64/native/libargus.so '$d/android/lib/arm64-v8a/libargus.so'
        cmp android-arm/native/libargus.so '$d/android/lib/armeabi-v7a/libargus.so'"
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
    # Every build's export list is the header's function list, name for name (GUIDE §8: an export
    # behind a cfg silently disappears on some targets): the Linux .so and .a, the Windows DLL,
    # its .def and static archive, and each macOS slice of the dylib and the archive.
    grep -oE "\bargus_[a-z0-9_]+\(" "$ROOT/include/argus.h" | tr -d '(' | sort -u >"$d/header.txt"
    run_one release-exports-linux bash -c "set -eo pipefail; cd '$d'
        nm -D --defined-only argus-sdk-*-linux-x86_64/lib/libargus.so | awk '\$2 == \"T\" {print \$3}' | sort -u >linux-so.txt
        nm --defined-only argus-sdk-*-linux-x86_64/lib/libargus.a 2>/dev/null | awk '\$2 == \"T\" && \$3 ~ /^argus_/ {print \$3}' | sort -u >linux-a.txt
        echo \"header: \$(wc -l <header.txt) functions\"; test \$(wc -l <header.txt) -gt 100
        diff header.txt linux-so.txt && diff header.txt linux-a.txt"
    run_one release-exports-windows-macos chroot "$CROSS_CHROOT" bash -c 'set -eo pipefail; cd /tmp/argus-syms
        w=$(ls -d argus-sdk-*-windows-x86_64); m=$(ls -d argus-sdk-*-macos-universal)
        llvm-readobj --coff-exports $w/bin/argus.dll | sed -n "s/^ *Name: //p" | sort >win-dll.txt
        sed -n "s/^    \(argus_.*\)$/\1/p" $w/lib/argus.def | sort >win-def.txt
        llvm-nm --defined-only $w/lib/libargus.a 2>/dev/null | awk "\$2 == \"T\" && \$3 ~ /^argus_/ {print \$3}" | sort -u >win-a.txt
        echo "== windows dll"; diff header.txt win-dll.txt
        echo "== windows def"; diff header.txt win-def.txt
        echo "== windows static"; diff header.txt win-a.txt
        for arch in arm64 x86_64; do
            echo "== macos $arch dylib"
            llvm-nm -gU --arch=$arch $m/lib/libargus.dylib | awk "{print \$3}" | sed "s/^_//" | sort >mac-$arch.txt
            diff header.txt mac-$arch.txt
            echo "== macos $arch static"
            llvm-nm --defined-only --arch=$arch $m/lib/libargus.a 2>/dev/null | awk "\$2 == \"T\" && \$3 ~ /^_argus_/ {print \$3}" | sed "s/^_//" | sort -u >mac-a-$arch.txt
            diff header.txt mac-a-$arch.txt
        done'
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
        # The Godot dylib is universal too: one export per slice; arm64 signed (Apple Silicon loads
        # nothing unsigned; ld64.lld signs that slice only, as Apple ld does).
        llvm-lipo -thin arm64 addons/argus/bin/libargus_godot.macos.dylib -output godot-arm64.dylib
        python3 macho_signature.py godot-arm64.dylib
        for arch in arm64 x86_64; do
            llvm-lipo -thin $arch addons/argus/bin/libargus_godot.macos.dylib -output godot-$arch.dylib
            test "$(llvm-nm -gU godot-$arch.dylib | grep -E "^[0-9a-f]+ [A-Za-z] " | awk "{print \$3}")" = _gdext_rust_init
        done
        llvm-objdump --macho --dylib-id --arch=arm64 $m/lib/libargus.dylib | grep -qx "@rpath/libargus.dylib"
        test "$(llvm-objdump --macho --dylibs-used --arch=arm64 $m/lib/libargus.dylib | tail -n +2 | grep -vc libargus)" -eq 1
        llvm-objdump --macho --dylibs-used --arch=arm64 $m/lib/libargus.dylib | grep -q /usr/lib/libSystem.B.dylib
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

# Licences: every package carries the MIT and Apache-2.0 texts with the copyright line, and the
# third-party notice of the crates linked into its libraries, checked against `cargo tree` (a
# dependency added without its notice fails here). The checker itself is tried on a notice with
# one crate taken out: it must name it.
release_licences() {
    local t="$REL_TMP/licences"
    rm -rf "$t" && mkdir -p "$t/sdk-linux" "$t/sdk-windows" "$t/sdk-macos" "$t/unity" "$t/godot" "$t/nupkg"
    tar -C "$t/sdk-linux" --strip-components=1 -xzf "$ROOT"/dist/argus-sdk-*-linux-x86_64.tar.gz
    tar -C "$t/sdk-macos" --strip-components=1 -xzf "$ROOT"/dist/argus-sdk-*-macos-universal.tar.gz
    (cd "$t/sdk-windows" && unzip -q "$ROOT"/dist/argus-sdk-*-windows-x86_64.zip && mv argus-sdk-*/* . )
    tar -C "$t/unity" -xzf "$ROOT"/dist/com.argus.perception-*.tgz
    (cd "$t/godot" && unzip -q "$ROOT"/dist/argus-godot-*.zip)
    (cd "$t/nupkg" && unzip -q "$ROOT"/dist/Argus.*.nupkg)
    run_one release-licence-texts bash -c "set -e; cd '$t'
        for d in sdk-linux sdk-windows sdk-macos godot/addons/argus nupkg; do
            echo \"== \$d\"
            grep -qx 'Copyright (c) 2026 The Argus developers' \$d/LICENSE-MIT
            grep -q 'Permission is hereby granted, free of charge' \$d/LICENSE-MIT
            grep -qx 'Copyright (c) 2026 The Argus developers' \$d/LICENSE-APACHE
            grep -q 'TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION' \$d/LICENSE-APACHE
            grep -q '^## Crates' \$d/THIRD-PARTY-NOTICES.md
            test ! -e \$d/LICENSE.md
        done
        echo '== unity'
        grep -qx 'Copyright (c) 2026 The Argus developers' unity/package/LICENSE.md
        grep -q 'Permission is hereby granted, free of charge' unity/package/LICENSE.md
        grep -q 'TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION' unity/package/LICENSE.md
        grep -q '^## Crates' 'unity/package/Third Party Notices.md'
        test -f 'unity/package/Third Party Notices.md.meta'
        echo '== repository root'
        cmp '$ROOT/LICENSE-MIT' sdk-linux/LICENSE-MIT && cmp '$ROOT/LICENSE-APACHE' sdk-linux/LICENSE-APACHE"
    run_one release-notices bash -c "set -e; cd '$t'
        for n in sdk-linux/THIRD-PARTY-NOTICES.md sdk-windows/THIRD-PARTY-NOTICES.md sdk-macos/THIRD-PARTY-NOTICES.md \
                 nupkg/THIRD-PARTY-NOTICES.md 'unity/package/Third Party Notices.md'; do
            python3 '$ROOT/tools/release/check_notices.py' \"\$n\" argus
        done
        python3 '$ROOT/tools/release/check_notices.py' godot/addons/argus/THIRD-PARTY-NOTICES.md argus-godot
        grep -q '^- godot-core ' godot/addons/argus/THIRD-PARTY-NOTICES.md
        grep -q '^- parry3d ' sdk-linux/THIRD-PARTY-NOTICES.md"
    grep -v '^- parry3d ' "$t/sdk-linux/THIRD-PARTY-NOTICES.md" >"$t/without-parry3d.md"
    python3 "$ROOT/tools/release/check_notices.py" "$t/without-parry3d.md" argus >"$LOGS/release-notices-catch.log" 2>&1
    if [[ $? -ne 0 ]] && grep -q "parry3d .* is linked into argus but has no notice" "$LOGS/release-notices-catch.log"; then
        record release-notices-catch-missing 1 0
    else
        cat "$LOGS/release-notices-catch.log"; record release-notices-catch-missing 0 1
    fi
}

# A version is released only under its changelog heading: tools/release.sh, run on a copy of the
# checkout whose changelog lacks the heading, refuses before building anything.
release_version_refusal() {
    local c="$REL_TMP/no-heading" v
    v="$(python3 "$ROOT/tools/version.py")"
    rm -rf "$c" && mkdir -p "$c"
    # What the release command reads before it builds: itself, the version's sources and its places.
    (cd "$ROOT" && tar -cf - tools/release.sh tools/version.py Cargo.toml CHANGELOG.md unity/CHANGELOG.md \
        $(python3 -c 'import sys; sys.path.insert(0, "tools"); import version; print(" ".join(sorted({f for f, _, _ in version.derived(*version.version())})))')) |
        tar -C "$c" -xf -
    sed -i "s/^## \[$v\] - /## [0.0.0-not-this] - /" "$c/CHANGELOG.md"
    CARGO_TARGET_DIR="$c/target" "$c/tools/release.sh" >"$LOGS/release-version-refusal.log" 2>&1
    local rc=$?
    if [[ $rc -ne 0 ]] && grep -q "CHANGELOG.md: no heading '## \[$v\] - YYYY-MM-DD'" "$LOGS/release-version-refusal.log" &&
        grep -q "refusing to build $v" "$LOGS/release-version-refusal.log" && [[ ! -e "$c/dist" && ! -e "$c/target" ]]; then
        record release-version-refusal 1 0
    else
        cat "$LOGS/release-version-refusal.log"; record release-version-refusal 0 1
    fi
    rm -rf "$c"
}

# Reproducible binaries: no build-machine path in any shipped library; the Windows DLL carries its
# version resource; the Windows library's code is in line with Linux's.
release_binaries() {
    local t="$REL_TMP/licences" home="${HOME:-/root}" target="${CARGO_TARGET_DIR:-$ROOT/target}"
    [[ -d "$t/sdk-linux" ]] || { release_fail release-no-build-paths "the packages were not unpacked"; return; }
    run_one release-no-build-paths bash -c "cd '$t'; bad=0
        for f in sdk-linux/lib/libargus.so sdk-linux/lib/libargus.a sdk-windows/bin/argus.dll sdk-windows/lib/libargus.a \
                 sdk-macos/lib/libargus.dylib sdk-macos/lib/libargus.a godot/addons/argus/bin/* \
                 ../reach/linux-arm64/lib/libargus.so ../reach/linux-arm64/lib/libargus.a ../reach/android/lib/*/libargus.so \
                 ../reach/ios-arm64/lib/libargus.a ../reach/web-wasm32/lib/libargus.a; do
            [[ -f \"\$f\" ]] || { echo \"\$f: missing\"; bad=1; continue; }
            hits=\$(strings -a \"\$f\" | grep -E -e '$ROOT' -e '$target' -e '$home/' -e '/\\.cargo/registry' -e '/usr/lib/rustlib' \
                -e '^/argus/|[^a-z]/argus/' -e '^/target/|[^a-z]/target/' -e '/work/' -e '/tmp/' | sort -u)
            n=\$(printf '%s' \"\$hits\" | grep -c . || true)
            echo \"\$f: \$n build paths\"
            [[ \$n -eq 0 ]] || { printf '%s\n' \"\$hits\" | head -n 5; bad=1; }
        done
        exit \$bad"
    run_one release-windows-version-resource python3 - "$t/sdk-windows/bin/argus.dll" "$(python3 "$ROOT/tools/version.py")" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
version = sys.argv[2]
def value(key):
    k = key.encode("utf-16-le") + b"\0\0"
    i = data.find(k)
    if i < 0:
        return None
    j = i + len(k)
    j += (-j) % 4   # the value is 32-bit aligned
    end = data.find(b"\0\0", j)
    while (end - j) % 2:
        end = data.find(b"\0\0", end + 1)
    return data[j:end].decode("utf-16-le")
got = {k: value(k) for k in ("FileVersion", "ProductVersion", "ProductName", "LegalCopyright", "OriginalFilename")}
print(got)
fixed = data.find(struct.pack("<I", 0xFEEF04BD))   # VS_FIXEDFILEINFO
major, minor, patch = (int(x) for x in version.split("."))
ms, ls = struct.unpack("<II", data[fixed + 8:fixed + 16]) if fixed >= 0 else (None, None)
print("fixed file version", ms, ls)
ok = (got["FileVersion"] == version and got["ProductVersion"] == version and got["ProductName"] == "Argus"
      and got["OriginalFilename"] == "argus.dll" and "Copyright (c) 2026 The Argus developers" in (got["LegalCopyright"] or "")
      and fixed >= 0 and ms == (major << 16 | minor) and ls == (patch << 16))
sys.exit(0 if ok else 1)
PY
    # Code size: the DLL's .text against the Linux library's (2x when GNU ld linked the DLL and kept
    # every function through its unwind entry: tools/cross-build.sh).
    run_one release-windows-code-size bash -c "set -eo pipefail; cd '$t'
        lin=\$(size -A sdk-linux/lib/libargus.so | awk '\$1 == \".text\" {print \$2}')
        win=\$((16#\$(objdump -h sdk-windows/bin/argus.dll | awk '\$2 == \".text\" {print \$3}')))
        glin=\$(size -A godot/addons/argus/bin/libargus_godot.linux.x86_64.so | awk '\$1 == \".text\" {print \$2}')
        gwin=\$((16#\$(objdump -h godot/addons/argus/bin/argus_godot.windows.x86_64.dll | awk '\$2 == \".text\" {print \$3}')))
        ls -l sdk-linux/lib/libargus.so sdk-windows/bin/argus.dll godot/addons/argus/bin/*
        echo \"argus .text: linux \$lin, windows \$win; godot .text: linux \$glin, windows \$gwin\"
        test \$((win * 10)) -le \$((lin * 13)) && test \$((gwin * 10)) -le \$((glin * 13))"
}

# The .nupkg as NuGet reads it: metadata a gallery shows, its files present, no directory entries.
release_nupkg() {
    run_one release-nupkg-metadata python3 - "$(ls "$ROOT"/dist/Argus.*.nupkg)" <<'PY'
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
dirs = [n for n in names if n.endswith("/")]
print("entries:", len(names), "directory entries:", dirs)
nuspec = z.read("Argus.nuspec").decode()
def tag(t):
    m = re.search(r"<%s\b([^>]*)>([^<]*)</%s>|<%s\b([^>]*)/>" % (t, t, t), nuspec)
    return m
need = {
    "license": re.search(r'<license type="expression">MIT OR Apache-2.0</license>', nuspec),
    "copyright": re.search(r"<copyright>Copyright \(c\) 2026 The Argus developers</copyright>", nuspec),
    "projectUrl": re.search(r"<projectUrl>https://[^<]+</projectUrl>", nuspec),
    "repository": re.search(r'<repository type="git" url="https://[^"]+"', nuspec),
    "readme": re.search(r"<readme>README.md</readme>", nuspec) and "README.md" in names,
    "icon": re.search(r"<icon>icon.png</icon>", nuspec) and z.read("icon.png")[:8] == b"\x89PNG\r\n\x1a\n",
    "licence files": all(f in names for f in ("LICENSE-MIT", "LICENSE-APACHE", "THIRD-PARTY-NOTICES.md")),
    "net45 assembly": "lib/net45/Argus.dll" in names,
    "netstandard2.0 assembly": all(f in names for f in ("lib/netstandard2.0/Argus.dll", "lib/netstandard2.0/Argus.xml")),
    "dependency groups": all(re.search(r'<group targetFramework="%s"\s*/>' % re.escape(f), nuspec)
                             for f in (".NETFramework4.5", ".NETStandard2.0")),
    "no directory entries": not dirs,
}
for k, v in need.items():
    print("%-22s %s" % (k, "ok" if v else "MISSING"))
sys.exit(0 if all(need.values()) else 1)
PY
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
    release_cmake
    release_c_windows
    release_symbols
    if declare -f unity_record_nunit >/dev/null; then release_unity; else release_fail release-unity "40-unity.sh was not sourced"; fi
    release_godot
    release_csharp
    release_reach
    release_versions
    release_inspector
    release_licences
    release_binaries
    release_nupkg
    release_version_refusal
}
release_suite
