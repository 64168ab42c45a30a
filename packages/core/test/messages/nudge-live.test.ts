import { describe, expect, it } from 'vitest';
import { Handoff } from '../../src/index.js';
import { MemoryMessenger, MemoryPresence } from '../../src/testing.js';
import { handoffServers, stored } from '../helpers.js';
import { messagesBed, pendingIds } from './bed.js';

const SIGNING = { key: 'the fleet shared key, 16+ bytes' };

describe('a message to a profile held online', () => {
  it('is applied within the same millisecond on the holder, through the nudge, once', async () => {
    const m = messagesBed();
    const servers = handoffServers(m.bed);
    const a = servers('A', { onMessage: m.grant('A') });
    const b = servers('B', { onMessage: m.grant('B') });
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.advance(1_000);
    const sentAt = m.bed.clock.now();
    await m.bed.clock.run(b.driver.send('p1', { coins: 10 }, { id: 'gift-1' }));
    await m.bed.clock.advance(0);
    expect(m.applied).toEqual([{ server: 'A', key: 'p1', id: 'gift-1', at: sentAt }]);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 10 });
    expect(pendingIds(m.bed.store, 'p1')).toEqual([]);
    await m.bed.clock.advance(120_000);
    expect(m.ids()).toEqual(['gift-1']);
    expect(profile.data.coins).toBe(10);
  });

  it('whose nudge is lost is applied at the next autosave, 30 s after the load', async () => {
    const m = messagesBed();
    const servers = handoffServers(m.bed);
    const a = servers('A', { onMessage: m.grant('A') });
    const b = servers('B');
    const loadedAt = m.bed.clock.now();
    await m.bed.clock.run(a.driver.load('p1'));
    b.messenger.faults.inject({ kind: 'drop', operation: 'publish' });
    await m.bed.clock.advance(5_000);
    await m.bed.clock.run(b.driver.send('p1', { coins: 1 }, { id: 'g1' }));
    await m.bed.clock.advanceTo(loadedAt + 29_999);
    expect(m.ids()).toEqual([]);
    await m.bed.clock.advanceTo(loadedAt + 30_000);
    expect(m.applied).toEqual([{ server: 'A', key: 'p1', id: 'g1', at: loadedAt + 30_000 }]);
  });

  it('from a process that runs no handoff (a webhook) is nudged signed, and a holder that requires signatures applies it', async () => {
    const m = messagesBed();
    const bus = new MemoryMessenger();
    const presence = new MemoryPresence(m.bed.clock);
    const handoff = new Handoff({
      jobId: 'A',
      messenger: bus,
      presence,
      scheduler: m.bed.clock,
      logger: m.bed.log.logger,
      signing: SIGNING,
    });
    const a = m.server('A', { handoff });
    await m.bed.clock.run(a.driver.load('p1'));
    const unsigned = m.bed.server('W1', { messenger: bus });
    const signed = m.bed.server('W2', { messenger: bus, handoffSigning: SIGNING });
    await m.bed.clock.run(unsigned.driver.send('p1', { coins: 1 }, { id: 'forged?' }));
    await m.bed.clock.advance(0);
    expect(m.ids()).toEqual([]); // dropped by the gate: picked up at the autosave
    await m.bed.clock.run(signed.driver.send('p1', { coins: 2 }, { id: 'webhook' }));
    await m.bed.clock.advance(0);
    expect(m.ids()).toEqual(['forged?', 'webhook']);
  });

  it('sent while the holder hands the profile over is applied once, by the next holder', async () => {
    const m = messagesBed();
    const servers = handoffServers(m.bed);
    const a = servers('A', { onMessage: m.grant('A') });
    const b = servers('B', { onMessage: m.grant('B') });
    const sender = servers('S');
    await m.bed.clock.run(a.driver.load('p1'));
    sender.messenger.faults.inject({ kind: 'drop', operation: 'publish' });
    await m.bed.clock.run(sender.driver.send('p1', { coins: 4 }, { id: 'g1' }));
    const profile = await m.bed.clock.run(b.driver.load('p1'));
    await m.bed.clock.advance(120_000);
    expect(m.applied.map(({ server, id }) => [server, id])).toEqual([['B', 'g1']]);
    expect(profile.data.coins).toBe(4);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 4 });
  });

  it('sent while a trade holds the profile waits for the trade: both land, the message once', async () => {
    const m = messagesBed();
    const servers = handoffServers(m.bed);
    const a = servers('A', { onMessage: m.grant('A') });
    const b = servers('B');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    const bob = await m.bed.clock.run(a.driver.load('bob'));
    alice.data.coins = 10;
    const stall = a.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      matches: (key) => key.includes('#trade/'),
    });
    const trade = a.driver.trade(alice, bob, (x, y) => {
      x.coins -= 3;
      y.coins += 3;
    });
    await m.bed.clock.advance(0);
    await m.bed.clock.run(b.driver.send('alice', { coins: 100 }, { id: 'g1' }));
    await m.bed.clock.advance(0);
    expect(m.ids()).toEqual([]); // no pass while the trade is undecided
    stall.remove();
    await m.bed.clock.run(trade);
    await m.bed.clock.advance(60_000);
    expect(m.ids()).toEqual(['g1']);
    expect(alice.data.coins).toBe(107);
    expect(stored(m.bed.store, 'alice')?.data).toEqual({ coins: 107 });
    expect(stored(m.bed.store, 'bob')?.data).toEqual({ coins: 3 });
  });
});
