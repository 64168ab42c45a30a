/**
 * The optional scans of a Store (`store.scan`) and a Presence (`presence.scan`): what the CLI's
 * `find-user` and `servers` list. Run by the conformance suites when the harness says its
 * adapter offers them.
 */
import type { Presence, PresenceEntry, Store } from '@datadriver/core/ports';
import { expect, it } from 'vitest';

async function collect<T>(iterable: AsyncIterable<T> | undefined): Promise<T[]> {
  if (!iterable) throw new Error('the harness declared scan, but the adapter has none');
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

export function storeScanConformance(store: () => Store, key: (name: string) => string): void {
  it('scans the keys stored under a prefix: none deleted, none outside it, pattern characters as text', async () => {
    // Glob and regex characters in the prefix must match only themselves.
    const prefix = key('scan*?[a]\\/');
    const inside = ['a', 'b c', 'ünï/cødé', 'x*'].map((name) => `${prefix}${name}`);
    for (const target of [...inside, `${prefix}gone`]) {
      await store().update(target, () => ({ n: 1 }));
    }
    await store().update(`${prefix}gone`, () => null);
    // Outside the prefix: a sibling that a glob `*` or `?` would match, and a shorter key.
    await store().update(key('scanX?[a]\\/a'), () => ({ n: 1 }));
    await store().update(key('scan'), () => ({ n: 1 }));
    const scanned = new Set(await collect(store().scan?.(prefix)));
    expect([...scanned].sort()).toEqual([...inside].sort());
  });

  it('scans nothing under a prefix no key has', async () => {
    expect(await collect(store().scan?.(key('scan-nothing/')))).toEqual([]);
  });
}

export function presenceScanConformance(
  writer: () => Presence,
  reader: () => Presence,
  key: (name: string) => string,
  sleep: (ms: number) => Promise<unknown>,
): void {
  it('scans the live keys with their values, and not one past its TTL', async () => {
    await writer().set(key('scan-a'), 'one', 10);
    await writer().set(key('scan-b'), 'two', 10);
    await writer().set(key('scan-short'), '1', 1);
    const ours = async () => {
      const entries = await collect(reader().scan?.());
      return new Map<string, PresenceEntry>(
        entries.filter((entry) => entry.key.startsWith(key('scan-'))).map((e) => [e.key, e]),
      );
    };
    const first = await ours();
    expect([...first.keys()].sort()).toEqual([key('scan-a'), key('scan-b'), key('scan-short')]);
    expect(first.get(key('scan-a'))?.value).toBe('one');
    for (const entry of first.values()) {
      if (entry.expiresInMs === undefined) continue;
      expect(entry.expiresInMs).toBeGreaterThan(0);
      expect(entry.expiresInMs).toBeLessThanOrEqual(10_000);
    }
    await sleep(1_300);
    const later = await ours();
    expect([...later.keys()].sort()).toEqual([key('scan-a'), key('scan-b')]);
    expect(later.get(key('scan-b'))?.value).toBe('two');
  }, 30_000);
}
