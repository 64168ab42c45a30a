import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { inboxRecord } from '../../src/rules/messages/index.js';
import type { FaultyMessenger, FaultyStore } from '../../src/testing.js';
import { handoffServers, testBed } from '../helpers.js';
import { messagesBed, pendingIds } from './bed.js';

const INBOX = 'PlayerData#inbox/p1';
const WRITE_MS = 5;

/** Counts `operation` calls on `key` through a connection (a fault of no effect), `ms` each. */
function counted(port: FaultyStore | FaultyMessenger, operation: string, key: string, ms = 0) {
  return port.faults.inject({
    kind: 'latency',
    operation,
    key,
    ms,
    times: Number.POSITIVE_INFINITY,
  });
}

/** Each promise's result (or error code) and the virtual time it settled at. */
function settled<T>(clock: { now(): number }, promises: Array<Promise<T>>) {
  return Promise.all(
    promises.map((promise) =>
      promise.then(
        (value) => ({ value, at: clock.now() }),
        (error: { code?: string }) => ({ value: error.code, at: clock.now() }),
      ),
    ),
  );
}

describe('sends from one driver to one profile that overlap (group commit)', () => {
  it('go out in two inbox writes, the first alone and the nine that waited together, with one nudge each', async () => {
    const m = messagesBed();
    const servers = handoffServers(m.bed);
    const a = servers('A', { onMessage: m.grant('A') });
    const s = servers('S');
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    const writes = counted(s.store, 'update', INBOX, WRITE_MS);
    const reads = counted(s.store, 'get', 'PlayerData/p1');
    const nudges = counted(s.messenger, 'publish', 'CKHandoff_A');
    const ids = Array.from({ length: 10 }, (_, index) => `g${index}`);
    const start = m.bed.clock.now();
    const results = await m.bed.clock.run(
      settled(
        m.bed.clock,
        ids.map((id) => s.driver.send('p1', { coins: 1 }, { id })),
      ),
    );
    // Each send waits for at most two writes: the one in flight, then its own.
    expect(results).toEqual(
      ids.map((_, index) => ({
        value: { outcome: 'queued' },
        at: start + (index === 0 ? WRITE_MS : 2 * WRITE_MS),
      })),
    );
    expect(writes.hits).toBe(2);
    await m.bed.clock.advance(0);
    expect(reads.hits).toBe(2);
    expect(nudges.hits).toBe(2);
    expect(m.ids()).toEqual(ids);
    expect(profile.data.coins).toBe(10);
  });

  it('a lone send: one write, one read of the profile, resolved when its write is (no added wait)', async () => {
    const m = messagesBed();
    const s = m.server('S');
    const writes = counted(s.store, 'update', INBOX, WRITE_MS);
    const reads = counted(s.store, 'get', 'PlayerData/p1');
    const start = m.bed.clock.now();
    const [result] = await m.bed.clock.run(
      settled(m.bed.clock, [s.driver.send('p1', { coins: 1 }, { id: 'g1' })]),
    );
    expect(result).toEqual({ value: { outcome: 'queued' }, at: start + WRITE_MS });
    await m.bed.clock.advance(0);
    expect([writes.hits, reads.hits]).toEqual([1, 1]);
  });

  it('sends to two profiles do not wait for each other', async () => {
    const bed = testBed();
    const s = bed.server('S');
    const writes = counted(s.store, 'update', INBOX, WRITE_MS);
    const other = counted(s.store, 'update', 'PlayerData#inbox/p2', WRITE_MS);
    const start = bed.clock.now();
    const results = await bed.clock.run(
      settled(bed.clock, [
        s.driver.send('p1', 1, { id: 'a' }),
        s.driver.send('p2', 2, { id: 'b' }),
      ]),
    );
    expect(results.map((result) => result.at)).toEqual([start + WRITE_MS, start + WRITE_MS]);
    expect([writes.hits, other.hits]).toEqual([1, 1]);
  });

  it('the same id twice in one batch: the second resolves duplicate, the message is queued once', async () => {
    const bed = testBed();
    const s = bed.server('S');
    const writes = counted(s.store, 'update', INBOX);
    const results = await bed.clock.run(
      settled(bed.clock, [
        s.driver.send('p1', 1, { id: 'first' }),
        s.driver.send('p1', 2, { id: 'gift' }),
        s.driver.send('p1', 3, { id: 'gift' }),
        s.driver.send('p1', 4, { id: 'last' }),
      ]),
    );
    expect(results.map((result) => result.value)).toEqual([
      { outcome: 'queued' },
      { outcome: 'queued' },
      { outcome: 'duplicate' },
      { outcome: 'queued' },
    ]);
    expect(writes.hits).toBe(2);
    expect(pendingIds(bed.store, 'p1')).toEqual(['first', 'gift', 'last']);
    const sent = bed.events.filter((event) => event.type === 'message.sent');
    expect(sent.map((event) => (event as { outcome?: string }).outcome)).toEqual([
      'queued',
      'queued',
      'duplicate',
      'queued',
    ]);
  });

  it('the send that would overflow 1,000 pending alone rejects with Data.InboxFull; the others of its batch are queued', async () => {
    const bed = testBed();
    const pending = Array.from({ length: 998 }, (_, index) => ({
      id: `m${index}`,
      body: 1,
      at: 1,
    }));
    bed.store.put(INBOX, inboxRecord({ pending, done: [], forgotBelow: 0 }));
    const s = bed.server('S');
    const writes = counted(s.store, 'update', INBOX);
    const results = await bed.clock.run(
      settled(bed.clock, [
        s.driver.send('p1', 1, { id: 'alone' }),
        s.driver.send('p1', 2, { id: 'the-1000th' }),
        s.driver.send('p1', 3, { id: 'one-too-many' }),
        s.driver.send('p1', 4, { id: 'm7' }),
      ]),
    );
    expect(results.map((result) => result.value)).toEqual([
      { outcome: 'queued' },
      { outcome: 'queued' },
      ErrorCode.InboxFull,
      { outcome: 'duplicate' },
    ]);
    expect(writes.hits).toBe(2);
    expect(pendingIds(bed.store, 'p1').slice(-3)).toEqual(['m997', 'alone', 'the-1000th']);
  });

  it.each(['fail', 'lose-response'] as const)(
    "a batch's write that ends in %s rejects each of its sends with the store's error; resent by id, each is applied once",
    async (kind) => {
      const m = messagesBed();
      const s = m.server('S');
      s.store.faults.inject({ kind, operation: 'update', key: INBOX, skip: 1 });
      const writes = counted(s.store, 'update', INBOX);
      const ids = ['g0', 'g1', 'g2', 'g3'];
      const send = (id: string) => s.driver.send('p1', { coins: 1 }, { id });
      const results = await m.bed.clock.run(settled(m.bed.clock, ids.map(send)));
      expect(results.map((result) => result.value)).toEqual([
        { outcome: 'queued' },
        ErrorCode.BackendFailed,
        ErrorCode.BackendFailed,
        ErrorCode.BackendFailed,
      ]);
      expect(writes.hits).toBe(2);
      const again = await m.bed.clock.run(settled(m.bed.clock, ids.map(send)));
      const outcome = kind === 'fail' ? 'queued' : 'duplicate';
      expect(again.map((result) => result.value)).toEqual([
        { outcome: 'duplicate' },
        { outcome },
        { outcome },
        { outcome },
      ]);
      await m.bed.clock.run(m.server('A').driver.load('p1'));
      expect(m.ids()).toEqual(ids);
    },
  );

  it('transfers delivered to one recipient after one write go out in one batch', async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    const writes = counted(a.store, 'update', 'PlayerData#inbox/bob');
    for (const id of ['t1', 't2', 't3']) alice.send('bob', { coins: 1 }, { id });
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    expect(pendingIds(m.bed.store, 'bob')).toEqual(['t1', 't2', 't3']);
    expect(writes.hits).toBe(2);
  });
});
