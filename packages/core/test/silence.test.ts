import { describe, expect, it } from 'vitest';
import { Silence } from '../src/rules/silence.js';

type Answer = 'alive' | 'stopped' | 'unknown';
const ANSWERS: Record<Answer, boolean | undefined> = {
  alive: true,
  stopped: false,
  unknown: undefined,
};

/** Presence reads of one join's wait (beat 3 s): [holder, answer, ms], and what each proves. */
const rows: Array<[string, Array<[string, Answer, number]>, boolean[]]> = [
  [
    'two empty reads a beat apart prove it',
    [
      ['A', 'stopped', 0],
      ['A', 'stopped', 3_000],
    ],
    [false, true],
  ],
  [
    'less than a beat apart they do not',
    [
      ['A', 'stopped', 0],
      ['A', 'stopped', 2_999],
    ],
    [false, false],
  ],
  [
    'a later read still counts from the first empty one',
    [
      ['A', 'stopped', 0],
      ['A', 'stopped', 2_000],
      ['A', 'stopped', 3_000],
    ],
    [false, false, true],
  ],
  [
    'an alive answer starts the count again',
    [
      ['A', 'stopped', 0],
      ['A', 'alive', 2_000],
      ['A', 'stopped', 3_000],
      ['A', 'stopped', 6_000],
    ],
    [false, false, false, true],
  ],
  [
    'an unknown answer neither counts nor starts it again',
    [
      ['A', 'stopped', 0],
      ['A', 'unknown', 3_000],
      ['A', 'stopped', 3_100],
    ],
    [false, false, true],
  ],
  [
    'unknown answers alone prove nothing',
    [
      ['A', 'unknown', 0],
      ['A', 'unknown', 3_000],
      ['A', 'unknown', 6_000],
    ],
    [false, false, false],
  ],
  [
    'a new holder starts the count again',
    [
      ['A', 'stopped', 0],
      ['B', 'stopped', 3_000],
      ['B', 'stopped', 6_000],
    ],
    [false, false, true],
  ],
];

describe('Silence: two empty presence reads at least one beat apart', () => {
  it.each(rows)('%s', (_name, reads, proves) => {
    const silence = new Silence(3_000);
    expect(
      reads.map(([holder, answer, at]) => silence.record(holder, ANSWERS[answer], at)),
    ).toEqual(proves);
  });

  it('says how long until a second empty read would count', () => {
    const silence = new Silence(3_000);
    expect(silence.untilSecondRead(0)).toBeUndefined();
    silence.record('A', false, 1_000);
    expect(silence.untilSecondRead(2_500)).toBe(1_500);
  });
});
