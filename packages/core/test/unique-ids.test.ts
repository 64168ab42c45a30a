/**
 * The ids a process makes (`ports/unique-ids.ts`): store versions, and the lock tokens and
 * trade ids a driver makes without a `createId`. Each count's id is one width, whatever its
 * digits; the ids a process makes are unique and in order.
 */
import { describe, expect, it } from 'vitest';
import { nextUniqueId, nextVersionId, uniqueId } from '../src/ports/unique-ids.js';
import { stored, testBed } from './helpers.js';

const ID = /^[A-Za-z0-9_-]{12}\.[0-9a-z]{11}$/;

describe('the ids a process makes', () => {
  it.each([
    [1, 'p.00000000001'],
    [35, 'p.0000000000z'],
    [36, 'p.00000000010'],
    [1_295, 'p.000000000zz'],
    [1_296, 'p.00000000100'],
    [Number.MAX_SAFE_INTEGER, 'p.2gosa7pa2gv'],
  ])('count %d is %s: its base-36 digits padded to 11', (count, id) => {
    expect(uniqueId('p.', count)).toBe(id);
  });

  it('are 24 characters of one form, unique and in order (50,000, versions and ids alike)', () => {
    const ids = Array.from({ length: 50_000 }, (_, index) =>
      index % 2 === 0 ? nextUniqueId() : nextVersionId(),
    );
    expect(ids.filter((id) => !ID.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(0, 13))).size).toBe(1);
    const unordered = ids.filter((id, index) => index > 0 && !(id > (ids[index - 1] as string)));
    expect(unordered).toEqual([]);
  });

  it('count one by one, across the 36s where an id’s head is made again', () => {
    const counts = Array.from({ length: 200 }, () => Number.parseInt(nextUniqueId().slice(13), 36));
    const steps = counts.slice(1).map((count, index) => count - (counts[index] as number));
    expect(steps).toEqual(Array.from({ length: 199 }, () => 1));
    expect(counts.some((count) => count % 36 === 0)).toBe(true);
  });

  it('are a driver’s lock tokens when it is given no createId: each load’s token its own', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const tokens: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const profile = await bed.clock.run(driver.load('p1'));
      tokens.push(stored(bed.store, 'p1')?.meta.lock?.token as string);
      await bed.clock.run(profile.release());
      expect(stored(bed.store, 'p1')?.meta.releasedToken).toBe(tokens[round]);
    }
    expect(tokens.filter((token) => !ID.test(token))).toEqual([]);
    expect(new Set(tokens).size).toBe(3);
  });
});
