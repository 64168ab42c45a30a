/** The player leaves A and rejoins A at once, while the leave save is held for 300 ms. */
import { formatMs } from '../../format.js';
import { PLAYER } from '../run-names.js';
import { loaded } from './outcomes.js';
import { arrival, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

/** How long the leave save is held: a stalled write, released this long after the leave. */
export const HELD_MS = 300;

export const sameServerSaving: RedisCaseScript = {
  id: 'same-server-saving',
  async setup(world) {
    const a = await world.server('A', { faults: true });
    const onA = await playingOn(a, 7);
    return async () => {
      await a.inject({ kind: 'stall', operation: 'update', times: 1 });
      const end = world.loadOutcome('A');
      const leaving = world.next('A', ['profile.releasing'], PLAYER);
      const leftAt = Date.now();
      await a.leave(onA);
      await leaving; // rejoins once A has started the leave save, not before it saw the leave
      const again = await a.join();
      await world.sleep(leftAt + HELD_MS - Date.now());
      await a.releaseFaults();
      return loaded(
        'A',
        await end,
        await arrival(again),
        (coins, waitedMs) =>
          `A loaded p1 again after ${formatMs(waitedMs)} with ${coins} coins, the record its leave save wrote.`,
      );
    };
  },
};
