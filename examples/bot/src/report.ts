/** How the bot prints an arrival and its summary. */
import type { Hop } from './bot.js';
import type { GiftArrival } from './gift.js';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** `   1 live hop -> ws://127.0.0.1:7002  wait    16 ms  coins 1  (old session: ...)` */
export function formatHop(hop: Hop): string {
  const line = `${String(hop.index).padStart(4)} ${hop.kind.padEnd(8)} -> ${hop.to}  wait ${String(hop.waitMs).padStart(5)} ms  coins ${hop.coins}`;
  if (hop.kind === 'takeover') {
    const refused = hop.refusedJoins ? `, ${hop.refusedJoins} join(s) refused first` : '';
    return `${line}  (${hop.from} went away: ${hop.oldSessionEnded}; took over in ${seconds(hop.waitMs)}${refused}; ${hop.lostCoins} unsaved coin(s) lost with it)`;
  }
  return hop.oldSessionEnded ? `${line}  (old session: ${hop.oldSessionEnded})` : line;
}

/** `   3 gift     <- 100 coins arrived in 9 ms  coins 106  (receipt ..., posted to ...: queued)` */
export function formatGift(gift: GiftArrival): string {
  return `${String(gift.index).padStart(4)} gift     <- ${gift.coins} coins arrived in ${gift.arrivedMs} ms  coins ${gift.total}  (receipt ${gift.receipt}, posted to ${gift.sentTo}: ${gift.outcome})`;
}

/** Nearest-rank quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** `12 hops, every coin kept; live hop wait median 14 ms, p99 16 ms` and the takeovers. */
export function summary(hops: readonly Hop[], gifts: readonly GiftArrival[] = []): string {
  const waits = hops
    .filter((hop) => hop.kind === 'live hop')
    .map((hop) => hop.waitMs)
    .sort((a, b) => a - b);
  const takeovers = hops.filter((hop) => hop.kind === 'takeover');
  const lost = takeovers.reduce((sum, hop) => sum + (hop.lostCoins ?? 0), 0);
  const kept =
    lost === 0 ? 'every coin kept' : `every saved coin kept (${lost} unsaved lost in crashes)`;
  const parts = [`${hops.length - 1} hops, ${kept}`];
  parts.push(
    waits.length > 0
      ? `live hop wait median ${quantile(waits, 0.5)} ms, p99 ${quantile(waits, 0.99)} ms`
      : 'no live hop',
  );
  if (takeovers.length > 0) {
    const times = takeovers.map((hop) => seconds(hop.waitMs)).join(', ');
    parts.push(
      `${takeovers.length} takeover${takeovers.length > 1 ? 's' : ''} after a server went away: ${times}`,
    );
  }
  for (const gift of gifts) {
    parts.push(`a gift of ${gift.coins} coins arrived in ${gift.arrivedMs} ms, applied once`);
  }
  return parts.join('; ');
}
