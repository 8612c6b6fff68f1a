#!/usr/bin/env bash
# Runs the C# suite on its own: builds libargus (cargo, profile $PROFILE, default ci), the bindings and
# their NUnit tests (build.sh --tests), and runs them with nunit-console. Extra arguments go to
# nunit-console (e.g. -run=Argus.Tests.WorldTests). Needs: mono-mcs mono-runtime nunit-console
# libnunit-cil-dev libmono-system-json4.0-cil (apt-get). Exit status: nunit-console's (0 = all passed).
#   bindings/csharp/test.sh [nunit-console options]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PROFILE="${PROFILE:-ci}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
LIB="$TARGET/$PROFILE"
OUT="$TARGET/csharp"
# `testing`: the panic firewall's test hook (argus_testing_trigger_panic) the tests call, never shipped.
(cd "$ROOT" && cargo build --profile "$PROFILE" --lib --features testing)
"$HERE/build.sh" --tests "$OUT"
cd "$OUT"
ARGUS_ROOT="$ROOT" ARGUS_LIB_DIR="$LIB" LD_LIBRARY_PATH="$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    nunit-console -nologo -xml="$OUT/TestResult.xml" Argus.Tests.dll "$@"
