/** A's leave save fails (an injected fault); the player joins B a second later. */
import { loaded } from './outcomes.js';
import { arrival, leaveWithFailedSave, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

export const failedRelease: RedisCaseScript = {
  id: 'failed-release',
  async setup(world) {
    const [a, b] = await Promise.all([world.server('A', { faults: true }), world.server('B')]);
    const onA = await playingOn(a, 12);
    return async () => {
      await leaveWithFailedSave(world, a, onA);
      const end = world.loadOutcome('B');
      const onB = await b.join();
      return loaded('B', await end, await arrival(onB));
    };
  },
};
