/**
 * Keys and names, in one place: where a driver keeps its records in a store, and what a valid
 * key, name or server id is. Core refuses the same keys at its entries as every store refuses
 * at its own (memory, Redis, DynamoDB). A string that is not well-formed UTF-16 (a lone
 * surrogate) cannot cross a backend unchanged: a client encodes it as U+FFFD, so `"\uD800"` and
 * `"\uFFFD"` would name one record.
 */
import { DataDriverError, ErrorCode } from './errors.js';

/** Between a driver's name and a trade id in a journal's store key. */
const JOURNAL_MARK = '#trade/';

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

/** What a store key names: a profile of a driver, a trade journal, or nothing of DataDriver's. */
export type StoreKeyOwner =
  | { readonly kind: 'profile'; readonly driver: string; readonly key: string }
  | { readonly kind: 'journal'; readonly driver: string; readonly trade: string };

/** What `storeKey` names, or `undefined` for a key no driver writes. */
export function parseStoreKey(storeKey: string): StoreKeyOwner | undefined {
  const mark = storeKey.indexOf(JOURNAL_MARK);
  const slash = storeKey.indexOf('/');
  // A driver's name holds neither "/" nor "#", so the first of them ends it.
  if (mark > 0 && mark < slash && !storeKey.slice(0, mark).includes('#')) {
    const trade = storeKey.slice(mark + JOURNAL_MARK.length);
    if (trade !== '') return { kind: 'journal', driver: storeKey.slice(0, mark), trade };
  }
  if (slash <= 0 || slash === storeKey.length - 1) return undefined;
  const driver = storeKey.slice(0, slash);
  if (driver.includes('#')) return undefined;
  return { kind: 'profile', driver, key: storeKey.slice(slash + 1) };
}

/** One driver's keys: its profiles' and its journals' store keys. */
export interface DriverKeys {
  store(key: string): string;
  journal(tradeId: string): string;
}

export function keysOf(driver: string): DriverKeys {
  return { store: (key) => storeKeyOf(driver, key), journal: (id) => journalKeyOf(driver, id) };
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
}

/** True when `name` can name a driver: its store keys start with it, so no "/" or "#". */
export function isDriverName(name: unknown): name is string {
  return isWellFormedText(name) && !/[/#]/.test(name);
}
