/**
 * A runs an older build (handoff off): the player, still connected there, joins B. Nobody
 * answers B's requests and A's lock carries no presence flag, so B waits out lockWaitSeconds
 * and fails closed; the lock changes hands only when A releases it, or by age after a crash.
 */
import type { CaseScript } from './case-script.js';
import { kicked } from './outcomes.js';
import { PLAYER, playingOn } from './playing-on.js';

export const olderHolder: CaseScript = {
  id: 'older-holder',
  async setup(world) {
    // B first: its beat keeps the virtual clock's timers going while A (no beat) starts.
    const b = await world.server('B');
    const a = await world.server('A', { handoff: false });
    await playingOn(world, a, 6, true);
    return async () => {
      const end = world.loadOutcome('B', PLAYER);
      const kick = world.next('B', ['profile.kicked'], PLAYER);
      b.join(PLAYER);
      return kicked(b, await end, await kick);
    };
  },
};
