/**
 * A runs with `--no-handoff` (as an older build does) and the player, still connected there,
 * joins B: nobody answers B's requests, the lock carries no presence flag, and B fails closed
 * after lockWaitSeconds while A's session plays on.
 */
import { kicked } from './outcomes.js';
import { arrival, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

/** How long A's connection is watched for a kick after B's (there must be none). */
const QUIET_MS = 500;

export const olderHolder: RedisCaseScript = {
  id: 'older-holder',
  async setup(world) {
    const [a, b] = await Promise.all([world.server('A', { handoff: false }), world.server('B')]);
    // Saved with 6 coins by a leave and an immediate rejoin (the rejoin waits for that save).
    await (await playingOn(a, 6)).close();
    // The case starts once A's own event of that load has arrived, not just its client's
    // message: events reach the page on their own stream, a little later.
    const loadedOnA = world.loadOutcome('A');
    const onA = await playingOn(a, 6);
    await loadedOnA;
    return async () => {
      const end = world.loadOutcome('B');
      const onB = await b.join();
      const played = kicked('B', await end, await arrival(onB));
      // No request reached A, so its session was never ended: it still plays.
      const still = await onA.next('kicked', QUIET_MS).catch(() => undefined);
      if (still !== undefined) throw new Error(`A kicked its session: “${still.message}”`);
      const coins = await onA.earn(1);
      return {
        at: played.at,
        outcome: {
          ...played.outcome,
          text: `${played.outcome.text} A’s session plays on (${coins} coins): no request reached it.`,
        },
      };
    };
  },
};
