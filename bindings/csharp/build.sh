#!/usr/bin/env bash
# Builds the C# bindings with Mono's mcs (C# 7, as Unity's compiler accepts); no NUnit needed.
#   bindings/csharp/build.sh [--tests] [OUT_DIR]     (OUT_DIR default: $CARGO_TARGET_DIR or target/, then /csharp)
# Produces OUT_DIR/Argus.dll (+ Argus.xml) and OUT_DIR/Argus.Bench.exe; with --tests also
# OUT_DIR/Argus.Tests.dll (needs NUnit 2.6: libnunit-cil-dev, and System.Json: libmono-system-json4.0-cil).
# bindings/csharp/test.sh builds and runs the tests in one command.
# The library's sources live once, in unity/Runtime/Bindings (the Unity package compiles the same files;
# the .meta files beside them are Unity's and mcs ignores them).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TESTS=0
if [[ "${1:-}" == "--tests" ]]; then
    TESTS=1
    shift
fi
SRC="$ROOT/unity/Runtime/Bindings"
OUT="${1:-${CARGO_TARGET_DIR:-$ROOT/target}/csharp}"
mkdir -p "$OUT"
MCS=(mcs -langversion:7 -unsafe -optimize+ -nowarn:1591)
"${MCS[@]}" -target:library -out:"$OUT/Argus.dll" -doc:"$OUT/Argus.xml" -r:System.Numerics.dll -recurse:"$SRC/*.cs"
if [[ -d "$HERE/bench" ]]; then
    "${MCS[@]}" -target:exe -out:"$OUT/Argus.Bench.exe" -r:"$OUT/Argus.dll" -recurse:"$HERE/bench/*.cs"
fi
if [[ $TESTS == 1 ]]; then
    "${MCS[@]}" -target:library -out:"$OUT/Argus.Tests.dll" -pkg:nunit -r:"$OUT/Argus.dll" -r:System.Json.dll \
        -r:System.Core.dll -r:System.Numerics.dll -recurse:"$HERE/tests/*.cs"
fi
