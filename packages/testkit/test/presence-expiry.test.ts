import type { Presence, PresenceEntry } from '@datadriver/core/ports';
import { describe, expect, it } from 'vitest';
import { presenceExpiry } from '../src/cluster/index.js';

function scanning(entries: PresenceEntry[], scan = true): Presence {
  return {
    specificationVersion: 'v1',
    set: async () => undefined,
    get: async () => undefined,
    ...(scan && {
      async *scan() {
        yield* entries;
      },
    }),
  };
}

describe('presenceExpiry', () => {
  it("is the key's remaining TTL on the backend's clock, counted from before the scan", async () => {
    const before = performance.now();
    const presence = scanning([
      { key: 'other', value: '1', expiresInMs: 50 },
      { key: 'A', value: '1', expiresInMs: 700 },
    ]);
    const expiresAt = await presenceExpiry(presence, 'A');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 700);
    expect(expiresAt).toBeLessThanOrEqual(performance.now() + 700);
  });

  it('refuses a presence with no expiry to report, a key with none, or no key', async () => {
    await expect(presenceExpiry(scanning([], false), 'A')).rejects.toThrow(/cannot scan/);
    await expect(presenceExpiry(scanning([{ key: 'A', value: '1' }]), 'A')).rejects.toThrow(
      /no expiry on the backend's own clock/,
    );
    await expect(presenceExpiry(scanning([]), 'A')).rejects.toThrow(/no presence of A/);
  });
});
