/**
 * One name per store per server: two drivers of one name over one store on one server would
 * each read the other's lock as this server's orphaned lock and take it (the first one's next
 * save then fails with `Data.LockLost`). The seed says they collide; here the second refuses,
 * whether or not handoff is on. Simulated servers in one process (other jobIds) do not collide.
 */
import { DataDriverError, ErrorCode } from './errors.js';
import type { Store } from './ports/store.js';

/** The driver holding each (jobId, name) over each store. Dies with the store. */
const claims = new WeakMap<Store, Map<string, object>>();

const claimKey = (jobId: string, name: string): string => JSON.stringify([jobId, name]);

/** Makes `owner` the driver named `name` over `store` on server `jobId`, or refuses. */
export function claimName(store: Store, jobId: string, name: string, owner: object): void {
  let held = claims.get(store);
  if (!held) {
    held = new Map();
    claims.set(store, held);
  }
  const key = claimKey(jobId, name);
  const holder = held.get(key);
  if (holder !== undefined && holder !== owner) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `a second DataDriver named ${name} over the same store on server ${jobId}: the two would take each other's locks. Close the first one (close() frees the name), give this one another name (its records are then separate), or another jobId`,
      { details: { name, jobId } },
    );
  }
  held.set(key, owner);
}

/** Frees the name if `owner` holds it. */
export function releaseName(store: Store, jobId: string, name: string, owner: object): void {
  const held = claims.get(store);
  const key = claimKey(jobId, name);
  if (held?.get(key) === owner) held.delete(key);
}
