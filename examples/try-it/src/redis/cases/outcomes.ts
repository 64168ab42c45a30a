/** A story's outcome from what the server reported and what the player's client was told. */
import { formatMs } from '../../format.js';
import type { WorldEventOf } from '../../world-event.js';
import { PLAYER } from '../run-names.js';
import type { Arrival } from './player.js';
import type { Played } from './redis-script.js';

type LoadEnd = WorldEventOf<'load.loaded' | 'load.failed'>;

/** The player plays on `server`: the driver's wait, and the coins the client was sent. */
export function loaded(
  server: string,
  end: LoadEnd,
  arrived: Arrival,
  describe?: (coins: number, waitedMs: number) => string,
): Played {
  if (end.type !== 'load.loaded' || arrived.type !== 'loaded') {
    const why = arrived.type === 'kicked' ? `: “${arrived.message}”` : '';
    throw new Error(`the load on ${server} failed${why}`);
  }
  const { coins } = arrived;
  const text =
    describe?.(coins, end.waitedMs) ??
    `${server} loaded ${PLAYER} after ${formatMs(end.waitedMs)} with ${coins} coins.`;
  return {
    at: end.time,
    outcome: { server, kind: 'loaded', waitedMs: end.waitedMs, measuredFrom: 'join', coins, text },
  };
}

/** The join failed closed: `server` kicked the player, whose client got the message. */
export function kicked(server: string, end: LoadEnd, arrived: Arrival): Played {
  if (end.type !== 'load.failed' || arrived.type !== 'kicked') {
    throw new Error(`the load on ${server} did not fail`);
  }
  return {
    at: end.time,
    outcome: {
      server,
      kind: 'kicked',
      waitedMs: end.waitedMs,
      measuredFrom: 'join',
      text: `${server} kicked the player after ${formatMs(end.waitedMs)}: “${arrived.message}”`,
    },
  };
}
