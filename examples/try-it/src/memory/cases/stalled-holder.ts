/**
 * A stays alive but its saves stall for longer than lockTtlSeconds + lockSkewSeconds: B reads
 * A alive, leaves the lock alone, and fails closed after lockWaitSeconds.
 */
import type { CaseScript } from './case-script.js';
import { kicked } from './outcomes.js';
import { PLAYER, playingOn } from './playing-on.js';

/** Past the default lockTtlSeconds + lockSkewSeconds (180 + 60): A's lock is stale by age. */
const STALLED_MS = 241_000;

export const stalledHolder: CaseScript = {
  id: 'stalled-holder',
  async setup(world) {
    const a = await world.server('A');
    const b = await world.server('B');
    await playingOn(world, a, 5, true);
    a.ports.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      times: Number.POSITIVE_INFINITY,
    });
    await world.sleep(STALLED_MS);
    return async () => {
      const end = world.loadOutcome('B', PLAYER);
      const kick = world.next('B', ['profile.kicked'], PLAYER);
      b.join(PLAYER);
      return kicked(b, await end, await kick);
    };
  },
};
