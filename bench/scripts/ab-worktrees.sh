# Sourced by the *-ab.sh scripts, which compare two commits in alternating rounds on the same
# machine (a machine whose CPU is shared moves every figure; alternating keeps both sides under
# the same weather). Needs `a`, `b` (the commits) and `root` (the repository) set first. Gives:
#   ab_build <package> [<script> <as>] builds <package> and what it depends on at each commit in
#                                      a temporary worktree ($tmp/<commit>) and copies <script>,
#                                      when given, into that package's folder as <as>
#   ab_redis                           starts a redis-server of its own ($port, REDIS_URL)
#   median                             the median of the numbers on its input
# Everything it made is removed on exit.
tmp=$(mktemp -d)
ab_server=
ab_cleanup() {
  if [ -n "$ab_server" ]; then kill "$ab_server" 2>/dev/null || true; fi
  for c in "$a" "$b"; do git -C "$root" worktree remove --force "$tmp/$c" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap ab_cleanup EXIT

ab_build() {
  local package=$1 script=${2:-} as=${3:-} c
  for c in "$a" "$b"; do
    git -C "$root" worktree add --quiet --detach "$tmp/$c" "$c"
    (cd "$tmp/$c" && pnpm install --frozen-lockfile --filter "@datadriver/$package..." >/dev/null \
      && pnpm --filter "@datadriver/$package..." build >/dev/null)
    if [ -n "$script" ]; then cp "$script" "$tmp/$c/packages/$package/$as"; fi
  done
}

ab_redis() {
  port=$((20000 + RANDOM % 20000))
  redis-server --port "$port" --save '' --appendonly no --daemonize no >/dev/null 2>&1 &
  ab_server=$!
  until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
  export REDIS_URL="redis://127.0.0.1:$port"
}

# shellcheck source=median.sh
source "$root/bench/scripts/median.sh"
