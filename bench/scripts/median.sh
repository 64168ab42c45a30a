# Sourced by the scripts that report the median of their rounds (ab-worktrees.sh, so every
# *-ab.sh, and handover-rounds.sh): `median` prints the median of the numbers on its input.
median() {
  tr ' ' '\n' | grep -v '^$' | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
