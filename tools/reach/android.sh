# Sourced INSIDE the cross chroot after tools/cross-env.sh (by tools/cross-build.sh, or
# tools/reach/dev-run.sh): the Android arm64-v8a and armeabi-v7a shared libraries, the C library
# (libargus.so, for Unity and C/C++ users) and the Godot add-on's, stripped, into
# /out/android-arm64/ and /out/android-armv7/. Needs tools/reach/android-prepare.sh run on the
# host first (the zig wheel at /opt/zig-0.14.1).
# No NDK here: clang links for Android API 21 (Android 5.0) against the parts android-parts.sh
# makes (kept under /target/android-parts, made once). The SONAME comes from build.rs.
# Build time (2 cores): ~9 min per ABI from scratch (std, deps, gdext), seconds when unchanged.
# With an Android NDK (tools/release.sh mounts $ANDROID_NDK_HOME at /ndk), its clang links against
# its own sysroot and runtime instead; the release checks are the same either way.
source /argus/tools/reach/android-parts.sh
NDK_BIN=/ndk/toolchains/llvm/prebuilt/linux-x86_64/bin
android_build() { # rust-arch clang-target zig-target list-arch musl-arch out-dir godot-arch
    local T=$1-linux-android; [[ $1 == armv7 ]] && T=armv7-linux-androideabi
    local parts=/target/android-parts/$1-$ANDROID_PARTS_HASH up
    up=$(echo "$T" | tr a-z- A-Z_)
    # --hash-style=both: Android before 6.0 reads only the SysV hash table.
    # max-page-size=16384: loads on devices with 16 KB pages (required by Google Play on arm64).
    local common="-Clink-arg=-Wl,--hash-style=both -Clink-arg=-Wl,-z,max-page-size=16384"
    if [[ -x $NDK_BIN/$2-clang ]]; then
        echo "android $1: linking with the NDK's $2-clang"
        export CARGO_TARGET_${up}_LINKER=$NDK_BIN/$2-clang
        export CARGO_TARGET_${up}_AR=$NDK_BIN/llvm-ar
        export CARGO_TARGET_${up}_RUSTFLAGS="$REMAP $common"
    else
        find /target/android-parts -mindepth 1 -maxdepth 1 -name "$1-*" ! -name "${parts##*/}" -exec rm -rf {} + 2>/dev/null || true
        android_parts $1 $2 $3 $4 $5 $parts
        # -nostartfiles: there are no crtbegin_so.o/crtend_so.o (the parts hold __dso_handle).
        export CARGO_TARGET_${up}_LINKER=clang
        export CARGO_TARGET_${up}_RUSTFLAGS="$REMAP -Lnative=$parts -Clink-arg=--target=$2 -Clink-arg=-fuse-ld=lld
            -Clink-arg=-nostartfiles $common"
    fi
    # One invocation: std (build-std) and the shared dependencies are built once for both crates.
    "${BUILD[@]}" --target $T -p argus --lib -p argus-godot
    local o=/out/$6 && rm -rf $o && mkdir -p $o
    cp /target/$T/release/libargus.so $o/
    cp /target/$T/release/libargus_godot.so $o/libargus_godot.android.$7.so
    llvm-strip --strip-unneeded $o/*.so
    ls -l $o
}
android_build aarch64 aarch64-linux-android21 aarch64-linux-android arm64 aarch64 android-arm64 arm64
android_build armv7 armv7a-linux-androideabi21 arm-linux-androideabi arm arm android-armv7 arm32
