import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../../src/ports/errors.js';
import { recordJson } from '../../src/ports/record-json.js';
import {
  appendMessage,
  appendMessages,
  type BatchedSend,
  DEFAULT_INBOX_LIMITS,
  type Inbox,
  type InboxLimits,
  type InboxMessage,
  inboxRecord,
} from '../../src/rules/messages/index.js';

const KEY = 'p1';
const limits = DEFAULT_INBOX_LIMITS;
const gift = (id: string, at = 10, coins = 10): InboxMessage => ({ id, body: { coins }, at });
const inbox: Inbox = {
  pending: [gift('pending-1'), gift('pending-2')],
  done: [['applied-1', 3]],
  forgotBelow: 0,
};
const nearlyFull: Inbox = {
  pending: Array.from({ length: 999 }, (_, index) => gift(`m${index}`)),
  done: [],
  forgotBelow: 0,
};
/** Room for the inbox above and one more 10-coin gift, not for a larger body after it. */
const tight: InboxLimits = {
  ...limits,
  maxInboxBytes:
    JSON.stringify(inboxRecord(inbox)).length + JSON.stringify(gift('g1')).length + 1 + 30,
};

function said(result: BatchedSend): string {
  if (result.outcome === 'refused') return result.error.code;
  if (result.outcome === 'duplicate') return `duplicate ${result.pending ? 'pending' : 'applied'}`;
  return result.outcome;
}

/** What the same sends made one after another say, and the last record one of them wrote. */
function oneByOne(
  current: Inbox | undefined,
  messages: readonly InboxMessage[],
  within: InboxLimits,
) {
  let state = current;
  let record: unknown;
  const outcomes = messages.map((message) => {
    try {
      const result = appendMessage(KEY, state, message, within);
      if (result.outcome !== 'queued') {
        return result.outcome === 'duplicate'
          ? `duplicate ${result.pending ? 'pending' : 'applied'}`
          : result.outcome;
      }
      state = result.inbox;
      record = result.record;
      return 'queued';
    } catch (error) {
      return (error as DataDriverError).code;
    }
  });
  return { outcomes, record };
}

type Row = [
  name: string,
  current: Inbox | undefined,
  messages: InboxMessage[],
  expected: string[],
  pending: string[] | undefined,
  within?: InboxLimits,
];

describe('appending a batch of messages in one write', () => {
  it.each<Row>([
    ['no message', inbox, [], [], undefined],
    ['one message to no inbox', undefined, [gift('g1')], ['queued'], ['g1']],
    [
      'two new ids, in their order',
      inbox,
      [gift('g2'), gift('g1')],
      ['queued', 'queued'],
      ['pending-1', 'pending-2', 'g2', 'g1'],
    ],
    [
      'the same id twice: the second is a pending duplicate',
      undefined,
      [gift('g1'), gift('g1', 11, 99)],
      ['queued', 'duplicate pending'],
      ['g1'],
    ],
    [
      'ids pending and applied before, around a new one',
      inbox,
      [gift('pending-2'), gift('g1'), gift('applied-1')],
      ['duplicate pending', 'queued', 'duplicate applied'],
      ['pending-1', 'pending-2', 'g1'],
    ],
    [
      'only duplicates: nothing to write',
      inbox,
      [gift('pending-1'), gift('applied-1')],
      ['duplicate pending', 'duplicate applied'],
      undefined,
    ],
    [
      'an id the window may have forgotten, then a new one',
      { pending: [], done: [['kept', 50]], forgotBelow: 41 },
      [gift('old', 40), gift('new', 41)],
      ['uncertain', 'queued'],
      ['new'],
    ],
    [
      'a bad body between two good ones: refused alone',
      inbox,
      [gift('g1'), { ...gift('g2'), body: Number.NaN }, gift('g3')],
      ['queued', ErrorCode.InvalidData, 'queued'],
      ['pending-1', 'pending-2', 'g1', 'g3'],
    ],
    ['a bad id alone', inbox, [gift('')], [ErrorCode.InvalidArgument], undefined],
    [
      'the 1,000th and 1,001st pending: the second is full, a pending duplicate still answered',
      nearlyFull,
      [gift('new-1'), gift('new-2'), gift('m5'), gift('new-1')],
      ['queued', ErrorCode.InboxFull, 'duplicate pending', 'duplicate pending'],
      [...nearlyFull.pending.map((message) => message.id), 'new-1'],
    ],
    [
      'a body too large for the bytes left, then a small one that still fits',
      inbox,
      [{ ...gift('big'), body: 'x'.repeat(200) }, gift('g1')],
      [ErrorCode.InboxFull, 'queued'],
      ['pending-1', 'pending-2', 'g1'],
      tight,
    ],
    [
      'a small one that fits, then one more that no longer does',
      inbox,
      [gift('g1'), gift('g2')],
      ['queued', ErrorCode.InboxFull],
      ['pending-1', 'pending-2', 'g1'],
      tight,
    ],
  ])('%s', (_, current, messages, expected, pending, within = limits) => {
    const before = JSON.stringify(current);
    const batch = appendMessages(KEY, current, messages, within);
    expect(batch.results.map(said)).toEqual(expected);
    const written = batch.record as { pending: InboxMessage[] } | undefined;
    expect(written?.pending.map((message) => message.id)).toEqual(pending);
    // Exactly the same sends one after another: each outcome, and the last record written.
    const sequential = oneByOne(current, messages, within);
    expect(batch.results.map(said)).toEqual(sequential.outcomes);
    expect(batch.record).toEqual(sequential.record);
    // The inbox given is never changed: the batch's result is a new one, or nothing.
    expect(JSON.stringify(current)).toBe(before);
  });

  it('counts no comma before the first pending message: an exact fit to an empty inbox is queued', () => {
    const exact = JSON.stringify(inboxRecord({ pending: [gift('g1')], done: [], forgotBelow: 0 }));
    const within = { ...limits, maxInboxBytes: exact.length };
    expect(appendMessages(KEY, undefined, [gift('g1')], within).results.map(said)).toEqual([
      'queued',
    ]);
    const short = { ...limits, maxInboxBytes: exact.length - 1 };
    expect(appendMessages(KEY, undefined, [gift('g1')], short).results.map(said)).toEqual([
      ErrorCode.InboxFull,
    ]);
  });

  it.each<[string, Inbox | undefined]>([
    ['no inbox yet', undefined],
    ['an inbox with pending messages and receipts', inbox],
    [
      'pending bodies that look like the end of the pending list',
      {
        pending: [{ id: 'x', body: { a: [1], done: ['],"done":'] }, at: 1 }],
        done: [['é😀', 2]],
        forgotBelow: 1,
      },
    ],
  ])('writes the JSON of the record it returns, as JSON.stringify would: %s', (_, current) => {
    const messages = [gift('g1'), { ...gift('g2'), from: 'alice', body: { b: [2], done: 'é' } }];
    const batch = appendMessages(KEY, current, messages, limits);
    const next: Inbox = {
      ...(current ?? { done: [], forgotBelow: 0 }),
      pending: [...(current?.pending ?? []), ...messages],
    };
    expect(batch.inbox).toEqual(next);
    expect(batch.record).toEqual(inboxRecord(next));
    const json = recordJson(batch.record as NonNullable<typeof batch.record>);
    expect(json).toBe(JSON.stringify(inboxRecord(next)));
  });

  it("gives each refused message its own typed error, naming the inbox's bounds", () => {
    const batch = appendMessages(KEY, nearlyFull, [gift('new-1'), gift('new-2')], limits);
    const refused = batch.results[1];
    if (refused?.outcome !== 'refused') throw new Error(`not refused: ${refused?.outcome}`);
    expect(DataDriverError.isInstance(refused.error)).toBe(true);
    expect(refused.error).toMatchObject({
      code: ErrorCode.InboxFull,
      details: { key: KEY, pending: 1000, maxPending: 1000 },
    });
    expect(refused.error.message).toBe(
      'Data.InboxFull: the inbox of p1 is full: it holds 1000 pending messages, its most; nothing was written',
    );
    const oneGift = JSON.stringify(
      inboxRecord({ pending: [gift('g1')], done: [], forgotBelow: 0 }),
    ).length;
    const [tooBig] = appendMessages(KEY, undefined, [gift('g1')], {
      ...limits,
      maxInboxBytes: 60,
    }).results;
    if (tooBig?.outcome !== 'refused') throw new Error(`not refused: ${tooBig?.outcome}`);
    expect(tooBig.error.message).toBe(
      `Data.InboxFull: the inbox of p1 is full: it would be ${oneGift} bytes, over its 60; nothing was written`,
    );
  });

  it('fails the whole batch on what is not a typed refusal (a defect), writing nothing', () => {
    const hostile = Object.defineProperty({ ...gift('g2') }, 'id', {
      get(): string {
        throw new Error('a getter that throws');
      },
    });
    expect(() => appendMessages(KEY, inbox, [gift('g1'), hostile], limits)).toThrow(
      'a getter that throws',
    );
  });
});
