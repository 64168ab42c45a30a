import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/ports/errors.js';
import {
  appendMessage,
  DEFAULT_INBOX_LIMITS,
  type Inbox,
  inboxRecord,
  MAX_INBOX_BYTES,
} from '../../src/rules/messages/index.js';

const KEY = 'p1';
const limits = DEFAULT_INBOX_LIMITS;

describe('a full inbox of the largest messages fits every store', () => {
  it('holds a full receipt window of the longest ids and still fits DynamoDB (407,296 bytes)', () => {
    // The worst case a send can leave: 1,000 receipts of 128-byte ids with 13-digit times,
    // and pending messages of the largest size until the inbox refuses one.
    const longId = (index: number): string => `${index}`.padStart(128, 'x');
    const done = Array.from(
      { length: 1000 },
      (_, index) => [longId(index), 1_733_112_345_678] as const,
    );
    let current: Inbox = { pending: [], done, forgotBelow: 0 };
    const skeleton = JSON.stringify({ id: longId(0), body: '', at: 1_733_112_345_678 }).length;
    const body = 'x'.repeat(limits.maxMessageBytes - skeleton);
    let queued = 0;
    for (;;) {
      try {
        const result = appendMessage(
          KEY,
          current,
          { id: `p${queued}`.padStart(128, 'y'), body, at: 1_733_112_345_678 },
          limits,
        );
        if (result.outcome !== 'queued') throw new Error(result.outcome);
        current = result.inbox;
        queued += 1;
      } catch (error) {
        expect((error as { code: string }).code).toBe(ErrorCode.InboxFull);
        break;
      }
    }
    const bytes = JSON.stringify(inboxRecord(current)).length;
    expect(bytes).toBeLessThanOrEqual(MAX_INBOX_BYTES);
    expect(MAX_INBOX_BYTES).toBeLessThanOrEqual(400 * 1024 - 2048 - 256);
    // The figure the design states: 15 of the largest messages beside a full window.
    expect(queued).toBe(15);
  });
});
