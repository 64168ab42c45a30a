/** A game whose onLoad throws did not set the player up: the player must not play on without it. */
import { describe, expect, it } from 'vitest';
import { MemoryHost } from '../src/testing.js';
import { stored, testBed } from './helpers.js';

describe('onLoad throwing', () => {
  it('kicks the player with the load-failed message, logs it, and releases the profile', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const host = new MemoryHost('A');
    const left: string[] = [];
    driver.attach(host, {
      onLoad: () => {
        throw new Error('no inventory service');
      },
      onLeave: (profile) => void left.push(profile.key),
    });
    const player = host.join('p1');
    await bed.clock.advance(0);
    expect(host.kicks).toEqual([
      { player: 'p1', message: 'Your data could not be loaded. Please rejoin.' },
    ]);
    expect(player.kickedWith).toBe('Your data could not be loaded. Please rejoin.');
    expect(host.has('p1')).toBe(false);
    expect(bed.log.lines).toContainEqual({
      level: 'error',
      message: 'onLoad threw for p1: no inventory service',
    });
    expect(driver.profile('p1')).toBeUndefined();
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
    expect(stored(bed.store, 'p1')?.meta.releasedToken).toBeDefined();
    expect(left).toEqual([]); // no leave cleanups for a session never set up
    expect(bed.events.filter((e) => e.type === 'profile.kicked')).toMatchObject([
      { key: 'p1', player: 'p1', message: 'Your data could not be loaded. Please rejoin.' },
    ]);
    // The lock was released: a rejoin loads the profile again (and onLoad throws again).
    host.join('p1');
    await bed.clock.advance(0);
    expect(bed.events.filter((e) => e.type === 'load.loaded')).toHaveLength(2);
    expect(host.kicks).toHaveLength(2);
  });
});
