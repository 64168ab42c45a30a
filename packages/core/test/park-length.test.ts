import { describe, expect, it } from 'vitest';
import { type ParkFacts, parkLength } from '../src/rules/index.js';

const base: ParkFacts = {
  doublingMs: 2_000,
  untilDeadlineMs: 10_000,
  untilSecondReadMs: undefined,
  lastRead: undefined,
  minSpacingMs: 500,
};
const stopped = (agoMs: number, proved = false): ParkFacts['lastRead'] => ({
  answer: 'stopped',
  agoMs,
  proved,
});

/** Parks of one join's wait (0.5 s spacing): the facts that differ from `base`, and the park. */
const rows: Array<[string, Partial<ParkFacts>, number]> = [
  ['before any empty read, the doubled park', { doublingMs: 1_000 }, 1_000],
  ['never past the deadline', { untilDeadlineMs: 700 }, 700],
  ['nothing once the deadline passed', { untilDeadlineMs: -30 }, 0],
  [
    'after a first empty read, until a second one would count',
    { untilSecondReadMs: 1_200, lastRead: stopped(300) },
    1_200,
  ],
  [
    'until a second read would count, at most the doubled park',
    { untilSecondReadMs: 2_500, lastRead: stopped(300) },
    2_000,
  ],
  [
    'beat due after a stopped read: until the read spacing allows the next read',
    { untilSecondReadMs: -10, lastRead: stopped(300) },
    200,
  ],
  [
    'a second read due right now after a stopped read: until the read spacing allows it',
    { untilSecondReadMs: 0, lastRead: stopped(300) },
    200,
  ],
  [
    'beat due after a stopped read, spacing already passed: no park',
    { untilSecondReadMs: -10, lastRead: stopped(610) },
    0,
  ],
  [
    'beat due after a stopped read: the spacing is still cut by the deadline',
    { untilSecondReadMs: -10, lastRead: stopped(100), untilDeadlineMs: 150 },
    150,
  ],
  [
    'beat due after an unknown answer: the whole park (a presence outage must not flood)',
    { untilSecondReadMs: -10, lastRead: { answer: 'unknown', agoMs: 300, proved: false } },
    2_000,
  ],
  [
    'beat due after an alive answer: the whole park',
    { untilSecondReadMs: -10, lastRead: { answer: 'alive', agoMs: 300, proved: false } },
    2_000,
  ],
  [
    'a stopped read that already proved the silence: the whole park',
    { untilSecondReadMs: -400, lastRead: stopped(300, true) },
    2_000,
  ],
  [
    'beat due, but the wake will not read that holder (no last read given): the whole park',
    { untilSecondReadMs: -10, lastRead: undefined },
    2_000,
  ],
];

describe('parkLength', () => {
  it.each(rows)('%s', (_name, facts, parkMs) => {
    expect(parkLength({ ...base, ...facts })).toBe(parkMs);
  });
});
