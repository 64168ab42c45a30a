import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface StopOptions {
  /** How long SIGTERM gets before SIGKILL. */
  readonly graceMs?: number;
  /** Signal the child's whole process group (it was spawned `detached`), for wrappers like gcloud. */
  readonly group?: boolean;
  /**
   * The polite signal (default SIGTERM). PostgreSQL takes SIGINT: its SIGTERM ("smart"
   * shutdown) waits for every client to disconnect, which a test's open pool never does.
   */
  readonly signal?: NodeJS.Signals;
}

/** How long a SIGKILLed group may take to leave the process table before stop() gives up waiting. */
const KILL_WAIT_MS = 10_000;
const GROUP_POLL_MS = 25;

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends a signal, ignoring "no such process": the child may have died on its own meanwhile. */
export function signalProcess(child: ChildProcess, signal: NodeJS.Signals, group = false): void {
  if (child.pid === undefined) return;
  try {
    process.kill(group ? -child.pid : child.pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * SIGTERM, then SIGKILL after the grace period; resolves once the child is gone, and with
 * `group`, once every process of its group is gone: a wrapper such as gcloud exits before the
 * java it started, and that java keeps the port until it has really ended.
 */
export async function stopProcess(child: ChildProcess, options: StopOptions = {}): Promise<void> {
  const { graceMs = 5000, group = false, signal = 'SIGTERM' } = options;
  if (child.pid === undefined) return;
  if (group) return stopGroup(child, child.pid, graceMs);
  if (hasExited(child)) return;
  const exited = exitOf(child);
  signalProcess(child, signal);
  if (!(await settlesWithin(exited, graceMs))) {
    signalProcess(child, 'SIGKILL');
    await exited;
  }
}

async function stopGroup(child: ChildProcess, pgid: number, graceMs: number): Promise<void> {
  const exited = exitOf(child);
  signalProcess(child, 'SIGTERM', true);
  // The whole group gets the grace period to shut down cleanly, not just the wrapper.
  if (!(await groupGone(pgid, graceMs))) {
    signalProcess(child, 'SIGKILL', true);
    if (!(await groupGone(pgid, KILL_WAIT_MS))) {
      throw new Error(`process group ${pgid} is still alive ${KILL_WAIT_MS} ms after SIGKILL`);
    }
  }
  await exited;
}

/** Polls until no live process is left in the group; false if some still are after `ms`. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await sleep(GROUP_POLL_MS);
  }
  return true;
}

/**
 * Whether any process of the group still runs. On Linux, /proc tells zombies apart (their
 * sockets are already closed, and in a container nothing may ever reap them); elsewhere,
 * signal 0 to the group is the portable test.
 */
function groupAlive(pgid: number): boolean {
  const members = liveGroupMembersFromProc(pgid);
  if (members !== undefined) return members > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

function liveGroupMembersFromProc(pgid: number): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let live = 0;
  for (const pid of pids) {
    const stat = readStat(`/proc/${pid}/stat`);
    if (stat && stat.pgrp === pgid && (isRunning(stat.state) || hasRunningThread(pid))) live += 1;
  }
  return live;
}

function isRunning(state: string): boolean {
  return state !== 'Z' && state !== 'X';
}

/**
 * A process whose main thread has ended shows 'Z' while its other threads still run and still
 * hold its sockets: java's does during its shutdown. It is gone only once every thread is.
 */
function hasRunningThread(pid: string): boolean {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return false; // It ended while we looked.
  }
  return tasks.some((task) => {
    const stat = readStat(`/proc/${pid}/task/${task}/stat`);
    return stat !== undefined && isRunning(stat.state);
  });
}

/**
 * State and process group from a process's or a thread's /proc stat file; the command name in it
 * may hold spaces and ')'.
 */
function readStat(path: string): { state: string; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined; // It ended while we looked.
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (hasExited(child)) resolve();
    else child.once('exit', () => resolve());
  });
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
