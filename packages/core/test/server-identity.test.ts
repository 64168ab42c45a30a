/**
 * The id a driver writes into its locks is fixed by its first load: a driver must never write
 * a lock under one id and then take another, or it reads its own lock as another server's.
 */
import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode, type Messenger, type Presence, type Store } from '../src/index.js';
import {
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger, stored } from './helpers.js';

/** A port that claims to reach other processes, so that attach turns handoff on. */
function shared<T extends Store | Messenger | Presence>(port: T): T {
  return new Proxy(port, {
    get: (target, property) => {
      if (property === 'processLocal') return false;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function liveServer() {
  const clock = new VirtualClock();
  const store = new MemoryStore();
  const driver = new DataDriver({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: shared(store),
    messenger: shared(new MemoryMessenger()),
    presence: shared(new MemoryPresence(clock)),
    scheduler: clock,
    logger: recordingLogger().logger,
  });
  return { clock, store, driver };
}

describe("a driver's server id", () => {
  it('is fixed by the first load: a host of another id attached later is refused, and the lock keeps its id', async () => {
    const { clock, store, driver } = liveServer();
    const before = driver.jobId;
    await clock.run(driver.load('p0'));
    expect(stored(store, 'p0')?.meta.lock?.jobId).toBe(before);
    expect(() => driver.attach(new MemoryHost('host-A'))).toThrow(
      expect.objectContaining({
        code: ErrorCode.InvalidConfig,
        message: `Data.InvalidConfig: PlayerData already wrote locks as server ${before}; attach the host (jobId host-A) before the first load, or give the driver jobId host-A`,
      }),
    );
    expect(driver.jobId).toBe(before);
    expect(driver.handoff).toBeUndefined();
    expect(stored(store, 'p0')?.meta.lock?.jobId).toBe(before);
    await clock.run(driver.close());
  });

  it("is the host's when attached before the first load", async () => {
    const { clock, store, driver } = liveServer();
    driver.attach(new MemoryHost('host-B'));
    await clock.run(driver.load('p0'));
    expect(driver.jobId).toBe('host-B');
    expect(stored(store, 'p0')?.meta.lock?.jobId).toBe('host-B');
    await clock.run(driver.close());
  });

  it('a host with the id the driver already writes is attached after a load', async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore();
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'A',
    });
    await clock.run(driver.load('p0'));
    const host = new MemoryHost('A');
    driver.attach(host);
    host.join('p1');
    await clock.advance(0);
    expect(stored(store, 'p1')?.meta.lock?.jobId).toBe('A');
  });

  it("a configured jobId stays the server's whatever the host's id", async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore();
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'A',
    });
    const host = new MemoryHost('other');
    driver.attach(host);
    host.join('p1');
    await clock.advance(0);
    expect(driver.jobId).toBe('A');
    expect(stored(store, 'p1')?.meta.lock?.jobId).toBe('A');
  });
});
