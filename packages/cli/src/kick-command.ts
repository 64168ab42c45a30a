/**
 * `kick`: an operator ends a live session on purpose, through core's `DataDriver.kick`: the
 * holder is asked to release the profile and kicks its player with the operator's reason; a
 * holder that does not answer keeps its lock (`Data.Locked`), never taken by age.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core/ports';
import { checkKickMessage, parseRecord } from '@datadriver/core/rules';
import type { CommandContext } from './options.js';
import { print } from './read-commands.js';
import { storeKeyOf } from './store-keys.js';
import {
  confirm,
  type HandOver,
  handOver,
  handOverText,
  holderOf,
  lockRows,
} from './write-commands.js';
import { writeSession } from './write-driver.js';

export interface KickResult extends Partial<HandOver> {
  readonly driver: string;
  readonly key: string;
  /** False: no session to end (the record holds no lock); nothing was written. */
  readonly ended: boolean;
  readonly message: string;
}

export async function kickCommand(
  context: CommandContext,
  driver: string,
  key: string,
  options: { readonly reason: string; readonly yes?: boolean },
): Promise<KickResult> {
  const storeKey = storeKeyOf(driver, key);
  const { backends } = context;
  const message = options.reason;
  checkKickMessage(message); // before anything is read or written
  const current = parseRecord(key, await backends.store.get(storeKey));
  if (!current?.meta.lock) {
    const result: KickResult = { driver, key, ended: false, message };
    print(
      context,
      result,
      () => `no session to end: ${storeKey} is not held; nothing was written\n`,
    );
    return result;
  }
  if (!backends.messenger || !backends.presence) {
    throw new DataDriverError(
      ErrorCode.Misconfigured,
      "kick asks the holder through the servers' messenger and presence, and this backend gives none (give --redis or --postgres); nothing was written",
    );
  }
  const holder = await holderOf(context, current);
  await confirm(context, options.yes, 'kick', [
    ['kick', `${storeKey}: its player sees ${JSON.stringify(message)}`],
    ...lockRows(current, holder),
  ]);
  const session = writeSession(context, driver, current.meta.schema ?? 0);
  let ended: boolean;
  try {
    ({ ended } = await session.driver.kick(key, { message }));
  } finally {
    await session.close();
  }
  const result: KickResult = {
    driver,
    key,
    ended,
    message,
    ...(ended ? handOver(session.events, current, holder) : {}),
  };
  print(context, result, () =>
    ended
      ? `ended the session of ${storeKey}${handOverText(result)}\n`
      : `no session to end: ${storeKey} was released meanwhile; nothing was written\n`,
  );
  return result;
}
