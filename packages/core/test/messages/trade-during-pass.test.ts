import { describe, expect, it } from 'vitest';
import { handoffServers, stored } from '../helpers.js';
import { messagesBed } from './bed.js';

describe('a trade that begins while a message pass reads the inbox', () => {
  it('loses neither: the pass leaves the message to a later pass, applied once after the trade', async () => {
    const m = messagesBed();
    const servers = handoffServers(m.bed);
    const a = servers('A', { onMessage: m.grant('A') });
    const b = servers('B');
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    const bob = await m.bed.clock.run(a.driver.load('bob'));
    alice.data.coins = 10;
    // The holder's pass reads the inbox slowly: the trade takes its copies meanwhile.
    a.store.faults.inject({
      kind: 'latency',
      operation: 'get',
      ms: 100,
      matches: (key) => key.includes('#inbox/'),
    });
    await m.bed.clock.run(b.driver.send('alice', { coins: 100 }, { id: 'g1' }));
    await m.bed.clock.advance(10);
    const trade = a.driver.trade(alice, bob, (x, y) => {
      x.coins -= 3;
      y.coins += 3;
    });
    await m.bed.clock.run(trade);
    await m.bed.clock.advance(60_000);
    expect(m.ids()).toEqual(['g1']);
    expect(stored(m.bed.store, 'alice')?.data).toEqual({ coins: 107 });
    expect(stored(m.bed.store, 'bob')?.data).toEqual({ coins: 3 });
  });
});
