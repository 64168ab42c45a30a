import { setTimeout as sleep } from 'node:timers/promises';
import type { ManagedChild } from './managed-child.js';
import { hasExited } from './stop-process.js';

export interface ReadinessOptions {
  readonly child: ManagedChild;
  /** One quick, self-limiting attempt to talk to the service; true when it answered. */
  readonly probe: () => Promise<boolean>;
  readonly timeoutMs: number;
  readonly intervalMs?: number;
}

/** Why a child never became ready, or undefined when it did. */
export type NotReady = { readonly reason: string; readonly cause?: Error } | undefined;

/**
 * Polls the probe until it answers, the child dies, or time runs out. Watching the child matters:
 * a crash at start would otherwise only surface as a timeout, with its real cause lost.
 */
export async function waitUntilReady(options: ReadinessOptions): Promise<NotReady> {
  const { child, probe, timeoutMs, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failure = childFailure(child);
    if (failure) return failure;
    if (await probe()) return undefined;
    if (Date.now() >= deadline) return { reason: `not ready after ${timeoutMs / 1000} s` };
    await sleep(intervalMs);
  }
}

function childFailure(managed: ManagedChild): NotReady {
  const error = managed.spawnError();
  if (error) return { reason: error.message, cause: error };
  const { child } = managed;
  if (!hasExited(child)) return undefined;
  const how = child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
  return { reason: `exited with ${how} before it was ready` };
}
