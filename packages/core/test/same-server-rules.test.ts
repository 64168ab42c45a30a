import { describe, expect, it } from 'vitest';
import {
  decideSameServer,
  type SameServerDecision,
  type SameServerFacts,
} from '../src/rules/same-server.js';

type Session = NonNullable<SameServerFacts['session']>;
const session = (overrides: Partial<Session> = {}): Session => ({
  state: 'active',
  writing: false,
  traded: false,
  otherPlayer: false,
  ...overrides,
});

// A load's same-server decision, one row per rule.
const rows: Array<[string, SameServerFacts, SameServerDecision]> = [
  ['nothing here: reserve', { loading: false, remainingMs: 0 }, { kind: 'reserve' }],
  [
    'a released session: reserve',
    { loading: false, session: session({ state: 'inactive' }), remainingMs: 1_000 },
    { kind: 'reserve' },
  ],
  [
    'a load in flight: wait for it',
    { loading: true, remainingMs: 1_000 },
    { kind: 'wait', reason: 'local-load' },
  ],
  [
    'a load in flight, the wait ran out: give up',
    { loading: true, remainingMs: 0 },
    { kind: 'give-up', reason: 'local-load' },
  ],
  [
    'a load in flight and a retained profile: wait for the load, no adoption',
    { loading: true, session: session({ state: 'retained' }), remainingMs: 1_000 },
    { kind: 'wait', reason: 'local-load' },
  ],
  [
    'a live session: wait for it',
    { loading: false, session: session(), remainingMs: 1_000 },
    { kind: 'wait', reason: 'local-session' },
  ],
  [
    'a kicked session not gone yet: wait for it',
    { loading: false, session: session({ state: 'ending' }), remainingMs: 1_000 },
    { kind: 'wait', reason: 'local-session' },
  ],
  [
    'a leave save running: wait for it',
    { loading: false, session: session({ state: 'leaving', writing: true }), remainingMs: 1 },
    { kind: 'wait', reason: 'local-release' },
  ],
  [
    'a leave save running, the wait ran out: give up',
    { loading: false, session: session({ state: 'leaving' }), remainingMs: -5 },
    { kind: 'give-up', reason: 'local-release' },
  ],
  [
    'retained, nothing running, no trade: adopt',
    { loading: false, session: session({ state: 'retained' }), remainingMs: 1_000 },
    { kind: 'adopt' },
  ],
  [
    'retained, the wait already ran out: adopt all the same (no wait needed)',
    { loading: false, session: session({ state: 'retained' }), remainingMs: 0 },
    { kind: 'adopt' },
  ],
  [
    'retained, its release retry running: wait for it',
    { loading: false, session: session({ state: 'retained', writing: true }), remainingMs: 1_000 },
    { kind: 'wait', reason: 'local-release' },
  ],
  [
    'retained, a trade holds it: wait for the trade',
    { loading: false, session: session({ state: 'retained', traded: true }), remainingMs: 1_000 },
    { kind: 'wait', reason: 'local-release' },
  ],
  [
    'the same player connected again, the older connection plays on: replace it',
    { loading: false, session: session({ otherPlayer: true }), remainingMs: 1_000 },
    { kind: 'replace' },
  ],
  [
    'the older connection already kicked: wait for its leave',
    { loading: false, session: session({ state: 'ending', otherPlayer: true }), remainingMs: 1 },
    { kind: 'wait', reason: 'local-session' },
  ],
  [
    'the older connection leaving: wait for its leave save',
    { loading: false, session: session({ state: 'leaving', otherPlayer: true }), remainingMs: 1 },
    { kind: 'wait', reason: 'local-release' },
  ],
  [
    'the same player connected again, no same-server wait left: give up',
    { loading: false, session: session({ otherPlayer: true }), remainingMs: 0 },
    { kind: 'give-up', reason: 'local-session' },
  ],
];

describe('decideSameServer', () => {
  it.each(rows)('%s', (_name, facts, decision) => {
    expect(decideSameServer(facts)).toEqual(decision);
  });
});
