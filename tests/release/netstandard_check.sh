#!/usr/bin/env bash
# Checks a netstandard2.0 Argus.dll (the .nupkg's lib/netstandard2.0, made by tools/release/netstandard.sh):
#   tests/release/netstandard_check.sh ARGUS_DLL LIBARGUS_SO
# 1. its one assembly reference is netstandard 2.0.0.0 (cc7b13ffcd2ddd51), and no attribute blob names
#    a framework assembly ("System.Single, mscorlib, ..."): anything else would not load on .NET Core;
# 2. it says [TargetFramework(".NETStandard,Version=v2.0")];
# 3. it works on Mono: every method JIT-compiles (each type and member reference resolves through the
#    netstandard facade), and tests/release/csharp/Trace.cs, compiled against it, runs the vision and
#    hearing traces on LIBARGUS_SO copied beside it.
# Prints one line per check and "netstandard: N passed, N failed"; exits 1 if any failed.
# Needs mono-devel (mcs; the runtime's Facades/netstandard.dll).
set -uo pipefail
[[ $# -eq 2 && -f "$1" && -f "$2" ]] || { echo "usage: $0 ARGUS_DLL LIBARGUS_SO" >&2; exit 2; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DLL="$1" LIB="$2"
passed=0 failed=0
check() { # name ok(0/1) detail
    if [[ $2 == 0 ]]; then passed=$((passed + 1)); echo "ok     $1"
    else failed=$((failed + 1)); echo "FAILED $1: $3"; fi
}

app="$(mktemp -d)"
trap 'rm -rf "$app"' EXIT
cp "$DLL" "$app/Argus.dll"
mcs -langversion:7 -out:"$app/Describe.exe" "$ROOT/tests/release/csharp/Describe.cs" >/dev/null &&
    (cd "$app" && mono Describe.exe Argus.dll) >"$app/describe.txt" 2>&1 || echo "describe failed" >>"$app/describe.txt"

# 1. References, and assembly-qualified type names in attribute blobs ([FixedBuffer], SecurityPermission).
refs="$(grep -v '^target-framework:' "$app/describe.txt")"
[[ "$refs" == "reference: netstandard, Version=2.0.0.0, Culture=neutral, PublicKeyToken=cc7b13ffcd2ddd51" ]]
check "references netstandard 2.0 only" $? "$(echo "$refs" | paste -sd ';')"
named="$(LC_ALL=C grep -a -o -E ', (mscorlib|System(\.[A-Za-z.]+)?), Version=' "$DLL" | sort -u | paste -sd ';')"
[[ -z "$named" ]]
check "no framework assembly named in blobs" $? "$named"

# 2. The target framework, as NuGet and the .NET SDK read it.
tf="$(grep '^target-framework:' "$app/describe.txt")"
[[ "$tf" == 'target-framework: .NETStandard,Version=v2.0 display=""' ]]
check "TargetFramework .NETStandard,Version=v2.0" $? "${tf:-none}"

# 3. On Mono, against the real native library.
(cd "$app" && mono --compile-all Argus.dll) >"$app/compile.log" 2>&1
[[ $? -eq 0 ]] && ! grep -q "failed with exception" "$app/compile.log"
check "every method JIT-compiles on Mono" $? "$(grep -m 1 "failed with exception" "$app/compile.log")"
# A consumer compiled by mcs names the facade: Argus's public types (IEquatable<Vec3>, ...) come from it.
mcs -langversion:7 -out:"$app/Trace.exe" -r:"$app/Argus.dll" -r:Facades/netstandard.dll \
    "$ROOT/tests/release/csharp/Trace.cs" >"$app/trace.log" 2>&1 &&
    cp "$LIB" "$app/libargus.so" && (cd "$app" && mono Trace.exe) >>"$app/trace.log" 2>&1
grep -q "^trace: [1-9][0-9]* passed, 0 failed$" "$app/trace.log" && grep -q "^loaded: $app/libargus.so$" "$app/trace.log"
check "Trace.cs runs against it" $? "$(tail -n 5 "$app/trace.log" | paste -sd ';')"

echo "netstandard: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
