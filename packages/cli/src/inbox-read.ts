/** A profile's inbox as stored, read through core's rules: for `inbox` and `inspect`. */
import type { Store } from '@datadriver/core/ports';
import { type Inbox, limitsFor, parseInbox } from '@datadriver/core/rules';

/** The inbox stored under `inboxKey`, parsed by core's rules (`Data.InvalidRecord` if foreign). */
export async function readInbox(store: Store, inboxKey: string): Promise<Inbox | undefined> {
  return parseInbox(inboxKey, await store.get(inboxKey), limitsFor(store.maxRecordBytes));
}
