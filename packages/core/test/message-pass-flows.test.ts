/**
 * What a message pass writes (`session/message-pass.ts`): a nudge's pass that applied messages
 * saves once, as `message`; one that found nothing new writes nothing; a handler that sets
 * `profile.data` to a new object has its effect kept; a message whose handler threw is tried
 * again at the next autosave, not at every nudge. Exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import type { DataDriverEvent } from '../src/index.js';
import { handoffServers, stored } from './helpers.js';
import { messagesBed, pendingIds } from './messages/bed.js';

function online() {
  const m = messagesBed();
  const servers = handoffServers(m.bed);
  return { m, servers };
}

const saves = (events: readonly DataDriverEvent[]) =>
  events.flatMap((e) => (e.type === 'profile.saved' ? [e.reason] : []));

describe("a nudge's message pass", () => {
  it('saves once, as message, when it applied; writes nothing when it found nothing new', async () => {
    const { m, servers } = online();
    const a = servers('A', { onMessage: m.grant('A') });
    const b = servers('B');
    await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.advance(1_000);
    const before = m.bed.events.length;
    await m.bed.clock.run(b.driver.send('p1', { coins: 10 }, { id: 'g1' }));
    await m.bed.clock.advance(0);
    expect(saves(m.bed.events.slice(before))).toEqual(['message']);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 10 });
    // A nudge with nothing new in the inbox: the pass reads it and writes nothing.
    const version = stored(m.bed.store, 'p1')?.meta.version;
    const after = m.bed.events.length;
    await m.bed.clock.run(b.handoff.nudge('PlayerData', 'p1', 'A'));
    await m.bed.clock.advance(0);
    expect(saves(m.bed.events.slice(after))).toEqual([]);
    expect(stored(m.bed.store, 'p1')?.meta.version).toBe(version);
  });

  it('keeps the effect of a handler that sets profile.data to a new object', async () => {
    const { m, servers } = online();
    const a = servers('A', {
      onMessage: (profile, message) => {
        const coins = (message.body as { coins: number }).coins;
        profile.data = { coins: profile.data.coins + coins };
      },
    });
    const b = servers('B');
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    const held = profile.data;
    await m.bed.clock.run(b.driver.send('p1', { coins: 4 }, { id: 'g1' }));
    await m.bed.clock.advance(0);
    expect(profile.data).toBe(held);
    expect(profile.data).toEqual({ coins: 4 });
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 4 });
  });

  it('does not try again a message whose handler threw; the next autosave does', async () => {
    const { m, servers } = online();
    let tries = 0;
    let broken = true;
    const a = servers('A', {
      onMessage: (profile, message) => {
        tries += 1;
        if (broken) throw new Error('the shop is down');
        profile.data.coins += (message.body as { coins: number }).coins;
      },
    });
    const b = servers('B');
    const loadedAt = m.bed.clock.now();
    await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.run(b.driver.send('p1', { coins: 2 }, { id: 'g1' }));
    await m.bed.clock.advance(0);
    expect(tries).toBe(1);
    // Another message's nudge: g2 is applied, g1 is not tried again.
    broken = false;
    await m.bed.clock.run(b.driver.send('p1', { coins: 5 }, { id: 'g2' }));
    await m.bed.clock.advance(0);
    expect(tries).toBe(2);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 5 });
    expect(pendingIds(m.bed.store, 'p1')).toEqual(['g1']);
    // The autosave at 30 s tries g1 again.
    await m.bed.clock.advanceTo(loadedAt + 30_000);
    expect(tries).toBe(3);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 7 });
  });
});
