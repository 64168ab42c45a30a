import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import type { ProfileRecord } from '../../src/rules.js';
import { stored } from '../helpers.js';
import { messagesBed, pendingIds } from './bed.js';

const BOB_INBOX = 'PlayerData#inbox/bob';

function outboxOf(record: ProfileRecord | undefined): string[] {
  return record?.meta.messages?.outbox.map((entry) => entry.id) ?? [];
}

describe('transfers between players (profile.send)', () => {
  it('are delivered once the write carrying them commits, and applied once by the recipient: coins conserved', async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    alice.data.coins = 50;
    alice.data.coins -= 10;
    alice.send('bob', { coins: 10 }, { id: 't1' });
    expect(pendingIds(m.bed.store, 'bob')).toEqual([]); // nothing before the write commits
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    expect(outboxOf(stored(m.bed.store, 'alice'))).toEqual(['t1']);
    expect(pendingIds(m.bed.store, 'bob')).toEqual(['t1']);
    await m.bed.clock.run(alice.save()); // carries the delivered entry's drop
    expect(outboxOf(stored(m.bed.store, 'alice'))).toEqual([]);
    const bob = await m.bed.clock.run(m.server('B').driver.load('bob'));
    expect(bob.data.coins).toBe(10);
    expect(stored(m.bed.store, 'alice')?.data.coins).toBe(40);
    expect(m.ids()).toEqual(['t1']);
  });

  it('the write carrying one lost: nothing is delivered until a write carrying it is known committed', async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    alice.send('bob', { coins: 1 }, { id: 't1' });
    a.store.faults.inject({ kind: 'lose-response', operation: 'update', key: 'PlayerData/alice' });
    await expect(m.bed.clock.run(alice.save())).rejects.toBeDefined();
    await m.bed.clock.advance(0);
    expect(pendingIds(m.bed.store, 'bob')).toEqual([]);
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    expect(pendingIds(m.bed.store, 'bob')).toEqual(['t1']);
  });

  it('one made while a save is in flight waits for a write that carries it', async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    a.store.faults.inject({ kind: 'slow-ack', operation: 'update', ms: 100 });
    const saving = alice.save(); // written at once, acknowledged 100 ms later
    await m.bed.clock.advance(50);
    alice.send('bob', { coins: 1 }, { id: 't1' });
    await m.bed.clock.run(saving);
    await m.bed.clock.advance(0);
    expect(outboxOf(stored(m.bed.store, 'alice'))).toEqual([]);
    expect(pendingIds(m.bed.store, 'bob')).toEqual([]);
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    expect(pendingIds(m.bed.store, 'bob')).toEqual(['t1']);
  });

  it('one made while a save waits for the store goes out with its debit, never in a write that took its data before', async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    alice.data.coins = 30;
    a.store.faults.inject({ kind: 'latency', operation: 'update', ms: 100 });
    const saving = alice.save(); // its data taken now, written 100 ms later
    await m.bed.clock.advance(50);
    alice.data.coins -= 5;
    alice.send('bob', { coins: 5 }, { id: 't1' });
    await m.bed.clock.run(saving);
    await m.bed.clock.advance(0);
    expect(stored(m.bed.store, 'alice')?.data.coins).toBe(30);
    expect(outboxOf(stored(m.bed.store, 'alice'))).toEqual([]);
    expect(pendingIds(m.bed.store, 'bob')).toEqual([]);
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    expect(stored(m.bed.store, 'alice')?.data.coins).toBe(25);
    expect(pendingIds(m.bed.store, 'bob')).toEqual(['t1']);
  });

  it("a delivery's lost response: delivered again after the next write, a duplicate, applied once", async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    alice.send('bob', { coins: 2 }, { id: 't1' });
    a.store.faults.inject({ kind: 'lose-response', operation: 'update', key: BOB_INBOX });
    await m.bed.clock.run(alice.save());
    await m.bed.clock.advance(0);
    expect(outboxOf(stored(m.bed.store, 'alice'))).toEqual(['t1']);
    await m.bed.clock.run(alice.save()); // delivers again: duplicate, settled
    await m.bed.clock.advance(0);
    await m.bed.clock.run(alice.save());
    expect(outboxOf(stored(m.bed.store, 'alice'))).toEqual([]);
    const bob = await m.bed.clock.run(m.server('B').driver.load('bob'));
    expect(bob.data.coins).toBe(2);
    expect(m.ids()).toEqual(['t1']);
  });

  it("a holder that crashes after the commit and before the delivery: alice's next holder delivers it", async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    alice.data.coins = 30;
    alice.send('bob', { coins: 5 }, { id: 't1' });
    alice.data.coins -= 5;
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: BOB_INBOX });
    await m.bed.clock.run(alice.save());
    a.store.faults.inject({ kind: 'fail', times: Number.POSITIVE_INFINITY }); // A is gone
    const b = m.server('B', { lockWaitSeconds: 600 });
    const again = await m.bed.clock.run(b.driver.load('alice'));
    await m.bed.clock.advance(0);
    expect(again.data.coins).toBe(25);
    expect(pendingIds(m.bed.store, 'bob')).toEqual(['t1']);
    const bob = await m.bed.clock.run(b.driver.load('bob'));
    expect(bob.data.coins).toBe(5);
    expect(m.ids()).toEqual(['t1']);
  });

  it('a transfer to itself, a bad id or one while a trade holds the profile is refused, changing nothing', async () => {
    const m = messagesBed();
    const a = m.server('A');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    expect(() => alice.send('alice', {}, { id: 't1' })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidArgument }),
    );
    expect(() => alice.send('bob', {}, { id: '' })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidArgument }),
    );
    await m.bed.clock.run(alice.save());
    expect(outboxOf(stored(m.bed.store, 'alice'))).toEqual([]);
  });
});
