/** The player is still connected on A and joins B: A kicks its stale session and hands over. */
import { formatMs } from '../../format.js';
import { loaded } from './outcomes.js';
import { arrival, kickMessage, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

export const liveHolder: RedisCaseScript = {
  id: 'live-holder',
  async setup(world) {
    const [a, b] = await Promise.all([world.server('A'), world.server('B')]);
    const onA = await playingOn(a, 11);
    return async () => {
      const end = world.loadOutcome('B');
      const onB = await b.join();
      const result = await end;
      const arrived = await arrival(onB);
      const told = await kickMessage(onA);
      return loaded(
        'B',
        result,
        arrived,
        (coins, waitedMs) =>
          `B loaded p1 after ${formatMs(waitedMs)} with ${coins} coins; A told the old connection “${told}”`,
      );
    };
  },
};
