# Sourced by tools/reach/android.sh INSIDE the cross chroot. No Android NDK is available here, so
# this makes the parts of one that a Rust shared library links against (GUIDE §8, Android):
#   libunwind.a  LLVM libunwind (from the zig wheel's sources, built by clang against zig's musl
#                headers with errno as bionic's __errno(), all symbols hidden), plus
#                __emutls_get_address (zig's compiler_rt/emutls.zig; Rust's Android targets use
#                emulated TLS, which the NDK's compiler-rt would supply) and __dso_handle (from the
#                crtbegin_so.o that -nostartfiles leaves out). Rust's std asks for -lunwind, so one
#                archive carries all three; the linker pulls in only what is referenced.
#   libc.so libm.so libdl.so liblog.so
#                stubs holding exactly the symbols Android 5.0 (API 21) offers on that arch
#                (tools/reach/bionic-api21.txt): a symbol newer than that fails the link here
#                instead of the load on an old phone. liblog: its oldest calls, __android_log_*.
# The zig wheel is unpacked at /opt/zig-0.14.1 by tools/reach/android-prepare.sh (on the host).
# Parts are kept under /target in a folder named by a hash of this file and the list: made once,
# and, as that folder is in the link flags, a change to them relinks the libraries (cargo tracks
# flags, not the files a linker reads).
ANDROID_PARTS_HASH="$(cat /argus/tools/reach/android-parts.sh /argus/tools/reach/bionic-api21.txt | md5sum | cut -c1-12)"

android_parts() { # rust-arch (aarch64|armv7) clang-target zig-target list-arch musl-arch dir
    local arch=$1 ctarget=$2 ztarget=$3 larch=$4 march=$5 dir=$6
    local Z=/opt/zig-0.14.1
    [[ -f $dir/.ready ]] && return 0
    [[ -x $Z/zig ]] || { echo "android: no $Z (run tools/reach/android-prepare.sh on the host)" >&2; return 1; }
    rm -rf "$dir" && mkdir -p "$dir/obj"
    local cc=(clang --target=$ctarget -fPIC -O2 -w)

    # emutls; zig needs a writable cache and /proc (its own path).
    local zcpu=baseline; [[ $arch == armv7 ]] && zcpu=generic+v7a+thumb2+vfp3d16
    ZIG_GLOBAL_CACHE_DIR=$dir/zig-cache ZIG_LOCAL_CACHE_DIR=$dir/zig-cache \
        $Z/zig build-obj -target $ztarget -mcpu=$zcpu -lc -fPIC -OReleaseSmall \
        $Z/lib/compiler_rt/emutls.zig -femit-bin=$dir/obj/emutls.o
    rm -rf $dir/zig-cache

    # __dso_handle: hidden, so each library that links it keeps its own (as crtbegin_so.o does).
    echo '__attribute__((visibility("hidden"))) void *__dso_handle = &__dso_handle;' |
        "${cc[@]}" -x c -c - -o $dir/obj/dso_handle.o

    # libunwind against musl's headers (the only libc headers here). What differs from bionic:
    # errno (musl: __errno_location(), bionic: __errno()) and stderr (a bionic symbol only from
    # API 23): libunwind's rare diagnostics before an abort are dropped instead.
    printf '#include <stdio.h>\n#define fprintf(...) 0\n#define fflush(f) 0\n' >$dir/obj/prefix.h
    local uw=$Z/lib/libunwind src
    local ucc=("${cc[@]}" -nostdlibinc -isystem $uw/include -isystem $Z/lib/libc/include/$march-linux-musl
        -isystem $Z/lib/libc/include/generic-musl -isystem $Z/lib/libc/include/any-linux-any
        -D__errno_location=__errno -D_LIBUNWIND_HIDE_SYMBOLS -DNDEBUG
        -D_LIBUNWIND_IS_NATIVE_ONLY -fvisibility=hidden -funwind-tables -fno-stack-protector)
    for src in libunwind.cpp Unwind-EHABI.cpp; do
        "${ucc[@]}" -include $dir/obj/prefix.h -std=c++17 -fno-exceptions -fno-rtti -c $uw/src/$src -o $dir/obj/${src%.*}.o
    done
    for src in UnwindLevel1.c UnwindLevel1-gcc-ext.c; do
        "${ucc[@]}" -include $dir/obj/prefix.h -std=c99 -c $uw/src/$src -o $dir/obj/${src%.*}.o
    done
    for src in UnwindRegistersSave.S UnwindRegistersRestore.S; do
        "${ucc[@]}" -c $uw/src/$src -o $dir/obj/${src%.*}.o
    done
    llvm-ar rcs $dir/libunwind.a $dir/obj/*.o

    # The stub libraries: one assembly file each, every symbol a function or (# var) a data object.
    local lib
    for lib in libc libm libdl liblog; do
        if [[ $lib == liblog ]]; then
            printf '%s\n' __android_log_write __android_log_print __android_log_vprint __android_log_assert
        else
            awk -v a=$larch -v l=$lib.so '$1 == a && $2 == l { print $3, $4 }' /argus/tools/reach/bionic-api21.txt
        fi | awk '$2 == "var" { printf ".data\n.globl %s\n.type %s,%%object\n.size %s,8\n%s: .space 8\n", $1, $1, $1, $1; next }
                 { printf ".text\n.globl %s\n.type %s,%%function\n%s: nop\n", $1, $1, $1 }' >$dir/obj/$lib.S
        "${cc[@]}" -c $dir/obj/$lib.S -o $dir/obj/$lib.stub.o
        "${cc[@]}" -shared -nostdlib -fuse-ld=lld -Wl,-soname,$lib.so $dir/obj/$lib.stub.o -o $dir/$lib.so
    done
    touch $dir/.ready   # last: half-made parts are made again
}
