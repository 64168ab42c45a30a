/** A's leave save fails (an injected fault); the player joins B a second later. */
import { PLAYER } from '../run-names.js';
import { loaded } from './outcomes.js';
import { arrival, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

export const failedRelease: RedisCaseScript = {
  id: 'failed-release',
  scale: 1,
  async setup(world) {
    const [a, b] = await Promise.all([world.server('A', { faults: true }), world.server('B')]);
    const onA = await playingOn(a, 12);
    return async () => {
      await a.inject({ kind: 'fail', operation: 'update', times: 1 });
      const failed = world.next('A', ['profile.release-failed'], PLAYER);
      const leftAt = Date.now();
      await a.leave(onA);
      await failed;
      await world.sleep(leftAt + 1000 - Date.now());
      const end = world.loadOutcome('B');
      const onB = await b.join();
      return loaded('B', await end, await arrival(onB));
    };
  },
};
