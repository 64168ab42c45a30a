/** The player leaves A, the leave save fails, and a second later the player rejoins A. */
import { formatMs } from '../../format.js';
import { loaded } from './outcomes.js';
import { arrival, leaveWithFailedSave, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

export const sameServerAdopt: RedisCaseScript = {
  id: 'same-server-adopt',
  async setup(world) {
    const a = await world.server('A', { faults: true });
    const onA = await playingOn(a, 7);
    return async () => {
      await leaveWithFailedSave(world, a, onA);
      const end = world.loadOutcome('A');
      const again = await a.join();
      const result = await end;
      const adopted = result.type === 'load.loaded' && result.reason === 'adopted';
      return loaded('A', result, await arrival(again), (coins, waitedMs) =>
        adopted
          ? `A adopted the retained profile after ${formatMs(waitedMs)}, with ${coins} coins.`
          : `A loaded p1 again after ${formatMs(waitedMs)} with ${coins} coins, without adopting.`,
      );
    };
  },
};
