#!/usr/bin/env bash
# Builds the Argus Godot add-on for this machine (Linux x86_64) and copies the library into
# addons/argus/bin/. Usage: godot/build.sh [cargo profile, default ci]. Other platforms: README.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
profile="${1:-ci}"
cd "$here/.."
cargo build --profile "$profile" -p argus-godot
dir="$profile"; [ "$profile" = dev ] && dir=debug
mkdir -p "$here/addons/argus/bin"
cp "target/$dir/libargus_godot.so" "$here/addons/argus/bin/libargus_godot.linux.x86_64.so"
echo "built $here/addons/argus/bin/libargus_godot.linux.x86_64.so"
# The demo project uses the same add-on.
mkdir -p "$here/demo/addons"
rm -rf "$here/demo/addons/argus"
cp -r "$here/addons/argus" "$here/demo/addons/"
