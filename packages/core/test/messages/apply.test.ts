import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendMessage,
  DEFAULT_INBOX_LIMITS,
  type Inbox,
  type InboxLimits,
  type InboxMessage,
  planApply,
  recordApplied,
  trimInbox,
} from '../../src/rules/messages/index.js';

const limits = DEFAULT_INBOX_LIMITS;
const gift = (id: string, at = 10): InboxMessage => ({ id, body: 1, at });
const inboxOf = (...ids: string[]): Inbox => ({
  pending: ids.map((id) => gift(id)),
  done: [],
  forgotBelow: 0,
});

describe('what a pass applies', () => {
  it.each<[string, Inbox | undefined, string[], string[], string[]]>([
    ['no inbox', undefined, ['a'], [], []],
    ['an empty inbox', inboxOf(), ['a'], [], []],
    ['messages none applied', inboxOf('a', 'b'), [], ['a', 'b'], []],
    ['a message applied before a crash, not trimmed', inboxOf('a', 'b'), ['a'], ['b'], ['a']],
    ['every message applied, none trimmed', inboxOf('a', 'b'), ['b', 'a'], [], ['a', 'b']],
    [
      'ids named like Object.prototype members',
      inboxOf('constructor', '__proto__'),
      [],
      ['constructor', '__proto__'],
      [],
    ],
    ['an applied id no longer pending', inboxOf('b'), ['a'], ['b'], []],
  ])('%s', (_, inbox, applied, apply, trim) => {
    const plan = planApply(inbox, applied);
    expect(plan.apply.map((message) => message.id)).toEqual(apply);
    expect(plan.trim).toEqual(trim);
  });
});

describe('the applied ids a profile keeps', () => {
  it.each<[string, string[], string[], Inbox | undefined, number, string[]]>([
    ['adds the new ids after the old', ['a'], ['b', 'c'], inboxOf('b', 'c'), 5, ['a', 'b', 'c']],
    [
      'keeps only the last tail ids no longer pending',
      ['a', 'b', 'c'],
      ['d'],
      inboxOf(),
      2,
      ['c', 'd'],
    ],
    ['keeps a pending id past the tail', ['a', 'b', 'c'], ['d'], inboxOf('a'), 1, ['a', 'd']],
    ['keeps every pending id with no tail', ['a', 'b'], ['c'], inboxOf('b', 'c'), 0, ['b', 'c']],
    ['drops every id with no tail and no inbox', ['a'], ['b'], undefined, 0, []],
    ['does not list an id twice', ['a'], ['a', 'b'], inboxOf(), 5, ['a', 'b']],
    [
      'keeps ids named like Object.prototype members',
      [],
      ['constructor'],
      inboxOf('constructor'),
      0,
      ['constructor'],
    ],
  ])('%s', (_, applied, now, inbox, tail, expected) => {
    expect(recordApplied(applied, now, inbox, tail)).toEqual(expected);
  });

  it('never drops an id still pending in the inbox, and keeps at most the ids pending when read plus the tail', () => {
    const small: InboxLimits = { ...limits, maxPending: 6, receiptWindow: 4, appliedTail: 2 };
    // A step: send a new id, or run a pass that reads the inbox, applies some of what it
    // picked (the rest fail), sends may land before its trim, and a crash may skip the trim.
    const step = fc.oneof(
      fc.constant({ kind: 'send' as const }),
      fc.record({
        kind: fc.constant('pass' as const),
        fails: fc.array(fc.boolean(), { maxLength: 6 }),
        sendsBeforeTrim: fc.nat(2),
        crash: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let inbox: Inbox | undefined;
        let applied: string[] = [];
        const everApplied = new Set<string>();
        let next = 0;
        const send = (): void => {
          try {
            const result = appendMessage('p', inbox, gift(`m${next}`, next), small);
            if (result.outcome === 'queued') inbox = result.inbox;
          } catch {
            // Full: the sender tries again later.
          }
          next += 1;
        };
        for (const s of steps) {
          if (s.kind === 'send') {
            send();
          } else {
            const read = inbox;
            const plan = planApply(read, applied);
            for (const message of plan.apply) expect(everApplied.has(message.id)).toBe(false);
            const now = plan.apply
              .filter((_, index) => !s.fails[index])
              .map((message) => message.id);
            for (const id of now) everApplied.add(id);
            applied = recordApplied(applied, now, read, small.appliedTail);
            expect(applied.length).toBeLessThanOrEqual(
              (read?.pending.length ?? 0) + small.appliedTail,
            );
            for (let index = 0; index < s.sendsBeforeTrim; index += 1) send();
            if (!s.crash) inbox = trimInbox(inbox, new Set(applied), small) ?? inbox;
          }
          const pending = inbox?.pending ?? [];
          for (const message of pending) {
            if (everApplied.has(message.id)) expect(applied).toContain(message.id);
          }
          expect(applied.length).toBeLessThanOrEqual(small.maxPending + small.appliedTail);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('trimming the inbox', () => {
  const small: InboxLimits = { ...limits, receiptWindow: 3 };

  it('writes nothing when no applied message is pending', () => {
    expect(trimInbox(inboxOf('a'), new Set(['b']), small)).toBeUndefined();
    expect(trimInbox(undefined, new Set(['b']), small)).toBeUndefined();
  });

  it('moves applied messages to the window, keeping later sends pending in their order', () => {
    const inbox: Inbox = {
      pending: [gift('a', 1), gift('b', 2), gift('c', 3)],
      done: [['z', 0]],
      forgotBelow: 0,
    };
    expect(trimInbox(inbox, new Set(['a', 'c']), small)).toEqual({
      pending: [gift('b', 2)],
      done: [
        ['z', 0],
        ['a', 1],
        ['c', 3],
      ],
      forgotBelow: 0,
    });
  });

  it('drops the oldest receipts past the window and raises forgotBelow above each dropped time', () => {
    const inbox: Inbox = {
      pending: [gift('d', 5), gift('e', 2)],
      done: [
        ['a', 9],
        ['b', 1],
        ['c', 4],
      ],
      forgotBelow: 3,
    };
    expect(trimInbox(inbox, new Set(['d', 'e']), small)).toEqual({
      pending: [],
      done: [
        ['c', 4],
        ['d', 5],
        ['e', 2],
      ],
      forgotBelow: 10,
    });
  });

  it('keeps forgotBelow when the dropped receipts are older than it', () => {
    const inbox: Inbox = {
      pending: [gift('d', 5)],
      done: [
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ],
      forgotBelow: 7,
    };
    expect(trimInbox(inbox, new Set(['d']), small)?.forgotBelow).toBe(7);
  });
});
