import { describe, expect, it } from 'vitest';
import {
  isActive,
  nextState,
  type SessionState,
  type SessionTransition,
} from '../src/rules/session-state.js';

// Every state and transition: where the session goes, or `undefined` when it does not apply.
const rows: Array<[SessionState, SessionTransition, SessionState | undefined]> = [
  ['active', 'kick', 'ending'],
  ['active', 'leave', 'leaving'],
  ['active', 'leave-failed', undefined],
  ['active', 'adopt', undefined],
  ['active', 'released', 'inactive'],
  ['active', 'erased', 'inactive'],
  ['active', 'lost', 'inactive'],
  ['ending', 'kick', undefined],
  ['ending', 'leave', 'leaving'],
  ['ending', 'adopt', undefined],
  ['ending', 'erased', 'inactive'],
  ['ending', 'lost', 'inactive'],
  ['leaving', 'kick', undefined],
  ['leaving', 'leave', undefined],
  ['leaving', 'leave-failed', 'retained'],
  ['leaving', 'adopt', undefined],
  ['leaving', 'released', 'inactive'],
  ['leaving', 'lost', 'inactive'],
  ['retained', 'kick', undefined],
  ['retained', 'leave', 'leaving'],
  ['retained', 'leave-failed', undefined],
  ['retained', 'adopt', 'active'],
  ['retained', 'lost', 'inactive'],
  ['inactive', 'kick', undefined],
  ['inactive', 'leave', undefined],
  ['inactive', 'adopt', undefined],
  ['inactive', 'released', undefined],
  ['inactive', 'erased', undefined],
  ['inactive', 'lost', undefined],
];

describe('session states', () => {
  it.each(rows)('%s, %s: %s', (state, transition, next) => {
    expect(nextState(state, transition)).toBe(next);
  });

  it.each<[SessionState, boolean]>([
    ['active', true],
    ['ending', true],
    ['leaving', false],
    ['retained', false],
    ['inactive', false],
  ])('%s accepts changes: %s', (state, active) => {
    expect(isActive(state)).toBe(active);
  });
});
