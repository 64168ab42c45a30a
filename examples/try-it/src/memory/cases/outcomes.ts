import { formatMs } from '../../format.js';
import { giftText } from '../../gift-text.js';
import type { Outcome } from '../../stream.js';
import type { WorldEventOf } from '../../world-event.js';
import type { DemoServer } from '../demo-server.js';
import { PLAYER } from './playing-on.js';

type LoadEnd = WorldEventOf<'load.loaded' | 'load.failed'>;

/** The player plays on `server`: how long the join waited and the coins it loaded. */
export function loaded(server: DemoServer, end: LoadEnd, describe?: (coins: number) => string) {
  if (end.type !== 'load.loaded') throw new Error(`the load on ${server.label} failed`);
  const coins = server.profile(PLAYER)?.data.coins ?? 0;
  const text =
    describe?.(coins) ??
    `${server.label} loaded ${PLAYER} after ${formatMs(end.waitedMs)} with ${coins} coins.`;
  return {
    server: server.label,
    kind: 'loaded',
    waitedMs: end.waitedMs,
    measuredFrom: 'join',
    coins,
    text,
  } satisfies Outcome;
}

/** The join failed closed: `server` kicked the player after the wait. */
export function kicked(server: DemoServer, end: LoadEnd, kick: WorldEventOf<'profile.kicked'>) {
  if (end.type !== 'load.failed') throw new Error(`the load on ${server.label} did not fail`);
  return {
    server: server.label,
    kind: 'kicked',
    waitedMs: end.waitedMs,
    measuredFrom: 'join',
    text: `${server.label} kicked the player after ${formatMs(end.waitedMs)}: “${kick.message}”`,
  } satisfies Outcome;
}

/**
 * The player plays on `server` after a gift sent during the hop: `appliedBy` are the servers
 * whose message pass saved it (exactly one, or the page says how many).
 */
export function giftOutcome(server: DemoServer, end: LoadEnd, appliedBy: readonly string[]) {
  const outcome = loaded(server, end);
  return { ...outcome, text: giftText(server.label, outcome.coins, outcome.waitedMs, appliedBy) };
}
