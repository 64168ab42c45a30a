import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { MemoryHost } from '../../src/testing.js';
import { stored } from '../helpers.js';
import { appliedIds, messagesBed, pendingIds, storedInbox } from './bed.js';

const INBOX = 'PlayerData#inbox/p1';
const PROFILE = 'PlayerData/p1';

describe('send and apply on the holder, exactly once', () => {
  it('an offline send is applied at the next load, before onLoad sees the profile', async () => {
    const m = messagesBed();
    const webhook = m.bed.server('W'); // holds nothing, runs no handler
    await expect(
      m.bed.clock.run(webhook.driver.send('p1', { coins: 100 }, { id: 'receipt-1' })),
    ).resolves.toEqual({ outcome: 'queued' });
    expect(pendingIds(m.bed.store, 'p1')).toEqual(['receipt-1']);
    const a = m.server('A');
    const host = new MemoryHost('A');
    const seen: number[] = [];
    a.driver.attach(host, { onLoad: (profile) => void seen.push(profile.data.coins) });
    host.join('p1');
    await m.bed.clock.advance(0);
    expect(seen).toEqual([100]);
    expect(m.ids()).toEqual(['receipt-1']);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 100 });
    expect(appliedIds(m.bed.store, 'p1')).toEqual(['receipt-1']);
    expect(pendingIds(m.bed.store, 'p1')).toEqual([]);
    expect(storedInbox(m.bed.store, 'p1')?.done.map(([id]) => id)).toEqual(['receipt-1']);
  });

  it('a second send with the same id is a duplicate: nothing written, applied once', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    const send = () => m.bed.clock.run(w.driver.send('p1', { coins: 5 }, { id: 'gift-1' }));
    await expect(send()).resolves.toEqual({ outcome: 'queued' });
    await expect(send()).resolves.toEqual({ outcome: 'duplicate' });
    const a = m.server('A');
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    // Trimmed and applied: a resend is still a duplicate, from the receipt window.
    await expect(send()).resolves.toEqual({ outcome: 'duplicate' });
    await m.bed.clock.advance(60_000);
    expect(profile.data.coins).toBe(5);
    expect(m.ids()).toEqual(['gift-1']);
  });

  it('a send whose response is lost is retried with its id: applied once', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    w.store.faults.inject({ kind: 'lose-response', operation: 'update', key: INBOX });
    await expect(
      m.bed.clock.run(w.driver.send('p1', { coins: 7 }, { id: 'r1' })),
    ).rejects.toMatchObject({ code: ErrorCode.BackendFailed });
    await expect(m.bed.clock.run(w.driver.send('p1', { coins: 7 }, { id: 'r1' }))).resolves.toEqual(
      { outcome: 'duplicate' },
    );
    const profile = await m.bed.clock.run(m.server('A').driver.load('p1'));
    expect(profile.data.coins).toBe(7);
    expect(m.ids()).toEqual(['r1']);
  });

  it('bad input is a typed error with nothing written', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    const sent = (body: unknown, id: unknown) =>
      m.bed.clock.run(w.driver.send('p1', body, { id: id as string }));
    await expect(sent({ at: new Date() }, 'x')).rejects.toMatchObject({
      code: ErrorCode.InvalidData,
    });
    await expect(sent({}, '')).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });
    await expect(sent('x'.repeat(17_000), 'big')).rejects.toMatchObject({
      code: ErrorCode.TooLarge,
    });
    expect(storedInbox(m.bed.store, 'p1')).toBeUndefined();
  });

  it("the apply's write lost: the ids stay with the effect in memory, the next write carries both, and the trim waits for it", async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    const a = m.server('A');
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.run(w.driver.send('p1', { coins: 3 }, { id: 'g1' }));
    a.store.faults.inject({ kind: 'lose-response', operation: 'update', key: PROFILE });
    await m.bed.clock.run(w.driver.send('p1', { coins: 4 }, { id: 'g2' }));
    // A nudge-free bed: the autosave's pass applies both; its save's response is lost.
    await m.bed.clock.advance(30_000);
    expect(m.ids()).toEqual(['g1', 'g2']);
    expect(profile.data.coins).toBe(7);
    expect(pendingIds(m.bed.store, 'p1')).toEqual(['g1', 'g2']); // not known committed
    await m.bed.clock.advance(30_000);
    expect(m.ids()).toEqual(['g1', 'g2']);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 7 });
    expect(pendingIds(m.bed.store, 'p1')).toEqual([]);
  });

  it('the trim lost: the next pass trims without applying', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { coins: 2 }, { id: 'g1' }));
    const a = m.server('A');
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: INBOX });
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    expect(pendingIds(m.bed.store, 'p1')).toEqual(['g1']);
    expect(appliedIds(m.bed.store, 'p1')).toEqual(['g1']);
    await m.bed.clock.advance(30_000);
    expect(pendingIds(m.bed.store, 'p1')).toEqual([]);
    expect(profile.data.coins).toBe(2);
    expect(m.ids()).toEqual(['g1']);
  });

  it('a holder that crashes between the apply and the trim: the next holder trims without applying', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { coins: 9 }, { id: 'g1' }));
    const a = m.server('A');
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: INBOX });
    await m.bed.clock.run(a.driver.load('p1'));
    // A is cut off from the store from now on: a crash, as far as the others can tell.
    a.store.faults.inject({ kind: 'fail', times: Number.POSITIVE_INFINITY });
    const b = m.server('B', { lockWaitSeconds: 600 });
    const profile = await m.bed.clock.run(b.driver.load('p1'));
    expect(profile.data.coins).toBe(9);
    expect(m.applied.map(({ server, id }) => [server, id])).toEqual([['A', 'g1']]);
    expect(pendingIds(m.bed.store, 'p1')).toEqual([]);
  });

  it('a handler that throws leaves its message pending, warns once, and the others apply', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { throws: true }, { id: 'bad' }));
    await m.bed.clock.run(w.driver.send('p1', { coins: 1 }, { id: 'good' }));
    const profile = await m.bed.clock.run(m.server('A').driver.load('p1'));
    expect(profile.data.coins).toBe(1);
    expect(m.ids()).toEqual(['good']);
    expect(pendingIds(m.bed.store, 'p1')).toEqual(['bad']);
    await m.bed.clock.advance(90_000); // three autosave passes try it again
    const failed = m.bed.log.warnings().filter((line) => line.includes(ErrorCode.MessageFailed));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain('"bad"');
    expect(pendingIds(m.bed.store, 'p1')).toEqual(['bad']);
  });

  it('profile.lastSaved is the data as last committed', async () => {
    const m = messagesBed();
    const a = m.server('A');
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    profile.data.coins = 5;
    expect(profile.lastSaved).toEqual({ coins: 0 });
    await m.bed.clock.run(profile.save());
    expect(profile.lastSaved).toEqual({ coins: 5 });
    a.store.faults.inject({ kind: 'lose-response', operation: 'update', key: PROFILE });
    profile.data.coins = 6;
    await expect(m.bed.clock.run(profile.save())).rejects.toBeDefined();
    expect(profile.lastSaved).toEqual({ coins: 5 });
  });
});
