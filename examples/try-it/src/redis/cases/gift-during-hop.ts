/**
 * A gift sent while the player hops from A to B, on real game servers: B's `POST /grant` takes
 * a webhook's grant as p1 joins B. Which server applies it depends on the race (A on the
 * nudge before its leave save, B at its load, or B on the nudge right after it loaded); the
 * story waits until it is applied and reports who applied it, and how many times.
 */
import { GIFT_COINS, GIFT_RECEIPT } from '../../gift.js';
import { giftText } from '../../gift-text.js';
import { PLAYER } from '../run-names.js';
import { loaded } from './outcomes.js';
import { arrival, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

/** How long the story waits for the servers' event streams to report the gift's save. */
const REPORTED_MS = 5_000;

export const giftDuringHop: RedisCaseScript = {
  id: 'gift-during-hop',
  async setup(world) {
    const [a, b] = await Promise.all([world.server('A'), world.server('B')]);
    const onA = await playingOn(a, 11);
    return async () => {
      const appliedBy: string[] = [];
      let reported: () => void = () => undefined;
      const applied = new Promise<void>((resolve) => {
        reported = resolve;
      });
      const off = world.on((event) => {
        if (event.type !== 'profile.saved' || event.reason !== 'message') return;
        if (event.key !== PLAYER) return;
        appliedBy.push(event.server);
        reported();
      });
      try {
        const end = world.loadOutcome('B');
        const [onB] = await Promise.all([b.join(), b.grant(GIFT_COINS, GIFT_RECEIPT)]);
        const played = loaded('B', await end, await arrival(onB));
        let coins = played.outcome.coins ?? 0;
        // Sent after B's load read the inbox: B applies it on the nudge and tells the client.
        if (coins < 11 + GIFT_COINS) {
          const told = await onB.next('gift', REPORTED_MS);
          if (told.type === 'gift') coins = told.total;
        }
        await onA.closed;
        await Promise.race([applied, world.sleep(REPORTED_MS)]);
        const { waitedMs } = played.outcome;
        return {
          at: played.at,
          outcome: {
            ...played.outcome,
            coins,
            text: giftText('B', coins, waitedMs, appliedBy),
          },
        };
      } finally {
        off();
      }
    };
  },
};
