#!/usr/bin/env bash
# Builds the C# bindings and their NUnit tests with Mono's mcs (C# 7, as Unity's compiler accepts).
#   bindings/csharp/build.sh [OUT_DIR]     (default: target/csharp)
# Produces OUT_DIR/Argus.dll, OUT_DIR/Argus.Tests.dll and OUT_DIR/Argus.Bench.exe.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$ROOT/target/csharp}"
mkdir -p "$OUT"
MCS=(mcs -langversion:7 -unsafe -optimize+ -nowarn:1591)
"${MCS[@]}" -target:library -out:"$OUT/Argus.dll" -doc:"$OUT/Argus.xml" -recurse:"$HERE/Argus/*.cs"
"${MCS[@]}" -target:library -out:"$OUT/Argus.Tests.dll" -pkg:nunit -r:"$OUT/Argus.dll" -r:System.Json.dll \
    -r:System.Core.dll -recurse:"$HERE/tests/*.cs"
if [[ -d "$HERE/bench" ]]; then
    "${MCS[@]}" -target:exe -out:"$OUT/Argus.Bench.exe" -r:"$OUT/Argus.dll" -recurse:"$HERE/bench/*.cs"
fi
