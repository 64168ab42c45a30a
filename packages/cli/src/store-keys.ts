/**
 * Where a driver keeps its records in a store: core writes the profile `key` of driver `name`
 * under `<name>/<key>`, and a trade's journal under `<name>#trade/<id>` (a driver's name holds
 * neither "/" nor "#"). The one place the CLI spells that layout out.
 */

/** The store key of profile `key` of driver `driver`. */
export function storeKeyOf(driver: string, key: string): string {
  return `${driver}/${key}`;
}

/** The store-key prefix of every profile of `driver`. */
export function driverPrefix(driver: string): string {
  return `${driver}/`;
}

/** The driver and profile key of a store key, or `undefined` for a journal or a foreign key. */
export function profileOfStoreKey(storeKey: string): { driver: string; key: string } | undefined {
  const slash = storeKey.indexOf('/');
  if (slash <= 0 || slash === storeKey.length - 1) return undefined;
  const driver = storeKey.slice(0, slash);
  if (driver.includes('#')) return undefined;
  return { driver, key: storeKey.slice(slash + 1) };
}
