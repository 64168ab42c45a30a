/**
 * `driver.health`: `critical` once `failures` store failures (5) fall within `windowSeconds`
 * (120 s), `ok` again a whole window after the last one, with a `driver.health` event at each
 * change, on the virtual clock. The rule's own table is health-rules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverError, ErrorCode } from '../src/index.js';
import { testBed } from './helpers.js';

describe('driver.health on the virtual clock', () => {
  it('five failed saves within 120 s: critical at the fifth (one event), ok exactly 120 s after the last', async () => {
    const bed = testBed();
    // Autosaves every 90 s: none falls among the five manual saves' 40 s.
    const { driver, store } = bed.server('A', { autosaveSeconds: 90 });
    const profile = await bed.clock.run(driver.load('p1'));
    expect(driver.health).toEqual({ state: 'ok' });
    const down = store.faults.inject({ kind: 'fail', operation: 'update', times: Infinity });
    const start = bed.clock.now();
    for (let failure = 1; failure <= 5; failure += 1) {
      await bed.clock.run(profile.save().catch(() => undefined));
      expect(driver.health.state).toBe(failure < 5 ? 'ok' : 'critical');
      if (failure < 5) await bed.clock.advance(10_000);
    }
    const lastFailure = bed.clock.now();
    expect(lastFailure - start).toBe(40_000);
    expect(driver.health).toMatchObject({ state: 'critical', since: lastFailure });
    const { error } = driver.health as { error: DataDriverError };
    expect(error.code).toBe(ErrorCode.BackendFailed);
    down.remove();
    // Autosaves after the outage succeed; critical still ends a whole window after the last failure.
    await bed.clock.advance(119_999);
    expect(driver.health.state).toBe('critical');
    await bed.clock.advance(1);
    expect(driver.health).toEqual({ state: 'ok' });
    const changes = bed.events.filter((event) => event.type === 'driver.health');
    expect(changes.map((event) => [event.state, event.time - start])).toEqual([
      ['critical', 40_000],
      ['ok', 160_000],
    ]);
    expect(bed.log.warnings().filter((line) => line.includes('is critical'))).toHaveLength(1);
  });

  it('autosaves failing every 30 s (four in any 120 s) never turn it critical', async () => {
    const bed = testBed();
    const { driver, store } = bed.server('A');
    const profile = await bed.clock.run(driver.load('p1'));
    // Changed data: the first autosave has something to store (an idle one would write nothing).
    profile.data.coins = 1;
    const down = store.faults.inject({ kind: 'fail', operation: 'update', times: Infinity });
    await bed.clock.advance(600_000);
    expect(down.hits).toBe(20);
    expect(driver.health).toEqual({ state: 'ok' });
    expect(bed.events.filter((event) => event.type === 'driver.health')).toEqual([]);
  });

  it('failures that are not outages (bad data, a lock held elsewhere) never count', async () => {
    const bed = testBed();
    const a = bed.driver('A', { health: { failures: 1 } });
    const profile = await bed.clock.run(a.load('p1'));
    (profile.data as Record<string, unknown>).when = new Date();
    const invalid = await bed.clock.run(profile.save().catch((error: unknown) => error));
    expect((invalid as DataDriverError).code).toBe(ErrorCode.InvalidData);
    const b = bed.driver('B', { health: { failures: 1 }, lockWaitSeconds: 1 });
    const locked = await bed.clock.run(b.load('p1').catch((error: unknown) => error));
    expect((locked as DataDriverError).code).toBe(ErrorCode.Locked);
    expect(a.health).toEqual({ state: 'ok' });
    expect(b.health).toEqual({ state: 'ok' });
  });

  it('load attempts count: failures: 2 turns critical at a join’s second failed attempt', async () => {
    const bed = testBed();
    const { driver, store } = bed.server('A', { health: { failures: 2, windowSeconds: 30 } });
    store.faults.inject({ kind: 'fail', operation: 'update', times: 2 });
    const profile = await bed.clock.run(driver.load('p1'));
    expect(profile.active).toBe(true); // the third attempt loads
    const changes = bed.events.filter((event) => event.type === 'driver.health');
    expect(changes.map((event) => event.state)).toEqual(['critical']);
    await bed.clock.advance(30_000);
    expect(driver.health).toEqual({ state: 'ok' });
  });

  it('refuses a health option it cannot use, naming it', () => {
    const bed = testBed();
    const cases: Array<[unknown, RegExp]> = [
      [{ failures: 0 }, /health\.failures must be a positive integer, got a number \(0\)/],
      [{ failures: 2.5 }, /health\.failures must be a positive integer/],
      [{ windowSeconds: -1 }, /health\.windowSeconds must be a positive number of seconds/],
      [{ window: 10 }, /health\.window/],
      ['5', /health must be an object/],
    ];
    for (const [health, message] of cases) {
      expect(() => bed.driver('A', { health: health as never })).toThrow(message);
    }
  });
});
