#!/usr/bin/env bash
# The all-Redis live hand-over's steps on Redis's own clock: runs `pnpm bench -- --only handover
# --stack all-redis` (after a build), captures `redis-cli monitor` from the end of the warm-up
# hops to the end of the two-process measurement, and prints each step's median for the
# recorded hops and the floor's samples (handover-monitor.mjs). MONITOR costs Redis a little
# on every command, hops and floor alike. About 35 s.
#   bench/scripts/handover-monitor.sh [capture file, default a temporary one]
set -euo pipefail
cd "$(dirname "$0")/../.."
capture="${1:-$(mktemp)}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
node bench/dist/cli.js --only handover --stack all-redis >"$log" 2>&1 &
bench=$!
# Waits for a line of the run's output; a run that ends first is shown and fails the script.
await_line() {
  until grep -q "$1" "$log"; do
    kill -0 "$bench" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.3
  done
}
await_line ' \([0-9]*\) of \1 warm-up hops'
# The run's own redis-server: the only one whose parent is this bench.
port=$(pgrep -a -P "$bench" redis-server | grep -o '127\.0\.0\.1:[0-9]*' | head -1 | cut -d: -f2)
redis-cli -p "$port" monitor >"$capture" &
monitor=$!
await_line 'hand-over profile in one process'
kill "$monitor"
wait "$bench"
node bench/scripts/handover-monitor.mjs "$capture"
