/**
 * The catalog's cases as the Redis runner plays them: the same stories, told where real
 * processes differ from the in-memory world (a fault injected over HTTP, a SIGKILL, lock ages
 * shortened so "stale by age" fits in seconds). The crash, stall and older-build cases run every server
 * with the default timings four times shorter (`--scale 0.25`), as their `pace` says.
 */
import { CASES } from '../catalog.js';
import type { CaseInfo } from '../stream.js';
import { RECONNECT_MS } from './cases/crashed-holder.js';
import { HELD_MS } from './cases/same-server-saving.js';
import { STALLED_LOCK, STALLED_MS } from './cases/stalled-holder.js';

type Retold = Partial<Pick<CaseInfo, 'setup' | 'explanation'>>;

const { lockTtlSeconds, lockSkewSeconds } = STALLED_LOCK;

const RETOLD: Record<string, Retold> = {
  'failed-release': {
    setup:
      'p1 leaves server A with 12 coins; A’s leave save fails (a fault injected through A’s POST /faults), and a second later p1 joins B.',
  },
  'crashed-holder': {
    setup: `p1 plays on A, last saved with 5 coins (a leave and rejoin) and 4 more earned since. A is killed with SIGKILL right after a presence beat, and p1’s client reconnects to B ${RECONNECT_MS} ms later.`,
    explanation:
      'No reply comes from a dead process. B reads A’s presence in Redis after each wake: alive until the key expires (its TTL after A’s last beat), then two empty reads at least one beat apart mark A as stopped, and B’s next load takes the lock with stealFrom. The record that loads is A’s last save: progress after it died with A. Every server runs the default timings four times shorter: a 0.75 s beat, 2.5 s presence TTL, 3.75 s lockWaitSeconds.',
  },
  'stalled-holder': {
    setup: `A’s store writes stall (a fault injected through POST /faults) for ${STALLED_MS / 1000} s, so its lock is older than lockTtlSeconds + lockSkewSeconds, shortened here to ${lockTtlSeconds} + ${lockSkewSeconds} s, but A still beats presence. p1 joins B.`,
    explanation:
      'A lock that old would normally be stale, but it carries the presence flag and A reads alive, so B leaves it alone: taking it would load an older record and roll the player back. A kicks its stale session, whose release stalls too. After lockWaitSeconds (3.75 s, the default 15 s four times shorter) B fails closed, kicks the player and leaves the record untouched.',
  },
  'older-holder': {
    setup:
      'A runs with handoff: false (the game server’s --no-handoff), as an older build does: it does not subscribe to its handoff channel, beats no presence and writes its locks without the presence flag. p1 plays on A with 6 coins, saved by a leave and a rejoin, is still connected there, and joins B.',
    explanation:
      'B’s load finds A’s lock and publishes requests on A’s channel, but A does not listen, so no reply comes and A never kicks its session. The lock has no presence flag, so B does not read A’s presence, and A’s lock is fresh, so it is not stale by age. After lockWaitSeconds (3.75 s, the default 15 s four times shorter) B fails closed, kicks the player and leaves the record untouched, while the player’s session on A plays on. The lock changes hands when A releases it, or after a crash once it is lockTtlSeconds + lockSkewSeconds old.',
  },
  'same-server-saving': {
    setup: `p1 leaves server A with 7 coins and rejoins A at once; the leave save is held for ${HELD_MS} ms (a stalled write, released through POST /faults).`,
  },
  'gift-during-hop': {
    explanation:
      'B’s send writes the gift to p1’s inbox in Redis (durable once POST /grant answers), then reads the profile and nudges whichever server holds it. Meanwhile B’s load asks A for the lock and A hands it over. Whoever holds the profile when the gift is there applies it: A, if the nudge reaches it before its leave save; B at its load, before the game sees the profile; or B on the nudge, right after it loaded, when the gift landed after its load read the inbox. Its effect and its id go out in one write, so no other server, and no retry, applies it again. Real processes race: the outcome says which server applied it, and how many times.',
  },
  'same-server-adopt': {
    setup:
      'p1 leaves server A with 7 coins; the leave save fails (an injected fault), and a second later p1 rejoins A.',
  },
};

export const REDIS_CASES: readonly CaseInfo[] = CASES.map((info) => ({
  ...info,
  ...RETOLD[info.id],
}));
