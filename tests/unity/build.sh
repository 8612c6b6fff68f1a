#!/usr/bin/env bash
# Compiles the Unity package against the stand-in of UnityEngine with Mono's mcs (C# 7):
#   tests/unity/build.sh OUT_DIR [2021.3|2022.2|6000.4]
# OUT_DIR receives UnityEngine.StandIn.dll (the stand-in, never shipped), Argus.Perception.dll
# (Runtime/ with the bindings in Runtime/Bindings), Argus.Perception.Editor.dll (Editor/), Argus.Perception.Tests.dll
# (Tests/Runtime and Tests/Editor: the Unity Test Framework tests) and
# Argus.Perception.StandInTests.dll (tests/unity/ and the Courtyard sample).
# The package compiled is $ARGUS_UNITY_PACKAGE if set (an installed copy, as tests/suites/60-release.sh
# does with the UPM tarball), else unity/ of this checkout.
# 2022.2 defines UNITY_2022_2_OR_NEWER, so the RaycastCommand QueryParameters form is compiled; 6000.4
# is Unity 6.4, where the stand-in marks obsolete what Unity's reference source does (FindObjectsOfType,
# the FindObjectsSortMode overloads, Physics.autoSyncTransforms, GetInstanceID). Obsolete warnings are
# errors here (-warnaserror+, CS0618 not suppressed): the package uses no API its Unity version deprecates.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${1:?usage: build.sh OUT_DIR [2021.3|2022.2|6000.4]}"
VARIANT="${2:-2021.3}"
mkdir -p "$OUT"
D="-define:UNITY_5_3_OR_NEWER -define:UNITY_2021_3_OR_NEWER -define:UNITY_EDITOR -define:UNITY_INCLUDE_TESTS"
# Active Input Handling: 2021.3 and 2022.2 stand for projects on the Input Manager (Unity defines
# ENABLE_LEGACY_INPUT_MANAGER); 6000.4 for one on the Input System package alone (ENABLE_INPUT_SYSTEM
# only), where reading UnityEngine.Input throws: the package must compile and run there too.
case "$VARIANT" in
    2021.3) D="$D -define:ENABLE_LEGACY_INPUT_MANAGER" ;;
    # The 2022.2 variant stands for 2022.2.5+, where the Runtime asmdef's versionDefines add
    # ARGUS_FIND_OBJECTS_BY_TYPE (Object.FindObjectsByType exists from 2021.3.18 and 2022.2.5).
    2022.2) D="$D -define:ENABLE_LEGACY_INPUT_MANAGER -define:UNITY_2022_2_OR_NEWER -define:ARGUS_FIND_OBJECTS_BY_TYPE" ;;
    6000.4) D="$D -define:ENABLE_INPUT_SYSTEM -define:UNITY_2022_2_OR_NEWER -define:UNITY_2023_1_OR_NEWER -define:UNITY_6000_0_OR_NEWER"
            D="$D -define:UNITY_6000_4_OR_NEWER -define:ARGUS_FIND_OBJECTS_BY_TYPE" ;;
    *) echo "unknown variant $VARIANT" >&2; exit 2 ;;
esac
cd "$ROOT"
PKG="${ARGUS_UNITY_PACKAGE:-$ROOT/unity}"
MCS="mcs -langversion:7 -nowarn:1591 -warnaserror+"
$MCS -unsafe -target:library $D -out:"$OUT/UnityEngine.StandIn.dll" tests/unity/standin/*.cs
$MCS -unsafe -target:library $D -r:"$OUT/UnityEngine.StandIn.dll" -out:"$OUT/Argus.Perception.dll" -recurse:"$PKG/Runtime/*.cs"
$MCS -target:library $D -r:"$OUT/UnityEngine.StandIn.dll" -r:"$OUT/Argus.Perception.dll" \
    -out:"$OUT/Argus.Perception.Editor.dll" -recurse:"$PKG/Editor/*.cs"
$MCS -unsafe -target:library $D -pkg:nunit -r:"$OUT/UnityEngine.StandIn.dll" -r:"$OUT/Argus.Perception.dll" \
    -r:"$OUT/Argus.Perception.Editor.dll" -out:"$OUT/Argus.Perception.Tests.dll" -recurse:"$PKG/Tests/*.cs"
$MCS -unsafe -target:library $D -pkg:nunit -r:System.Json.dll -r:"$OUT/UnityEngine.StandIn.dll" -r:"$OUT/Argus.Perception.dll" \
    -r:"$OUT/Argus.Perception.Editor.dll" -r:"$OUT/Argus.Perception.Tests.dll" \
    -out:"$OUT/Argus.Perception.StandInTests.dll" tests/unity/*.cs "$PKG"/Samples~/Courtyard/*.cs
