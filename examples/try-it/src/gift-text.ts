/** The outcome line of the "gift sent while the player hops" case, in both runners. */
import { formatMs } from './format.js';
import { GIFT_COINS, PLAYER_LABEL } from './gift.js';

/**
 * "B loaded p1 after 540 ms with 111 coins: the gift of 100 applied once, by B." `appliedBy`
 * lists the servers whose message pass saved the gift, in order: one when all is well.
 */
export function giftText(
  server: string,
  coins: number,
  waitedMs: number,
  appliedBy: readonly string[],
): string {
  const loaded = `${server} loaded ${PLAYER_LABEL} after ${formatMs(waitedMs)} with ${coins} coins`;
  if (appliedBy.length === 1) {
    return `${loaded}: the gift of ${GIFT_COINS} applied once, by ${appliedBy[0]}.`;
  }
  return `${loaded}: the gift of ${GIFT_COINS} applied ${appliedBy.length} times (${appliedBy.join(', ') || 'by none'}).`;
}
