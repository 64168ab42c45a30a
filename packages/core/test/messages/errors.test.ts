import { describe, expect, it } from 'vitest';
import { DataDriverError } from '../../src/ports/errors.js';
import { MessageError, MessageErrorCode } from '../../src/rules/messages/index.js';

describe('the messages errors', () => {
  it('are DataDriverErrors by their marker, with a code, words and details', () => {
    const error = new MessageError(MessageErrorCode.InboxFull, 'full', { details: { key: 'p1' } });
    expect(DataDriverError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'DataDriverError',
      code: 'Data.InboxFull',
      details: { key: 'p1' },
    });
    expect(error.message).toBe('Data.InboxFull: full');
  });

  it('keep a cause only when given one', () => {
    const cause = new Error('handler bug');
    expect(new MessageError(MessageErrorCode.MessageFailed, 'x', { cause }).cause).toBe(cause);
    expect('cause' in new MessageError(MessageErrorCode.MessageFailed, 'x')).toBe(false);
    expect(new MessageError(MessageErrorCode.OutboxFull, 'x').details).toEqual({});
  });
});
