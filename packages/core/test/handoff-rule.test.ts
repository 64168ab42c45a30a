import { describe, expect, it } from 'vitest';
import { type HandoffRuleInput, handoffByDefault } from '../src/rules/handoff-rule.js';

const live: HandoffRuleInput = {
  option: 'default',
  testJobId: false,
  hostJobId: 'job-1',
  sharedStore: true,
  sharedMessenger: true,
  sharedPresence: true,
};

// The seed's "When it is on", one row per condition.
const rows: Array<[string, Partial<HandoffRuleInput>, boolean]> = [
  ['a live server with shared ports', {}, true],
  ['handoff: false', { option: 'off' }, false],
  ['a test jobId in the config', { testJobId: true }, false],
  ['an empty host jobId', { hostJobId: '' }, false],
  ['the in-memory store', { sharedStore: false }, false],
  ['an in-memory or missing messenger', { sharedMessenger: false }, false],
  ['an in-memory or missing presence', { sharedPresence: false }, false],
  [
    'an instance given, with a test jobId and memory ports',
    { option: 'instance', testJobId: true, sharedStore: false },
    true,
  ],
];

describe('handoffByDefault', () => {
  it.each(rows)('%s', (_name, overrides, expected) => {
    expect(handoffByDefault({ ...live, ...overrides })).toBe(expected);
  });
});
