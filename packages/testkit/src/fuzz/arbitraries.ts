/**
 * What an attacker or a careless user hands DataDriver: strings with lone surrogates and
 * prototype names, values JSON cannot keep, records that are almost right, and messages of
 * any shape. Each arbitrary mixes plain cases in, so a property sees both sides of a rule.
 */
import fc from 'fast-check';

/** Names that index objects badly, keys that collide in a backend, and odd characters. */
const NOTORIOUS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'prototype',
  '',
  ' ',
  '\uD800',
  '\uDC00x',
  '\uFFFD',
  'a/b',
  'a#b',
  '{t}u',
  '{t}u:versions:records',
  'CKPresence:srv',
  'Zoë 🎮',
] as const;

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Text around one lone surrogate: what a client would send as U+FFFD. */
const loneSurrogate = fc
  .tuple(
    fc.string({ maxLength: 4 }),
    fc.integer({ min: 0xd800, max: 0xdfff }),
    fc.string({ maxLength: 4 }),
  )
  .map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`);

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...NOTORIOUS), weight: 2 },
  { arbitrary: loneSurrogate, weight: 1 },
  { arbitrary: fc.string({ unit: codeUnit, maxLength: 12 }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
  // Around the 256-byte cap on keys, names and jobIds, counted as JSON: 'x' at 256/257,
  // 'é' at 128/129 (2 bytes each), a control character at 42/43 (6 bytes as \u0001).
  {
    arbitrary: fc
      .tuple(fc.constantFrom('x', 'é', '\u0001'), fc.integer({ min: 40, max: 262 }))
      .map(([fill, count]) => fill.repeat(count)),
    weight: 2,
  },
);

class Item {
  constructor(readonly name: string) {}
}

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
}

/** Values JSON would change, drop or refuse (or, for deep nesting, that core refuses). */
export const unsavable: fc.Arbitrary<unknown> = fc
  .constantFrom(
    () => new Date(0),
    () => new Map([['a', 1]]),
    () => new Set([1]),
    () => Number.NaN,
    () => Number.POSITIVE_INFINITY,
    () => undefined,
    () => () => 1,
    () => new Item('sword'),
    () => 10n,
    () => {
      const self: Record<string, unknown> = {};
      self.self = self;
      return self;
    },
    () => nested(70),
    // biome-ignore lint/suspicious/noSparseArray: the hole is the bad value
    () => [1, , 3],
    () => ({ [Symbol('s')]: 1 }),
    () => Object(1) as unknown, // a boxed number
  )
  .map((make) => make());

/** An object whose keys are hostile, `__proto__` included as an own key. */
function objectOf(values: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(fc.tuple(hostileText, values), { maxLength: 5 }).map((entries) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of entries) {
      Object.defineProperty(object, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  });
}

/** Profile data: mostly JSON under hostile keys, sometimes with a value JSON cannot keep. */
export const hostileData: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  objectOf(fc.jsonValue({ maxDepth: 3 })),
  objectOf(fc.oneof(fc.jsonValue({ maxDepth: 2 }), unsavable)),
  objectOf(
    fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
      withBoxedValues: true,
    }),
  ),
);

/** A value in place of a record field: the right type, a wrong one, or something odd. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  hostileText,
  fc.constantFrom(-1, 1.5, 0, 2 ** 60, '', 'x', [], {}, null, true),
);

const lock = fc.record({
  jobId: fc.oneof(fc.constantFrom('fuzz-A', 'other'), hostileText),
  token: fc.oneof(fc.constant('t'), hostileText),
  time: fc.oneof(fc.constant(0), fc.integer()),
  presence: fc.boolean(),
});

const marker = fc.record({
  id: fc.oneof(fc.constantFrom('t1', 't2'), hostileText),
  journal: fc.constant('journal'),
  version: fc.oneof(fc.nat({ max: 5 }), fc.constant(Number.MAX_SAFE_INTEGER)),
});

/** A record that is valid, then has up to two of its fields replaced by odd values. */
export const hostileRecord: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        data: objectOf(fc.jsonValue({ maxDepth: 3 })),
        meta: fc.record(
          {
            // The top of the safe range too: a write past it must be refused, writing nothing.
            version: fc.oneof(
              fc.nat({ max: 9 }),
              fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1),
            ),
            lock,
            releasedToken: fc.oneof(fc.constant('t'), hostileText),
            trade: marker,
            schema: fc.nat({ max: 3 }),
            userIds: fc.array(hostileText, { maxLength: 3 }),
          },
          { requiredKeys: ['version'] },
        ),
      },
      { requiredKeys: ['data', 'meta'] },
    ),
    fc.array(
      fc.tuple(
        fc.constantFrom(
          'data',
          'meta',
          'meta.version',
          'meta.lock',
          'meta.lock.jobId',
          'meta.lock.time',
          'meta.trade',
          'meta.trade.id',
          'meta.userIds',
          'meta.schema',
          'meta.releasedToken',
        ),
        oddValue,
      ),
      { maxLength: 2 },
    ),
  )
  .map(([record, changes]) => {
    const copy = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
    for (const [path, value] of changes) setPath(copy, path.split('.'), value);
    return copy;
  });

/** Stored JSON nested `depth` levels deep in the record's `data` or `meta`. */
function deepRecordJson(depth: number, where: 'data' | 'meta'): string {
  const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return where === 'data'
    ? `{"data":${deep},"meta":{"version":1}}`
    : `{"data":{},"meta":{"version":1,"x":${deep}}}`;
}

/**
 * A record as stored JSON: a hostile record, one nested past the 64 levels core reads (65,
 * 1,000 or 10,000 deep, in its data or its meta, which no `JSON.stringify` of an object nested
 * that deep could write), or a plain one at the top of the safe version range.
 */
export const hostileRecordJson: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileRecord.map((record) => JSON.stringify(record)), weight: 4 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(65, 1_000, 10_000), fc.constantFrom('data' as const, 'meta' as const))
      .map(([depth, where]) => deepRecordJson(depth, where)),
    weight: 1,
  },
  // A plain record at the top of the safe range: its load's write would pass it.
  {
    arbitrary: fc
      .constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1)
      .map((version) => JSON.stringify({ data: { coins: 1 }, meta: { version } })),
    weight: 1,
  },
);

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const next = target[head];
  if (typeof next === 'object' && next !== null)
    setPath(next as Record<string, unknown>, rest, value);
}

/** A journal at a marker's journal key: a real one, an almost-real one, or anything. */
export const hostileJournal: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('datadriver.trade', 'other'),
    id: fc.oneof(fc.constantFrom('t1', 't2'), hostileText),
    state: fc.constantFrom('prepared', 'committed', 'aborted', 'odd'),
    entries: objectOf(fc.oneof(objectOf(fc.jsonValue({ maxDepth: 2 })), oddValue)),
    time: fc.oneof(fc.constant(0), oddValue),
  }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** The token of the first held profile, filled in when a message is published. */
export const HELD_TOKEN = '<held token>';

/** The keys of the two profiles a run holds, filled in when a message is published. */
export const HELD_KEYS = ['<held key 1>', '<held key 2>'] as const;

/** The wire format with each field right or hostile: the messages a handoff must sort out. */
function wireMessage(requiredKeys: Array<'T' | 'D' | 'K' | 'R' | 'L' | 'S'>): fc.Arbitrary<string> {
  return fc
    .record(
      {
        T: fc.constantFrom('Q', 'Q', 'R', 'X', 1),
        D: fc.oneof(fc.constant('PlayerData'), hostileText),
        K: fc.oneof(fc.constantFrom(...HELD_KEYS), hostileText),
        R: fc.oneof(fc.constant('B'), hostileText),
        L: fc.oneof(fc.constant(HELD_TOKEN), hostileText, oddValue),
        S: hostileText,
      },
      { requiredKeys },
    )
    .map((message) => JSON.stringify(message));
}

/** A raw handoff payload: the wire format with hostile fields, any JSON, or not JSON at all. */
export const hostileMessage: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: wireMessage(['T', 'D', 'K', 'R']), weight: 4 },
  { arbitrary: wireMessage([]), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)), weight: 1 },
  { arbitrary: fc.string({ unit: codeUnit, maxLength: 40 }), weight: 1 },
  {
    arbitrary: fc.constant(
      JSON.stringify({ T: 'Q', D: 'PlayerData', K: HELD_KEYS[0], R: 'B', pad: 'x'.repeat(1100) }),
    ),
    weight: 1,
  },
);
