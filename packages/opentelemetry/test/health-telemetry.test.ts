/**
 * `driver.health` as a gauge: `datadriver.health.critical` is 0 while the store answers, 1
 * from the failure that makes the driver critical, and 0 again a window after the last one.
 * Core's memory store on a virtual clock, so every value is at an exact time.
 */
import { DataDriver } from '@datadriver/core';
import { FaultyStore, MemoryStore, VirtualClock } from '@datadriver/core/testing';
import { afterEach, expect, it } from 'vitest';
import { ATTRIBUTES, instrumentDriver, METRICS } from '../src/index.js';
import { type Telemetry, telemetry } from './support/telemetry.js';

const opened: Telemetry[] = [];
afterEach(async () => {
  for (const sdk of opened.splice(0)) await sdk.shutdown();
});

it('datadriver.health.critical follows driver.health: 0, 1 at the third failure in the window, 0 a window after the last', async () => {
  const clock = new VirtualClock();
  const store = new FaultyStore(new MemoryStore(), { scheduler: clock });
  const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const driver = new DataDriver<{ coins: number }>({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store,
    scheduler: clock,
    logger: quiet,
    autosaveSeconds: 90,
    health: { failures: 3, windowSeconds: 60 },
  });
  const sdk = telemetry();
  opened.push(sdk);
  instrumentDriver(driver, sdk);
  const gauge = async () =>
    (await sdk.points(METRICS.healthCritical)).map((point) => [
      point.attributes[ATTRIBUTES.driver],
      point.value,
    ]);
  const profile = await clock.run(driver.load('p1'));
  expect(await gauge()).toEqual([['PlayerData', 0]]);
  const down = store.faults.inject({ kind: 'fail', operation: 'update', times: Infinity });
  for (let failure = 1; failure <= 3; failure += 1) {
    await clock.run(profile.save().catch(() => undefined));
    expect(await gauge()).toEqual([['PlayerData', failure < 3 ? 0 : 1]]);
  }
  down.remove();
  await clock.advance(59_999);
  expect(await gauge()).toEqual([['PlayerData', 1]]);
  await clock.advance(1);
  expect(await gauge()).toEqual([['PlayerData', 0]]);
});
