#!/usr/bin/env bash
# A hand-over's latency and node's CPU per hop between two servers in one process on one Redis,
# in each mode of redis-hop-cost.mjs (handed, signed, plain, and the same commands by hand), in
# alternating rounds so a machine whose CPU is shared moves every mode alike. Runs the current
# checkout's built core and Redis adapter (pnpm --filter @datadriver/redis... build); starts a
# redis-server of its own.
#   bench/scripts/redis-hop-cost.sh [rounds, default 5] [hops per round, default 3000]
# Prints each round, then each mode's medians over the rounds: hop median and p90 (ms), CPU (µs).
set -euo pipefail
rounds=${1:-5} hops=${2:-3000}
root=$(git rev-parse --show-toplevel)
target="$root/packages/redis/redis-hop-cost.tmp.mjs"
port=$((20000 + RANDOM % 20000))
redis-server --port "$port" --save '' --appendonly no --daemonize no >/dev/null 2>&1 &
redis=$!
trap 'kill "$redis" 2>/dev/null || true; rm -f "$target"' EXIT
cp "$root/bench/scripts/redis-hop-cost.mjs" "$target"
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
export REDIS_URL="redis://127.0.0.1:$port"
modes=(handed signed plain by-hand)
declare -A medians p90s cpus
for round in $(seq 1 "$rounds"); do
  for mode in "${modes[@]}"; do
    read -r _ median p90 cpu _ < <(cd "$root/packages/redis" && node "$target" "$mode" "$hops")
    medians[$mode]="${medians[$mode]:-} $median"
    p90s[$mode]="${p90s[$mode]:-} $p90"
    cpus[$mode]="${cpus[$mode]:-} $cpu"
    echo "round $round $mode: median $median ms, p90 $p90 ms, node $cpu µs per hop"
  done
done
middle() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for mode in "${modes[@]}"; do
  echo "$mode: median $(echo "${medians[$mode]}" | middle) ms, p90 $(echo "${p90s[$mode]}" | middle) ms, node $(echo "${cpus[$mode]}" | middle) µs per hop (medians of $rounds rounds)"
done
