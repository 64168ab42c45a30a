/** The player is still connected on A and joins B: A kicks its stale session and hands over. */
import type { CaseScript } from './case-script.js';
import { loaded } from './outcomes.js';
import { PLAYER, playingOn } from './playing-on.js';

export const liveHolder: CaseScript = {
  id: 'live-holder',
  async setup(world) {
    const a = await world.server('A');
    const b = await world.server('B');
    await playingOn(world, a, 11);
    return async () => {
      const end = world.loadOutcome('B', PLAYER);
      b.join(PLAYER);
      return loaded(b, await end);
    };
  },
};
