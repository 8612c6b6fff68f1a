#!/usr/bin/env bash
# Makes the .nupkg's lib/netstandard2.0/Argus.dll from the mcs-built (net45) one:
#   tools/release/netstandard.sh <in.dll> <out.dll>
# Retarget.cs (Mono.Cecil) moves every framework type reference to netstandard 2.0.0.0, failing by
# name on a type .NET Standard 2.0 lacks, and adds the TargetFramework attribute; the XML docs
# (in.xml, if present) are copied beside out.dll, as the members are the same.
# Needs mono-devel (mcs, the netstandard 2.0 facade in 4.7.1-api) and libmono-cecil-private-cil.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 <in.dll> <out.dll>" >&2; exit 2; }
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# 4.7.1-api's facade is netstandard 2.0.0.0; the runtime's 4.5/Facades one is 2.1, a larger surface.
FACADE=/usr/lib/mono/4.7.1-api/Facades/netstandard.dll
CECIL="$(ls /usr/lib/mono/gac/Mono.Cecil/0.11.*/Mono.Cecil.dll 2>/dev/null | tail -n 1)"
if [[ ! -f "$FACADE" || -z "$CECIL" ]]; then
    echo "netstandard: needs $FACADE (mono-devel) and Mono.Cecil 0.11 (libmono-cecil-private-cil)" >&2
    exit 1
fi
TOOL="$(mktemp -d)"
trap 'rm -rf "$TOOL"' EXIT
mcs -langversion:7 -optimize+ -out:"$TOOL/Retarget.exe" -r:"$CECIL" "$HERE/netstandard/Retarget.cs"
mkdir -p "$(dirname "$2")"
mono "$TOOL/Retarget.exe" "$FACADE" "$1" "$2"
if [[ -f "${1%.dll}.xml" ]]; then cp "${1%.dll}.xml" "${2%.dll}.xml"; fi
