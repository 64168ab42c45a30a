import type { ChildProcess } from 'node:child_process';
import { killOnExit } from './exit-cleanup.js';
import { captureOutput, type OutputTail } from './output-tail.js';
import { hasExited, signalProcess, stopProcess } from './stop-process.js';

/** A child we own: its output is kept for error messages, and it dies with us at the latest. */
export interface ManagedChild {
  readonly child: ChildProcess;
  readonly output: OutputTail;
  /** The spawn error (ENOENT when the binary is missing), if any. */
  spawnError(): Error | undefined;
  stop(): Promise<void>;
}

export function manageChild(
  child: ChildProcess,
  options: { group?: boolean; ownSignals?: boolean; stopSignal?: NodeJS.Signals } = {},
): ManagedChild {
  const group = options.group ?? false;
  const output = captureOutput(child);
  let error: Error | undefined;
  // Without a listener, a spawn failure would be thrown as an uncaught exception.
  child.on('error', (e) => {
    error = e;
  });
  const forget = killOnExit(
    () => {
      if (group || !hasExited(child)) signalProcess(child, 'SIGKILL', group);
    },
    { onSignals: !options.ownSignals },
  );
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= stopProcess(child, { group, signal: options.stopSignal ?? 'SIGTERM' }).finally(
      forget,
    );
    return stopping;
  };
  return { child, output, spawnError: () => error, stop };
}
