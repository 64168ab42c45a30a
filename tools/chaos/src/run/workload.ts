/**
 * Plays the schedule's hops against a stack: a `clean` hop leaves the old server first, a
 * `live` one joins the new server while the player is still on the old one (whose session
 * then ends by the hand-over). A hop to a server that is down is logged as not sent.
 */
import type { HistoryWriter } from '../history.js';
import type { Hop } from '../schedule.js';
import type { Stack } from './stack.js';
import { until } from './until.js';

export async function runWorkload(
  stack: Stack,
  hops: readonly Hop[],
  start: number,
  history: HistoryWriter,
): Promise<void> {
  const jobIds = stack.jobIds;
  const where = new Map<string, string>();
  for (const hop of hops) {
    await until(start, hop.atMs);
    const to = jobIds[hop.to]!;
    const from = where.get(hop.player);
    if (from !== undefined && hop.mode === 'clean') {
      stack.server(from)?.send({ type: 'leave', player: hop.player });
    }
    const sent = stack.server(to)?.send({ type: 'join', player: hop.player }) ?? false;
    history.write({ kind: 'hop', at: Date.now(), player: hop.player, to, mode: hop.mode, sent });
    where.set(hop.player, to);
  }
}
