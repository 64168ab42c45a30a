import { describe, expect, it } from 'vitest';
import {
  DataDriver,
  type DataDriverOptions,
  ErrorCode,
  Handoff,
  type Messenger,
  type Presence,
  type Store,
} from '../src/index.js';
import {
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger, stored } from './helpers.js';

/** A port that claims to reach other processes: what a Redis or DynamoDB adapter is. */
function shared<T extends Store | Messenger | Presence>(port: T): T {
  return new Proxy(port, {
    get: (target, property) => {
      if (property === 'processLocal') return false;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

let servers = 0;

function attached(overrides: Partial<DataDriverOptions<{ coins: number }>>, hostJobId?: string) {
  servers += 1;
  const clock = new VirtualClock();
  const store = new MemoryStore();
  const messenger = shared(new MemoryMessenger());
  const driver = new DataDriver({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: shared(store),
    messenger,
    presence: shared(new MemoryPresence(clock)),
    scheduler: clock,
    logger: recordingLogger().logger,
    ...overrides,
  });
  const host = new MemoryHost(hostJobId ?? `server-${servers}`);
  driver.attach(host);
  return { driver, host, clock, store, messenger };
}

describe('when handoff is on (attach)', () => {
  it('on for a live server: one shared handoff, and locks carry presence: true', async () => {
    const { driver, host, clock, store } = attached({});
    expect(driver.handoff).toBeDefined();
    expect(driver.handoff?.jobId).toBe(host.jobId);
    expect(driver.jobId).toBe(host.jobId);
    host.join('p1');
    await clock.advance(0);
    expect(stored(store, 'p1')?.meta.lock).toMatchObject({ jobId: host.jobId, presence: true });
    await clock.run(driver.close());
    expect(driver.handoff?.subscribed).toBe(false); // the last driver closed: the shared handoff stops
  });

  it('two drivers attached on one server share its one handoff, which stops with the last of them', async () => {
    const clock = new VirtualClock();
    const messenger = shared(new MemoryMessenger());
    const ports = {
      defaults: { coins: 0 },
      store: shared(new MemoryStore()),
      messenger,
      presence: shared(new MemoryPresence(clock)),
      scheduler: clock,
      logger: recordingLogger().logger,
    };
    const host = new MemoryHost('shared-server');
    const players = new DataDriver({ name: 'PlayerData', ...ports });
    const inventory = new DataDriver({ name: 'Inventory', ...ports });
    players.attach(host);
    inventory.attach(host);
    await clock.advance(0);
    expect(players.handoff).toBeDefined();
    expect(inventory.handoff).toBe(players.handoff);
    expect(messenger.subscriberCount('CKHandoff_shared-server')).toBe(1);
    await clock.run(players.close());
    expect(inventory.handoff?.subscribed).toBe(true); // Inventory still uses it
    await clock.run(inventory.close());
    expect(inventory.handoff?.subscribed).toBe(false);
    expect(messenger.subscriberCount('CKHandoff_shared-server')).toBe(0);
  });

  it("the driver's handoffLimits and handoffSigning reach the default handoff", async () => {
    const signing = { key: 'a fleet secret of 32 characters!' };
    const { driver, clock, messenger } = attached({
      handoffLimits: { receivePerMinute: 6 },
      handoffSigning: signing,
    });
    expect(driver.handoff?.limits).toEqual({
      publishPerMinute: 600,
      publishPerPlayerPerMinute: 240,
      receivePerMinute: 6,
    });
    const rejected: string[] = [];
    driver.handoff?.on((event) => {
      if (event.type === 'handoff.rejected') rejected.push(event.reason);
    });
    await clock.advance(0);
    await messenger.publish(driver.handoff?.topic ?? '', { T: 'R', D: 'PlayerData', K: 'p1' });
    await clock.advance(0);
    expect(rejected).toEqual(['unsigned']);
    await clock.run(driver.close());
  });

  const offRows: Array<
    [string, Partial<DataDriverOptions<{ coins: number }>>, string | undefined]
  > = [
    ['handoff: false', { handoff: false }, undefined],
    ['a test jobId in the options', { jobId: 'test-server' }, undefined],
    ['an empty host jobId', {}, ''],
    ['the in-memory store', { store: new MemoryStore() }, undefined],
    ['the in-memory messenger', { messenger: new MemoryMessenger() }, undefined],
    ['no presence port', { presence: undefined }, undefined],
  ];
  it.each(offRows)(
    'off with %s, and locks carry presence: false',
    async (_name, overrides, hostJobId) => {
      const { driver, host, clock } = attached(overrides, hostJobId);
      expect(driver.handoff).toBeUndefined();
      host.join('p1');
      await clock.advance(0);
      expect(driver.profile('p1')).toBeDefined();
      const store = (overrides.store as MemoryStore | undefined) ?? undefined;
      if (store) expect(stored(store, 'p1')?.meta.lock?.presence).toBe(false);
    },
  );

  it('a Handoff instance is used as given, even with a test jobId', async () => {
    const clock = new VirtualClock();
    const messenger = new MemoryMessenger();
    const presence = new MemoryPresence(clock);
    const handoff = new Handoff({ jobId: 'sim-A', messenger, presence, scheduler: clock });
    const store = new MemoryStore();
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'sim-A',
      handoff,
    });
    expect(driver.handoff).toBe(handoff);
    await clock.run(driver.load('p1'));
    expect(stored(store, 'p1')?.meta.lock?.presence).toBe(true);
    expect(
      () =>
        new DataDriver({
          name: 'Other',
          defaults: {},
          store,
          scheduler: clock,
          jobId: 'sim-B',
          handoff,
        }),
    ).toThrow(expect.objectContaining({ code: ErrorCode.InvalidConfig }));
  });
});

describe('attach and close', () => {
  it('loads players already connected when it attaches', async () => {
    const clock = new VirtualClock();
    const host = new MemoryHost('A');
    host.join('early');
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store: new MemoryStore(),
      scheduler: clock,
      jobId: 'A',
    });
    driver.attach(host);
    await clock.advance(0);
    expect(driver.profile('early')).toBeDefined();
    expect(() => driver.attach(host)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  // A kicked player leaves through onLeave too: kick-leave.test.ts.
  it('runs onLeave before the release save', async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore();
    const host = new MemoryHost('A');
    const driver = new DataDriver<{ coins: number }>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store,
      scheduler: clock,
      jobId: 'A',
    });
    driver.attach(host, {
      onLeave: (profile) => {
        profile.data.coins += 100; // a leave cleanup: its change is saved by the release
      },
    });
    host.join('p1');
    await clock.advance(0);
    host.leave('p1');
    await clock.advance(0);
    expect(stored(store, 'p1')?.data).toEqual({ coins: 100 });
    expect(stored(store, 'p1')?.meta.lock).toBeUndefined();
  });

  it("close cancels a load that is waiting on another server's lock", async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore();
    const a = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'A',
    });
    const b = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'B',
    });
    await clock.run(a.load('p1'));
    const waiting = b.load('p1').catch((error: unknown) => error);
    await clock.advance(1_000);
    await clock.run(b.close());
    await clock.advance(2_000);
    expect(await waiting).toMatchObject({ code: ErrorCode.Closed });
  });

  it('a player who leaves during their load gets no profile, and the lock is released', async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore();
    const a = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'A',
      lockWaitSeconds: 5,
    });
    const b = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'B',
      lockWaitSeconds: 5,
    });
    const host = new MemoryHost('B');
    b.attach(host);
    const held = await clock.run(a.load('p1'));
    host.join('p1');
    await clock.advance(700);
    host.leave('p1'); // gave up on the loading screen
    await clock.run(held.release());
    await clock.advance(5_000);
    expect(b.profile('p1')).toBeUndefined();
    expect(stored(store, 'p1')?.meta.lock).toBeUndefined();
    expect(host.kicks).toEqual([]);
  });
});
