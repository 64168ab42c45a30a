/**
 * A crashes right after a presence beat (the worst case) and the player joins B at once:
 * B takes the lock after A's presence expires and two empty reads a beat apart.
 */
import { formatMs } from '../../format.js';
import type { CaseScript } from './case-script.js';
import { loaded } from './outcomes.js';
import { PLAYER, playingOn } from './playing-on.js';

/** A's beats the story shows before the crash, so the silence after it is visible. */
const BEATS_BEFORE_CRASH = 2;

export const crashedHolder: CaseScript = {
  id: 'crashed-holder',
  async setup(world) {
    const a = await world.server('A');
    const b = await world.server('B');
    await playingOn(world, a, 5, true);
    a.profile(PLAYER)!.data.coins = 9; // progress after the last save dies with the crash
    await world.next('A', ['presence.beat']); // the story starts on A's beat
    return async () => {
      let lastBeat = 0;
      for (let beat = 0; beat < BEATS_BEFORE_CRASH; beat += 1) {
        lastBeat = (await world.next('A', ['presence.beat'])).time;
      }
      a.crash();
      const end = world.loadOutcome('B', PLAYER);
      b.join(PLAYER);
      const taken = await end;
      const outcome = loaded(b, taken);
      const sinceBeat = taken.time - lastBeat;
      return {
        ...outcome,
        waitedMs: sinceBeat,
        measuredFrom: 'last-beat',
        text: `B took the lock ${formatMs(sinceBeat)} after A’s last beat, with ${outcome.coins} coins: A’s last save.`,
      };
    };
  },
};
