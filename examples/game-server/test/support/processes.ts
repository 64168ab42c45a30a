/** What Linux's /proc says about processes: a test's view of who runs in which group. */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  readonly pid: number;
  readonly pgrp: number;
  readonly session: number;
  /** The foreground process group of its terminal (-1 without one). */
  readonly terminalGroup: number;
  readonly command: string;
}

function read(pid: string): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined; // ended, not yet reaped
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return {
      pid: Number(pid),
      pgrp: Number(fields[2]),
      session: Number(fields[3]),
      terminalGroup: Number(fields[5]),
      command,
    };
  } catch {
    return undefined; // it ended while we looked
  }
}

/** Every live process whose command line matches `pattern`. */
export function processesRunning(pattern: RegExp): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => read(pid) ?? [])
    .filter((info) => pattern.test(info.command));
}
