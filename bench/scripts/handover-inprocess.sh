#!/usr/bin/env bash
# Each process's own work on each step of the all-Redis live hand-over and of its floor: runs
# `--only handover --stack all-redis` with socket-times.cjs preloaded into every node process
# (the bench, its game servers, the floor's holder), prints the run's hop, spaced floor and
# ratio, then the steps' medians (handover-inprocess.mjs). Recording costs each socket read
# and write a few µs, and each process a file write every 250 ms while it works, hop and floor
# alike. About 45 s; needs the bench built (`pnpm bench` builds it).
#   bench/scripts/handover-inprocess.sh [directory for the logs, default a temporary one]
set -euo pipefail
logs="$(realpath -m "${1:-$(mktemp -d)}")"
cd "$(dirname "$0")/../.."
mkdir -p "$logs"
rm -f "$logs"/*.log
echo "logs in $logs"
DD_SOCKET_TIMES_DIR="$logs" \
  NODE_OPTIONS="${NODE_OPTIONS:-} --require \"$PWD/bench/scripts/socket-times.cjs\"" \
  node bench/dist/cli.js --only handover --stack all-redis >"$logs/run.out" 2>&1 ||
  { cat "$logs/run.out"; exit 1; }
# The hop's row, the spaced floor's and their ratio: name and median.
rows='all-Redis|physical limit between two processes, spaced like the hops, all-Redis'
rows+='|hand-over / two-process limit spaced like the hops, all-Redis'
grep -E "^\| ($rows) \|" bench/results/raw/only/results.md | cut -d'|' -f2,4
node bench/scripts/handover-inprocess.mjs "$logs"
