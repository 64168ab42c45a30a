/** A's leave save failed (the profile is retained on A); the player joins B a second later. */
import type { CaseScript } from './case-script.js';
import { loaded } from './outcomes.js';
import { PLAYER, playingOn } from './playing-on.js';

export const failedRelease: CaseScript = {
  id: 'failed-release',
  async setup(world) {
    const a = await world.server('A');
    const b = await world.server('B');
    await playingOn(world, a, 12);
    return async () => {
      a.ports.store.faults.inject({ kind: 'fail', operation: 'update' });
      const failed = world.next('A', ['profile.release-failed'], PLAYER);
      const leftAt = world.clock.now();
      a.leave(PLAYER);
      await failed;
      await world.sleep(leftAt + 1000 - world.clock.now());
      const end = world.loadOutcome('B', PLAYER);
      b.join(PLAYER);
      return loaded(b, await end);
    };
  },
};
