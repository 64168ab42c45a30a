/**
 * Keys and names, in one place: where a driver keeps its records in a store, and what a valid
 * key, name or server id is. Core refuses the same keys at its entries as every store refuses
 * at its own (memory, Redis, DynamoDB). A string that is not well-formed UTF-16 (a lone
 * surrogate) cannot cross a backend unchanged: a client encodes it as U+FFFD, so `"\uD800"` and
 * `"\uFFFD"` would name one record.
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { isPlainJsonText } from '../ports/json.js';
import { utf8Bytes } from './record-size.js';

/**
 * The most a profile key, driver name or server id may take on the wire, in bytes of its JSON
 * string (UTF-8, escapes counted): a signed request carries all three and a lock token
 * (`MAX_TOKEN_BYTES`), and must fit MessagingService's 1 kB.
 */
export const MAX_NAME_BYTES = 256;

/** The most a lock token or trade id (what `createId` returns) may take on the wire. */
export const MAX_TOKEN_BYTES = 128;

/** The bytes `text` takes inside a JSON message: its JSON string's UTF-8, without the quotes. */
export function wireBytes(text: string): number {
  // Printable ASCII but the quote and the backslash is itself in JSON: a byte a character.
  if (isPlainJsonText(text)) return text.length;
  return utf8Bytes(JSON.stringify(text)) - 2;
}

/** Why `text` cannot name a key, driver or server (too long), or `undefined`. */
export function tooLong(text: string, max = MAX_NAME_BYTES): string | undefined {
  // A UTF-16 unit is at most 6 bytes in a JSON string (a control's \u escape): a short text
  // is within any limit, with no JSON made to measure it (every load checks its key and token).
  if (text.length * 6 <= max) return undefined;
  const bytes = wireBytes(text);
  return bytes > max
    ? `is ${bytes} bytes as JSON (UTF-8), over the ${max} a handoff message leaves it`
    : undefined;
}

/** Between a driver's name and a trade id in a journal's store key. */
const JOURNAL_MARK = '#trade/';

/** Between a driver's name and a profile key in an inbox's store key. */
const INBOX_MARK = '#inbox/';

/** The store key of profile `key` of driver `driver`: `<driver>/<key>`. */
export function storeKeyOf(driver: string, key: string): string {
  return `${driver}/${key}`;
}

/** The store key of trade `tradeId`'s journal of driver `driver`: `<driver>#trade/<id>`. */
export function journalKeyOf(driver: string, tradeId: string): string {
  return `${driver}${JOURNAL_MARK}${tradeId}`;
}

/** The prefix of every profile's store key of `driver` (for a `Store.scan`). */
export function profilePrefix(driver: string): string {
  return storeKeyOf(driver, '');
}

/** The prefix of every trade journal's store key of `driver`. */
export function journalPrefix(driver: string): string {
  return journalKeyOf(driver, '');
}

/**
 * The store key of profile `key`'s inbox (its pending messages) of driver `driver`:
 * `<driver>#inbox/<key>`. No profile key or trade journal can be spelled this way, and the
 * profiles' scan prefix never lists an inbox.
 */
export function inboxKeyOf(driver: string, key: string): string {
  return `${driver}${INBOX_MARK}${key}`;
}

/** The prefix of every inbox's store key of `driver` (for a `Store.scan`: the inspector). */
export function inboxPrefix(driver: string): string {
  return inboxKeyOf(driver, '');
}

/**
 * What a store key names: a profile of a driver, a trade journal, a profile's inbox, or
 * nothing of DataDriver's.
 */
export type StoreKeyOwner =
  | { readonly kind: 'profile'; readonly driver: string; readonly key: string }
  | { readonly kind: 'journal'; readonly driver: string; readonly trade: string }
  | { readonly kind: 'inbox'; readonly driver: string; readonly key: string };

/** What `storeKey` names, or `undefined` for a key no driver writes. */
export function parseStoreKey(storeKey: string): StoreKeyOwner | undefined {
  const slash = storeKey.indexOf('/');
  // A driver's name holds neither "/" nor "#", so the first of them ends it.
  const hash = storeKey.indexOf('#');
  if (hash > 0 && hash < slash) return markedOwner(storeKey, hash);
  if (slash <= 0 || slash === storeKey.length - 1) return undefined;
  const driver = storeKey.slice(0, slash);
  if (driver.includes('#')) return undefined;
  return { kind: 'profile', driver, key: storeKey.slice(slash + 1) };
}

/** A journal or an inbox: the driver's name ends at `hash`, a mark follows it. */
function markedOwner(storeKey: string, hash: number): StoreKeyOwner | undefined {
  const driver = storeKey.slice(0, hash);
  const rest = storeKey.slice(hash);
  if (rest.startsWith(JOURNAL_MARK) && rest.length > JOURNAL_MARK.length) {
    return { kind: 'journal', driver, trade: rest.slice(JOURNAL_MARK.length) };
  }
  if (rest.startsWith(INBOX_MARK) && rest.length > INBOX_MARK.length) {
    return { kind: 'inbox', driver, key: rest.slice(INBOX_MARK.length) };
  }
  return undefined;
}

/** One driver's keys: its profiles', its journals' and its inboxes' store keys. */
export interface DriverKeys {
  store(key: string): string;
  journal(tradeId: string): string;
  inbox(key: string): string;
}

export function keysOf(driver: string): DriverKeys {
  return {
    store: (key) => storeKeyOf(driver, key),
    journal: (id) => journalKeyOf(driver, id),
    inbox: (key) => inboxKeyOf(driver, key),
  };
}

/** True when `text` is well-formed UTF-16 (no lone surrogate): `String.prototype.isWellFormed`. */
export function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** True when `text` is a non-empty string of well-formed UTF-16. */
export function isWellFormedText(text: unknown): text is string {
  return typeof text === 'string' && text !== '' && isWellFormed(text);
}

/**
 * Throws `Data.InvalidArgument` unless `key` is a string of well-formed UTF-16. A store calls
 * this at the top of `update` and `get`; `what` names the key in the message.
 */
export function checkStoreKey(key: unknown, what = 'a store key'): asserts key is string {
  if (typeof key !== 'string') {
    throw new DataDriverError(ErrorCode.InvalidArgument, `${what} must be a string`, {
      details: { key },
    });
  }
  if (!isWellFormed(key)) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `${what} ${JSON.stringify(key)} is not well-formed UTF-16 (it holds a lone surrogate), so a backend would store it as another key; nothing was read or written`,
      { details: { key } },
    );
  }
}

/** Throws `Data.InvalidArgument` unless `key` is a non-empty string of well-formed UTF-16. */
export function checkProfileKey(key: unknown): asserts key is string {
  checkStoreKey(key, 'a profile key');
  if (key === '') {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      'a profile key must be a non-empty string',
    );
  }
  const long = tooLong(key);
  if (long) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `a profile key ${long} (MAX_NAME_BYTES); nothing was read or written`,
      { details: { maxBytes: MAX_NAME_BYTES } },
    );
  }
}

/**
 * `id` (a lock token or trade id from `createId`), or `Data.InvalidConfig` unless it is a
 * non-empty string of well-formed UTF-16 of at most `MAX_TOKEN_BYTES` on the wire.
 */
export function checkCreatedId(id: unknown): string {
  if (!isWellFormedText(id)) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      'createId must return a non-empty string of well-formed UTF-16',
    );
  }
  const long = tooLong(id, MAX_TOKEN_BYTES);
  if (long) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `an id from createId ${long} (MAX_TOKEN_BYTES)`,
      {
        details: { maxBytes: MAX_TOKEN_BYTES },
      },
    );
  }
  return id;
}

/** True when `name` can name a driver: its store keys start with it, so no "/" or "#". */
export function isDriverName(name: unknown): name is string {
  return isWellFormedText(name) && !/[/#]/.test(name);
}

/** Refuses a host's `jobId` no lock could carry: not well-formed UTF-16, or too long. */
export function checkHostJobId(jobId: string): void {
  if (jobId !== '' && !isWellFormedText(jobId)) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `the host's jobId ${JSON.stringify(jobId)} is not well-formed UTF-16; give each server an id without lone surrogates`,
    );
  }
  const long = tooLong(jobId);
  if (long) {
    throw new DataDriverError(ErrorCode.InvalidConfig, `the host's jobId ${long} (MAX_NAME_BYTES)`);
  }
}
