/**
 * The cases the page offers: the seven rows of the seed's table (the five ways a player can
 * arrive on server B while server A still holds their lock, then the two same-server rejoins),
 * in its words, then a profile message sent during a hop. Config names are the API's
 * (`lockWaitSeconds`), not the seed's Luau.
 */
import type { CaseInfo } from './stream.js';

export const CASES: readonly CaseInfo[] = [
  {
    id: 'live-holder',
    group: 'another-server',
    title: 'Player still connected on A',
    happens: 'The holder ends its stale session, whose leave save releases the lock, and replies.',
    seedWait: 'About one save',
    setup: 'p1 plays on server A with 11 coins, not saved yet, and joins server B.',
    explanation:
      'B’s load finds A’s lock and asks A to release it. A ends its stale session with the kick message “You joined another server.”, which runs the leave save and releases the lock, then replies. The reply wakes B, which loads again at once, with A’s latest data.',
    pace: 1,
    servers: ['A', 'B'],
  },
  {
    id: 'failed-release',
    group: 'another-server',
    title: 'A’s leave save failed',
    happens: 'The holder retries the release at once and replies when it lands.',
    seedWait: 'About one save',
    setup: 'p1 leaves server A with 12 coins; A’s leave save fails, and a second later p1 joins B.',
    explanation:
      'A failed leave save leaves the profile retained on A, the newest copy, still under A’s lock. B’s request makes A retry the release now instead of at its next autosave; A replies when the release lands and B loads the 12 coins.',
    pace: 1,
    servers: ['A', 'B'],
  },
  {
    id: 'crashed-holder',
    group: 'another-server',
    title: 'A crashed',
    happens: 'Its presence expires and the lock is taken after two empty reads a beat apart.',
    seedWait: 'About 10 to 15 s',
    setup:
      'p1 plays on A, last saved with 5 coins and 4 more earned since. A crashes right after a presence beat, and p1 joins B.',
    explanation:
      'No reply comes from a crashed server. B reads A’s presence after each wake: alive until the key expires 10 s after A’s last beat, then two empty reads at least one beat (3 s) apart mark A as stopped: in the log, the first “stopped” read and the first one at least 3 s after it count, and a read between them (sooner than a beat after the first) counts for nothing. B’s next load then takes the lock with stealFrom. The record that loads is A’s last save: progress after it was lost with the crash. Played four times faster, with the real constants (3 s beat, 10 s presence TTL, 15 s lockWaitSeconds).',
    pace: 4,
    servers: ['A', 'B'],
  },
  {
    id: 'stalled-holder',
    group: 'another-server',
    title: 'A alive, its saves stalling',
    happens:
      'It keeps its lock, even once the lock is stale by age; the join fails closed after lockWaitSeconds.',
    seedWait: 'Kick',
    setup:
      'A’s store calls have stalled for 4 min 1 s, so its lock is older than lockTtlSeconds + lockSkewSeconds (240 s), but A still beats presence. p1 joins B.',
    explanation:
      'A lock that old would normally be stale, but it carries the presence flag and A reads alive, so B leaves it alone: taking it would load an older record and roll the player back. A kicks its stale session, whose release stalls too. After lockWaitSeconds (15 s) B fails closed, kicks the player and leaves the record untouched. Played four times faster.',
    pace: 4,
    servers: ['A', 'B'],
  },
  {
    id: 'older-holder',
    group: 'another-server',
    title: 'A on an older build (handoff: false)',
    happens:
      'No request is answered and the lock has no presence flag, so it changes hands only by release or by age.',
    seedWait:
      'Until the holder releases; after a crash, until the lock is lockTtlSeconds + lockSkewSeconds old',
    shortWait: 'Until released, or by age',
    setup:
      'A runs an older build, as a server with handoff: false does: it does not subscribe to CKHandoff_A, beats no presence and writes its locks without the presence flag. p1 plays on A with 6 coins, saved, is still connected there, and joins B.',
    explanation:
      'B’s load finds A’s lock and asks A to release it, but nothing listens on A’s topic, so no reply comes and A never kicks its session. The lock has no presence flag, so B does not read A’s presence and may not take the lock through it, and A’s lock is fresh, so it is not stale by age either. B retries at 0.5 s doubling to 2 s and fails closed after lockWaitSeconds (15 s): it kicks the player and leaves the record untouched. The lock changes hands when A releases it (the player leaves A) or, after a crash, once it is lockTtlSeconds + lockSkewSeconds (240 s) old. Played four times faster.',
    pace: 4,
    servers: ['A', 'B'],
  },
  {
    id: 'same-server-saving',
    group: 'same-server',
    title: 'Rejoin while the leave save runs',
    happens: 'The load waits for that save, then loads the saved record.',
    seedWait: 'About one save',
    setup: 'p1 leaves server A with 7 coins and rejoins A at once; the leave save takes 300 ms.',
    explanation:
      'The rejoin’s load waits, event-driven, while the leaving profile is still saving, then loads the record that save wrote: nothing earned before the leave is lost, and there is no lock to wait out.',
    pace: 1,
    servers: ['A'],
  },
  {
    id: 'same-server-adopt',
    group: 'same-server',
    title: 'Rejoin after the leave save failed',
    happens:
      'The player carries on with the retained profile, which is the newest copy and still under this server’s lock.',
    seedWait: 'None',
    setup:
      'p1 leaves server A with 7 coins; the leave save fails, and a second later p1 rejoins A.',
    explanation:
      'The retained profile is adopted: the release request is cleared and it saves at once to re-assert the lock (the 100 ms below). The player continues on the same Profile object, with everything earned before the leave.',
    pace: 1,
    servers: ['A'],
  },
  {
    id: 'gift-during-hop',
    group: 'messages',
    title: 'A gift sent while the player hops from A to B',
    happens:
      'The gift waits in the player’s inbox and is applied once, by whichever server holds the profile when it looks.',
    seedWait: 'The hand-over’s (about one save), plus a read of the inbox and one write',
    shortWait: 'About one save, plus the inbox',
    setup:
      'p1 plays on server A with 11 coins and joins server B; as they join, a payment webhook reaches B’s POST /grant and sends p1 100 coins.',
    explanation:
      'B’s send writes the gift to p1’s inbox (durable once it resolves), then reads the profile, finds A’s lock and nudges A. Meanwhile B’s load asks A for the lock and A hands it over. Whoever holds the profile applies the gift: A, if the nudge reaches it before its leave save (the gift then goes out with that save), or B, at its load, before the game sees the profile. Its effect and its id go out in one write, so the other server, and any retry, finds it applied and never applies it again. Either way p1 arrives on B with 111 coins.',
    pace: 1,
    servers: ['A', 'B'],
  },
];
