#!/usr/bin/env bash
# The all-Redis live hand-over at two commits: `pnpm bench -- --only handover --stack
# all-redis` in alternating rounds, each commit's bench, core and example game server built in
# a temporary worktree (a machine whose CPU is shared moves every figure; alternating keeps both
# sides under the same weather). Odd rounds run A first, even rounds B first; each run must hand
# every recorded hop over.
#   bench/scripts/handover-ab.sh <commit A> <commit B> [rounds, default 6] [warm-up hops, 2000]
# Prints each run (hop median, the spaced two-process floor, their ratio, and the hop's steps
# from the servers' events in ms), then each side's medians of the rounds. Since 0b79232 a
# commit's bench warms its floor with as many samples as warm-up hops (100 before): compare
# floors and ratios only between commits on the same side of it; the hops compare across it.
set -euo pipefail
a=$1 b=$2 rounds=${3:-6} warmup=${4:-2000}
root=$(git rev-parse --show-toplevel)
# shellcheck source=ab-worktrees.sh
source "$root/bench/scripts/ab-worktrees.sh"
ab_build bench
# shellcheck source=handover-rounds.sh
source "$root/bench/scripts/handover-rounds.sh"
for round in $(seq 1 "$rounds"); do
  order="$a $b"
  if [ $((round % 2)) = 0 ]; then order="$b $a"; fi
  for c in $order; do handover_run "$c" "$round" "$tmp/$c"; done
done
handover_medians "$a" "$b"
