/**
 * A hand-over token's signature (`SH`) covers the request's own (`S`): each side computes `S`
 * once, not again for `SH`. Counted at `createHmac`.
 */
import { describe, expect, it, vi } from 'vitest';

const hmacs = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  return {
    ...crypto,
    createHmac: (...args: Parameters<typeof crypto.createHmac>) => {
      hmacs.count += 1;
      return crypto.createHmac(...args);
    },
  };
});

const { Signer } = await import('../src/handoff/signing.js');
const { parseHandoffMessage, requestMessage } = await import('../src/handoff/wire.js');

describe('signing a request with a hand-over token', () => {
  const signer = new Signer({ key: 'a fleet key of sixteen bytes or more' });
  const request = requestMessage('PlayerData', 'player-1', 'server-b', 'lock-a', undefined, 'h-b');

  it('computes two HMACs to sign it (S, then SH over S) and two to check it', () => {
    hmacs.count = 0;
    const signed = signer.sign(request);
    expect(hmacs.count).toBe(2);
    hmacs.count = 0;
    const raw = JSON.parse(JSON.stringify(signed)) as unknown;
    const arrived = parseHandoffMessage(raw)!;
    expect(arrived.T).toBe('Q');
    if (arrived.T !== 'Q') return;
    expect(signer.check(arrived, signed.S)).toBe('valid');
    expect(signer.checkHandTo(arrived, 'h-b', (signed as { SH?: string }).SH)).toBe('valid');
    expect(hmacs.count).toBe(2);
  });

  it('a token moved onto another request fails however the signatures were computed before', () => {
    const signed = signer.sign(request) as typeof request & { S: string; SH: string };
    const other = requestMessage('PlayerData', 'player-2', 'server-b', 'lock-a', undefined, 'h-b');
    expect(signer.check(other, signed.S)).toBe('invalid');
    expect(signer.checkHandTo(other, 'h-b', signed.SH)).toBe('invalid');
    expect(signer.checkHandTo(request, 'h-other', signed.SH)).toBe('invalid');
  });
});
