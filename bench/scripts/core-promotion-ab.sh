#!/usr/bin/env bash
# What core's cycle leaves for the old generation, at two commits in alternating rounds: the
# bytes each young-generation collection (scavenge) promoted, median over a run's scavenges
# (V8's `--trace-gc-nvp`), beside the run's µs per load + save + release (core-only-cycle.mjs,
# 200 players in flight on the memory store). An object that outlives two scavenges is copied
# twice and then kept until a full collection; a cycle's objects live for a few milliseconds
# and should die young, so a figure far above zero says something keeps them alive.
#   bench/scripts/core-promotion-ab.sh <commit A> <commit B> [rounds, default 4]
set -euo pipefail
a=$1 b=$2 rounds=${3:-4}
root=$(git rev-parse --show-toplevel)
# shellcheck source=ab-worktrees.sh
source "$root/bench/scripts/ab-worktrees.sh"
ab_build core "$root/bench/scripts/core-only-cycle.mjs" core-only-cycle.mjs
declare -A us_all kb_all
for round in $(seq 1 "$rounds"); do
  line="round $round"
  for c in "$a" "$b"; do
    out=$(cd "$tmp/$c/packages/core" && node --trace-gc-nvp core-only-cycle.mjs 3)
    us=$(echo "$out" | grep -E '^[0-9.]+$' | tail -1)
    promoted=$(echo "$out" | grep 'gc=s' | grep -o ' promoted=[0-9]*' | cut -d= -f2) ||
      { echo "$c: no scavenge traced (node --trace-gc-nvp printed none)" >&2; exit 1; }
    kb=$(echo "$promoted" |
      awk '{ printf "%.0f ", $1 / 1024 }' | median)
    us_all[$c]="${us_all[$c]:-} $us"
    kb_all[$c]="${kb_all[$c]:-} $kb"
    line="$line  $c $us µs, $kb KB promoted a scavenge"
  done
  echo "$line"
done
for c in "$a" "$b"; do
  echo "$c median $(echo ${us_all[$c]} | median) µs, $(echo ${kb_all[$c]} | median) KB promoted a scavenge"
done
