#!/usr/bin/env bash
# Proves every component field that feeds the native def is tested: each forwarding line
# (`def.X = field;` in the components' Fill/BuildDef) is deleted in turn, Runtime/ is recompiled,
# and the package's tests must then fail. Prints one line per mutation and
# "N caught, N missed"; exits non-zero if any mutation survives.
#   tests/unity/mutate_fields.sh BUILD_DIR   (a directory filled by tests/unity/build.sh)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:?usage: mutate_fields.sh BUILD_DIR}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
D="-define:UNITY_5_3_OR_NEWER -define:UNITY_2021_3_OR_NEWER -define:UNITY_EDITOR -define:UNITY_INCLUDE_TESTS"
export LD_LIBRARY_PATH="$ROOT/unity/Plugins/Linux/x86_64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ARGUS_ROOT="$ROOT"

# Forwarding lines: settings only (poses travel in the bulk call and are tested by every scene).
FILES="FieldOfViewSensor HearingSensor PerceptionMemory EnemyBrain PerceptionAgent PerceptionTarget"
caught=0
missed=0
for f in $FILES; do
    src="$ROOT/unity/Runtime/$f.cs"
    while IFS=: read -r line text; do
        rm -rf "$WORK/run" && mkdir -p "$WORK/run"
        cp "$BUILD"/*.dll "$WORK/run/"
        rm -rf "$WORK/Runtime" && cp -r "$ROOT/unity/Runtime" "$WORK/Runtime"
        sed -i "${line}d" "$WORK/Runtime/$f.cs"
        what="$f.cs:$line $(echo "$text" | sed 's/^ *//')"
        if ! mcs -langversion:7 -unsafe -nowarn:1591 -target:library $D -r:"$WORK/run/UnityEngine.StandIn.dll" \
            -out:"$WORK/run/Argus.Perception.dll" -recurse:"$WORK/Runtime/*.cs" >"$WORK/mcs.log" 2>&1; then
            echo "MISSED  $what (the mutant does not compile: make the line a whole statement)"
            missed=$((missed + 1))
            continue
        fi
        # The package's own tests (unity/Tests, what a user runs in the editor) must catch it.
        if (cd "$WORK/run" && nunit-console -nologo Argus.Perception.Tests.dll >"$WORK/nunit.log" 2>&1); then
            echo "MISSED  $what"
            missed=$((missed + 1))
        else
            echo "caught  $what ($(grep -c '^[0-9]*) Test ' "$WORK/nunit.log") tests failed)"
            caught=$((caught + 1))
        fi
    done < <(grep -n -E '^\s*def\.[A-Za-z0-9.]+ = ' "$src" | grep -v -E 'def\.(Position|Forward) = ')
done
echo "$caught caught, $missed missed"
[[ $missed -eq 0 ]]
