/**
 * Where a driver keeps its records in a store, as core spells it (`@datadriver/core/ports`):
 * profile `key` of driver `name` under `<name>/<key>`, a trade's journal under
 * `<name>#trade/<id>`. The CLI never spells the layout itself.
 */
import { parseStoreKey, profilePrefix } from '@datadriver/core/rules';

export { storeKeyOf } from '@datadriver/core/rules';

/** The store-key prefix of every profile of `driver`. */
export function driverPrefix(driver: string): string {
  return profilePrefix(driver);
}

/** The driver and profile key of a store key, or `undefined` for a journal or a foreign key. */
export function profileOfStoreKey(storeKey: string): { driver: string; key: string } | undefined {
  const owner = parseStoreKey(storeKey);
  return owner?.kind === 'profile' ? { driver: owner.driver, key: owner.key } : undefined;
}
