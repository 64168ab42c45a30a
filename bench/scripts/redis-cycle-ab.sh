#!/usr/bin/env bash
# The throughput cycle on one Redis (redis-only-cycle.mjs: the Redis store, core's memory
# messenger and presence) at two commits, in alternating rounds on the same machine, as
# core-cycle-ab.sh does for core alone. Starts a redis-server of its own (redis-server on PATH);
# each commit's core and Redis adapter are built in a temporary worktree.
#   bench/scripts/redis-cycle-ab.sh <commit A> <commit B> [rounds, default 6]
# Prints each round's best window (cycles per second, higher is better, and node's µs per cycle),
# redis-server's CPU per cycle over the whole run (its INFO cpu before and after), and the
# median of the rounds for each side.
set -euo pipefail
a=$1 b=$2 rounds=${3:-6}
root=$(git rev-parse --show-toplevel)
# shellcheck source=ab-worktrees.sh
source "$root/bench/scripts/ab-worktrees.sh"
ab_build redis "$root/bench/scripts/redis-only-cycle.mjs" redis-only-cycle.mjs
ab_redis
# redis-server's CPU (user + system seconds) so far, from its own INFO.
server_cpu() {
  redis-cli -p "$port" info cpu | tr -d '\r' |
    awk -F: '/^used_cpu_(sys|user):/ { total += $2 } END { printf "%.6f", total }'
}
declare -A rates cpus servers
for round in $(seq 1 "$rounds"); do
  line="round $round"
  for c in "$a" "$b"; do
    before=$(server_cpu)
    read -r rate cpu cycles < <(cd "$tmp/$c/packages/redis" && node redis-only-cycle.mjs 3 2)
    server=$(awk -v a="$before" -v b="$(server_cpu)" -v n="$cycles" 'BEGIN { printf "%.1f", (b - a) * 1e6 / n }')
    rates[$c]="${rates[$c]:-} $rate"
    cpus[$c]="${cpus[$c]:-} $cpu"
    servers[$c]="${servers[$c]:-} $server"
    line="$line  $c $rate/s ${cpu} µs (redis-server ${server} µs)"
  done
  echo "$line"
done
for c in "$a" "$b"; do
  echo "$c median $(echo ${rates[$c]} | median) cycles/s, node $(echo ${cpus[$c]} | median) µs per cycle, redis-server $(echo ${servers[$c]} | median) µs per cycle"
done
