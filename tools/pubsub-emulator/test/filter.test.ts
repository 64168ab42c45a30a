import { describe, expect, it } from 'vitest';
import { type Attributes, FilterSyntaxError, matchesFilter, parseFilter } from '../src/filter.js';

const order: Attributes = { kind: 'order', region: 'eu-west', 'ce-type': 'a.b', 'odd key': 'x' };
const refund: Attributes = { kind: 'refund', region: 'us-east' };
const bare: Attributes = {};

/** [filter, order matches, refund matches, bare matches] */
const MATCHES: Array<[string, boolean, boolean, boolean]> = [
  ['', true, true, true],
  ['attributes.kind = "order"', true, false, false],
  ["attributes.kind = 'order'", true, false, false],
  ['attributes.kind != "order"', false, true, true],
  ['attributes:kind', true, true, false],
  ['attributes:"odd key"', true, false, false],
  ['attributes."odd key" = "x"', true, false, false],
  ['attributes.ce-type = "a.b"', true, false, false],
  ['hasPrefix(attributes.region, "eu-")', true, false, false],
  ['hasPrefix(attributes.region, "")', true, true, false],
  ['NOT attributes:kind', false, false, true],
  ['-attributes:kind', false, false, true],
  ['NOT NOT attributes:kind', true, true, false],
  ['attributes:kind AND attributes.region = "us-east"', false, true, false],
  ['attributes.kind = "order" OR attributes.kind = "refund"', true, true, false],
  ['attributes:a OR attributes:b OR attributes:kind', true, true, false],
  [
    '(attributes.kind = "order" OR attributes.kind = "refund") AND NOT attributes:ce-type',
    false,
    true,
    false,
  ],
  [
    'attributes:kind AND (hasPrefix(attributes.region, "us") OR attributes:ce-type)',
    true,
    true,
    false,
  ],
  ['NOT (attributes:kind AND attributes.region = "eu-west")', false, true, true],
  ['attributes.kind = "\\x6frder"', true, false, false],
  ['attributes.kind = "\\u006frder"', true, false, false],
  ['  attributes.kind="order"  ', true, false, false],
  ['attributes.missing != "x"', true, true, true],
];

const INVALID = [
  'attributes.kind = order', // values must be string literals
  'attributes.kind == "order"',
  'attributes.kind = "order', // unterminated
  'attributes:a AND attributes:b OR attributes:c', // AND and OR need parentheses
  'attributes:a OR attributes:b AND attributes:c',
  '(attributes:a',
  'attributes:a)',
  'attributes',
  'data = "x"',
  'hasPrefix(attributes.kind)',
  'hasPrefix(kind, "x")',
  'attributes:a and attributes:b', // operators are upper case
  'attributes.kind = "\\q"',
  'attributes:a AND',
  `attributes.k = "${'x'.repeat(260)}"`, // over 256 bytes
];

describe('parseFilter / matchesFilter', () => {
  it.each(MATCHES)('%s', (filter, onOrder, onRefund, onBare) => {
    const node = parseFilter(filter);
    expect([order, refund, bare].map((attributes) => matchesFilter(node, attributes))).toEqual([
      onOrder,
      onRefund,
      onBare,
    ]);
  });

  it.each(INVALID)('rejects %s', (filter) => {
    expect(() => parseFilter(filter)).toThrow(FilterSyntaxError);
  });

  it('returns null for a blank filter, which matches everything', () => {
    expect(parseFilter('   ')).toBeNull();
  });

  it('builds a flat AND/OR node and stores != as NOT =', () => {
    expect(
      parseFilter('attributes:a AND attributes.b != "1" AND hasPrefix(attributes.c, "p")'),
    ).toEqual({
      kind: 'and',
      operands: [
        { kind: 'has', key: 'a' },
        { kind: 'not', operand: { kind: 'equals', key: 'b', value: '1' } },
        { kind: 'prefix', key: 'c', prefix: 'p' },
      ],
    });
  });
});
