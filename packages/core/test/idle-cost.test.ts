/**
 * What an attached server costs its backend while idle, counted call by call: one presence
 * write per beat (3 s), one subscription, no message, no read; whatever the number of drivers
 * attached on that backend.
 */
import { describe, expect, it } from 'vitest';
import { DataDriver } from '../src/index.js';
import { MemoryHost, VirtualClock } from '../src/testing.js';
import { countedBackend } from './counted-ports.js';
import { callsSince, recordingLogger } from './helpers.js';

function idleServer(drivers: readonly string[]) {
  const clock = new VirtualClock();
  const backend = countedBackend(clock);
  const { store, messenger, presence } = backend.connect();
  const host = new MemoryHost(`idle-${drivers.length}`);
  const made = drivers.map((name) => {
    const driver = new DataDriver({
      name,
      defaults: {},
      store,
      messenger,
      presence,
      scheduler: clock,
      logger: recordingLogger().logger,
    });
    driver.attach(host);
    return driver;
  });
  return { clock, store: backend.store, messenger, presence, made };
}

describe('an idle attached server', () => {
  for (const drivers of [['PlayerData'], ['PlayerData', 'Inventory']]) {
    it(`with ${drivers.length} driver(s): 1 presence write per 3 s, 1 subscription, no message, no read`, async () => {
      const { clock, store, messenger, presence, made } = idleServer(drivers);
      const storeCalls = callsSince(store);
      await clock.advance(60_000);
      // The beat at attach, then one every 3 s: 21 in the first minute.
      expect(presence.sets).toBe(21);
      expect(presence.gets).toBe(0);
      expect(messenger.subscribes).toBe(1);
      expect(messenger.active).toBe(1);
      expect(messenger.publishes).toBe(0);
      expect(storeCalls()).toEqual({ reads: 0, compareAndSets: 0 });
      await clock.run(Promise.all(made.map((driver) => driver.close())));
      expect(messenger.active).toBe(0);
    });
  }
});
