/**
 * What each case shows, exactly: the outcome line, the wait it is measured by, and the story's
 * length on the case clock. The lock handoff cases' figures are the cases table's in
 * docs/guide/concepts.md (see readme-table.test.ts); the messages case is not a row of it.
 */
export interface ExpectedCase {
  readonly id: string;
  readonly outcome: string;
  readonly waitedMs: number;
  /** The case clock when the outcome lands, as the page shows it. */
  readonly clock: string;
  /** Where on the case clock the measured wait starts (the join, or the crashed holder's last beat). */
  readonly waitStartsAt: string;
}

export const EXPECTED: readonly ExpectedCase[] = [
  {
    id: 'live-holder',
    outcome: 'B loaded p1 after 340 ms with 11 coins.',
    waitedMs: 340,
    clock: '340 ms',
    waitStartsAt: '0 ms',
  },
  {
    id: 'failed-release',
    outcome: 'B loaded p1 after 340 ms with 12 coins.',
    waitedMs: 340,
    clock: '1.34 s',
    waitStartsAt: '1.00 s',
  },
  {
    id: 'crashed-holder',
    outcome: 'B took the lock 13.27 s after A’s last beat, with 5 coins: A’s last save.',
    waitedMs: 13_270,
    clock: '19.27 s',
    waitStartsAt: '6.00 s',
  },
  {
    id: 'stalled-holder',
    outcome:
      'B kicked the player after 15.22 s: “Your data is still in use on another server. Please rejoin in a moment.”',
    waitedMs: 15_220,
    clock: '15.22 s',
    waitStartsAt: '0 ms',
  },
  {
    id: 'older-holder',
    outcome:
      'B kicked the player after 15.10 s: “Your data is still in use on another server. Please rejoin in a moment.”',
    waitedMs: 15_100,
    clock: '15.10 s',
    waitStartsAt: '0 ms',
  },
  {
    id: 'same-server-saving',
    outcome: 'A loaded p1 again after 400 ms with 7 coins, the record its leave save wrote.',
    waitedMs: 400,
    clock: '400 ms',
    waitStartsAt: '0 ms',
  },
  {
    id: 'same-server-adopt',
    outcome: 'A adopted the retained profile after 100 ms: the same Profile, with 7 coins.',
    waitedMs: 100,
    clock: '1.10 s',
    waitStartsAt: '1.00 s',
  },
  {
    id: 'gift-during-hop',
    outcome: 'B loaded p1 after 640 ms with 111 coins: the gift of 100 applied once, by B.',
    waitedMs: 640,
    clock: '640 ms',
    waitStartsAt: '0 ms',
  },
];
