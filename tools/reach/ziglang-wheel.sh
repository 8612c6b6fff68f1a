#!/usr/bin/env bash
# Prints the path of PyPI's ziglang 0.14.1 wheel in a download cache, fetching it first when it is
# not there. One wheel serves the macOS stand-in SDK (tools/release.sh) and the Android runtime
# parts (tools/reach/android-prepare.sh).
#   tools/reach/ziglang-wheel.sh <download cache>
set -euo pipefail
DL="${1:?usage: ziglang-wheel.sh <download cache>}"
mkdir -p "$DL"
ls "$DL"/ziglang-0.14.1-*.whl >/dev/null 2>&1 ||
    pip3 download -q ziglang==0.14.1 --no-deps --only-binary :all: --platform manylinux_2_12_x86_64 -d "$DL" >&2
ls "$DL"/ziglang-0.14.1-*.whl | head -n 1
