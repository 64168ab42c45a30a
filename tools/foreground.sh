#!/usr/bin/env bash
# Runs a long-lived command (`pnpm fleet`, `pnpm demo`, `pnpm colyseus`) as the terminal's
# foreground job of its own: a Ctrl-C then reaches the command, which stops its children
# cleanly, and not pnpm, which reports any interrupt it receives as "[ELIFECYCLE] Command
# failed." even after a clean exit, nor a `| tee` after it, which would die first and take the
# command's last lines with it. Without a terminal (CI, a service manager) it runs the command
# as it is.
#
# bash finds the terminal for job control on its own stderr: with stderr piped
# (`pnpm demo 2>&1 | tee log`) it would still start the command in a process group of its own
# but never hand it the terminal, so the Ctrl-C would reach everything but the command, which
# would keep running with no parent, holding its ports. So while the shell starts the job its
# stderr is the terminal, and the command gets the stderr it was given.
if [ -t 0 ] && [ ! -t 2 ] && { : >/dev/tty; } 2>/dev/null; then
  exec 3>&2 2>/dev/tty
  set -m
  "$@" 2>&3 3>&-
  exit $?
fi
[ -t 0 ] && set -m
"$@"
exit $?
