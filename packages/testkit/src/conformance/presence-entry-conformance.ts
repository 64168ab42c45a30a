/**
 * The optional `Presence.getEntry`: what `get` reads, with the ms until `get` would answer
 * none. A joiner waiting on a stopped server reads again then, so the time told must be no
 * later than the real expiry by more than the TTL counts, and no earlier than it: a read at
 * the time told must find the key gone, and a read well before must still find it.
 */
import type { Presence } from '@datadriver/core';
import { expect, it } from 'vitest';

export function presenceEntryConformance(
  writer: () => Presence,
  reader: () => Presence,
  key: (name: string) => string,
  sleep: (ms: number) => Promise<unknown>,
): void {
  const entryOf = (name: string) => {
    const getEntry = reader().getEntry?.bind(reader());
    if (!getEntry) throw new Error('the adapter offers no getEntry');
    return getEntry(key(name));
  };

  it('getEntry reads the value with the ms its key has left, and undefined for a key never set', async () => {
    await writer().set(key('entry'), 'one', 10);
    const entry = await entryOf('entry');
    expect(entry?.key).toBe(key('entry'));
    expect(entry?.value).toBe('one');
    expect(entry?.expiresInMs).toBeGreaterThan(8_000);
    expect(entry?.expiresInMs).toBeLessThanOrEqual(10_000);
    expect(await entryOf('entry-never')).toBeUndefined();
  });

  it('getEntry tells when get will answer none: present before, gone after', async () => {
    await writer().set(key('entry-expiring'), '1', 1);
    const entry = await entryOf('entry-expiring');
    const left = entry?.expiresInMs ?? Number.NaN;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(1_000);
    await sleep(Math.max(0, left - 400));
    expect(await reader().get(key('entry-expiring'))).toBe('1');
    await sleep(600);
    expect(await reader().get(key('entry-expiring'))).toBeUndefined();
    expect(await entryOf('entry-expiring')).toBeUndefined();
  }, 30_000);

  it('getEntry counts from the newest set: a beat restarts the time left', async () => {
    await writer().set(key('entry-beat'), '1', 2);
    await sleep(700);
    await writer().set(key('entry-beat'), '2', 2);
    const entry = await entryOf('entry-beat');
    expect(entry?.value).toBe('2');
    expect(entry?.expiresInMs).toBeGreaterThan(1_500);
  }, 30_000);
}
