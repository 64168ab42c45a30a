/**
 * `restore` and `erase`: shown first, confirmed (or `--yes`), then done by core's own
 * `restoreAt` and `erase` on a DataDriver of the CLI's own (see write-driver.ts).
 */
import { DataDriverError, ErrorCode, type StoreVersion } from '@datadriver/core/ports';
import { type ProfileRecord, parseRecord } from '@datadriver/core/rules';
import { duration, preview, rows, when } from './format.js';
import { type Liveness, livenessOf } from './liveness.js';
import type { CommandContext } from './options.js';
import { print } from './read-commands.js';
import { livenessText } from './render-inspection.js';
import { checkSchema, importSchema } from './schema-check.js';
import { storeKeyOf } from './store-keys.js';
import { parseTime } from './time-input.js';
import { writeSession } from './write-driver.js';

/** The person said no: nothing was written. */
export class Cancelled extends Error {
  constructor(what: string) {
    super(`${what} cancelled; nothing was written`);
    this.name = 'Cancelled';
  }
}

export interface HandOver {
  /** The server that held the lock when the command began, if any. */
  readonly holder?: string;
  readonly holderAnswer?: Liveness['answer'];
  /** Hand-over requests the CLI sent. */
  readonly requests: number;
  /** From the load's start to the lock taken. */
  readonly waitedMs: number;
  readonly reason: string;
}

export interface RestoreResult extends HandOver {
  readonly driver: string;
  readonly key: string;
  readonly restored: StoreVersion;
}

export interface EraseResult extends Partial<HandOver> {
  readonly driver: string;
  readonly key: string;
  readonly erased: boolean;
  readonly versions: number;
}

export async function restoreCommand(
  context: CommandContext,
  driver: string,
  key: string,
  options: { readonly at: string; readonly yes?: boolean; readonly schema?: string },
): Promise<RestoreResult> {
  const at = parseTime(options.at, context.now());
  const dataSchema = options.schema === undefined ? undefined : await importSchema(options.schema);
  const storeKey = storeKeyOf(driver, key);
  const { store } = context.backends;
  const current = parseRecord(key, await store.get(storeKey));
  const [version] = await context.readDriver(driver).versions(key, { before: at, limit: 1 });
  if (!version) {
    throw new DataDriverError(
      ErrorCode.VersionNotFound,
      `no version of ${storeKey} as old as ${new Date(at).toISOString()} is kept; nothing was touched`,
      { details: { key, time: at } },
    );
  }
  const kept = parseRecord(key, await store.versions?.read(storeKey, version.id));
  const schema = current?.meta.schema ?? 0;
  if (kept && (kept.meta.schema ?? 0) !== schema) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `the version of ${new Date(version.time).toISOString()} has schema ${kept.meta.schema ?? 0} and the record schema ${schema}: the CLI runs no game's migrations, so restore it from a server's code with driver.restoreAt(); nothing was touched`,
      { details: { key, versionSchema: kept.meta.schema ?? 0, schema } },
    );
  }
  if (dataSchema && kept) {
    // Before the lock and the prompt: a version the game's schema refuses is never written.
    await checkSchema(dataSchema, storeKey, new Date(version.time).toISOString(), kept.data);
  }
  const holder = await holderOf(context, current);
  await confirm(context, options.yes, 'restore', [
    ['restore', `${storeKey} to the version written ${when(version.time, context.now())}`],
    ...lockRows(current, holder),
    ['data now', current ? preview(current.data) : 'no record'],
    ['data then', kept ? preview(kept.data) : '(the version is no longer kept)'],
  ]);
  const session = writeSession(context, driver, schema);
  try {
    const profile = await session.driver.restoreAt(key, at, { handoffSeconds: 0 });
    await profile.release();
  } finally {
    await session.close();
  }
  const result: RestoreResult = {
    driver,
    key,
    restored: version,
    ...handOver(session.events, current, holder),
  };
  print(
    context,
    result,
    () =>
      `restored ${storeKey} to the version of ${new Date(version.time).toISOString()}${handOverText(result)}\n`,
  );
  return result;
}

export async function eraseCommand(
  context: CommandContext,
  driver: string,
  key: string,
  options: { readonly yes?: boolean },
): Promise<EraseResult> {
  const storeKey = storeKeyOf(driver, key);
  const { store } = context.backends;
  const current = parseRecord(key, await store.get(storeKey));
  const versions = store.versions ? (await store.versions.list(storeKey)).length : 0;
  if (!current && versions === 0) {
    const result: EraseResult = { driver, key, erased: false, versions: 0 };
    print(
      context,
      result,
      () => `nothing to erase: no record and no kept version of ${storeKey}\n`,
    );
    return result;
  }
  const holder = await holderOf(context, current);
  await confirm(context, options.yes, 'erase', [
    [
      'erase',
      `${storeKey}: the record${current ? '' : ' (none now)'} and ${versions} kept version(s)`,
    ],
    ['user ids', current?.meta.userIds?.join(', ') || 'none'],
    ...lockRows(current, holder),
  ]);
  const session = writeSession(context, driver, current?.meta.schema ?? 0);
  try {
    await session.driver.erase(key, { handoffSeconds: 0 });
  } finally {
    await session.close();
  }
  const result: EraseResult = {
    driver,
    key,
    erased: true,
    versions,
    ...handOver(session.events, current, holder),
  };
  print(
    context,
    result,
    () => `erased ${storeKey} and ${versions} kept version(s)${handOverText(result)}\n`,
  );
  return result;
}

export async function holderOf(context: CommandContext, record: ProfileRecord | undefined) {
  const lock = record?.meta.lock;
  if (!lock || !context.backends.presence) return undefined;
  return livenessOf(
    context.backends.presence,
    lock.jobId,
    context.watch,
    context.backends.presenceExpiry,
  );
}

export function lockRows(
  record: ProfileRecord | undefined,
  holder: Liveness | undefined,
): Array<readonly [string, string]> {
  const lock = record?.meta.lock;
  if (!lock) return [['lock', 'none']];
  return [
    ['lock', `server ${lock.jobId}, presence flag ${lock.presence ? 'yes' : 'no'}`],
    ['holder', livenessText(holder)],
    ['then', 'the holder is asked to hand over (its player is kicked), as for a join elsewhere'],
  ];
}

/** Shows `plan` and asks; `--yes` skips, and no terminal to ask refuses (nothing written). */
export async function confirm(
  context: CommandContext,
  yes: boolean | undefined,
  what: string,
  plan: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  if (yes) return;
  const { ask } = context.io;
  if (!ask) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `${what} needs --yes when there is no terminal to ask; nothing was written`,
    );
  }
  context.io.stderr(rows(plan));
  const answer = await ask(`${what}? [y/N] `);
  if (!/^y(es)?$/i.test((answer ?? '').trim())) throw new Cancelled(what);
}

export function handOver(
  events: readonly { readonly type: string }[],
  record: ProfileRecord | undefined,
  holder: Liveness | undefined,
): HandOver {
  const loaded = events.find((event) => event.type === 'load.loaded') as
    | { readonly waitedMs: number; readonly reason: string }
    | undefined;
  const lock = record?.meta.lock;
  return {
    ...(lock ? { holder: lock.jobId } : {}),
    ...(holder ? { holderAnswer: holder.answer } : {}),
    requests: events.filter((event) => event.type === 'handoff.request.sent').length,
    waitedMs: loaded?.waitedMs ?? 0,
    reason: loaded?.reason ?? 'unknown',
  };
}

export function handOverText(result: Partial<HandOver>): string {
  if (!result.holder) return '';
  const asked = result.requests ? `, handed over by server ${result.holder}` : '';
  return `${asked} (the lock was taken after ${duration(result.waitedMs ?? 0)}: ${result.reason})`;
}
