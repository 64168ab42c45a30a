import type { ChildProcess } from 'node:child_process';

export interface StopOptions {
  /** How long SIGTERM gets before SIGKILL. */
  readonly graceMs?: number;
  /** Signal the child's whole process group (it was spawned `detached`), for wrappers like gcloud. */
  readonly group?: boolean;
}

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

/** SIGTERM, then SIGKILL after the grace period; resolves once the child is gone. */
export async function stopProcess(child: ChildProcess, options: StopOptions = {}): Promise<void> {
  const { graceMs = 5000, group = false } = options;
  if (child.pid !== undefined && !hasExited(child)) {
    const exited = exitOf(child);
    signalProcess(child, 'SIGTERM', group);
    if (!(await settlesWithin(exited, graceMs))) {
      signalProcess(child, 'SIGKILL', group);
      await exited;
    }
  }
  // A wrapper that dies on SIGTERM can leave its own children behind; sweep the group.
  if (group) signalProcess(child, 'SIGKILL', true);
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
