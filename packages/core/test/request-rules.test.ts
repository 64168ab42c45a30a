import { describe, expect, it } from 'vitest';
import type { RequestAction } from '../src/index.js';
import { decideRequest, type RequestFacts } from '../src/rules/request-rules.js';

type Session = NonNullable<RequestFacts['session']>;
const session = (overrides: Partial<Session> = {}): Session => ({
  token: 'held',
  state: 'active',
  writing: false,
  player: true,
  full: false,
  ...overrides,
});

// The holder's answer to a request `{ L: token }`, one row per rule of the seed.
const rows: Array<[string, RequestFacts, RequestAction]> = [
  ['nothing here: reply', { token: 'held', attached: true }, 'reply'],
  ['no token, nothing here: reply', { token: undefined, attached: true }, 'reply'],
  [
    'a released session: reply',
    { token: 'held', session: session({ state: 'inactive' }), attached: true },
    'reply',
  ],
  [
    'a newer lock here than the one named (the player came back): reply',
    { token: 'older', session: session(), attached: true },
    'reply',
  ],
  ['a live player, attached: kick', { token: 'held', session: session(), attached: true }, 'kick'],
  [
    'a live player, no token named: kick',
    { token: undefined, session: session(), attached: true },
    'kick',
  ],
  [
    'a profile no player holds (a manual load): release',
    { token: 'held', session: session({ player: false }), attached: true },
    'release',
  ],
  [
    'a player, but the driver is detached: release',
    { token: 'held', session: session(), attached: false },
    'release',
  ],
  [
    'a kicked player not gone yet: wait for the release',
    { token: 'held', session: session({ state: 'ending' }), attached: true },
    'await-release',
  ],
  [
    'the leave save is running: wait for it',
    { token: 'held', session: session({ state: 'leaving', writing: true }), attached: true },
    'await-release',
  ],
  [
    'the leave save failed (retained), nothing running: retry it now',
    { token: 'held', session: session({ state: 'retained' }), attached: true },
    'retry-release',
  ],
  [
    'retained, a write still running: wait for it',
    { token: 'held', session: session({ state: 'retained', writing: true }), attached: true },
    'await-release',
  ],
  [
    'a session with 16 other requesters already: ignored',
    { token: 'held', session: session({ full: true }), attached: true },
    'ignored',
  ],
  [
    'a load in flight that wrote the lock named: wait for it',
    { token: 'new', load: { token: 'new', full: false }, attached: true },
    'await-load',
  ],
  [
    'a load in flight, no token named: wait for it',
    { token: undefined, load: { token: 'new', full: false }, attached: true },
    'await-load',
  ],
  [
    'a load in flight with 16 other requesters: ignored',
    { token: 'new', load: { token: 'new', full: true }, attached: true },
    'ignored',
  ],
  [
    'a load in flight, the request names an older lock: reply',
    { token: 'older', load: { token: 'new', full: false }, attached: true },
    'reply',
  ],
  [
    'a load in flight naming an older lock the leaving session holds: wait for that release',
    {
      token: 'held',
      load: { token: 'new', full: false },
      session: session({ state: 'leaving' }),
      attached: true,
    },
    'await-release',
  ],
];

describe('decideRequest', () => {
  it.each(rows)('%s', (_name, facts, action) => {
    expect(decideRequest(facts)).toBe(action);
  });
});
