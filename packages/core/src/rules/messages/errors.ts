/**
 * The failures of profile messages that no existing code names. Kept apart until the messages
 * are wired into the driver: then these codes move into `errors.ts`'s `ErrorCode` and
 * `MessageError` gives way to `DataDriverError`. Until then a `MessageError` carries the same
 * `Symbol.for` marker, so `DataDriverError.isInstance` already recognises it.
 *
 * Failures an existing code names keep it: a message or inbox over its size is
 * `Data.TooLarge`, a body JSON would change is `Data.InvalidData`, a bad id
 * `Data.InvalidArgument`, a damaged stored inbox or meta `Data.InvalidRecord`.
 */

export const MessageErrorCode = {
  /**
   * The profile's inbox holds its most pending messages, or the message would take it past its
   * bytes; nothing was written. The holder drains it as it applies messages: send again later.
   */
  InboxFull: 'Data.InboxFull',
  /** The profile's outbox holds its most undelivered transfers; nothing was changed. */
  OutboxFull: 'Data.OutboxFull',
  /**
   * The game's `onMessage` threw (or broke the data) on a message: the message stays pending,
   * the data is as before it, and it is tried again at the holder's next pass.
   */
  MessageFailed: 'Data.MessageFailed',
  /**
   * A message cannot be told received or not: its id is not in the recipient's receipt window,
   * which has forgotten messages as recent as this one. Nothing was written: a send rejects,
   * and a transfer is kept in its sender's outbox, never delivered twice, for an operator.
   */
  DeliveryUncertain: 'Data.DeliveryUncertain',
} as const;

export type MessageErrorCode = (typeof MessageErrorCode)[keyof typeof MessageErrorCode];

// The marker of errors.ts's DataDriverError: one error family across copies of the package.
const marker = Symbol.for('datadriver.error');

export interface MessageErrorOptions {
  cause?: unknown;
  /** Facts for logs and handlers: the key, the message id, the limit. */
  details?: Readonly<Record<string, unknown>>;
}

export class MessageError extends Error {
  readonly code: MessageErrorCode;
  readonly details: Readonly<Record<string, unknown>>;
  readonly [marker] = true;

  constructor(code: MessageErrorCode, message: string, options: MessageErrorOptions = {}) {
    super(`${code}: ${message}`, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'DataDriverError';
    this.code = code;
    this.details = options.details ?? {};
  }
}
