#!/usr/bin/env bash
# How warm the all-Redis hand-over's game servers are as the bench's warm-up hops run: how many
# functions V8 has optimized (TurboFan) in each, read off its --perf-basic-prof map
# (/tmp/perf-<pid>.map, one line per code object, optimized ones named "JS:*...") each time the
# bench reports another 1,000 warm-up hops, and once the recorded hops are done.
#
#   bench/scripts/jit-warmth.sh [warm-up hops, default 8000]   # after a build; about 2.5 min
#
# Prints "<hops> <optimized in server 1> <optimized in server 2>" lines. Every node process of
# the run writes a map while it runs (a few MB); the script removes the servers' at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
hops="${1:-8000}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

pids=""
counts() {
  local line=""
  for pid in $pids; do
    line="$line $(grep -c ' JS:\*' "/tmp/perf-$pid.map" 2>/dev/null || echo 0)"
  done
  echo "$line"
}

NODE_OPTIONS="--perf-basic-prof" node bench/dist/cli.js --only handover --stack all-redis \
  --warm-up "$hops" >"$log" 2>&1 &
bench=$!
seen=0
echo "hops optimized-functions-per-server"
while kill -0 "$bench" 2>/dev/null; do
  done_hops=$(grep -o '[0-9]* of [0-9]* warm-up hops' "$log" | tail -1 | cut -d' ' -f1 || true)
  # The hand-over's two servers: the run's only game servers while its warm-up goes on.
  [ -z "$pids" ] && [ -n "$done_hops" ] &&
    pids=$(pgrep -f 'game-server/dist/server.js' | sort -n | tr '\n' ' ')
  if [ -n "$done_hops" ] && [ "$done_hops" != "$seen" ]; then
    seen=$done_hops
    echo "$done_hops$(counts)"
  fi
  if grep -q 'hand-over profile in one process' "$log"; then
    # The servers were stopped (SIGKILL) after the recorded hops; their maps stay.
    echo "$hops and the recorded hops$(counts)"
    break
  fi
  sleep 0.2
done
wait "$bench" 2>/dev/null || true
for pid in $pids; do rm -f "/tmp/perf-$pid.map"; done
grep -q 'wrote' "$log" || { cat "$log"; exit 1; }
