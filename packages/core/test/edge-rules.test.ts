/** Table tests of the pure rules issue 14 added: presence reads after a wake, budgets, sizes. */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import {
  checkRecordSize,
  MessageBudget,
  readsPresenceAfterWake,
  resolveMessageLimits,
  type WakeFacts,
} from '../src/rules/index.js';
import { DEFAULT_MESSAGE_LIMITS } from '../src/rules.js';

describe('readsPresenceAfterWake', () => {
  const rows: Array<[string, WakeFacts, boolean]> = [
    [
      'a timeout always reads',
      { replied: false, replyProvedFalse: true, sinceLastReadMs: 1, minSpacingMs: 500 },
      true,
    ],
    [
      'a first reply skips the read',
      { replied: true, replyProvedFalse: false, sinceLastReadMs: undefined, minSpacingMs: 500 },
      false,
    ],
    [
      'a reply after a false one reads, before any read',
      { replied: true, replyProvedFalse: true, sinceLastReadMs: undefined, minSpacingMs: 500 },
      true,
    ],
    [
      'a reply after a false one reads, 0.5 s after the last read',
      { replied: true, replyProvedFalse: true, sinceLastReadMs: 500, minSpacingMs: 500 },
      true,
    ],
    [
      'a reply after a false one waits for the spacing',
      { replied: true, replyProvedFalse: true, sinceLastReadMs: 499, minSpacingMs: 500 },
      false,
    ],
  ];
  it.each(rows)('%s', (_name, wake, reads) => {
    expect(readsPresenceAfterWake(wake)).toBe(reads);
  });
});

describe('resolveMessageLimits', () => {
  it('defaults to MessagingService limits', () => {
    expect(resolveMessageLimits()).toEqual({
      publishPerMinute: 600,
      publishPerPlayerPerMinute: 240,
      receivePerMinute: 600,
    });
    expect(DEFAULT_MESSAGE_LIMITS.receivePerMinute).toBe(600);
  });
  it.each([[-1], [Number.NaN], [Number.POSITIVE_INFINITY]])('refuses a rate of %s', (rate) => {
    expect(() => resolveMessageLimits({ receivePerMinute: rate })).toThrow(RangeError);
  });
});

describe('resolveMessageLimits refusals', () => {
  it('names the rate and what it got', () => {
    expect(() => resolveMessageLimits({ receivePerMinute: -1 })).toThrow(
      'limits.receivePerMinute must be a non-negative number, got a number (-1)',
    );
    expect(() =>
      resolveMessageLimits({ publishPerMinute: '5' as never }, 'handoff.limits'),
    ).toThrow('handoff.limits.publishPerMinute must be a non-negative number, got a string ("5")');
  });

  it('a rate of 0 is a rate', () => {
    expect(resolveMessageLimits({ receivePerMinute: 0 }).receivePerMinute).toBe(0);
  });

  it('an unknown key is refused under the option name', () => {
    expect(() => resolveMessageLimits({ recievePerMinute: 1 } as never)).toThrow(
      'unknown option limits.recievePerMinute (did you mean limits.receivePerMinute?)',
    );
  });
});

describe('MessageBudget refill', () => {
  it('refills at its rate: one message per second at 60 a minute, not sooner', () => {
    const budget = new MessageBudget();
    while (budget.take(0, 60)) {}
    expect(budget.take(999, 60)).toBe(false);
    expect(budget.take(1_000, 60)).toBe(true);
    expect(budget.take(1_000, 60)).toBe(false);
    expect(budget.take(3_000, 60)).toBe(true);
    expect(budget.take(3_000, 60)).toBe(true);
    expect(budget.take(3_000, 60)).toBe(false);
  });
});

describe('MessageBudget', () => {
  it.each([
    [600, 100],
    [60, 10],
    [3, 1],
  ])('at %i a minute, a burst of %i passes at once', (perMinute, burst) => {
    const budget = new MessageBudget();
    let taken = 0;
    while (budget.take(0, perMinute)) taken += 1;
    expect(taken).toBe(burst);
  });
});

describe('checkRecordSize', () => {
  const record = { data: { note: 'é' }, meta: { version: 1 } }; // 43 bytes of JSON (é is 2)
  it.each<[number | undefined, boolean]>([
    [undefined, true],
    [43, true],
    [42, false],
    [126, true], // its 42 characters are at most 126 bytes: passes uncounted
    [125, true], // counted: 43
  ])('a 43-byte record against %s bytes passes: %s', (limit, passes) => {
    const check = () => checkRecordSize('p1', record, limit);
    if (passes) expect(check()).toBe(record);
    else expect(check).toThrow(expect.objectContaining({ code: ErrorCode.TooLarge }));
  });

  it('counts the bytes of characters beyond U+FFFF exactly, past the uncounted bound', () => {
    // Each emoji is 2 characters and 4 bytes; JSON escapes the lone surrogate (6 ASCII bytes).
    const wide = { data: { note: '😀😀😀\ud800' }, meta: { version: 1 } };
    const chars = JSON.stringify(wide).length;
    const bytes = Buffer.byteLength(JSON.stringify(wide), 'utf8');
    expect(bytes).toBe(chars + 6);
    expect(checkRecordSize('p1', wide, bytes)).toBe(wide);
    expect(() => checkRecordSize('p1', wide, bytes - 1)).toThrow(
      expect.objectContaining({
        code: ErrorCode.TooLarge,
        details: { key: 'p1', bytes, maxBytes: bytes - 1 },
      }),
    );
  });

  it('says how large the record is and the limit, in its message and details', () => {
    expect(() => checkRecordSize('p1', record, 42)).toThrow(
      expect.objectContaining({
        message:
          "Data.TooLarge: the record of p1 would be 43 bytes, over the store's maxRecordBytes of 42; nothing was written",
        details: { key: 'p1', bytes: 43, maxBytes: 42 },
      }),
    );
  });
});
