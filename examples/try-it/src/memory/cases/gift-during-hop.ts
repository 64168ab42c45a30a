/**
 * A gift sent while the player hops from A to B: the grant reaches B's POST /grant as p1 joins
 * B, and whichever server holds the profile applies it, once.
 */
import { GIFT_COINS, GIFT_RECEIPT } from '../../gift.js';
import type { WorldEvent } from '../../world-event.js';
import type { CaseScript } from './case-script.js';
import { giftOutcome } from './outcomes.js';
import { PLAYER, playingOn } from './playing-on.js';

export const giftDuringHop: CaseScript = {
  id: 'gift-during-hop',
  async setup(world) {
    const a = await world.server('A', { messages: true });
    const b = await world.server('B', { messages: true });
    await playingOn(world, a, 11);
    return async () => {
      const appliedBy: string[] = [];
      const off = world.on((event: WorldEvent) => {
        if (event.type === 'profile.saved' && event.reason === 'message' && event.key === PLAYER) {
          appliedBy.push(event.server);
        }
      });
      const end = world.loadOutcome('B', PLAYER);
      b.join(PLAYER);
      await b.sendGift(PLAYER, GIFT_COINS, GIFT_RECEIPT);
      const result = await end;
      off();
      return giftOutcome(b, result, appliedBy);
    };
  },
};
