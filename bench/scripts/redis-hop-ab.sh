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
script="$root/bench/scripts/redis-hop-cost.mjs"
tmp=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
redis-server --port "$port" --save '' --appendonly no --daemonize no >/dev/null 2>&1 &
redis=$!
cleanup() {
  kill "$redis" 2>/dev/null || true
  for c in "$a" "$b"; do git -C "$root" worktree remove --force "$tmp/$c" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
for c in "$a" "$b"; do
  git -C "$root" worktree add --quiet --detach "$tmp/$c" "$c"
  (cd "$tmp/$c" && pnpm install --frozen-lockfile --filter @datadriver/redis... >/dev/null \
    && pnpm --filter @datadriver/redis... build >/dev/null)
  cp "$script" "$tmp/$c/packages/redis/redis-hop-cost.tmp.mjs"
done
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
export REDIS_URL="redis://127.0.0.1:$port"
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
middle() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
for c in "$a" "$b"; do
  echo "$c median $(echo "${medians[$c]}" | middle) ms, p90 $(echo "${p90s[$c]}" | middle) ms, node $(echo "${cpus[$c]}" | middle) µs per hop"
done
