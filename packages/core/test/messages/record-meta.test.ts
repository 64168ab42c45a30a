import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/ports/errors.js';
import type { StoreRecord } from '../../src/ports/store.js';
import { lockedRecord, markedRecord, type ProfileRecord, parseRecord } from '../../src/rules.js';

const writer = { jobId: 'A', token: 't1', now: 1_000, presence: false };
const messages = { applied: ['g1'], outbox: [] };
const record = (meta: Record<string, unknown>) =>
  ({ data: { coins: 1 }, meta: { version: 3, ...meta } }) as unknown as StoreRecord;

describe('meta.messages in a profile record', () => {
  it('reads a record without it (an older build) as before', () => {
    expect(parseRecord('p1', record({}))?.meta.messages).toBeUndefined();
  });

  it('reads a well-formed one', () => {
    expect(parseRecord('p1', record({ messages }))?.meta.messages).toEqual(messages);
  });

  it.each<[string, unknown]>([
    ['not an object', 'g1'],
    ['an unknown field', { applied: [], outbox: [], more: 1 }],
    ['an id twice', { applied: ['g1', 'g1'], outbox: [] }],
    ['an id with a lone surrogate', { applied: ['\uD800'], outbox: [] }],
    ['a transfer without a recipient', { applied: [], outbox: [{ id: 'x', body: 1, at: 1 }] }],
  ])('refuses one that is %s, leaving it untouched', (_, value) => {
    const stored = record({ messages: value });
    const before = JSON.stringify(stored);
    expect(() => parseRecord('p1', stored)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidRecord }),
    );
    expect(JSON.stringify(stored)).toBe(before);
  });

  it('is carried over by a write that sets none (a load, a trade marker), and replaced by one that does', () => {
    const previous = parseRecord('p1', record({ messages })) as ProfileRecord;
    expect(lockedRecord(previous, { coins: 2 }, writer).meta.messages).toEqual(messages);
    const marker = { id: 'tr', journal: 'j' };
    expect(markedRecord(previous, { coins: 2 }, marker, writer).meta.messages).toEqual(messages);
    const next = { applied: ['g1', 'g2'], outbox: [] };
    expect(lockedRecord(previous, {}, writer, { messages: next }).meta.messages).toEqual(next);
    const none = { applied: [], outbox: [] };
    expect(lockedRecord(previous, {}, writer, { messages: none }).meta).not.toHaveProperty(
      'messages',
    );
  });

  it("keeps a newer build's unknown meta fields beside it", () => {
    const previous = parseRecord('p1', record({ messages, future: { x: 1 } })) as ProfileRecord;
    const meta = lockedRecord(previous, {}, writer).meta as unknown as Record<string, unknown>;
    expect(meta).toMatchObject({ messages, future: { x: 1 }, version: 4 });
  });
});
