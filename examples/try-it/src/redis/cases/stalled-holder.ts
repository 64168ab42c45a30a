/**
 * A stays alive but its store writes stall for longer than lockTtlSeconds + lockSkewSeconds: B
 * reads A alive, leaves the lock alone, and fails closed after lockWaitSeconds.
 */
import { PLAYER } from '../run-names.js';
import { kicked } from './outcomes.js';
import { arrival, kickMessage, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

/**
 * Lock ages shortened on both servers (the seed's are 180 + 60 s) so A's lock is stale by age
 * within seconds; A autosaves every second, half the TTL, as the driver requires.
 */
export const STALLED_LOCK = { lockTtlSeconds: 2, lockSkewSeconds: 1 } as const;
/** How long A's writes stall before the player joins B: past the 3 s above. */
export const STALLED_MS = 4_000;

export const stalledHolder: RedisCaseScript = {
  id: 'stalled-holder',
  async setup(world) {
    const [a, b] = await Promise.all([
      world.server('A', { faults: true, ...STALLED_LOCK }),
      world.server('B', STALLED_LOCK),
    ]);
    const onA = await playingOn(a, 5);
    const saved = await world.next('A', ['profile.saved'], PLAYER); // the 5 coins are stored
    await a.inject({ kind: 'stall', operation: 'update', times: 'forever' });
    await world.sleep(saved.time + STALLED_MS - Date.now());
    return async () => {
      const end = world.loadOutcome('B');
      const onB = await b.join();
      const result = await end;
      const played = kicked('B', result, await arrival(onB));
      // A kicked its stale session on B's first request, though that release stalls too.
      const told = await kickMessage(onA);
      return {
        at: played.at,
        outcome: { ...played.outcome, text: `${played.outcome.text} A told its session “${told}”` },
      };
    };
  },
};
