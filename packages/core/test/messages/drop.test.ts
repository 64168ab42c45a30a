/**
 * An operator's drop of one pending message (`datadriver inbox --drop`) when it lands while the
 * holder applies the same message: applied once, never again, and the drop writes only the
 * inbox. The rule's table is `drop-rules.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { ProfileMessage } from '../../src/index.js';
import {
  DEFAULT_INBOX_LIMITS,
  dropPending,
  inboxRecord,
  parseInbox,
} from '../../src/rules/messages/index.js';
import type { MemoryStore } from '../../src/testing.js';
import { stored } from '../helpers.js';
import { appliedIds, messagesBed, pendingIds, storedInbox } from './bed.js';

const limits = DEFAULT_INBOX_LIMITS;
const INBOX = 'PlayerData#inbox/p1';

/** The CLI's drop, as one compare-and-set of the inbox (MemoryStore commits it at once). */
function drop(store: MemoryStore, id: string): void {
  void store.update(INBOX, (current) => {
    const next = dropPending(parseInbox(INBOX, current, limits), id, limits);
    return next === undefined ? undefined : inboxRecord(next);
  });
}

describe('a drop racing the holder', () => {
  it('lands after the pass read the message: applied once by that pass, never again, the drop wrote only the inbox', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { coins: 5 }, { id: 'g1' }));
    const calls: string[] = [];
    const pendingWhenDropped: string[] = ['(not dropped)'];
    const a = m.bed.server('A', {
      onMessage: (profile: { data: { coins: number } }, message: ProfileMessage) => {
        // The operator's drop commits between the pass's read and its write.
        if (calls.length === 0) {
          drop(m.bed.store, message.id);
          pendingWhenDropped.push(...pendingIds(m.bed.store, 'p1'));
        }
        calls.push(message.id);
        profile.data.coins += (message.body as { coins: number }).coins;
      },
    });
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.advance(90_000);
    expect(pendingWhenDropped).toEqual(['(not dropped)']); // the drop committed mid-pass
    expect(calls).toEqual(['g1']);
    expect(profile.data.coins).toBe(5);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 5 });
    expect(appliedIds(m.bed.store, 'p1')).toEqual(['g1']);
    expect(pendingIds(m.bed.store, 'p1')).toEqual([]);
    expect(storedInbox(m.bed.store, 'p1')?.done.map(([id]) => id)).toEqual(['g1']);
    await expect(m.bed.clock.run(w.driver.send('p1', { coins: 5 }, { id: 'g1' }))).resolves.toEqual(
      { outcome: 'duplicate' },
    );
  });

  it('lands before any pass: never applied, and the profile is not written for it', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    await m.bed.clock.run(w.driver.send('p1', { coins: 5 }, { id: 'g1' }));
    drop(m.bed.store, 'g1');
    const profile = await m.bed.clock.run(m.server('A').driver.load('p1'));
    await m.bed.clock.advance(90_000);
    expect(m.ids()).toEqual([]);
    expect(profile.data.coins).toBe(0);
    expect(appliedIds(m.bed.store, 'p1')).toEqual([]);
    expect(storedInbox(m.bed.store, 'p1')).toEqual({
      inbox: 1,
      pending: [],
      done: [['g1', expect.any(Number)]],
      forgotBelow: 0,
    });
  });
});
