import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode, Handoff, type JsonObject } from '../src/index.js';
import {
  FaultyStore,
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger } from './helpers.js';

type Coins = { coins: number };

function setup() {
  const clock = new VirtualClock();
  const store = new MemoryStore();
  const log = recordingLogger();
  const make = (options: Partial<ConstructorParameters<typeof DataDriver<Coins>>[0]> = {}) =>
    new DataDriver<Coins>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store,
      scheduler: clock,
      logger: log.logger,
      ...options,
    });
  return { clock, store, make };
}

const refusal = expect.objectContaining({
  code: ErrorCode.InvalidConfig,
  message: expect.stringContaining(
    'a second DataDriver named PlayerData over the same store on server',
  ),
});

describe('two drivers with one name over one store on one server', () => {
  it('the second refuses at construction with handoff off, and the first keeps its lock', async () => {
    const { clock, store, make } = setup();
    const first = make({ handoff: false });
    const profile = await clock.run(first.load('p1'));
    expect(() => make({ handoff: false })).toThrow(refusal);
    profile.data.coins = 5;
    await clock.run(profile.save());
    expect(store.peek('PlayerData/p1')).toMatchObject({ data: { coins: 5 } });
  });

  it('the second refuses with the same jobId, and its message says what to change', () => {
    const { make } = setup();
    make({ jobId: 'A' });
    expect(() => make({ jobId: 'A' })).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/Close the first one .*another name.*another jobId/),
      }),
    );
  });

  it('the second refuses with handoff on, each with its own Handoff of that server', () => {
    const { clock, make } = setup();
    const ports = { messenger: new MemoryMessenger(), presence: new MemoryPresence(clock) };
    const handoff = () => new Handoff({ jobId: 'A', ...ports, scheduler: clock });
    make({ handoff: handoff() });
    expect(() => make({ handoff: handoff() })).toThrow(refusal);
  });

  it('attach refuses a host whose server already has a driver of that name', () => {
    const { make } = setup();
    make({ jobId: 'H' });
    const second = make();
    expect(() => second.attach(new MemoryHost('H'))).toThrow(refusal);
  });

  it('closing the first frees the name: a new driver loads what the first released', async () => {
    const { clock, make } = setup();
    const first = make({ jobId: 'A' });
    const profile = await clock.run(first.load('p1'));
    profile.data.coins = 3;
    await clock.run(first.close());
    const second = make({ jobId: 'A' });
    const again = await clock.run(second.load('p1'));
    expect(again.data).toEqual({ coins: 3 });
  });

  it('simulated servers with their own jobIds share one store and one name', async () => {
    const { clock, make } = setup();
    const a = make({ jobId: 'A', lockWaitSeconds: 0 });
    const b = make({ jobId: 'B', lockWaitSeconds: 0 });
    await clock.run(a.load('p1'));
    await expect(clock.run(b.load('p1'))).rejects.toMatchObject({ code: ErrorCode.Locked });
  });

  it('a driver of that name over another store on the same server is its own', async () => {
    const { clock, make } = setup();
    make({ jobId: 'A' });
    const other = make({ jobId: 'A', store: new MemoryStore() });
    await expect(clock.run(other.load('p1'))).resolves.toMatchObject({ key: 'p1' });
  });

  it("a second driver through another store object over the same backend never takes the first one's lock", async () => {
    const { clock, store, make } = setup();
    // Two connections to one backend, as two RedisStores over one Redis would be.
    const first = make({ jobId: 'A', handoff: false, store: new FaultyStore(store) });
    const second = make({ jobId: 'A', handoff: false, store: new FaultyStore(store) });
    const profile = await clock.run(first.load('p1'));
    const lock = (store.peek('PlayerData/p1') as { meta: { lock: unknown } }).meta.lock;
    const started = clock.now();
    await expect(clock.run(second.load('p1'))).rejects.toMatchObject({
      code: ErrorCode.Locked,
      message: expect.stringContaining('profile is locked by this server'),
    });
    expect(clock.now() - started).toBe(0); // refused at once, no wait
    expect(store.peek('PlayerData/p1')).toMatchObject({ meta: { lock } });
    profile.data.coins = 7;
    await clock.run(profile.save());
    expect(store.peek('PlayerData/p1')).toMatchObject({ data: { coins: 7 }, meta: { lock } });
  });

  it('a lock of this server that no driver here holds is still taken as orphaned', async () => {
    const { clock, store, make } = setup();
    store.put('PlayerData/p1', {
      data: { coins: 4 },
      meta: { version: 1, lock: { jobId: 'A', token: 'lost', time: clock.now(), presence: false } },
    });
    const driver = make({ jobId: 'A', handoff: false });
    const profile = await clock.run(driver.load('p1'));
    expect(profile.data).toEqual({ coins: 4 });
  });

  it("a lock of this server on another key under a token held here for p1 (a copied record) is that key's orphan", async () => {
    const { clock, store, make } = setup();
    const driver = make({ jobId: 'A', handoff: false });
    const p1 = await clock.run(driver.load('p1'));
    // An operator copied p1's record, lock and all, to p2.
    const copied = store.peek('PlayerData/p1') as { meta: { lock: JsonObject } };
    store.put('PlayerData/p2', {
      data: { coins: 5 },
      meta: { version: 1, lock: copied.meta.lock },
    });
    const started = clock.now();
    const p2 = await clock.run(driver.load('p2'));
    expect(clock.now() - started).toBe(0);
    expect(p2.data).toEqual({ coins: 5 });
    expect(store.peek('PlayerData/p2')).toMatchObject({ meta: { lock: { token: p2.lockToken } } });
    // p1's session still holds its own lock.
    expect(store.peek('PlayerData/p1')).toMatchObject({ meta: { lock: { token: p1.lockToken } } });
    expect(p1.active).toBe(true);
  });
});
