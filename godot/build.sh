#!/usr/bin/env bash
# Builds the Argus Godot add-on for this machine (Linux x86_64) and copies the library into
# addons/argus/bin/. Usage: godot/build.sh [cargo profile, default release]. Other platforms:
# README.md. A release build is stripped (what a game ships: about a tenth of the size; the
# exported `gdext_rust_init` stays); other profiles keep their symbols for debugging.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
profile="${1:-release}"
cd "$here/.."
cargo build --profile "$profile" -p argus-godot
dir="$profile"; [ "$profile" = dev ] && dir=debug
lib="$here/addons/argus/bin/libargus_godot.linux.x86_64.so"
mkdir -p "$here/addons/argus/bin"
cp "${CARGO_TARGET_DIR:-target}/$dir/libargus_godot.so" "$lib"
if [ "$profile" = release ]; then
    strip --strip-unneeded "$lib"
fi
echo "built $lib ($profile)"
# The demo project uses the same add-on.
mkdir -p "$here/demo/addons"
rm -rf "$here/demo/addons/argus"
cp -r "$here/addons/argus" "$here/demo/addons/"
