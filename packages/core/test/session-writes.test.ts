/**
 * Every write under a session's lock follows one policy (session/guarded-write.ts): each waits
 * for a trade holding the session, and a write that finds the lock taken loses the session.
 */
import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode, Handoff } from '../src/index.js';
import { toStoreRecord } from '../src/rules/index.js';
import { sessionOf } from '../src/session/session-of.js';
import {
  FaultyStore,
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger, stored, testBed } from './helpers.js';

describe('an erasure', () => {
  it('waits for a trade that holds the session, then deletes the record', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    // The trade's decision (its journal's second write) stalls: the trade holds both sessions.
    const decision = a.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      matches: (key) => key.includes('#trade/'),
      skip: 1,
    });
    const trade = a.driver.trade(alice, bob, (x, y) => {
      x.coins += 1;
      y.coins += 1;
    });
    await bed.clock.advance(0);
    expect(decision.hits).toBe(1);
    const erased = sessionOf(alice as never)!.erase();
    await bed.clock.advance(1_000);
    expect(stored(bed.store, 'alice')).toBeDefined(); // the trade is not decided yet
    decision.release();
    await bed.clock.run(trade);
    await bed.clock.run(erased);
    expect(stored(bed.store, 'alice')).toBeUndefined();
    expect(alice.active).toBe(false);
  });
});

describe('a trade marker that finds the lock taken', () => {
  it('loses the session as a save would: lock.lost, deactivated, the trade refused', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    const record = stored(bed.store, 'bob')!;
    const lock = { jobId: 'B', token: 'b', time: bed.clock.now(), presence: false };
    bed.store.put('PlayerData/bob', toStoreRecord({ ...record, meta: { ...record.meta, lock } }));
    const trade = a.driver.trade(alice, bob, (x, y) => {
      x.coins += 1;
      y.coins += 1;
    });
    await expect(bed.clock.run(trade)).rejects.toMatchObject({ code: ErrorCode.TradeFailed });
    expect(bob.active).toBe(false);
    expect(alice.active).toBe(true);
    expect(bed.events.filter((e) => e.type === 'lock.lost')).toMatchObject([
      { key: 'bob', holder: lock },
    ]);
    expect(bed.log.warnings()).toContain(
      'lost the lock of bob to server B; the profile is deactivated.',
    );
  });
});

describe('a profile adopted after its kicked player left', () => {
  it('is kicked again by the next request, not waited on as if it were still leaving', async () => {
    const clock = new VirtualClock();
    const messenger = new MemoryMessenger();
    const presence = new MemoryPresence(clock);
    const connection = new FaultyStore(new MemoryStore(), { scheduler: clock });
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store: connection,
      scheduler: clock,
      jobId: 'A',
      handoff: new Handoff({ jobId: 'A', messenger, presence, scheduler: clock }),
      logger: recordingLogger().logger,
    });
    const actions: string[] = [];
    driver.on((event) => {
      if (event.type === 'handoff.request.received') actions.push(event.action);
    });
    const host = new MemoryHost('A');
    driver.attach(host);
    host.join('p1');
    await clock.advance(0);
    const request = () =>
      messenger.publish('CKHandoff_A', { T: 'Q', D: 'PlayerData', K: 'p1', R: 'B' });
    // B asks: A kicks p1, whose leave save fails, so A retains the profile.
    connection.faults.inject({ kind: 'fail', operation: 'update' });
    await request();
    await clock.advance(0);
    expect(actions).toEqual(['kick']);
    expect(host.has('p1')).toBe(false);
    // p1 rejoins A at once and the retained profile is adopted; B asks again.
    host.join('p1');
    await clock.advance(0);
    expect(driver.profile('p1')?.active).toBe(true);
    await request();
    await clock.advance(0);
    expect(actions).toEqual(['kick', 'kick']);
    expect(host.kicks.map((kick) => kick.message)).toEqual([
      'You joined another server.',
      'You joined another server.',
    ]);
    await clock.run(driver.close());
  });
});
