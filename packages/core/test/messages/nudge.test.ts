import { describe, expect, it } from 'vitest';
import { parseHandoffMessage, requestMessage } from '../../src/handoff/wire.js';
import {
  nudgeMessage,
  type PassState,
  parseNudge,
  passEnded,
  passRequested,
} from '../../src/rules/messages/index.js';
import { olderParseHandoffMessage } from './older-wire.js';

describe('the nudge on the handoff topic', () => {
  it('is dropped by a server of an older build, which reads requests and replies as this one does', () => {
    expect(olderParseHandoffMessage(nudgeMessage('PlayerData', 'p1'))).toBeUndefined();
    for (const message of [requestMessage('d', 'k', 'job-1', 'tok'), { T: 'R', D: 'd', K: 'k' }]) {
      expect(olderParseHandoffMessage(message)).toEqual(parseHandoffMessage(message));
    }
  });

  it('is read by this build; a type this build does not know is ignored, as older builds do', () => {
    expect(parseHandoffMessage(nudgeMessage('PlayerData', 'p1'))).toEqual({
      T: 'M',
      D: 'PlayerData',
      K: 'p1',
    });
    expect(parseHandoffMessage({ T: 'X', D: 'PlayerData', K: 'p1' })).toBeUndefined();
  });

  it.each<[string, unknown, unknown]>([
    ['a nudge', { T: 'M', D: 'PlayerData', K: 'p1' }, { T: 'M', D: 'PlayerData', K: 'p1' }],
    [
      'a signed nudge (the signature is checked by the gate)',
      { T: 'M', D: 'd', K: 'k', S: 'x' },
      { T: 'M', D: 'd', K: 'k' },
    ],
    ['a request', requestMessage('d', 'k', 'job-1'), undefined],
    ['a reply', { T: 'R', D: 'd', K: 'k' }, undefined],
    ['no driver', { T: 'M', K: 'k' }, undefined],
    ['an empty key', { T: 'M', D: 'd', K: '' }, undefined],
    ['a key with a lone surrogate', { T: 'M', D: 'd', K: '\uD800' }, undefined],
    ['a numeric key', { T: 'M', D: 'd', K: 7 }, undefined],
    ['a list', ['M', 'd', 'k'], undefined],
    ['null', null, undefined],
  ])('reads %s', (_, value, expected) => {
    expect(parseNudge(value)).toEqual(expected);
  });
});

describe('passes asked for by nudges and autosaves', () => {
  it.each<[string, PassState, PassState, boolean]>([
    ['idle: a pass starts', 'idle', 'running', true],
    ['running: one more pass is owed', 'running', 'running-then-again', false],
    ['already owed one: still one', 'running-then-again', 'running-then-again', false],
  ])('a request when %s', (_, state, next, start) => {
    expect(passRequested(state)).toEqual({ state: next, start });
  });

  it.each<[string, PassState, PassState, boolean]>([
    ['one is owed: it starts', 'running-then-again', 'running', true],
    ['none is owed: idle', 'running', 'idle', false],
  ])('a pass ends when %s', (_, state, next, start) => {
    expect(passEnded(state)).toEqual({ state: next, start });
  });

  it('makes two passes for any number of nudges during one', () => {
    let state: PassState = 'idle';
    let started = 0;
    const request = (): void => {
      const next = passRequested(state);
      state = next.state;
      if (next.start) started += 1;
    };
    request();
    for (let nudge = 0; nudge < 50; nudge += 1) request();
    let ended = passEnded(state);
    state = ended.state;
    if (ended.start) started += 1;
    ended = passEnded(state);
    state = ended.state;
    expect({ started, state }).toEqual({ started: 2, state: 'idle' });
  });
});
