/**
 * How long a player's load may take before `bounded-wait` fails, with the slack spelled out.
 */
import { DEFAULT_TIMINGS } from '@datadriver/core';
import type { SimServer, World } from './world.js';

/**
 * The calls that may still be in flight when a load's deadline passes (ms): the deadline is
 * checked between attempts, never inside a call. At most an adoption save (one store call),
 * then one more round of the acquire loop: a release request with its one retry, a presence
 * read with its one retry, and an attempt (the update, its re-run with a presence answer
 * after a second read, and a trade's journal write with the re-run after it: four store calls
 * and one more presence read), with one store call and one presence read to spare for an
 * attempt that meets a new holder.
 */
export function inFlightSlackMs(world: World): number {
  const { storeMs, messageMs, presenceMs } = world.config.latency;
  const presenceRead = 2 * presenceMs + DEFAULT_TIMINGS.presenceRetrySeconds * 1000;
  const publish = 2 * messageMs + DEFAULT_TIMINGS.messageRetrySeconds * 1000;
  return 6 * storeMs + publish + 3 * presenceRead;
}

/**
 * The longest wait of a load on `server` that started at `from`, judged at `to`: the
 * same-server wait when it had one (it waited for a load or leave save of its key there),
 * then the cross-server wait (lockWaitSeconds), the slack above, and the time injected
 * stalls and latency held this server's own calls (a driver cannot time out a call its
 * backend has not answered).
 */
export function waitBoundMs(
  world: World,
  server: SimServer,
  load: { readonly startedAt: number; readonly waitedHere: boolean },
  to: number,
): number {
  return (
    (load.waitedHere ? world.localWaitMs : 0) +
    world.lockWaitMs +
    inFlightSlackMs(world) +
    server.slowdownWithin(load.startedAt, to)
  );
}
