#!/usr/bin/env bash
# Runs on the HOST before the cross chroot's Android build (tools/reach/android.sh): no NDK is in
# any registry here, so the Android runtime pieces an NDK would bring (emutls, libunwind) are made
# from PyPI's ziglang wheel, whose zig compiles emutls.zig and whose lib/ holds LLVM libunwind's
# sources and musl's headers. The chroot has no pip; the host fetches the wheel (as tools/release.sh
# does for the macOS SDK) and unpacks it to <chroot>/opt/zig-0.14.1.
#   tools/reach/android-prepare.sh <chroot> [<download cache, default /var/cache/argus-cross/dl>]
set -euo pipefail
CHROOT="${1:?usage: android-prepare.sh <chroot> [<download cache>]}"
DL="${2:-${ARGUS_CROSS_CACHE:-/var/cache/argus-cross}/dl}"
ZIG="$CHROOT/opt/zig-0.14.1"
[[ -x "$ZIG/zig" && -f "$ZIG/.argus-ready" ]] && exit 0
wheel="$("$(dirname "${BASH_SOURCE[0]}")/ziglang-wheel.sh" "$DL")"
rm -rf "$ZIG" "$ZIG.tmp" && mkdir -p "$ZIG.tmp"
# Only what the parts need: the compiler, its std and compiler_rt, libunwind, the libc headers.
unzip -q "$wheel" 'ziglang/zig' 'ziglang/lib/std/*' \
    'ziglang/lib/compiler_rt/*' 'ziglang/lib/compiler_rt.zig' 'ziglang/lib/c.zig' 'ziglang/lib/libunwind/*' \
    'ziglang/lib/libc/include/*' 'ziglang/lib/include/*' -d "$ZIG.tmp"
mv "$ZIG.tmp/ziglang" "$ZIG" && rmdir "$ZIG.tmp"
touch "$ZIG/.argus-ready"   # last: a half-unpacked copy is unpacked again
