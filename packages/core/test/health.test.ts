/**
 * `driver.health`: `critical` once `failures` store failures (5) fall within `windowSeconds`
 * (120 s), `ok` again a whole window after the last one, with a `driver.health` event at each
 * change. The rule is a pure function (a table here); the monitor is tested on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverError, ErrorCode } from '../src/index.js';
import { DEFAULT_HEALTH_RULE, isOutageFailure, judgeHealth } from '../src/rules/health.js';
import { testBed } from './helpers.js';

const rule = { failures: 3, windowMs: 10_000 };

describe('judgeHealth (3 failures in 10 s)', () => {
  const rows: Array<[string, 'ok' | 'critical', number[], number, 'ok' | 'critical']> = [
    ['no failure: ok', 'ok', [], 0, 'ok'],
    ['two in the window: still ok', 'ok', [1_000, 2_000], 2_000, 'ok'],
    ['the third in the window: critical', 'ok', [1_000, 2_000, 3_000], 3_000, 'critical'],
    ['three, the first just out of the window: ok', 'ok', [0, 5_000, 10_000], 10_000, 'ok'],
    ['three, the first 1 ms inside: critical', 'ok', [1, 5_000, 10_000], 10_000, 'critical'],
    ['critical, one failure left in the window: critical', 'critical', [5_000], 14_999, 'critical'],
    ['critical, a whole window since the last: ok', 'critical', [5_000], 15_000, 'ok'],
    ['critical, no failure at all: ok', 'critical', [], 0, 'ok'],
  ];
  for (const [title, current, times, now, expected] of rows) {
    it(title, () => expect(judgeHealth(current, times, now, rule)).toBe(expected));
  }

  it('the default is five failures within 120 s', () => {
    expect(DEFAULT_HEALTH_RULE).toEqual({ failures: 5, windowMs: 120_000 });
  });
});

describe('isOutageFailure', () => {
  const outage = ['BackendFailed', 'Unavailable', 'Throttled', 'Timeout', 'Misconfigured'] as const;
  for (const [name, code] of Object.entries(ErrorCode)) {
    const counts = (outage as readonly string[]).includes(name);
    it(`${code}: ${counts ? 'counts' : 'does not count'}`, () => {
      expect(isOutageFailure(code)).toBe(counts);
    });
  }
});

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
    await bed.clock.run(driver.load('p1'));
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
