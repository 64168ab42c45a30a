import { describe, expect, it } from 'vitest';
import { type ProfileMessages, restoredMessages } from '../../src/rules/messages/index.js';

const transfer = { to: 'bob', id: 't9', body: { coins: 5 }, at: 9 };

describe('what restoreAt does with messages', () => {
  it.each<[string, ProfileMessages, ProfileMessages, string[]]>([
    ['nothing applied since', { applied: ['a'], outbox: [] }, { applied: ['a'], outbox: [] }, []],
    [
      'two applied since',
      { applied: ['a', 'b', 'c'], outbox: [] },
      { applied: ['a'], outbox: [] },
      ['b', 'c'],
    ],
    [
      'a version from before any message',
      { applied: ['a'], outbox: [] },
      { applied: [], outbox: [] },
      ['a'],
    ],
    [
      'ids the window has since dropped',
      { applied: ['c'], outbox: [] },
      { applied: ['a', 'b'], outbox: [] },
      ['c'],
    ],
  ])(
    '%s: keeps the current ids and outbox, and reports what it rolls back',
    (_, current, old, rolledBack) => {
      const withOutbox = { ...current, outbox: [transfer] };
      const restored = restoredMessages(withOutbox, old);
      expect(restored.messages).toBe(withOutbox);
      expect(restored.rolledBack).toEqual(rolledBack);
    },
  );
});
