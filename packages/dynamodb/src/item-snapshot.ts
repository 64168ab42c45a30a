/**
 * A record item as the port's snapshot: the version a caller hands back (`expected`) carries
 * what the next conditional write needs of the item it saw, its revision and the mark of its
 * newest kept version, so a write given a snapshot reads nothing first.
 */
import type { StoreSnapshot } from '@datadriver/core/ports';
import type { StoredItem } from './item-codec.js';

/** Between the revision and the mark; a revision (`nextVersionId`) never holds it. */
const SEPARATOR = '|';

/** The snapshot of a decoded item. */
export function snapshotOfItem(item: StoredItem): StoreSnapshot {
  const mark = item.newestVersion ? `${item.newestVersion.time}.${item.newestVersion.seq}` : '';
  return { record: item.record, version: `${item.revision ?? ''}${SEPARATOR}${mark}` };
}

/**
 * The item a snapshot stands for. A version this store did not make stands for an item at a
 * revision no item has: the write's condition fails, and its reply carries the item stored now.
 */
export function itemOfSnapshot(snapshot: StoreSnapshot): StoredItem {
  const at = snapshot.version.lastIndexOf(SEPARATOR);
  if (at < 0)
    return { record: snapshot.record, revision: snapshot.version, newestVersion: undefined };
  const revision = snapshot.version.slice(0, at);
  const [time, seq] = snapshot.version
    .slice(at + 1)
    .split('.')
    .map(Number);
  const marked = Number.isSafeInteger(time) && Number.isSafeInteger(seq);
  return {
    record: snapshot.record,
    revision: revision === '' ? undefined : revision,
    newestVersion: marked ? { time: time as number, seq: seq as number } : undefined,
  };
}
