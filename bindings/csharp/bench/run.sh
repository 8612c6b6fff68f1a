#!/usr/bin/env bash
# C# vs Rust on the same work: the `town` scene (AGENTS agents at 10 Hz, a 60 Hz step, AGENTS/10
# targets, AGENTS/5 boxes), each frame a bulk pose update of every agent and target, one step, and
# every event read. Town.cs drives libargus through Argus.World, town.rs through the C ABI from Rust.
# Runs them alternately ROUNDS times and prints the medians' ratio and C#'s managed bytes per step.
#   bindings/csharp/bench/run.sh [AGENTS] [STEPS] [ROUNDS]     (defaults 2000 300 5)
# Builds into $CARGO_TARGET_DIR (default target/): the library of profile $PROFILE (default ci), C# in csharp/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
N="${1:-2000}" STEPS="${2:-300}" ROUNDS="${3:-5}"
PROFILE="${PROFILE:-ci}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"   # where cargo builds: honours CARGO_TARGET_DIR as cargo does
OUT="$TARGET/$PROFILE"
CS="$TARGET/csharp"
cd "$ROOT"
cargo build --profile "$PROFILE" --lib --example csharp_town >/dev/null 2>&1
bindings/csharp/build.sh "$CS" >/dev/null 2>&1
cs=() rs=() bytes=""
for ((r = 0; r < ROUNDS; r++)); do
    line=$(LD_LIBRARY_PATH="$OUT" mono "$CS/Argus.Bench.exe" "$N" "$STEPS")
    cs+=("$(awk '{print $2}' <<<"$line")"); csum=$(awk '{print $4}' <<<"$line"); bytes=$(awk '{print $6}' <<<"$line")
    line=$("$OUT/examples/csharp_town" "$N" "$STEPS")
    rs+=("$(awk '{print $2}' <<<"$line")"); rsum=$(awk '{print $4}' <<<"$line")
    [[ "$csum" == "$rsum" ]] || { echo "the two drivers did different work (checksums $csum, $rsum)"; exit 1; }
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
mc=$(median "${cs[@]}") mr=$(median "${rs[@]}")
echo "town step, $N agents at 10 Hz, 60 Hz step, bulk poses + step + every event ($ROUNDS alternating rounds of $STEPS steps)"
echo "  C# (Mono $(mono --version | head -1 | awk '{print $5}')) median ${mc} ns/step   [${cs[*]}]"
echo "  Rust via the C ABI   median ${mr} ns/step   [${rs[*]}]"
awk -v c="$mc" -v r="$mr" 'BEGIN { printf "  ratio C#/Rust: %.3fx (goal <= 1.1x)\n", c / r }'
echo "  C# managed bytes allocated per steady-state step: $bytes (goal 0)"
