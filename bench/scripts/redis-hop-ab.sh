#!/usr/bin/env bash
# A handed hop (handOverLocks, signed: redis-hop-cost.mjs's `handed` mode, two servers in one
# process on one Redis) at two commits, in alternating rounds on the same machine, as
# redis-cycle-ab.sh does for the throughput cycle. Starts a redis-server of its own; each
# commit's core and Redis adapter are built in a temporary worktree.
#   bench/scripts/redis-hop-ab.sh <commit A> <commit B> [rounds, default 6] [hops, default 3000]
# Prints each round (hop median and p90 in ms, node's CPU per hop in µs), then each side's
# medians of the rounds.
set -euo pipefail
a=$1 b=$2 rounds=${3:-6} hops=${4:-3000}
root=$(git rev-parse --show-toplevel)
# shellcheck source=ab-worktrees.sh
source "$root/bench/scripts/ab-worktrees.sh"
ab_build redis "$root/bench/scripts/redis-hop-cost.mjs" redis-hop-cost.tmp.mjs
ab_redis
declare -A medians p90s cpus
for round in $(seq 1 "$rounds"); do
  line="round $round"
  for c in "$a" "$b"; do
    read -r _ median p90 cpu _ < <(cd "$tmp/$c/packages/redis" && node redis-hop-cost.tmp.mjs handed "$hops")
    medians[$c]="${medians[$c]:-} $median"
    p90s[$c]="${p90s[$c]:-} $p90"
    cpus[$c]="${cpus[$c]:-} $cpu"
    line="$line  $c $median ms (p90 $p90), node $cpu µs"
  done
  echo "$line"
done
for c in "$a" "$b"; do
  echo "$c median $(echo "${medians[$c]}" | median) ms, p90 $(echo "${p90s[$c]}" | median) ms, node $(echo "${cpus[$c]}" | median) µs per hop"
done
