#!/usr/bin/env bash
# Builds (once) the Debian sid chroot the release cross-builds run in, and prints its path.
# Why sid: its rustc ships rust-src, so std for Windows and macOS is built with -Zbuild-std;
# its MinGW, lld (ld64.lld), llvm-dlltool and Wine do the rest. Needs root and network.
#   tools/cross-chroot.sh            build if missing (ARGUS_CROSS_CHROOT overrides the path)
set -euo pipefail
CHROOT="${ARGUS_CROSS_CHROOT:-/var/cache/argus-cross/sid}"
# Desktop (Windows, macOS) and reach (Linux arm64 under qemu, Android, iOS, the web under Node).
PKGS=(rustc cargo rust-src gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 lld llvm clang
      wine wine64 cmake make pkg-config ca-certificates python3 binutils file zip unzip
      gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user emscripten nodejs
      gcc-arm-linux-gnueabi g++-arm-linux-gnueabi libc6-dev-armel-cross)
STAMP="$CHROOT/.argus-ready"   # written last: a half-built chroot is rebuilt, never reused
if [[ -f "$STAMP" ]]; then
    # A chroot made before a package joined the list gets what it lacks, not a rebuild.
    if [[ "$(cat "$STAMP")" != "${PKGS[*]}" ]]; then
        [[ $(id -u) -eq 0 ]] || { echo "updating the cross chroot needs root" >&2; exit 1; }
        chroot "$CHROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PKGS[@]}" >&2
        echo "${PKGS[*]}" >"$STAMP"
    fi
    echo "$CHROOT"; exit 0
fi
[[ $(id -u) -eq 0 ]] || { echo "building the cross chroot needs root" >&2; exit 1; }
command -v debootstrap >/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >&2
}
mirror="$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
    /etc/apt/sources.list.d/*.list 2>/dev/null | grep -oE 'https?://[^ ]+/debian/?' | grep -v security | head -n 1 || true)"
mirror="${mirror:-http://deb.debian.org/debian}"
# Never delete into a mount a killed run may have left inside: the checkout is bind-mounted at
# /argus during a release, on the same file system (so --one-file-system alone would not stop rm).
for m in proc dev/pts argus target out; do umount "$CHROOT/$m" 2>/dev/null || true; done
if grep -q " $CHROOT/" /proc/mounts; then echo "mounts remain under $CHROOT; not deleting it" >&2; exit 1; fi
rm -rf --one-file-system "$CHROOT"
mkdir -p "$(dirname "$CHROOT")"
debootstrap --variant=minbase sid "$CHROOT" "$mirror" >&2
mount -t proc proc "$CHROOT/proc"
trap 'umount "$CHROOT/proc" 2>/dev/null || true' EXIT
# No apt-get update: debootstrap's package lists are current, and a snapshot mirror's Release
# file may be past its Valid-Until date, which apt-get update refuses.
chroot "$CHROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PKGS[@]}" >&2
# cargo inside reaches crates.io through this machine's proxy only with its local CAs trusted.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$CHROOT/usr/local/share/ca-certificates/"
fi
chroot "$CHROOT" update-ca-certificates >&2
echo "${PKGS[*]}" >"$STAMP"
echo "$CHROOT"
