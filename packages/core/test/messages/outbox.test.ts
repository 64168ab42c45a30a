import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/ports/errors.js';
import {
  addToOutbox,
  appendMessage,
  DEFAULT_INBOX_LIMITS,
  deliveryOf,
  type Inbox,
  type OutboxEntry,
  settleDelivery,
  toDeliver,
} from '../../src/rules/messages/index.js';

const limits = DEFAULT_INBOX_LIMITS;
const entry = (id: string, to = 'bob', at = 100): OutboxEntry => ({
  to,
  id,
  body: { coins: 10 },
  at,
});

function codeOf(run: () => unknown): string {
  try {
    run();
    return 'added';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('adding a transfer to the outbox', () => {
  it('adds it last, as it will be delivered', () => {
    expect(addToOutbox('alice', [entry('t1')], entry('t2', 'carol'), limits)).toEqual([
      entry('t1'),
      entry('t2', 'carol'),
    ]);
  });

  it.each<[string, readonly OutboxEntry[], OutboxEntry, string]>([
    ['a new transfer', [], entry('t1'), 'added'],
    ['an id already in the outbox', [entry('t1')], entry('t1', 'carol'), ErrorCode.InvalidArgument],
    ['a transfer to itself', [], entry('t1', 'alice'), ErrorCode.InvalidArgument],
    ['an empty recipient', [], entry('t1', ''), ErrorCode.InvalidArgument],
    ['a recipient with a lone surrogate', [], entry('t1', 'b\uD800'), ErrorCode.InvalidArgument],
    ['a recipient over 256 bytes', [], entry('t1', 'b'.repeat(257)), ErrorCode.InvalidArgument],
    ['a bad id', [], entry('t\uDC00'), ErrorCode.InvalidArgument],
    [
      'a body JSON would change',
      [],
      { ...entry('t1'), body: { n: Infinity } },
      ErrorCode.InvalidData,
    ],
    ['a body over 16 KiB', [], { ...entry('t1'), body: 'x'.repeat(17_000) }, ErrorCode.TooLarge],
    [
      'a full outbox',
      Array.from({ length: 100 }, (_, i) => entry(`o${i}`)),
      entry('t1'),
      ErrorCode.OutboxFull,
    ],
  ])('%s: %s', (_, outbox, added, expected) => {
    const before = JSON.stringify(outbox);
    expect(codeOf(() => addToOutbox('alice', outbox, added, limits))).toBe(expected);
    expect(JSON.stringify(outbox)).toBe(before);
  });
});

describe('delivering a transfer', () => {
  const bob: Inbox = { pending: [], done: [['old', 5]], forgotBelow: 50 };

  it('delivers the entry as a message from the sender, at the change time', () => {
    expect(deliveryOf('alice', entry('t1'))).toEqual({
      id: 't1',
      body: { coins: 10 },
      at: 100,
      from: 'alice',
    });
  });

  it.each<[string, string, OutboxEntry, OutboxEntry[]]>([
    ['a delivery newer than anything forgotten', 'queued', entry('t1'), []],
    ['a delivery the window remembers', 'duplicate', entry('old', 'bob', 5), []],
    ['a delivery as new as the bound', 'queued', entry('t1', 'bob', 50), []],
    [
      'a delivery the window may have forgotten',
      'uncertain',
      entry('t1', 'bob', 20),
      [{ ...entry('t1', 'bob', 20), uncertain: true }],
    ],
  ])('%s is %s, then the outbox is settled', (_, outcome, sent, left) => {
    const result = appendMessage('bob', bob, deliveryOf('alice', sent), limits);
    expect(result.outcome).toBe(outcome);
    expect(settleDelivery([sent], sent.id, result.outcome)).toEqual(left);
  });

  it('keeps an uncertain entry out of what is delivered, and the others in order', () => {
    const outbox = [entry('a'), { ...entry('b'), uncertain: true as const }, entry('c')];
    expect(toDeliver(outbox).map((item) => item.id)).toEqual(['a', 'c']);
  });

  it('settles only the entry delivered', () => {
    expect(settleDelivery([entry('a'), entry('b')], 'a', 'duplicate')).toEqual([entry('b')]);
    expect(settleDelivery([entry('a'), entry('b')], 'b', 'uncertain')).toEqual([
      entry('a'),
      { ...entry('b'), uncertain: true },
    ]);
  });

  it('names the key and id, or the limit, when it refuses a transfer', () => {
    expect(() => addToOutbox('alice', [entry('t1')], entry('t1'), limits)).toThrow(
      expect.objectContaining({ details: { key: 'alice', id: 't1' } }),
    );
    const full = Array.from({ length: 100 }, (_, i) => entry(`o${i}`));
    expect(() => addToOutbox('alice', full, entry('t1'), limits)).toThrow(
      expect.objectContaining({ details: { key: 'alice', maxOutbox: 100 } }),
    );
    expect(addToOutbox('alice', full.slice(1), entry('t1'), limits)).toHaveLength(100);
  });
});

describe('the next holder finishes an interrupted delivery', () => {
  // Alice's change and outbox entry committed; her server crashed at some step of the
  // delivery. Her next holder knows nothing of it: it delivers every entry again.
  const committed = [entry('t1', 'bob', 100), entry('t2', 'carol', 101)];
  const landed: Inbox = {
    pending: [deliveryOf('alice', entry('t1', 'bob', 100))],
    done: [],
    forgotBelow: 0,
  };
  const applied: Inbox = { pending: [], done: [['t1', 100]], forgotBelow: 0 };
  const never: Inbox = { pending: [], done: [], forgotBelow: 0 };

  it.each<[string, Inbox, string]>([
    ['crashed before the delivery', never, 'queued'],
    ['crashed after it landed, still pending', landed, 'duplicate'],
    ['crashed after it landed, applied and trimmed', applied, 'duplicate'],
  ])('%s: the redelivery is %s, and the entry is done', (_, bob, outcome) => {
    const [first] = toDeliver(committed);
    const result = appendMessage('bob', bob, deliveryOf('alice', first!), limits);
    expect(result.outcome).toBe(outcome);
    expect(settleDelivery(committed, first!.id, result.outcome)).toEqual([committed[1]]);
  });
});
