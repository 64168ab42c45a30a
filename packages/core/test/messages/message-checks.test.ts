import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../../src/ports/errors.js';
import {
  checkMessageBody,
  checkMessageId,
  checkMessageSize,
  DEFAULT_INBOX_LIMITS,
} from '../../src/rules/messages/index.js';

function thrown(run: () => unknown): DataDriverError {
  try {
    run();
  } catch (error) {
    return error as DataDriverError;
  }
  throw new Error('nothing thrown');
}

describe('message checks', () => {
  it('an id that is no text says so, and the limit', () => {
    const error = thrown(() => checkMessageId('', DEFAULT_INBOX_LIMITS));
    expect(DataDriverError.is(error, ErrorCode.InvalidArgument)).toBe(true);
    expect(error.message).toBe(
      'Data.InvalidArgument: a message id must be a non-empty string of well-formed UTF-16; nothing was written',
    );
    expect(error.details).toEqual({ maxBytes: DEFAULT_INBOX_LIMITS.maxIdBytes });
  });

  it.each([
    [
      'a value JSON would change',
      { a: new Date(0) },
      'message.a is a Date; only plain objects, arrays, strings, finite numbers, booleans and null survive JSON',
    ],
    [
      'a lone surrogate in an array',
      ['ok', '\uD800'],
      'message[1] holds a lone surrogate, which a store would change',
    ],
    [
      'a lone surrogate in a key',
      { '\uD800': 1 },
      'message (a key) holds a lone surrogate, which a store would change',
    ],
    [
      'a lone surrogate under a key',
      { a: { b: '\uD800' } },
      'message["a"]["b"] holds a lone surrogate, which a store would change',
    ],
  ])('a body with %s: Data.InvalidData naming its path', (_name, body, problem) => {
    const error = thrown(() => checkMessageBody(body));
    expect(DataDriverError.is(error, ErrorCode.InvalidData)).toBe(true);
    expect(error.message).toBe(
      `Data.InvalidData: the message cannot be sent: ${problem}; nothing was written`,
    );
  });

  it('a body of JSON, nulls and numbers among it, passes as it is', () => {
    const body = { a: null, b: [1, null, 'x'], c: { d: true } };
    expect(checkMessageBody(body)).toBe(body);
  });

  it('a message over the limit says its size and the limit', () => {
    const limits = { ...DEFAULT_INBOX_LIMITS, maxMessageBytes: 10 };
    const error = thrown(() => checkMessageSize({ body: 'x'.repeat(10) }, limits));
    expect(DataDriverError.is(error, ErrorCode.TooLarge)).toBe(true);
    expect(error.message).toBe(
      'Data.TooLarge: the message would be 21 bytes as JSON, over the 10 a message may take; nothing was written',
    );
    expect(error.details).toEqual({ bytes: 21, maxBytes: 10 });
    expect(() => checkMessageSize({ b: 'x'.repeat(2) }, limits)).not.toThrow();
  });
});
