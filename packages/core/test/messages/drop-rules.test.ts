/**
 * An operator's drop of one pending message (`datadriver inbox --drop`), the pure rule: what it
 * moves to the receipt window, and when it has nothing to write. Its race with a holder's pass
 * is `drop.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import {
  appendMessage,
  DEFAULT_INBOX_LIMITS,
  dropPending,
  type Inbox,
  type InboxMessage,
  planApply,
} from '../../src/rules/messages/index.js';

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
