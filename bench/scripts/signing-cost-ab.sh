#!/usr/bin/env bash
# What signing costs the all-Redis live hand-over: `pnpm bench -- --only handover --stack
# all-redis` in alternating rounds, as built (HMAC-SHA256 for each message's `S` and `SH`), and
# with the HMAC stood in by a string both servers compute alike, as long as a signature (the
# fields' JSON is still made, and the messages keep their size, so only the HMAC itself is left
# out). The stand-in is a measuring device, never a build: it is made on a copy of core's built
# bundle in a temporary worktree of HEAD, in which both sides run, and both game servers load
# that worktree's core. Odd rounds run as built first, even rounds the stand-in first; each run
# must hand every recorded hop over (its loads took the lock the holder's release wrote).
#   bench/scripts/signing-cost-ab.sh [rounds, default 4] [warm-up hops, default 2000]
# Prints each run (hop median, the spaced two-process floor, their ratio, and the hop's steps
# from the servers' events in ms), then each side's medians of the rounds.
set -euo pipefail
rounds=${1:-4} warmup=${2:-2000}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
cleanup() {
  git -C "$root" worktree remove --force "$tmp/tree" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
git -C "$root" worktree add --quiet --detach "$tmp/tree" HEAD
cd "$tmp/tree"
pnpm install --frozen-lockfile --filter '@datadriver/bench...' >/dev/null
pnpm --filter '@datadriver/bench...' build >/dev/null

bundle=packages/core/dist/index.js
hmac='return this.hmacs.take().update(JSON.stringify(fields)).digest("base64url");'
# 43 characters, as an HMAC-SHA256 in base64url.
stand_in='return ("s" + JSON.stringify(fields).length).padEnd(43, "x");'
found=$(grep -cF "$hmac" "$bundle" || true)
if [ "$found" != 1 ]; then
  echo "expected the Signer's one HMAC call in $bundle, found $found: update this script" >&2
  exit 1
fi
cp "$bundle" "$tmp/hmac.js"
awk -v from="$hmac" -v to="$stand_in" '{ i = index($0, from); if (i) $0 = substr($0, 1, i - 1) to substr($0, i + length(from)); print }' \
  "$tmp/hmac.js" >"$tmp/stand-in.js"
if [ "$(grep -cF "$stand_in" "$tmp/stand-in.js" || true)" != 1 ] ||
  grep -qF "$hmac" "$tmp/stand-in.js"; then
  echo "the stand-in did not replace the Signer's HMAC call: update this script" >&2
  exit 1
fi

# shellcheck source=handover-rounds.sh
source "$root/bench/scripts/handover-rounds.sh"
for round in $(seq 1 "$rounds"); do
  order="hmac stand-in"
  if [ $((round % 2)) = 0 ]; then order="stand-in hmac"; fi
  for side in $order; do
    cp "$tmp/$side.js" "$bundle"
    handover_run "$side" "$round" "$tmp/tree"
  done
done
handover_medians hmac stand-in
