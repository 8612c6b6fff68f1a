# Sourced INSIDE the cross chroot after tools/cross-env.sh (by tools/cross-build.sh, or
# tools/reach/dev-run.sh): Linux arm64 (aarch64-unknown-linux-gnu) C library and Godot add-on,
# stripped, into /out/linux-arm64/. Debian's aarch64 cross gcc links against its arm64 glibc; the
# SONAME comes from build.rs, as on x86_64.
A=aarch64-unknown-linux-gnu
# sid's glibc (2.43) gave acosf and atan2f new symbol versions, so a plain link needs glibc 2.43 and
# refuses every released distribution. The calls are redirected (ld --wrap) to the aarch64
# originals (GLIBC_2.17), so the libraries need no newer glibc than the x86_64 one (2.34, pthread).
# tests/suites/release/reach-desktop-web-ios.sh fails the release if another such symbol appears.
compat=/target/reach-aarch64-glibc-compat.o
aarch64-linux-gnu-gcc -x c -O2 -fPIC -c -o $compat - <<'C'
extern float acosf_2_17(float);
extern float atan2f_2_17(float, float);
__asm__(".symver acosf_2_17, acosf@GLIBC_2.17");
__asm__(".symver atan2f_2_17, atan2f@GLIBC_2.17");
float __wrap_acosf(float x) { return acosf_2_17(x); }
float __wrap_atan2f(float y, float x) { return atan2f_2_17(y, x); }
C
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-Clink-arg=$compat -Clink-arg=-Wl,--wrap=acosf,--wrap=atan2f $REMAP"
# One invocation: std (build-std) and the shared dependencies are built once for both crates.
"${BUILD[@]}" --target $A -p argus --lib -p argus-godot
o=/out/linux-arm64 && rm -rf $o && mkdir -p $o
cp /target/$A/release/libargus.so /target/$A/release/libargus.a $o/
cp /target/$A/release/libargus_godot.so $o/libargus_godot.linux.arm64.so
aarch64-linux-gnu-strip --strip-unneeded $o/libargus.so $o/libargus_godot.linux.arm64.so
aarch64-linux-gnu-strip --strip-debug $o/libargus.a
ls -l $o
