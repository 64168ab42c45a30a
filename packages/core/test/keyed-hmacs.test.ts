/**
 * HMACs keyed ahead of use (keyed-hmacs.ts) make the very signatures `createHmac` makes at the
 * moment of use: the wire is unchanged, so a fleet that mixes builds checks them alike.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyedHmacs } from '../src/handoff/keyed-hmacs.js';
import { Signer } from '../src/handoff/signing.js';
import { replyMessage, requestMessage } from '../src/handoff/wire.js';

const KEY = 'a fleet key of sixteen bytes or more';
const afterThisTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const hmacOf = (text: string) =>
  createHmac('sha256', Buffer.from(KEY, 'utf8')).update(text).digest('base64url');

describe('HMACs keyed ahead', () => {
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

  it('hand out a fresh HMAC each time, and are keyed again after the turn that took them', async () => {
    const hmacs = new KeyedHmacs(Buffer.from(KEY, 'utf8'));
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
});
