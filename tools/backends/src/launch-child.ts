import type { ChildProcess } from 'node:child_process';
import { BackendUnavailableError } from './errors.js';
import { type ManagedChild, manageChild } from './managed-child.js';
import { type NotReady, waitUntilReady } from './wait-until-ready.js';

export interface LaunchSpec {
  /** Backend name used in errors, e.g. "redis". */
  readonly backend: string;
  /** The program the user must have, e.g. "redis-server". */
  readonly program: string;
  readonly child: ChildProcess;
  readonly group?: boolean;
  /** Killed when this process exits, but not on its SIGINT or SIGTERM (the caller stops it). */
  readonly ownSignals?: boolean;
  /** What `stop()` sends first (default SIGTERM), SIGKILL after its grace period. */
  readonly stopSignal?: NodeJS.Signals;
  readonly probe: () => Promise<boolean>;
  readonly timeoutMs: number;
  /** What to install, or which variable to set, when it fails. */
  readonly advice: string;
}

/** Takes ownership of a freshly spawned child and waits until it serves, or kills it and throws. */
export async function launchChild(spec: LaunchSpec): Promise<ManagedChild> {
  const managed = manageChild(spec.child, {
    group: spec.group ?? false,
    ownSignals: spec.ownSignals ?? false,
    stopSignal: spec.stopSignal ?? 'SIGTERM',
  });
  const notReady = await waitUntilReady({
    child: managed,
    probe: spec.probe,
    timeoutMs: spec.timeoutMs,
  });
  if (!notReady) return managed;
  await managed.stop();
  throw startFailure(spec, notReady, managed.output.text());
}

function startFailure(
  spec: LaunchSpec,
  notReady: NonNullable<NotReady>,
  output: string,
): BackendUnavailableError {
  const missing = (notReady.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
  const what = missing
    ? `\`${spec.program}\` was not found on PATH`
    : `\`${spec.program}\` did not start (${notReady.reason})`;
  const lines = [`${spec.backend} is unavailable: ${what}.`, spec.advice];
  if (output) lines.push(`Its output ended with:\n${output}`);
  return new BackendUnavailableError(spec.backend, lines.join('\n'), { cause: notReady.cause });
}
