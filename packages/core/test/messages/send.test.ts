import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../../src/ports/errors.js';
import { jsonClone } from '../../src/ports/json.js';
import { recordJson } from '../../src/ports/record-json.js';
import {
  appendMessage,
  DEFAULT_INBOX_LIMITS,
  type Inbox,
  type InboxLimits,
  type InboxMessage,
  inboxRecord,
  limitsFor,
  MAX_INBOX_BYTES,
  trimInbox,
} from '../../src/rules/messages/index.js';

const KEY = 'p1';
const limits = DEFAULT_INBOX_LIMITS;
const gift = (id: string, at = 10): InboxMessage => ({ id, body: { coins: 10 }, at });
const inbox: Inbox = {
  pending: [gift('pending-1'), gift('pending-2')],
  done: [['applied-1', 3]],
  forgotBelow: 0,
};

type Row = [name: string, current: Inbox | undefined, message: InboxMessage, expected: string];

/** Rows with the expected outcome second, so a test's title names it. */
function titled(rows: Row[]): Array<[string, string, Inbox | undefined, InboxMessage]> {
  return rows.map(([name, current, message, expected]) => [name, expected, current, message]);
}

function outcomeOf(
  current: Inbox | undefined,
  message: InboxMessage,
  within: InboxLimits = limits,
): string {
  const before = JSON.stringify(current);
  try {
    const result = appendMessage(KEY, current, message, within);
    return result.outcome === 'duplicate'
      ? `duplicate ${result.pending ? 'pending' : 'applied'}`
      : result.outcome;
  } catch (error) {
    return (error as { code: string }).code;
  } finally {
    // A send never changes the inbox it was given: its result is a new one, or nothing.
    expect(JSON.stringify(current)).toBe(before);
  }
}

describe('appending a message', () => {
  it.each(
    titled([
      ['a first message to no inbox', undefined, gift('g1'), 'queued'],
      ['a new id', inbox, gift('g3'), 'queued'],
      ['an id still pending', inbox, gift('pending-2'), 'duplicate pending'],
      ['an id applied and in the window', inbox, gift('applied-1'), 'duplicate applied'],
      [
        'a pending id with another body',
        inbox,
        { ...gift('pending-1'), body: 'other' },
        'duplicate pending',
      ],
      ['the id __proto__', inbox, gift('__proto__'), 'queued'],
      ['the id constructor', inbox, gift('constructor'), 'queued'],
      ['the id hasOwnProperty', inbox, gift('hasOwnProperty'), 'queued'],
      ['an id of 128 bytes', inbox, gift('x'.repeat(128)), 'queued'],
      ['an id of 129 bytes', inbox, gift('x'.repeat(129)), ErrorCode.InvalidArgument],
      [
        'an id of 43 three-byte characters (129 bytes)',
        inbox,
        gift('€'.repeat(43)),
        ErrorCode.InvalidArgument,
      ],
      ['an empty id', inbox, gift(''), ErrorCode.InvalidArgument],
      [
        'a numeric id',
        inbox,
        { ...gift('x'), id: 7 as unknown as string },
        ErrorCode.InvalidArgument,
      ],
      ['an id with a lone surrogate', inbox, gift('g\uD800'), ErrorCode.InvalidArgument],
      [
        'a body with a lone surrogate',
        inbox,
        { ...gift('g'), body: ['\uDFFF'] },
        ErrorCode.InvalidData,
      ],
      [
        'a body holding a Date',
        inbox,
        { ...gift('g'), body: { when: new Date(0) } as never },
        ErrorCode.InvalidData,
      ],
      [
        'a body holding undefined',
        inbox,
        { ...gift('g'), body: { x: undefined } as never },
        ErrorCode.InvalidData,
      ],
      ['no body', inbox, { id: 'g', at: 1 } as InboxMessage, ErrorCode.InvalidData],
      [
        'a bad body with a pending id',
        inbox,
        { ...gift('pending-1'), body: Number.NaN },
        ErrorCode.InvalidData,
      ],
      ['a negative time', inbox, gift('g', -1), ErrorCode.InvalidArgument],
      [
        'a sender that is an empty key',
        inbox,
        { ...gift('g'), from: '' },
        ErrorCode.InvalidArgument,
      ],
      [
        'a lone surrogate deep in a body',
        inbox,
        { ...gift('g'), body: { a: 'ok', b: [1, 'x', { c: [null, '\uDFFF'] }] } },
        ErrorCode.InvalidData,
      ],
      [
        'a lone surrogate in a nested key',
        inbox,
        { ...gift('g'), body: [{ ok: 1 }, { '\uD800x': 1 }] },
        ErrorCode.InvalidData,
      ],
      [
        'a body of every JSON kind',
        inbox,
        { ...gift('g'), body: { n: null, t: true, x: 1.5, s: 'é😀', a: [null, [], {}, ['a']] } },
        'queued',
      ],
      [
        'a body over 16 KiB',
        inbox,
        { ...gift('g'), body: 'x'.repeat(16 * 1024) },
        ErrorCode.TooLarge,
      ],
    ]),
  )('%s: %s', (_, expected, current, message) => {
    expect(outcomeOf(current, message)).toBe(expected);
  });

  it('queues the message last, as the inbox stores it, keeping the rest', () => {
    const result = appendMessage(KEY, inbox, { ...gift('g3'), from: 'alice' }, limits);
    const next = {
      ...inbox,
      pending: [...inbox.pending, { id: 'g3', body: { coins: 10 }, at: 10, from: 'alice' }],
    };
    expect(result).toEqual({ outcome: 'queued', inbox: next, record: inboxRecord(next) });
    // The record the transform returns is the one measured: the store reuses its JSON.
    if (result.outcome !== 'queued') throw new Error(result.outcome);
    expect(recordJson(result.record)).toBe(JSON.stringify(inboxRecord(next)));
  });

  it('takes a body just under 16 KiB as stored, and refuses one byte more', () => {
    const stored = JSON.stringify({ id: 'g', body: '', at: 10 });
    const room = limits.maxMessageBytes - stored.length;
    expect(outcomeOf(inbox, { ...gift('g'), body: 'x'.repeat(room) })).toBe('queued');
    expect(outcomeOf(inbox, { ...gift('g'), body: 'x'.repeat(room + 1) })).toBe(ErrorCode.TooLarge);
    expect(() =>
      appendMessage(KEY, inbox, { ...gift('g'), body: 'x'.repeat(room + 1) }, limits),
    ).toThrow(
      expect.objectContaining({
        details: { bytes: limits.maxMessageBytes + 1, maxBytes: limits.maxMessageBytes },
      }),
    );
  });

  it('names the most bytes an id may take when it refuses one', () => {
    expect(() => appendMessage(KEY, inbox, gift('x'.repeat(129)), limits)).toThrow(
      expect.objectContaining({ details: { maxBytes: 128 } }),
    );
  });

  it('stores no sender for a send from outside, and the sender of a transfer', () => {
    const outside = appendMessage(KEY, undefined, gift('g1'), limits);
    const transfer = appendMessage(KEY, undefined, { ...gift('g1'), from: 'alice' }, limits);
    if (outside.outcome !== 'queued' || transfer.outcome !== 'queued')
      throw new Error('not queued');
    expect(Object.keys(outside.inbox.pending[0]!)).toEqual(['id', 'body', 'at']);
    expect(Object.keys(transfer.inbox.pending[0]!)).toEqual(['id', 'body', 'at', 'from']);
  });
});

describe('a full inbox', () => {
  const full: Inbox = {
    pending: Array.from({ length: 1000 }, (_, index) => gift(`m${index}`)),
    done: [],
    forgotBelow: 0,
  };

  it('refuses a new id past 1,000 pending with Data.InboxFull, naming the count', () => {
    let thrown: unknown;
    try {
      appendMessage(KEY, full, gift('one-more'), limits);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: ErrorCode.InboxFull,
      details: { key: KEY, pending: 1000, maxPending: 1000 },
    });
    expect(DataDriverError.isInstance(thrown)).toBe(true);
  });

  it('still answers a duplicate of a pending id as a duplicate', () => {
    expect(outcomeOf(full, gift('m999'))).toBe('duplicate pending');
  });

  it('refuses a message that would take the inbox past its bytes, and takes one that fits', () => {
    const small: InboxLimits = { ...limits, maxInboxBytes: 300 };
    const base = JSON.stringify(inboxRecord(inbox)).length;
    const entry = JSON.stringify(gift('g3')).length + 1; // and a comma
    expect(base + entry).toBeLessThanOrEqual(300);
    expect(outcomeOf(inbox, gift('g3'), small)).toBe('queued');
    const exact = { ...small, maxInboxBytes: base + entry };
    expect(outcomeOf(inbox, gift('g3'), exact)).toBe('queued');
    const tight = { ...small, maxInboxBytes: base + entry - 1 };
    expect(outcomeOf(inbox, gift('g3'), tight)).toBe(ErrorCode.InboxFull);
    expect(() => appendMessage(KEY, inbox, gift('g3'), tight)).toThrow(
      expect.objectContaining({
        details: { key: KEY, bytes: base + entry, maxBytes: base + entry - 1 },
      }),
    );
  });

  it('caps the inbox at the store maxRecordBytes when it is smaller, never above 384 KiB', () => {
    expect(limitsFor(undefined).maxInboxBytes).toBe(MAX_INBOX_BYTES);
    expect(limitsFor(16 * 1024 * 1024).maxInboxBytes).toBe(MAX_INBOX_BYTES);
    expect(limitsFor(100_000).maxInboxBytes).toBe(100_000);
  });
});

describe('an inbox that has forgotten receipts', () => {
  const forgetful: Inbox = { pending: [], done: [['kept', 50]], forgotBelow: 41 };

  it.each(
    titled([
      ['an id in the window', forgetful, gift('kept', 20), 'duplicate applied'],
      ['an unknown id older than what the window forgot', forgetful, gift('t', 40), 'uncertain'],
      ['an unknown id as old as the bound', forgetful, gift('t', 41), 'queued'],
      ['an unknown id newer than what the window forgot', forgetful, gift('t', 90), 'queued'],
      [
        'an unknown id to an inbox that forgot nothing',
        { ...forgetful, forgotBelow: 0 },
        gift('t', 0),
        'queued',
      ],
    ]),
  )('%s: %s', (_, expected, current, message) => {
    expect(outcomeOf(current, message)).toBe(expected);
  });

  it('catches a send that runs late: a copy it delivered later was applied and forgotten', () => {
    // The sender's first call is slow; it calls again (a new time), that copy is applied and
    // its receipt forgotten; then the first call's update runs, with the first call's time.
    let current: Inbox | undefined;
    const late = gift('p1', 100);
    const retry = gift('p1', 105);
    const queued = appendMessage(KEY, current, retry, { ...limits, receiptWindow: 1 });
    if (queued.outcome !== 'queued') throw new Error(queued.outcome);
    current = queued.inbox;
    const applied = new Set(['p1', 'later']);
    const later = appendMessage(KEY, current, gift('later', 106), limits);
    if (later.outcome !== 'queued') throw new Error(later.outcome);
    current = trimInbox(later.inbox, applied, { ...limits, receiptWindow: 1 });
    expect(current).toEqual({ pending: [], done: [['later', 106]], forgotBelow: 106 });
    expect(outcomeOf(current, late)).toBe('uncertain');
  });

  it('leaves a stored inbox untouched when the message is refused', () => {
    const copy = jsonClone(inbox);
    expect(() => appendMessage(KEY, inbox, gift('bad\uD800'), limits)).toThrow();
    expect(inbox).toEqual(copy);
  });
});
