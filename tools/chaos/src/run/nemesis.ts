/**
 * Plays the schedule's faults against a stack, one at a time, each healed before the next:
 * SIGKILL then a restart, SIGSTOP past the lock's TTL then SIGCONT, one server cut from its
 * store or its bus at its TCP proxy then reconnected, and Redis stopped and started on its
 * data. Each fault's start and end go to the runner's history.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { HistoryWriter, NemesisAction } from '../history.js';
import type { NemesisStep } from '../schedule.js';
import type { Stack } from './stack.js';
import { until } from './until.js';

export async function runNemesis(
  stack: Stack,
  steps: readonly NemesisStep[],
  start: number,
  history: HistoryWriter,
): Promise<void> {
  for (const step of steps) {
    await until(start, step.atMs);
    const target = step.action === 'restart-backend' ? 'backend' : stack.jobIds[step.target]!;
    const log = (phase: 'start' | 'end') =>
      history.write({ kind: 'nemesis', at: Date.now(), action: step.action, target, phase });
    log('start');
    const heal = await inflict(stack, step.action, target);
    await sleep(step.durationMs);
    await heal();
    log('end');
  }
}

/** Does the harm; resolves with what undoes it. */
async function inflict(
  stack: Stack,
  action: NemesisAction,
  target: string,
): Promise<() => Promise<void>> {
  switch (action) {
    case 'kill':
      await stack.killServer(target);
      return () => stack.startServer(target);
    case 'pause': {
      stack.server(target)?.pause();
      return async () => stack.server(target)?.resume();
    }
    case 'cut-store':
    case 'cut-bus': {
      const which = action === 'cut-store' ? 'store' : 'bus';
      await stack.connection(target, which, false);
      return () => stack.connection(target, which, true);
    }
    case 'restart-backend':
      await stack.redis.kill();
      return () => stack.redis.restart();
  }
}
