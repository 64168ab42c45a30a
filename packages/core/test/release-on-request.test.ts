/**
 * How a holder answers a release request for a profile with no player here (a manual load, so
 * nobody to kick): it releases at once, and the release says why (`beforeRelease`'s reason,
 * from `holder/holder-answers.ts`): another server's load is `joined-elsewhere`, a support load
 * (`restoreAt`, `erase`) is `support`, an operator's `kick` is `operator`. Exact, on the
 * virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { Handoff, type ReleaseReason } from '../src/index.js';
import { MemoryMessenger, MemoryPresence } from '../src/testing.js';
import { stored, testBed } from './helpers.js';

function fleet() {
  const bed = testBed();
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(bed.clock);
  const ended: Array<[string, ReleaseReason]> = [];
  const stores: Record<string, ReturnType<typeof bed.server>['store']> = {};
  const server = (jobId: string) => {
    const handoff = new Handoff({ jobId, messenger, presence, scheduler: bed.clock });
    const { driver, store } = bed.server(jobId, {
      handoff,
      beforeRelease: (profile, reason) => void ended.push([`${jobId} ${profile.key}`, reason]),
    });
    stores[jobId] = store;
    return driver;
  };
  return { bed, ended, stores, a: server('A'), b: server('B') };
}

describe('a release request for a profile held with no player', () => {
  it("from another server's load: released at once as joined-elsewhere, and the load takes it", async () => {
    const { bed, ended, a, b } = fleet();
    const held = await bed.clock.run(a.load('p1'));
    const started = bed.clock.now();
    const profile = await bed.clock.run(b.load('p1'));
    expect(bed.clock.now() - started).toBe(0);
    expect(held.active).toBe(false);
    expect(ended).toEqual([['A p1', 'joined-elsewhere']]);
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
    // A reports the request with the token B saw, and what it did.
    expect(bed.events.filter((e) => e.type === 'handoff.request.received')).toEqual([
      expect.objectContaining({
        key: 'p1',
        requester: 'B',
        token: held.lockToken,
        action: 'release',
      }),
    ]);
  });

  it('from a support load (erase): released as support', async () => {
    const { bed, ended, a, b } = fleet();
    await bed.clock.run(a.load('p1'));
    await bed.clock.run(b.erase('p1'));
    // B's own session ends by the erase, which writes no data: no beforeRelease there.
    expect(ended).toEqual([['A p1', 'support']]);
    expect(bed.store.peek('PlayerData/p1')).toBeUndefined();
  });

  it("from an operator's kick: released as operator", async () => {
    const { bed, ended, a, b } = fleet();
    await bed.clock.run(a.load('p1'));
    expect(await bed.clock.run(b.kick('p1', { message: 'Maintenance.' }))).toEqual({ ended: true });
    expect(ended).toEqual([
      ['A p1', 'operator'],
      ['B p1', 'operator'],
    ]);
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
  });

  it('for a profile retained after its release failed: the release is retried at once, and the load takes it', async () => {
    const { bed, ended, stores, a, b } = fleet();
    const held = await bed.clock.run(a.load('p1'));
    held.data.coins = 4;
    stores.A!.faults.inject({ kind: 'fail', operation: 'update' });
    await bed.clock.run(held.release().catch(() => undefined)); // retained: the lock stays A's
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(held.lockToken);
    const started = bed.clock.now();
    const profile = await bed.clock.run(b.load('p1'));
    // Not the autosave's retry 30 s later: the request's, at once.
    expect(bed.clock.now() - started).toBe(0);
    expect(profile.data).toEqual({ coins: 4 });
    expect(held.active).toBe(false);
    // The retry keeps the first release's reason.
    expect(ended).toEqual([['A p1', 'manual']]);
  });
});
