/**
 * An operator's drop of one pending message (`datadriver inbox --drop`): a pure rule, and what
 * it does when it lands while the holder applies the same message (applied once, never again,
 * and the drop writes only the inbox).
 */
import { describe, expect, it } from 'vitest';
import type { ProfileMessage } from '../../src/index.js';
import {
  appendMessage,
  DEFAULT_INBOX_LIMITS,
  dropPending,
  type Inbox,
  type InboxMessage,
  inboxRecord,
  parseInbox,
  planApply,
} from '../../src/rules/messages/index.js';
import type { MemoryStore } from '../../src/testing.js';
import { stored } from '../helpers.js';
import { appliedIds, messagesBed, pendingIds, storedInbox } from './bed.js';

const limits = DEFAULT_INBOX_LIMITS;
const gift = (id: string, at = 10): InboxMessage => ({ id, body: 1, at });
const inbox: Inbox = { pending: [gift('a', 1), gift('b', 2)], done: [['z', 0]], forgotBelow: 0 };

describe('dropping a pending message', () => {
  it.each<[string, Inbox | undefined, string, Inbox | undefined]>([
    [
      'moves it to the receipt window, unapplied, the others kept in order',
      inbox,
      'a',
      {
        pending: [gift('b', 2)],
        done: [
          ['z', 0],
          ['a', 1],
        ],
        forgotBelow: 0,
      },
    ],
    ['an id only in the receipt window: nothing to write', inbox, 'z', undefined],
    ['an id never sent: nothing to write', inbox, 'c', undefined],
    ['no inbox: nothing to write', undefined, 'a', undefined],
  ])('%s', (_, before, id, after) => {
    expect(dropPending(before, id, limits)).toEqual(after);
  });

  it('a resend of a dropped id is a duplicate, and no pass applies it', () => {
    const dropped = dropPending(inbox, 'a', limits)!;
    expect(appendMessage('p1', dropped, gift('a', 1), limits)).toEqual({
      outcome: 'duplicate',
      pending: false,
    });
    expect(planApply(dropped, []).apply.map((message) => message.id)).toEqual(['b']);
  });
});

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
