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

const alive = (agoMs: number): ParkFacts['lastRead'] => ({ answer: 'alive', agoMs, proved: false });

/** Reads as the holder's key expires (the presence tells when), 0.25 s read spacing. */
const expiryRows: Array<[string, Partial<ParkFacts>, number]> = [
  [
    'an alive read, key expiring in 0.7 s: until it expires',
    { untilExpiryMs: 700, lastRead: alive(100) },
    700,
  ],
  [
    'an alive read, key expiring in 5 s: the doubled park',
    { untilExpiryMs: 5_000, lastRead: alive(100) },
    2_000,
  ],
  [
    'expiring in 0.7 s, but the deadline first',
    { untilExpiryMs: 700, lastRead: alive(100), untilDeadlineMs: 400 },
    400,
  ],
  [
    'expiring in 0.1 s: not before 0.25 s after the last read',
    { untilExpiryMs: 100, lastRead: alive(60) },
    190,
  ],
  [
    'expiring in 0.1 s, the last read 0.3 s ago: at expiry',
    { untilExpiryMs: 100, lastRead: alive(300) },
    100,
  ],
  [
    'expired already, the last read 0.3 s ago: no park',
    { untilExpiryMs: -50, lastRead: alive(300) },
    0,
  ],
  [
    'expired already, the last read 0.1 s ago: until the spacing allows',
    { untilExpiryMs: -50, lastRead: alive(100) },
    150,
  ],
  [
    'a presence that cannot tell: the doubled park',
    { untilExpiryMs: undefined, lastRead: alive(100) },
    2_000,
  ],
  [
    'an expiry, but the last read was unknown: the whole park (an outage must not flood)',
    { untilExpiryMs: 300, lastRead: { answer: 'unknown', agoMs: 100, proved: false } },
    2_000,
  ],
  [
    'an expiry, but the wake will not read that holder: the whole park',
    { untilExpiryMs: 300, lastRead: undefined },
    2_000,
  ],
  [
    'after a first empty read the beat rules, not the expiry',
    { untilExpiryMs: 300, untilSecondReadMs: 1_200, lastRead: stopped(300) },
    1_200,
  ],
];

describe('parkLength', () => {
  it.each(expiryRows)('%s', (_name, facts, parkMs) => {
    expect(parkLength({ ...base, expiryReadSpacingMs: 250, ...facts })).toBe(parkMs);
  });

  it.each(rows)('%s', (_name, facts, parkMs) => {
    expect(parkLength({ ...base, ...facts })).toBe(parkMs);
  });
});
