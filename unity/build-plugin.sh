#!/usr/bin/env bash
# Builds the Argus native library for Linux x86_64 from this repository and puts it where the
# package's PluginImporter settings expect it: Plugins/Linux/x86_64/libargus.so, then writes its
# .meta (Tools~/metas.py: a plugin's .meta exists only beside its library). Other platforms cannot be built here; unity/README.md gives their exact commands.
#
#   unity/build-plugin.sh             cargo build --release
#   unity/build-plugin.sh --profile ci   any cargo profile (the test suite uses ci)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
PROFILE=release
if [[ "${1:-}" == "--profile" ]]; then PROFILE="${2:?--profile needs a name}"; fi
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "build-plugin.sh builds Linux x86_64 only; see unity/README.md for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac

(cd "$ROOT" && cargo build --profile "$PROFILE" --lib)
OUT="$TARGET_DIR/$PROFILE"
[[ "$PROFILE" == "dev" ]] && OUT="$TARGET_DIR/debug"
mkdir -p "$HERE/Plugins/Linux/x86_64"
cp "$OUT/libargus.so" "$HERE/Plugins/Linux/x86_64/libargus.so"
python3 "$HERE/Tools~/metas.py"
echo "installed $HERE/Plugins/Linux/x86_64/libargus.so ($(stat -c %s "$HERE/Plugins/Linux/x86_64/libargus.so") bytes)"
