#!/usr/bin/env bash
# Core's own CPU per cycle at two commits, measured in alternating rounds on the same machine
# (a machine whose CPU is shared moves every figure; alternating keeps both sides under the
# same weather). Each commit's core is built in a temporary worktree.
#   bench/scripts/core-cycle-ab.sh <commit A> <commit B> [rounds, default 6]
#   RECORD_KB=16 bench/scripts/core-cycle-ab.sh ...   (each profile holds about 16 KB of JSON)
#   MEASURE=allocations bench/scripts/core-cycle-ab.sh ...   (KB allocated per cycle, not µs)
# Prints each round's best window (µs per load + save + release, lower is better), or the KB
# its windows allocated per cycle, and the median of the rounds for each side.
set -euo pipefail
a=$1 b=$2 rounds=${3:-6}
unit=µs
if [ "${MEASURE:-}" = allocations ]; then unit=KB; fi
root=$(git rev-parse --show-toplevel)
# shellcheck source=ab-worktrees.sh
source "$root/bench/scripts/ab-worktrees.sh"
ab_build core "$root/bench/scripts/core-only-cycle.mjs" core-only-cycle.mjs
declare -A all
for round in $(seq 1 "$rounds"); do
  line="round $round"
  for c in "$a" "$b"; do
    value=$(cd "$tmp/$c/packages/core" && node core-only-cycle.mjs 3)
    all[$c]="${all[$c]:-} $value"
    line="$line  $c $value $unit"
  done
  echo "$line"
done
for c in "$a" "$b"; do
  echo "$c median $(echo ${all[$c]} | median) $unit"
done
