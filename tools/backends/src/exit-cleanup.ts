import { constants } from 'node:os';

type Kill = () => void;

const pending = new Set<Kill>();
/** Kills left for the caller to run on SIGINT or SIGTERM; still run when this process exits. */
const onExitOnly = new Set<Kill>();
const FATAL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

/**
 * Registers a synchronous kill to run if this process ends while the child is still up, so a
 * crashed or interrupted test run leaves no redis-server or java behind. Returns the unregister.
 */
export function killOnExit(kill: Kill, options: { onSignals?: boolean } = {}): () => void {
  install();
  const set = (options.onSignals ?? true) ? pending : onExitOnly;
  set.add(kill);
  return () => {
    set.delete(kill);
  };
}

function killAll(kills: Set<Kill>): void {
  for (const kill of kills) {
    try {
      kill();
    } catch {
      // Best effort: one stubborn child must not stop us from killing the others.
    }
  }
  kills.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  // 'exit' handlers may only do synchronous work, which is why kills are plain signal sends.
  process.on('exit', () => {
    killAll(pending);
    killAll(onExitOnly);
  });
  for (const signal of FATAL_SIGNALS) process.on(signal, () => onFatalSignal(signal));
}

function onFatalSignal(signal: (typeof FATAL_SIGNALS)[number]): void {
  killAll(pending);
  // Listening to a signal cancels Node's default "die"; restore it unless someone else
  // (vitest itself, for one) handles the signal and will decide how to end.
  if (process.listenerCount(signal) === 1) process.exit(128 + constants.signals[signal]);
}
