# Sourced by handover-ab.sh and signing-cost-ab.sh, which run the all-Redis live hand-over in
# alternating rounds. Needs `root`, `tmp`, `warmup` and `rounds` set first. Gives:
#   handover_run <side> <round> <dir>   runs `bench/dist/cli.js --only handover --stack
#                                       all-redis` in <dir>, prints the run and keeps its figures
#   handover_medians <side>...          prints each side's medians of the rounds
# shellcheck source=median.sh
source "$root/bench/scripts/median.sh"
declare -A handover_hops handover_floors handover_ratios

handover_run() {
  local side=$1 round=$2 dir=$3 figures hop floor ratio steps
  (cd "$dir" && node bench/dist/cli.js --only handover --stack all-redis \
    --warm-up "$warmup" --out "$tmp/out" >"$tmp/run.log" 2>&1) ||
    { cat "$tmp/run.log" >&2; exit 1; }
  figures=$(node "$root/bench/scripts/handover-figures.mjs" "$tmp/out/results.json")
  read -r hop floor ratio steps <<<"$figures"
  handover_hops[$side]="${handover_hops[$side]:-} $hop"
  handover_floors[$side]="${handover_floors[$side]:-} $floor"
  handover_ratios[$side]="${handover_ratios[$side]:-} $ratio"
  echo "round $round  $side: hop $hop ms, floor $floor ms, ratio $ratio; steps $steps"
}

handover_medians() {
  local side
  for side in "$@"; do
    echo "$side: hop $(echo "${handover_hops[$side]}" | median) ms," \
      "floor $(echo "${handover_floors[$side]}" | median) ms," \
      "ratio $(echo "${handover_ratios[$side]}" | median) (medians of $rounds rounds)"
  done
}
