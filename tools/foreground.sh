#!/usr/bin/env bash
# Runs a long-lived command (`pnpm fleet`, `pnpm demo`) as the terminal's foreground job of its
# own: a Ctrl-C then reaches the command and its children, which stop cleanly, and not pnpm,
# which reports any interrupt it receives as "[ELIFECYCLE] Command failed." even after a clean
# exit. Without a terminal (CI, a service manager) it runs the command as it is.
[ -t 0 ] && set -m
"$@"
exit $?
