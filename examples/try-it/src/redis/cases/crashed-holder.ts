/**
 * A is killed with SIGKILL right after a presence beat (the worst case for its presence, which
 * lives a whole TTL on), and the player's client reconnects to B: B takes the lock after A's
 * presence expires and two empty reads a beat apart.
 */
import { formatMs } from '../../format.js';
import { loaded } from './outcomes.js';
import { arrival, playingOn } from './player.js';
import type { RedisCaseScript } from './redis-script.js';

/** A's beats the story shows before the crash, so the silence after it is visible. */
const BEATS_BEFORE_CRASH = 2;
/**
 * How long the player's client takes to reconnect to B after A's connection drops (2 s at the
 * seed's constants). Joining at the very instant of the crash would leave B's lockWaitSeconds
 * (10 + 2 + 3 s at the seed) with no room for the timer jitter of a busy machine: the takeover
 * would then race the deadline instead of showing it.
 */
export const RECONNECT_MS = 500;

export const crashedHolder: RedisCaseScript = {
  id: 'crashed-holder',
  async setup(world) {
    const [a, b] = await Promise.all([world.server('A'), world.server('B')]);
    // Saved with 5 coins by a leave and an immediate rejoin (the rejoin waits for that save),
    // then 4 more that only A's memory holds: they die with it.
    await (await playingOn(a, 5)).close();
    await playingOn(a, 9);
    await world.next('A', ['presence.beat']); // the story starts on A's beat
    return async () => {
      let lastBeat = 0;
      for (let beat = 0; beat < BEATS_BEFORE_CRASH; beat += 1) {
        lastBeat = (await world.next('A', ['presence.beat'])).time;
      }
      await a.crash();
      await world.sleep(RECONNECT_MS);
      const end = world.loadOutcome('B');
      const onB = await b.join();
      const taken = await end;
      const played = loaded('B', taken, await arrival(onB));
      const sinceBeat = taken.time - lastBeat;
      const atDefaultTimings = Math.round(sinceBeat / world.scale);
      return {
        at: played.at,
        outcome: {
          ...played.outcome,
          waitedMs: sinceBeat,
          measuredFrom: 'last-beat',
          text: `B took the lock ${formatMs(sinceBeat)} after A’s last beat (${formatMs(atDefaultTimings)} at the default timings), with ${played.outcome.coins} coins: A’s last save.`,
        },
      };
    };
  },
};
