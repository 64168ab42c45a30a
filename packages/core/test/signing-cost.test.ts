/**
 * A hand-over token's signature (`SH`) covers the request's own (`S`): each side computes `S`
 * once (an HMAC), not again for `SH`.
 */
import { describe, expect, it, vi } from 'vitest';
import { Signer } from '../src/handoff/signing.js';
import {
  type HandoffReply,
  parseHandoffMessage,
  replyMessage,
  requestMessage,
} from '../src/handoff/wire.js';

describe('signing a request with a hand-over token', () => {
  const signer = new Signer({ key: 'a fleet key of sixteen bytes or more' });
  const request = requestMessage('PlayerData', 'player-1', 'server-b', 'lock-a', undefined, 'h-b');

  it("computes the request's own signature once to sign it, and once to check it", () => {
    // Private: what this test counts is the HMAC over the request's fields.
    const computed = vi.spyOn(
      Signer.prototype as unknown as { computeSignatureOf: () => string },
      'computeSignatureOf',
    );
    try {
      const signed = signer.sign(request) as typeof request & { S: string; SH: string };
      expect(computed).toHaveBeenCalledTimes(1);
      computed.mockClear();
      const arrived = parseHandoffMessage(JSON.parse(JSON.stringify(signed)) as unknown);
      if (arrived?.T !== 'Q') throw new Error('not a request');
      expect(signer.check(arrived, signed.S)).toBe('valid');
      expect(signer.checkHandOver(arrived, signed.SH)).toBe('valid');
      expect(computed).toHaveBeenCalledTimes(1);
    } finally {
      computed.mockRestore();
    }
  });

  it('a token moved onto another request, or another token, fails', () => {
    const signed = signer.sign(request) as typeof request & { S: string; SH: string };
    const other = requestMessage('PlayerData', 'player-2', 'server-b', 'lock-a', undefined, 'h-b');
    expect(signer.check(other, signed.S)).toBe('invalid');
    expect(signer.checkHandOver(other, signed.SH)).toBe('invalid');
    expect(signer.checkHandOver({ ...request, H: 'h-other' }, signed.SH)).toBe('invalid');
  });
});

describe('signing a reply that hands a record over', () => {
  const signer = new Signer({ key: 'a fleet key of sixteen bytes or more' });
  const handed = { token: 'h-b', version: 'v7', json: '{"data":{},"meta":{"version":7}}' };

  it("keeps the reply's own signature: a build that predates the record checks S as before", () => {
    const signed = signer.sign(replyMessage('PlayerData', 'player-1', handed));
    expect(signed.S).toBe(signer.sign(replyMessage('PlayerData', 'player-1')).S);
    const older = parseHandoffMessage({ T: signed.T, D: signed.D, K: signed.K });
    expect(older && signer.check(older, signed.S)).toBe('valid');
  });

  it('signs the record, its version and its token: any of them changed, or moved to another reply, fails', () => {
    const reply = replyMessage('PlayerData', 'player-1', handed);
    const signed = signer.sign(reply) as unknown as HandoffReply & { SH: string };
    expect(signer.checkHandOver(signed, signed.SH)).toBe('valid');
    for (const other of [
      replyMessage('PlayerData', 'player-1', { ...handed, token: 'h-c' }),
      replyMessage('PlayerData', 'player-1', { ...handed, version: 'v8' }),
      replyMessage('PlayerData', 'player-1', { ...handed, json: '{"data":{"coins":1}}' }),
      replyMessage('PlayerData', 'player-2', handed),
    ]) {
      expect(signer.checkHandOver(other, signed.SH)).toBe('invalid');
    }
    expect(signer.checkHandOver(signed, undefined)).toBe('unsigned');
  });
});
