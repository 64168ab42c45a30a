/**
 * Where a profile's inbox is stored: `<driver>#inbox/<key>`. A driver's name holds neither "/"
 * nor "#", so no profile key (`<driver>/<key>`) and no trade journal (`<driver>#trade/<id>`)
 * can be spelled this way, and the profiles' scan prefix (`<driver>/`) never lists an inbox.
 * To move into `keys.ts` (with a `kind: 'inbox'` in `parseStoreKey`) when wired.
 */

const INBOX_MARK = '#inbox/';

/** The store key of the inbox of profile `key` of driver `driver`. */
export function inboxKeyOf(driver: string, key: string): string {
  return `${driver}${INBOX_MARK}${key}`;
}

/** The prefix of every inbox's store key of `driver` (for a `Store.scan`: the inspector). */
export function inboxPrefix(driver: string): string {
  return inboxKeyOf(driver, '');
}

/** The profile key an inbox store key of `driver` belongs to, or `undefined`. */
export function profileKeyOfInbox(driver: string, storeKey: string): string | undefined {
  const prefix = inboxPrefix(driver);
  if (!storeKey.startsWith(prefix) || storeKey.length === prefix.length) return undefined;
  return storeKey.slice(prefix.length);
}
