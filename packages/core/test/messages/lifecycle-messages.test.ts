import { describe, expect, it } from 'vitest';
import { DataDriver, type DataDriverOptions } from '../../src/index.js';
import { MemoryStore, VirtualClock } from '../../src/testing.js';
import { recordingLogger } from '../helpers.js';
import { appliedIds, messagesBed, pendingIds, storedInbox } from './bed.js';

/** Servers on a store that keeps versions (restoreAt needs them), granting as `messagesBed`. */
function versionedBed() {
  const clock = new VirtualClock();
  const store = new MemoryStore({ versions: { keep: 10 }, clock });
  const log = recordingLogger();
  const server = (jobId: string, options: Partial<DataDriverOptions<{ coins: number }>> = {}) => ({
    driver: new DataDriver({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store,
      scheduler: clock,
      logger: log.logger,
      jobId,
      ...options,
    }),
  });
  return { clock, store, server };
}

describe('messages through erase and restore', () => {
  it('erase deletes the inbox and the ids it remembers: a resend afterwards is new', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { coins: 1 }, { id: 'g1' }));
    const a = m.server('A');
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.run(w.driver.send('p1', { coins: 2 }, { id: 'g2' }));
    await m.bed.clock.run(profile.release());
    expect(storedInbox(m.bed.store, 'p1')?.done.map(([id]) => id)).toEqual(['g1']);
    await m.bed.clock.run(a.driver.erase('p1'));
    expect(m.ids()).toEqual(['g1']); // the erase's own load applied nothing
    expect(storedInbox(m.bed.store, 'p1')).toBeUndefined();
    await expect(m.bed.clock.run(w.driver.send('p1', { coins: 1 }, { id: 'g1' }))).resolves.toEqual(
      { outcome: 'queued' },
    );
  });

  it('restoreAt rolls back what messages applied after that version, never applies them again, and applies the pending ones once to the restored data', async () => {
    const { clock, store, server } = versionedBed();
    const applied: string[] = [];
    const a = server('A', {
      onMessage: (profile, message) => {
        profile.data.coins += (message.body as { coins: number }).coins;
        applied.push(message.id);
      },
    });
    const w = server('W');
    const profile = await clock.run(a.driver.load('p1'));
    profile.data.coins = 10;
    await clock.advance(60_000);
    await clock.run(profile.save());
    const restorePoint = clock.now();
    await clock.advance(60_000);
    await clock.run(w.driver.send('p1', { coins: 5 }, { id: 'g1' }));
    await clock.advance(30_000); // the autosave's pass applies g1
    expect(profile.data.coins).toBe(15);
    await clock.run(profile.release());
    await clock.run(w.driver.send('p1', { coins: 100 }, { id: 'g2' }));
    const events: unknown[] = [];
    a.driver.on((event) => void events.push(event));
    const restored = await clock.run(a.driver.restoreAt('p1', restorePoint + 1));
    // g1 applied after that version: rolled back with the data, told, not applied again.
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'profile.restored', rolledBackMessages: ['g1'] }),
    );
    expect(restored.data).toEqual({ coins: 110 });
    expect(applied).toEqual(['g1', 'g2']);
    expect(appliedIds(store, 'p1')).toEqual(['g1', 'g2']);
    expect(pendingIds(store, 'p1')).toEqual([]);
    await clock.advance(60_000);
    expect(applied).toEqual(['g1', 'g2']);
  });
});
