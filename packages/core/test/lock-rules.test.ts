import { describe, expect, it } from 'vitest';
import type { LockInfo } from '../src/index.js';
import {
  decideOrphanRelease,
  decideRelease,
  decideSave,
  handOverAskWindowMs,
} from '../src/rules/index.js';
import { decideLoad, type LoadContext, type ProfileRecord } from '../src/rules.js';

const NOW = 1_000_000_000;
const SECOND = 1000;
const STALE_AGE = (180 + 60) * SECOND;

function lock(overrides: Partial<LockInfo> = {}): LockInfo {
  return { jobId: 'A', token: 'tA', time: NOW, presence: true, ...overrides };
}

function record(meta: Partial<ProfileRecord['meta']> = {}): ProfileRecord {
  return { data: { coins: 1 }, meta: { version: 3, ...meta } };
}

function context(overrides: Partial<LoadContext> = {}): LoadContext {
  return {
    jobId: 'B',
    token: 'tB',
    now: NOW,
    lockTtlSeconds: 180,
    lockSkewSeconds: 60,
    handoff: true,
    heldHere: () => false,
    ...overrides,
  };
}

// One row per rule of the load decision (DESIGN.md, "The rules in core").
const loadRows: Array<[string, ProfileRecord | undefined, Partial<LoadContext>, unknown]> = [
  ['no record: take', undefined, {}, { kind: 'take', reason: 'new' }],
  ['no lock: take', record(), {}, { kind: 'take', reason: 'unlocked' }],
  [
    'released record: take',
    record({ releasedToken: 'old' }),
    {},
    { kind: 'take', reason: 'unlocked' },
  ],
  [
    "this load's own token (lost response): take",
    record({ lock: lock({ token: 'tB', jobId: 'B' }) }),
    {},
    { kind: 'take', reason: 'own' },
  ],
  [
    "a lock of this load's token that a holder's release wrote (a hand-over): take, handed",
    record({ lock: lock({ token: 'tB', jobId: 'B' }), releasedToken: 'tA' }),
    {},
    { kind: 'take', reason: 'handed' },
  ],
  [
    "this load's token next to a released token, under another server's id: take as its own",
    record({ lock: lock({ token: 'tB', jobId: 'A' }), releasedToken: 'tA' }),
    {},
    { kind: 'take', reason: 'own' },
  ],
  [
    "this load's token next to a released token, without the flag this server writes: take as its own",
    record({ lock: lock({ token: 'tB', jobId: 'B', presence: false }), releasedToken: 'tA' }),
    {},
    { kind: 'take', reason: 'own' },
  ],
  [
    "a lock handed to another server's load: locked, as any live lock",
    record({ lock: lock({ token: 'tX' }), releasedToken: 'tZ' }),
    {},
    { kind: 'locked', holder: lock({ token: 'tX' }), stale: false },
  ],
  [
    'a lock handed to a load of this server that gave up: take, orphaned',
    record({ lock: lock({ jobId: 'B', token: 'tGone' }), releasedToken: 'tA' }),
    {},
    { kind: 'take', reason: 'orphaned', from: lock({ jobId: 'B', token: 'tGone' }) },
  ],
  [
    'another server, fresh: locked',
    record({ lock: lock() }),
    {},
    { kind: 'locked', holder: lock(), stale: false },
  ],
  [
    'another server, one ms short of stale: locked',
    record({ lock: lock({ time: NOW - STALE_AGE }) }),
    {},
    { kind: 'locked', holder: lock({ time: NOW - STALE_AGE }), stale: false },
  ],
  [
    'stealFrom names the flagged holder: take',
    record({ lock: lock() }),
    { stealFrom: 'A' },
    { kind: 'take', reason: 'stolen', from: lock() },
  ],
  [
    'stealFrom names a holder without the flag: locked',
    record({ lock: lock({ presence: false }) }),
    { stealFrom: 'A' },
    { kind: 'locked', holder: lock({ presence: false }), stale: false },
  ],
  [
    'stealFrom names another server: locked',
    record({ lock: lock() }),
    { stealFrom: 'C' },
    { kind: 'locked', holder: lock(), stale: false },
  ],
  [
    'stale, no flag: take by age',
    record({ lock: lock({ presence: false, time: NOW - STALE_AGE - 1 }) }),
    {},
    { kind: 'take', reason: 'stale', from: lock({ presence: false, time: NOW - STALE_AGE - 1 }) },
  ],
  [
    'stale, flagged, handoff off here: take by age',
    record({ lock: lock({ time: NOW - STALE_AGE - 1 }) }),
    { handoff: false },
    { kind: 'take', reason: 'stale', from: lock({ time: NOW - STALE_AGE - 1 }) },
  ],
  [
    'stale, flagged, handoff on, no presence answer yet: read presence',
    record({ lock: lock({ time: NOW - STALE_AGE - 1 }) }),
    {},
    { kind: 'read-presence', holder: lock({ time: NOW - STALE_AGE - 1 }) },
  ],
  [
    'stale, flagged, holder alive: locked (a live holder keeps its lock)',
    record({ lock: lock({ time: NOW - STALE_AGE - 1 }) }),
    { holderPresence: { jobId: 'A', alive: true } },
    { kind: 'locked', holder: lock({ time: NOW - STALE_AGE - 1 }), stale: true },
  ],
  [
    'stale, flagged, holder stopped: take by age',
    record({ lock: lock({ time: NOW - STALE_AGE - 1 }) }),
    { holderPresence: { jobId: 'A', alive: false } },
    { kind: 'take', reason: 'stale', from: lock({ time: NOW - STALE_AGE - 1 }) },
  ],
  [
    'stale, flagged, presence unknown: take by age (unknown does not protect)',
    record({ lock: lock({ time: NOW - STALE_AGE - 1 }) }),
    { holderPresence: { jobId: 'A', alive: undefined } },
    { kind: 'take', reason: 'stale', from: lock({ time: NOW - STALE_AGE - 1 }) },
  ],
  [
    'stale, flagged, answer is for another holder: read presence again',
    record({ lock: lock({ time: NOW - STALE_AGE - 1 }) }),
    { holderPresence: { jobId: 'C', alive: true } },
    { kind: 'read-presence', holder: lock({ time: NOW - STALE_AGE - 1 }) },
  ],
  [
    'this server, another token a local profile holds: locked',
    record({ lock: lock({ jobId: 'B', token: 'old' }) }),
    { heldHere: (token: string) => token === 'old' },
    { kind: 'locked', holder: lock({ jobId: 'B', token: 'old' }), stale: false },
  ],
  [
    'this server, a token no local profile holds: take',
    record({ lock: lock({ jobId: 'B', token: 'old' }) }),
    {},
    { kind: 'take', reason: 'orphaned', from: lock({ jobId: 'B', token: 'old' }) },
  ],
];

describe('decideLoad', () => {
  it.each(loadRows)('%s', (_name, stored, overrides, expected) => {
    expect(decideLoad(stored, context(overrides))).toEqual(expected);
  });

  it("measures age from the holder's last write, with TTL plus skew", () => {
    const atLimit = record({ lock: lock({ presence: false, time: NOW - STALE_AGE }) });
    expect(decideLoad(atLimit, context()).kind).toBe('locked');
    expect(decideLoad(atLimit, context({ now: NOW + 1 })).kind).toBe('take');
    const shortTtl = context({
      lockTtlSeconds: 10,
      lockSkewSeconds: 5,
      now: NOW + 15 * SECOND + 1,
    });
    expect(decideLoad(record({ lock: lock({ presence: false }) }), shortTtl).kind).toBe('take');
  });
});

const saveRows: Array<[string, ProfileRecord | undefined, boolean, unknown]> = [
  ['own token: write', record({ lock: lock({ token: 'mine' }) }), false, { kind: 'write' }],
  ['another token: lost', record({ lock: lock() }), false, { kind: 'lost', holder: lock() }],
  ['no lock: lost', record(), false, { kind: 'lost' }],
  ['no record (erased): lost', undefined, false, { kind: 'lost' }],
  ['no record (erased), adoption: lost', undefined, true, { kind: 'lost' }],
  [
    'own release, no retake allowed: lost',
    record({ releasedToken: 'mine' }),
    false,
    { kind: 'lost' },
  ],
  ['own release, adoption: retake', record({ releasedToken: 'mine' }), true, { kind: 'retake' }],
  [
    'someone else released, adoption: lost',
    record({ releasedToken: 'other' }),
    true,
    { kind: 'lost' },
  ],
  [
    'locked by another, adoption: lost',
    record({ lock: lock(), releasedToken: 'mine' }),
    true,
    { kind: 'lost', holder: lock() },
  ],
];

describe('decideSave', () => {
  it.each(saveRows)('%s', (_name, stored, retake, expected) => {
    expect(decideSave(stored, 'mine', { retake })).toEqual(expected);
  });

  it('without options never retakes: a marker or an erasure on its own release is lost', () => {
    expect(decideSave(record({ releasedToken: 'mine' }), 'mine')).toEqual({ kind: 'lost' });
  });
});

const releaseRows: Array<[string, ProfileRecord | undefined, unknown]> = [
  ['own token: write', record({ lock: lock({ token: 'mine' }) }), { kind: 'write' }],
  [
    'already released by this token (lost response): done',
    record({ releasedToken: 'mine' }),
    { kind: 'already-released' },
  ],
  ['released by another token: lost', record({ releasedToken: 'other' }), { kind: 'lost' }],
  ['another holder: lost', record({ lock: lock() }), { kind: 'lost', holder: lock() }],
  [
    // What a hand-over leaves (`handOverLocks`): the retry after its lost response is done.
    'another holder, the record naming this token released (it handed the lock over): done',
    record({ lock: lock(), releasedToken: 'mine' }),
    { kind: 'already-released' },
  ],
  ['no record: lost', undefined, { kind: 'lost' }],
];

describe('decideRelease', () => {
  it.each(releaseRows)('%s', (_name, stored, expected) => {
    expect(decideRelease(stored, 'mine')).toEqual(expected);
  });
});

// A holder asked for a key it does not hold clears the named lock first only when it is its own
// orphaned one (`decideLoad`'s orphaned take, seen from the holder).
const orphanRows: Array<[string, ProfileRecord | undefined, string, boolean, 'release' | 'keep']> =
  [
    [
      'this server, the token named, no profile holds it: release',
      record({ lock: lock({ jobId: 'B', token: 'tX' }) }),
      'tX',
      false,
      'release',
    ],
    [
      'this server, the token named, a profile holds it: keep',
      record({ lock: lock({ jobId: 'B', token: 'tX' }) }),
      'tX',
      true,
      'keep',
    ],
    [
      'this server, another token than named: keep',
      record({ lock: lock({ jobId: 'B', token: 'tY' }) }),
      'tX',
      false,
      'keep',
    ],
    [
      'a lock handed to a load of this server that gave up: release',
      record({ lock: lock({ jobId: 'B', token: 'tX' }), releasedToken: 'tA' }),
      'tX',
      false,
      'release',
    ],
    [
      'an orphan of this server next to a trade marker: keep (journal recovery settles it)',
      record({
        lock: lock({ jobId: 'B', token: 'tX' }),
        trade: { id: 'trade-1', journal: 'PlayerData/#trade/trade-1', version: 3 },
      }),
      'tX',
      false,
      'keep',
    ],
    ['another server: keep', record({ lock: lock({ token: 'tX' }) }), 'tX', false, 'keep'],
    ['no lock: keep', record(), 'tX', false, 'keep'],
    ['no record: keep', undefined, 'tX', false, 'keep'],
  ];

describe('decideOrphanRelease', () => {
  it.each(orphanRows)('%s', (_name, stored, token, held, expected) => {
    expect(decideOrphanRelease(stored, token, { jobId: 'B', heldHere: () => held })).toBe(expected);
  });
});

describe('handOverAskWindowMs', () => {
  // A holder honours an ask for two of the load's request repeats; a closing joiner waits as long.
  it.each([
    [4, 8_000],
    [0.5, 1_000],
    [10, 20_000],
  ])(
    'requests repeated every %s s: an ask is honoured for %i ms',
    (requestRepeatSeconds, windowMs) => {
      expect(handOverAskWindowMs({ requestRepeatSeconds })).toBe(windowMs);
    },
  );
});
