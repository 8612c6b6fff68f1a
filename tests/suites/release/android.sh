# Android (arm64-v8a, armeabi-v7a): the C library libargus.so and the Godot add-on's libraries,
# checked as far as a machine without Android allows. Each library: ELF class and machine, export
# list, NEEDED only Android system libraries, every undefined symbol offered by Android 5.0 (API 21,
# tools/reach/bionic-api21.txt), 16 KB LOAD alignment, no text relocations, no ELF TLS, a SysV hash
# table, its SONAME. Then a smoke test, not a device: the C programs of tests/c/ built with Debian's
# glibc cross compilers against the Android library and run under qemu-user (glibc loading an
# Android-linked library), with the counts of the same programs on x86_64.
# Sourced by tests/suites/60-release.sh; uses record/run_one/release_fail/LOGS/ROOT/REL_TMP/
# CROSS_CHROOT and reach_* of reach-desktop-web-ios.sh. A step that cannot run is a failure.

# One library's ELF checks, run inside the chroot from the staged folder. Written out as a file
# so each library's check is one run_one.
android_elf_check_script() {
    cat <<'EOF'
set -eo pipefail
f=$1 class=$2 machine=$3 arch=$4 kind=$5 soname=$6   # arch: as in bionic-api21.txt
echo "== $f: $class $machine"
readelf -h $f | grep -E "Class: +$class$"
readelf -h $f | grep -E "Machine: +$machine$"
[[ $arch != arm ]] || readelf -h $f | grep -E "Flags: .*Version5 EABI, soft-float ABI"   # softfp, as armeabi-v7a
echo "== SONAME $soname"
readelf -d $f | grep -F "(SONAME)" | grep -F "[$soname]"
echo "== NEEDED: system libraries only"
readelf -d $f | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tee needed.txt
! grep -vxE "lib(c|m|dl|log)\.so" needed.txt
echo "== no text relocations, no ELF TLS (Android < 10 refuses it), a SysV hash (Android < 6 reads only that)"
! readelf -d $f | grep -q TEXTREL
! readelf -lW $f | grep -qE "^ +TLS "
readelf -d $f | grep -qE "\(HASH\)"
echo "== every LOAD segment aligned to 16384 (16 KB page devices)"
readelf -lW $f | awk '$1 == "LOAD" {print $NF}' | tee align.txt
test -s align.txt && ! grep -vx 0x4000 align.txt
echo "== exports"
llvm-nm -D --defined-only $f | awk '{print $3}' | sort -u >exports.txt
if [[ $kind == c ]]; then
    echo "header: $(wc -l <header.txt) functions"; test "$(wc -l <header.txt)" -gt 100
    diff header.txt exports.txt
else
    echo gdext_rust_init | diff - exports.txt
fi
echo "== undefined symbols: each in Android's API 21 for $arch (weak ones are looked up at run time)"
awk -v a=$arch '$1 == a {print $3}' bionic-api21.txt | sort -u >api21.txt
test "$(wc -l <api21.txt)" -gt 1000
llvm-nm -D --undefined-only $f | awk '$1 == "U" {print $2}' | sort -u >strong.txt
llvm-nm -D --undefined-only $f | awk '$1 != "U" {print $2}' | sort -u >weak.txt
echo "$(wc -l <strong.txt) strong; weak: $(tr '\n' ' ' <weak.txt)"
comm -23 strong.txt api21.txt | grep -v '^__android_log_' >missing.txt || true
if [[ -s missing.txt ]]; then echo "not in API 21 for $arch:"; cat missing.txt; exit 1; fi
EOF
}

# What the smoke test's glibc must do as bionic does for the library. __errno: bionic's name for
# glibc's __errno_location; strerror_r: bionic's is POSIX's. pthread_attr_t: bionic's is smaller than glibc's (24 vs 36 bytes on
# arm, 56 vs 64 on arm64), so glibc's pthread_attr_init overruns the library's (a crash on arm when
# a worker thread starts); the library's attr calls get bionic's layout here, and pthread_create a
# glibc attr made from it. The test programs themselves use no threads.
android_shim_source() {
    cat <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
int *__errno(void) { return __errno_location(); }
/* bionic's strerror_r is POSIX's (an int); glibc's of that name is GNU's (a char *), whose
 * non-zero pointer Rust's std reads as a failure. */
int __xpg_strerror_r(int, char *, size_t);
int bionic_strerror_r(int e, char *buf, size_t n) __asm__("strerror_r");
int bionic_strerror_r(int e, char *buf, size_t n) { return __xpg_strerror_r(e, buf, n); }
typedef struct { unsigned flags; void *stack_base; size_t stack_size, guard_size; int policy, priority; } bionic_attr;
int pthread_attr_init(pthread_attr_t *a) { memset(a, 0, sizeof(bionic_attr)); ((bionic_attr *)a)->stack_size = 1 << 20; return 0; }
int pthread_attr_destroy(pthread_attr_t *a) { (void)a; return 0; }
int pthread_attr_setstacksize(pthread_attr_t *a, size_t s) { ((bionic_attr *)a)->stack_size = s; return 0; }
int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) {
    int (*create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) = dlsym(RTLD_NEXT, "pthread_create");
    int (*init)(pthread_attr_t *) = dlsym(RTLD_NEXT, "pthread_attr_init");
    int (*destroy)(pthread_attr_t *) = dlsym(RTLD_NEXT, "pthread_attr_destroy");
    int (*setstacksize)(pthread_attr_t *, size_t) = dlsym(RTLD_NEXT, "pthread_attr_setstacksize");
    if (!a) return create(t, 0, f, arg);
    pthread_attr_t g; init(&g); setstacksize(&g, ((const bionic_attr *)a)->stack_size);
    int r = create(t, &g, f, arg); destroy(&g); return r;
}
EOF
}

# The C programs built for one ABI with a glibc cross compiler and run under qemu-user. glibc's
# loader finds the NEEDED libc.so/libm.so/libdl.so as symlinks to its own; the program links the
# shim above, which comes before glibc in the library's symbol lookup.
android_smoke_script() { # gcc-prefix qemu abi
    cat <<EOF
cd /tmp/argus-reach-android; a=$3; L=/tmp/argus-reach-android/\$a; G=/usr/$1/lib; mkdir -p out-\$a \$a/compat
ln -sf \$G/libc.so.6 \$a/compat/libc.so; ln -sf \$G/libm.so.6 \$a/compat/libm.so; ln -sf \$G/libdl.so.2 \$a/compat/libdl.so
$1-gcc -shared -fPIC -O1 shim.c -o \$a/compat/libbionic-shim.so -ldl
for p in \$(cat programs.txt); do
    case \$p in *.cpp) cc="$1-g++ -std=c++17";; *) cc="$1-gcc -std=c99";; esac
    if \$cc -O1 -Isdk/include -Isrc src/\$p -o out-\$a/\${p%.*} -L\$L -largus -L\$L/compat -Wl,--no-as-needed -lbionic-shim \\
        -Wl,-rpath-link,\$L/compat -lm >out-\$a/\$p.log 2>&1; then
        $2 -L /usr/$1 -E LD_LIBRARY_PATH=\$L:\$L/compat out-\$a/\${p%.*} >>out-\$a/\$p.log 2>&1; echo \$? >out-\$a/\$p.rc
    else echo build >out-\$a/\$p.rc; fi
done
EOF
}

release_reach_android() { # dir with arm64-v8a/ and armeabi-v7a/ (libargus.so), Godot add-on's bin/
    local n=release-reach-android in="$CROSS_CHROOT/tmp/argus-reach-android" sdk="$REL_TMP/reach/android-sdk" host f
    [[ -f "$CROSS_CHROOT/.argus-ready" ]] || { release_fail $n "no cross chroot at $CROSS_CHROOT"; return; }
    for f in "$1/arm64-v8a/libargus.so" "$1/armeabi-v7a/libargus.so" \
        "$2/libargus_godot.android.arm64.so" "$2/libargus_godot.android.arm32.so"; do
        [[ -f $f ]] || { release_fail $n "missing $f"; return; }
    done
    # The programs compile against the checkout's header and C++ wrapper (the Android package has none).
    mkdir -p "$sdk/include" && cp "$ROOT/include/argus.h" "$ROOT/bindings/cpp/argus.hpp" "$sdk/include/"
    host=$(reach_host_counts "$sdk" 2>"$LOGS/$n-x86_64.log") || { release_fail $n "no x86_64 reference counts (see $LOGS/$n-x86_64.log)"; return; }
    reach_stage argus-reach-android "$sdk" || { release_fail $n "cannot stage in the chroot"; return; }
    mkdir -p "$in/arm64" "$in/arm" && cp "$1/arm64-v8a/libargus.so" "$in/arm64/" && cp "$1/armeabi-v7a/libargus.so" "$in/arm/" &&
        cp "$2/libargus_godot.android.arm64.so" "$in/arm64/" && cp "$2/libargus_godot.android.arm32.so" "$in/arm/" &&
        cp "$ROOT/tools/reach/bionic-api21.txt" "$in/" && android_elf_check_script >"$in/elf-check.sh" &&
        android_shim_source >"$in/shim.c" ||
        { release_fail $n "cannot stage the libraries in the chroot"; return; }
    local d=/tmp/argus-reach-android
    run_one $n-arm64-c reach_chroot "cd $d && bash elf-check.sh arm64/libargus.so ELF64 AArch64 arm64 c libargus.so"
    run_one $n-arm32-c reach_chroot "cd $d && bash elf-check.sh arm/libargus.so ELF32 ARM arm c libargus.so"
    run_one $n-arm64-godot reach_chroot "cd $d && bash elf-check.sh arm64/libargus_godot.android.arm64.so ELF64 AArch64 arm64 godot libargus_godot.so"
    run_one $n-arm32-godot reach_chroot "cd $d && bash elf-check.sh arm/libargus_godot.android.arm32.so ELF32 ARM arm godot libargus_godot.so"
    # Smoke tests: arm64 on Debian's arm64 glibc, armeabi-v7a on its armel glibc (soft-float calls,
    # as armeabi-v7a's softfp), each under qemu-user.
    reach_chroot "$(android_smoke_script aarch64-linux-gnu qemu-aarch64 arm64)" >"$LOGS/$n-arm64-build.log" 2>&1
    reach_record_programs $n-arm64 "$in/out-arm64" "$host"
    reach_chroot "$(android_smoke_script arm-linux-gnueabi qemu-arm arm)" >"$LOGS/$n-arm32-build.log" 2>&1
    reach_record_programs $n-arm32 "$in/out-arm" "$host"
}
