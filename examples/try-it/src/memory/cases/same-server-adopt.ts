/** The player leaves A, the leave save fails, and a second later the player rejoins A. */
import { formatMs } from '../../format.js';
import type { CaseScript } from './case-script.js';
import { loaded } from './outcomes.js';
import { PLAYER, playingOn } from './playing-on.js';

export const sameServerAdopt: CaseScript = {
  id: 'same-server-adopt',
  async setup(world) {
    const a = await world.server('A');
    await playingOn(world, a, 7);
    return async () => {
      const retained = a.profile(PLAYER);
      a.ports.store.faults.inject({ kind: 'fail', operation: 'update' });
      const failed = world.next('A', ['profile.release-failed'], PLAYER);
      const leftAt = world.clock.now();
      a.leave(PLAYER);
      await failed;
      await world.sleep(leftAt + 1000 - world.clock.now());
      const end = world.loadOutcome('A', PLAYER);
      a.join(PLAYER);
      const result = await end;
      const same = a.profile(PLAYER) === retained ? 'the same Profile' : 'a new Profile';
      return loaded(
        a,
        result,
        (coins) =>
          `A adopted the retained profile after ${formatMs(result.waitedMs)}: ${same}, with ${coins} coins.`,
      );
    };
  },
};
