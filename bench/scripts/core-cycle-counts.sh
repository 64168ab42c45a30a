#!/usr/bin/env bash
# Core's work per load + save + release on the memory store, counted rather than timed: the
# CPU instructions (valgrind's callgrind, node --single-threaded, so V8 compiles and collects
# garbage on the main thread, in the same order every run) and the clock reads. A machine
# whose CPU is shared moves CPU time by 10 % or more from run to run; these counts repeat to
# within about 1 %. The instructions are the difference of a run of 12,000 cycles and one of
# 2,000, over 10,000, so start-up and warm-up cancel out. A clock read is counted apart: on
# some machines (this sandbox: about 60 ns) it is a system call, which callgrind does not see.
# Core's Map operations per cycle are counted too (`core-fixed-cycles.mjs 5000 --maps` lists
# them by caller).
#   bench/scripts/core-cycle-counts.sh <commit> [<commit>...]     (needs valgrind)
set -euo pipefail
root=$(git rev-parse --show-toplevel)
script="$root/bench/scripts/core-fixed-cycles.mjs"
tmp=$(mktemp -d)
cleanup() { for c in "$@"; do git -C "$root" worktree remove --force "$tmp/$c" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap 'cleanup "$@"' EXIT
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded \
    core-fixed-cycles.mjs "$1" 2>&1 | awk '/I +refs/ { gsub(",", "", $4); print $4 }'
}
for c in "$@"; do
  git -C "$root" worktree add --quiet --detach "$tmp/$c" "$c"
  (cd "$tmp/$c" && pnpm install --frozen-lockfile --filter @datadriver/core... >/dev/null \
    && pnpm --filter @datadriver/core build >/dev/null)
  cp "$script" "$tmp/$c/packages/core/core-fixed-cycles.mjs"
  cd "$tmp/$c/packages/core"
  short=$(instructions 2000) long=$(instructions 12000)
  echo "$c: $(( (long - short) / 10000 )) instructions per cycle, $(node core-fixed-cycles.mjs 5000 --clock) clock reads per cycle, $(node core-fixed-cycles.mjs 5000 --maps | tail -1)"
  cd "$root"
done
