/**
 * The bounds of profile messages, one place. Every figure is a default a test may shrink (the
 * rules take `InboxLimits`), and each is chosen so that a full inbox fits every store.
 */

export interface InboxLimits {
  /** Pending messages an inbox holds at most (the peers' 1,000). */
  readonly maxPending: number;
  /**
   * Ids an inbox remembers after their messages were applied and trimmed: a send whose id is
   * pending or among these is a duplicate. At least the last this many ids are remembered.
   */
  readonly receiptWindow: number;
  /** One message as stored (id, body, time, sender), in UTF-8 bytes of its JSON. */
  readonly maxMessageBytes: number;
  /** The whole inbox record, in UTF-8 bytes of its JSON (also capped by the store's own). */
  readonly maxInboxBytes: number;
  /** A message id, in bytes of its JSON string (as `MAX_TOKEN_BYTES`: a `createId` fits). */
  readonly maxIdBytes: number;
  /**
   * Applied ids a profile keeps besides the ones still in its inbox (which it always keeps):
   * the peers keep the last 50 to 100 purchase ids.
   */
  readonly appliedTail: number;
  /** Undelivered transfers a profile's outbox holds at most. */
  readonly maxOutbox: number;
}

/**
 * DynamoDB's item limit is 400 KB (409,600 bytes) and a DynamoStore declares 407,296 for the
 * record; Redis's default is 512 KiB, PostgreSQL's 4 MiB, memory's 16 MiB. An inbox of at most
 * 384 KiB fits all of them with room for the key and the item's other attributes.
 */
export const MAX_INBOX_BYTES = 384 * 1024;

export const DEFAULT_INBOX_LIMITS: InboxLimits = {
  maxPending: 1_000,
  receiptWindow: 1_000,
  // A gift or grant is a few hundred bytes; 16 KiB leaves room, and a full receipt window of
  // the longest ids (about 147 KB) still leaves room for 15 of the largest (inbox-size.test.ts).
  maxMessageBytes: 16 * 1024,
  maxInboxBytes: MAX_INBOX_BYTES,
  maxIdBytes: 128,
  appliedTail: 100,
  maxOutbox: 100,
};

/** The limits an inbox write checks: the defaults, capped by the store's `maxRecordBytes`. */
export function limitsFor(
  maxRecordBytes: number | undefined,
  limits: InboxLimits = DEFAULT_INBOX_LIMITS,
): InboxLimits {
  if (maxRecordBytes === undefined || maxRecordBytes >= limits.maxInboxBytes) return limits;
  return { ...limits, maxInboxBytes: maxRecordBytes };
}
