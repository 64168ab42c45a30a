/**
 * HMACs keyed ahead of use (keyed-hmacs.ts) make the very signatures `createHmac` makes at the
 * moment of use: the wire is unchanged, so a fleet that mixes builds checks them alike.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyedHmacs } from '../src/handoff/keyed-hmacs.js';
import { Signer } from '../src/handoff/signing.js';
import { replyMessage, requestMessage } from '../src/handoff/wire.js';

const KEY = 'a fleet key of sixteen bytes or more';
const afterThisTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const hmacOf = (text: string) =>
  createHmac('sha256', Buffer.from(KEY, 'utf8')).update(text).digest('base64url');

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('signatures with HMACs keyed ahead', () => {
  it('are the wire values every build computed: S and SH of a request and of a handing reply', async () => {
    const signer = new Signer({ key: KEY });
    const handed = { token: 'h-b', version: 'v7', json: '{"data":{},"meta":{"version":7}}' };
    // Twice: the first signs with HMACs keyed at use, the second with ones keyed ahead.
    for (let turn = 0; turn < 2; turn++) {
      const request = requestMessage(
        'PlayerData',
        'player-1',
        'server-b',
        'lock-a',
        undefined,
        'h-b',
      );
      expect(signer.sign(request)).toMatchObject({
        S: 'oKRs325vPgw8jVMcU-BlnsqLhvgsJlWO355EV41V-n0',
        SH: 'svv8ednru6GAuMa0RiNltW_HnPhuNLjBWjjM6XE0XdA',
      });
      expect(signer.sign(replyMessage('PlayerData', 'player-1', handed))).toMatchObject({
        S: 'hivtrPxekDwCD_lKyw1VPS23Boxk4MPgi-dQmPuIWqI',
        SH: 'W1vutmPhXaEKac0u4bfEg-a5OMU4bz_0obr-TVQuLX4',
      });
      await afterThisTurn();
    }
  });

  it('sign exactly as createHmac over the same fields, in one turn and across turns', async () => {
    const signer = new Signer({ key: KEY });
    // More messages in one turn than are keyed ahead: the rest are keyed on the spot.
    for (let turn = 0; turn < 3; turn++) {
      for (let n = 0; n < 5; n++) {
        const request = requestMessage('PlayerData', `player-${n}`, 'server-b', `lock-${turn}`);
        const signed = signer.sign(request);
        expect(signed.S).toBe(
          hmacOf(JSON.stringify(['Q', 'PlayerData', `player-${n}`, 'server-b', `lock-${turn}`])),
        );
        const reply = signer.sign(replyMessage('PlayerData', `player-${n}`));
        expect(reply.S).toBe(hmacOf(JSON.stringify(['R', 'PlayerData', `player-${n}`])));
      }
      await afterThisTurn();
    }
  });

  it('use the key as it was given, even when the caller changes its bytes after', async () => {
    const bytes = Buffer.from(KEY, 'utf8');
    const signer = new Signer({ key: bytes });
    signer.sign(replyMessage('PlayerData', 'player-0'));
    await afterThisTurn(); // two keyed ahead, under the key as given
    bytes.fill(0);
    // Two keyed ahead, then one keyed at its use: all three under the key as given.
    for (const player of ['player-1', 'player-2', 'player-3']) {
      expect(signer.sign(replyMessage('PlayerData', player)).S).toBe(
        hmacOf(JSON.stringify(['R', 'PlayerData', player])),
      );
    }
  });
});

describe('HMACs keyed ahead', () => {
  const key = Buffer.from(KEY, 'utf8');

  it('key nothing until one is taken: a signer made only to check a key costs no HMAC', () => {
    expect(new KeyedHmacs(key).ready).toBe(0);
  });

  it('hand out a fresh HMAC each time, and are keyed again after the turn that took them', async () => {
    const hmacs = new KeyedHmacs(key);
    hmacs.take().update('warm').digest();
    await afterThisTurn();
    expect(hmacs.ready).toBe(2);
    const taken = [hmacs.take(), hmacs.take(), hmacs.take()];
    expect(hmacs.ready).toBe(0);
    expect(new Set(taken).size).toBe(3);
    expect(taken.map((hmac) => hmac.update('x').digest('base64url'))).toEqual([
      hmacOf('x'),
      hmacOf('x'),
      hmacOf('x'),
    ]);
    await afterThisTurn();
    expect(hmacs.ready).toBe(2);
    const next = hmacs.take();
    expect(taken).not.toContain(next);
    expect(next.update('y').digest('base64url')).toBe(hmacOf('y'));
  });

  it('key ahead again after a refill that never ran (fake timers switched off before it)', async () => {
    const hmacs = new KeyedHmacs(key);
    vi.useFakeTimers();
    hmacs.take();
    vi.useRealTimers(); // the queued refill is dropped with the fake clock
    await afterThisTurn();
    expect(hmacs.ready).toBe(0);
    hmacs.take();
    await afterThisTurn();
    expect(hmacs.ready).toBe(2);
  });

  it('without setImmediate, key each HMAC at its use and queue nothing', () => {
    vi.stubGlobal('setImmediate', undefined);
    const hmacs = new KeyedHmacs(key);
    expect(hmacs.take().update('z').digest('base64url')).toBe(hmacOf('z'));
    expect(hmacs.take().update('z').digest('base64url')).toBe(hmacOf('z'));
    expect(hmacs.ready).toBe(0);
  });
});
