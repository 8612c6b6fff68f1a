# Linux arm64, the web and iOS, checked from their unpacked SDKs (include/, lib/) as far as this
# machine allows: the C programs of tests/c/ cross-built and run under qemu-aarch64 and Node with
# the counts of the same programs on x86_64; the iOS archive inspected (no iOS to run it on).
# Sourced by tests/suites/60-release.sh (uses record/run_one/release_fail/LOGS/ROOT/REL_TMP/
# CROSS_CHROOT). A step that cannot run is recorded as a failure, never skipped.

# The programs of tests/c/, less those calling the test hooks (argus_testing_*): only a test
# build exports those, never the shipped library (hostile.c).
reach_programs() {
    local s
    for s in "$ROOT"/tests/c/*.c "$ROOT"/tests/c/*.cpp; do
        grep -q 'argus_testing_' "$s" || basename "$s"
    done
}

# Runs a bash script in the cross chroot (the cross compilers, qemu and Node are only there), in a
# private mount namespace with its own /proc, so parallel runs never unmount each other's.
reach_chroot() { # script
    unshare --mount --propagation private bash -c 'mount -t proc proc "$1/proc" && exec chroot "$1" bash -c "$2"' \
        _ "$CROSS_CHROOT" "$1"
}

# The x86_64 library the other platforms are compared with: the x86_64 SDK of dist/ (or
# ARGUS_REACH_HOST_LIB, a folder with libargus.so), unpacked once per run; prints its lib folder.
reach_host_lib() {
    local d="$REL_TMP/reach/x86_64"
    [[ -n "${ARGUS_REACH_HOST_LIB:-}" ]] && { echo "$ARGUS_REACH_HOST_LIB"; return; }
    [[ -f "$d/lib/libargus.so" ]] || { mkdir -p "$d" && tar -C "$d" --strip-components=1 -xzf "$ROOT"/dist/argus-sdk-*-linux-x86_64.tar.gz >&2; } || return 1
    echo "$d/lib"
}

# The reference: each program's "passed failed" on x86_64, built here against that library and
# the header under test; computed once per run into $REL_TMP/reach/x86_64-counts.txt.
reach_host_counts() { # sdk-dir
    local d="$REL_TMP/reach/x86_64-programs" f="$REL_TMP/reach/x86_64-counts.txt" lib p cc out
    [[ -s "$f" ]] && { echo "$f"; return; }
    lib=$(reach_host_lib) || return 1
    mkdir -p "$d" && : >"$f.new"
    for p in $(reach_programs); do
        if [[ $p == *.cpp ]]; then cc="g++ -std=c++17"; else cc="gcc -std=c99"; fi
        out=$($cc -O1 -I"$1/include" -I"$ROOT/tests/c" "$ROOT/tests/c/$p" -o "$d/${p%.*}" -L"$lib" -largus \
            -Wl,-rpath,"$lib" -lm 2>&1 && "$d/${p%.*}" 2>&1)
        echo "$out" >&2
        echo "$p $(reach_counts <<<"$out")" >>"$f.new"
    done
    mv "$f.new" "$f" && echo "$f"
}

# "passed failed" from check.h's last line "<suite>: N passed, M failed" (0 1 without one).
reach_counts() {
    local c; c=$(sed -nE 's/^[A-Za-z0-9_.]+: ([0-9]+) passed, ([0-9]+) failed\r?$/\1 \2/p' | tail -n 1)
    echo "${c:-0 1}"
}

# Records each program's run on a platform: its counts, one more failure when it exited non-zero,
# printed none, passed nothing, or passed a different number of checks than on x86_64.
# <dir> holds <program>.log (build and run output) and <program>.rc (the run's exit status).
reach_record_programs() { # name-prefix dir host-counts-file
    local p log rc hp hf pp ff
    [[ $(reach_programs | grep -cxE 'lesson_traces.c|abi_shape.c') -eq 2 ]] ||
        release_fail "$1-programs" "lesson_traces.c and abi_shape.c not found among tests/c/"
    for p in $(reach_programs); do
        log="$LOGS/$1-${p%.*}.log"; cp "$2/$p.log" "$log" 2>/dev/null || echo "no output: $2/$p.log" >"$log"
        rc=$(cat "$2/$p.rc" 2>/dev/null || echo missing)
        read -r pp ff < <(reach_counts <"$log")
        read -r hp hf < <(awk -v p="$p" '$1 == p {print $2, $3}' "$3")
        echo "x86_64: ${hp:-?} passed, ${hf:-?} failed; exit status here: $rc" >>"$log"
        if [[ $rc != 0 || $pp -eq 0 || $pp != "$hp" || $ff != "$hf" ]]; then
            echo "---- $1-${p%.*}: exit $rc, $pp passed $ff failed (x86_64: ${hp:-?} / ${hf:-?}); $log"
            ff=$((ff + 1))
        fi
        record "$1-${p%.*}" "$pp" "$ff"
    done
}

# The header's functions, one per line: the export list every build must have (GUIDE §8).
reach_header_functions() { # sdk-dir
    grep -oE '\bargus_[a-z0-9_]+\(' "$1/include/argus.h" | tr -d '(' | sort -u
}

# Copies the SDK, the test programs and the header's function list into the chroot's /tmp/<name>.
reach_stage() { # name sdk-dir
    local in="$CROSS_CHROOT/tmp/$1"
    rm -rf "$in" && mkdir -p "$in/src" "$in/out" && cp -r "$2" "$in/sdk" &&
        cp "$ROOT"/tests/c/*.c "$ROOT"/tests/c/*.cpp "$ROOT"/tests/c/check.h "$in/src/" &&
        reach_header_functions "$2" >"$in/header.txt" && reach_programs >"$in/programs.txt"
}

# The newest GLIBC_ symbol version a library needs, and a check that $1 needs none newer than $2.
reach_glibc() { objdump -T "$1" | grep -oE 'GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?' | sed 's/GLIBC_//' | sort -uV | tail -n 1; }
reach_glibc_not_newer() { # library reference-library
    local a b; a=$(reach_glibc "$1") b=$(reach_glibc "$2")
    echo "$1 needs glibc $a; $2 needs $b"
    objdump -T "$1" | grep -F "GLIBC_$a"
    [[ -n $a && -n $b && $(printf '%s\n' "$a" "$b" | sort -V | tail -n 1) == "$b" ]]
}

# Linux arm64: the C programs cross-built with Debian's aarch64 gcc against the SDK's libargus.so
# and run under qemu-user on Debian's arm64 glibc; the library's ELF identity and export list.
release_reach_linux_arm64() { # sdk-dir
    local n=release-reach-linux-arm64 in="$CROSS_CHROOT/tmp/argus-reach-arm64" host
    [[ -f "$CROSS_CHROOT/.argus-ready" ]] || { release_fail $n "no cross chroot at $CROSS_CHROOT"; return; }
    [[ -f "$1/lib/libargus.so" && -f "$1/lib/libargus.a" ]] || { release_fail $n "no lib/libargus.so and lib/libargus.a in $1"; return; }
    host=$(reach_host_counts "$1" 2>"$LOGS/$n-x86_64.log") || { release_fail $n "no x86_64 reference counts (see $LOGS/$n-x86_64.log)"; return; }
    reach_stage argus-reach-arm64 "$1" || { release_fail $n "cannot stage the SDK in the chroot"; return; }
    reach_chroot 'cd /tmp/argus-reach-arm64; L=/tmp/argus-reach-arm64/sdk/lib
        for p in $(cat programs.txt); do
            case $p in *.cpp) cc="aarch64-linux-gnu-g++ -std=c++17";; *) cc="aarch64-linux-gnu-gcc -std=c99";; esac
            if $cc -O1 -Isdk/include -Isrc src/$p -o out/${p%.*} -L$L -largus -Wl,-rpath,$L -lm >out/$p.log 2>&1; then
                qemu-aarch64 -L /usr/aarch64-linux-gnu out/${p%.*} >>out/$p.log 2>&1; echo $? >out/$p.rc
            else echo build >out/$p.rc; fi
        done' >"$LOGS/$n-build.log" 2>&1
    reach_record_programs $n "$in/out" "$host"
    # The static archive links and runs the lesson too (glibc static needs nothing more than -lm).
    run_one $n-static reach_chroot 'set -e; cd /tmp/argus-reach-arm64
        aarch64-linux-gnu-gcc -std=c99 -O1 -Isdk/include -Isrc src/lesson_traces.c -o out/static sdk/lib/libargus.a -lm
        qemu-aarch64 -L /usr/aarch64-linux-gnu out/static | tee out/static.log
        grep -qE "^lesson_traces.c: [1-9][0-9]* passed, 0 failed$" out/static.log'
    # Debian sid's glibc is the newest there is: a symbol it versioned anew (acosf, atan2f in 2.43)
    # would make the library refuse every older system. It must need no newer glibc than x86_64's.
    run_one $n-glibc reach_glibc_not_newer "$1/lib/libargus.so" "$(reach_host_lib)/libargus.so"
    run_one $n-elf reach_chroot 'set -eo pipefail; cd /tmp/argus-reach-arm64
        readelf -h sdk/lib/libargus.so | grep -E "Machine: +AArch64"
        readelf -d sdk/lib/libargus.so | grep -F "(SONAME)" | grep -F "[libargus.so]"
        echo "== every object of the archive is AArch64"
        readelf -h sdk/lib/libargus.a | grep -E "^ +Machine:" | sort | uniq -c | tee machines.txt
        test "$(wc -l <machines.txt)" -eq 1 && grep -q AArch64 machines.txt
        echo "== exports: the header'"'"'s functions, name for name"
        nm -D --defined-only sdk/lib/libargus.so | awk "\$2 == \"T\" {print \$3}" | sort -u >so.txt
        nm --defined-only sdk/lib/libargus.a 2>/dev/null | awk "\$2 == \"T\" && \$3 ~ /^argus_/ {print \$3}" | sort -u >a.txt
        echo "header: $(wc -l <header.txt) functions"; test "$(wc -l <header.txt)" -gt 100
        diff header.txt so.txt && diff header.txt a.txt'
}

# The web: the C programs linked by emcc with the SDK's libargus.a, as Unity WebGL links it (the
# library throws JS exceptions, so catching a panic needs -sDISABLE_EXCEPTION_CATCHING=0), and
# run under Node; the archive's objects are wasm using no feature past the MVP (Unity's older
# emscripten), and define the header's functions.
release_reach_web() { # sdk-dir
    local n=release-reach-web in="$CROSS_CHROOT/tmp/argus-reach-web" host
    [[ -f "$CROSS_CHROOT/.argus-ready" ]] || { release_fail $n "no cross chroot at $CROSS_CHROOT"; return; }
    [[ -f "$1/lib/libargus.a" ]] || { release_fail $n "no lib/libargus.a in $1"; return; }
    host=$(reach_host_counts "$1" 2>"$LOGS/$n-x86_64.log") || { release_fail $n "no x86_64 reference counts (see $LOGS/$n-x86_64.log)"; return; }
    reach_stage argus-reach-web "$1" || { release_fail $n "cannot stage the SDK in the chroot"; return; }
    reach_chroot 'cd /tmp/argus-reach-web
        for p in $(cat programs.txt); do
            case $p in *.cpp) cc="em++ -std=c++17";; *) cc="emcc -std=c99";; esac
            if $cc -O1 -sDISABLE_EXCEPTION_CATCHING=0 -sALLOW_MEMORY_GROWTH=1 -sSTACK_SIZE=1MB -Isdk/include -Isrc \
                src/$p -o out/${p%.*}.js sdk/lib/libargus.a >out/$p.log 2>&1; then
                node out/${p%.*}.js >>out/$p.log 2>&1; echo $? >out/$p.rc
            else echo build >out/$p.rc; fi
        done' >"$LOGS/$n-build.log" 2>&1
    reach_record_programs $n "$in/out" "$host"
    run_one $n-archive reach_chroot 'set -eo pipefail; cd /tmp/argus-reach-web; mkdir -p objs
        (cd objs && llvm-ar x ../sdk/lib/libargus.a)
        echo "== every object is wasm"
        file -b objs/* | sort | uniq -c | tee kinds.txt
        test "$(wc -l <kinds.txt)" -eq 1 && grep -q "^ *[0-9]* WebAssembly (wasm) binary" kinds.txt
        echo "== no object uses a wasm feature past the MVP (a \"+\" entry of its target_features)"
        python3 - objs/* <<"PY"
import sys
def leb(b, i):
    n = s = 0
    while True:
        n |= (b[i] & 0x7F) << s; s += 7; i += 1
        if b[i - 1] < 0x80: return n, i
used = {}
for f in sys.argv[1:]:
    b = open(f, "rb").read(); i = 8
    while i < len(b):
        sid = b[i]; size, i = leb(b, i + 1); end = i + size
        if sid == 0:
            ln, j = leb(b, i)
            if b[j:j + ln] == b"target_features":
                count, j = leb(b, j + ln)
                for _ in range(count):
                    prefix = chr(b[j]); ln, j = leb(b, j + 1)
                    if prefix == "+": used.setdefault(b[j:j + ln].decode(), f)
                    j += ln
        i = end
for feature, f in sorted(used.items()): print("uses", feature, "first in", f)
sys.exit(1 if used else 0)
PY
        echo "== the header'"'"'s functions, name for name"
        llvm-nm --defined-only sdk/lib/libargus.a 2>/dev/null | awk "\$2 == \"T\" && \$3 ~ /^argus_/ {print \$3}" | sort -u >a.txt
        echo "header: $(wc -l <header.txt) functions"; test "$(wc -l <header.txt)" -gt 100
        diff header.txt a.txt'
}

# iOS arm64: no iOS to run on, so the archive alone: every object Mach-O arm64 built for iOS
# (LC_BUILD_VERSION platform 2) with the deployment target the package promises (minos 12.0),
# and the header's functions defined. The Godot add-on's iOS dylib likewise, with its install name
# (@rpath: the app's Frameworks) and gdext's entry point as its one export.
release_reach_ios() { # sdk-dir godot-bin-dir
    local n=release-reach-ios
    [[ -f "$CROSS_CHROOT/.argus-ready" ]] || { release_fail $n "no cross chroot at $CROSS_CHROOT"; return; }
    [[ -f "$1/lib/libargus.a" ]] || { release_fail $n "no lib/libargus.a in $1"; return; }
    [[ -f "$2/libargus_godot.ios.dylib" ]] || { release_fail $n "no libargus_godot.ios.dylib in $2"; return; }
    reach_stage argus-reach-ios "$1" && cp "$2/libargus_godot.ios.dylib" "$CROSS_CHROOT/tmp/argus-reach-ios/" ||
        { release_fail $n "cannot stage the SDK in the chroot"; return; }
    run_one $n-godot reach_chroot 'set -eo pipefail; cd /tmp/argus-reach-ios; f=libargus_godot.ios.dylib
        h=$(llvm-objdump --macho --private-headers $f)
        grep -qE "^ *MH_MAGIC_64 +ARM64 +[A-Z_0-9]+ +0x[0-9a-f]+ +DYLIB " <<<"$h" && echo "Mach-O arm64 dylib"
        grep -A4 LC_BUILD_VERSION <<<"$h" | tr -s " " | grep -xE " platform (ios|2)"
        grep -A4 LC_BUILD_VERSION <<<"$h" | tr -s " " | grep -x " minos 12.0"
        grep -A3 LC_ID_DYLIB <<<"$h" | grep -E "name @rpath/libargus_godot.ios.dylib "
        echo "== exports"; llvm-nm --extern-only --defined-only $f | awk "{print \$3}" | tee exports.txt
        echo _gdext_rust_init | diff - exports.txt'
    run_one $n-archive reach_chroot 'set -eo pipefail; cd /tmp/argus-reach-ios; mkdir -p objs
        (cd objs && llvm-ar x ../sdk/lib/libargus.a)
        n=$(ls objs | wc -l); echo "$n objects"; test "$n" -gt 0
        echo "== Mach-O arm64, platform iOS, minos 12.0: each object"
        for o in objs/*; do
            h=$(llvm-objdump --macho --private-headers "$o")
            grep -qE "^ *MH_MAGIC_64 +ARM64 " <<<"$h" || { echo "$o: not Mach-O arm64"; exit 1; }
            grep -A4 LC_BUILD_VERSION <<<"$h" | tr -s " " | grep -qxE " platform (ios|2)" || { echo "$o: platform is not iOS"; exit 1; }
            grep -A4 LC_BUILD_VERSION <<<"$h" | tr -s " " | grep -qx " minos 12.0" || { echo "$o: minos is not 12.0"; exit 1; }
        done
        echo "== the header'"'"'s functions, name for name"
        llvm-nm --defined-only sdk/lib/libargus.a 2>/dev/null | awk "\$2 == \"T\" && \$3 ~ /^_argus_/ {print \$3}" | sed "s/^_//" | sort -u >a.txt
        echo "header: $(wc -l <header.txt) functions"; test "$(wc -l <header.txt)" -gt 100
        diff header.txt a.txt'
}
