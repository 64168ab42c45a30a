/** The player leaves A and rejoins A at once, while the 300 ms leave save still runs. */
import { formatMs } from '../../format.js';
import type { CaseScript } from './case-script.js';
import { loaded } from './outcomes.js';
import { PLAYER, playingOn } from './playing-on.js';

export const sameServerSaving: CaseScript = {
  id: 'same-server-saving',
  async setup(world) {
    const a = await world.server('A');
    await playingOn(world, a, 7);
    return async () => {
      // 200 ms on top of the store's 100: a leave save slow enough to rejoin during it.
      a.ports.store.faults.inject({ kind: 'latency', operation: 'update', ms: 200 });
      const end = world.loadOutcome('A', PLAYER);
      a.leave(PLAYER);
      await world.sleep(0); // rejoins at once, but not within the same tick
      a.join(PLAYER);
      const result = await end;
      return loaded(
        a,
        result,
        (coins) =>
          `A loaded p1 again after ${formatMs(result.waitedMs)} with ${coins} coins, the record its leave save wrote.`,
      );
    };
  },
};
