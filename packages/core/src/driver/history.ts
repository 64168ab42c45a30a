/**
 * A profile's history and erasure: the kept versions (when the store keeps them), a restore
 * (a load under the usual waits, then the old record written as current), and an erasure (the
 * record and every version, under the lock).
 */

import type { DriverContext } from '../context/context.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { StoreVersion, StoreVersions, VersionQuery } from '../ports/store.js';
import { checkVersionQuery } from '../ports/store-checks.js';
import {
  fillDefaults,
  latestSchema,
  migrateData,
  parseRecord,
  serializeData,
} from '../rules/index.js';
import { NO_PROFILE_MESSAGES, restoredMessages } from '../rules/messages/index.js';
import type { ProfileSession } from '../session/profile-session.js';
import { matchSchema } from '../session/schema-match.js';
import { forgetInJournals } from '../trade/journal.js';

/** `time` in ms; an invalid Date (NaN) is refused, not reported as "no version that old". */
export function restoreTime(time: number | Date): number {
  const at = typeof time === 'number' ? time : time.getTime();
  if (Number.isNaN(at)) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `restoreAt needs a time in ms or a valid Date, got ${String(time)}`,
    );
  }
  return at;
}

export function listVersions(
  context: DriverContext,
  key: string,
  query: VersionQuery,
): Promise<readonly StoreVersion[]> {
  // Checked here too: a store of another package may not check it.
  checkVersionQuery(query);
  return historyOf(context).list(context.keys.store(key), query);
}

/**
 * Writes the version of `key` current at `at` as the new current record, under the lock `load`
 * takes. Rejects with `Data.VersionNotFound`, touching nothing, when no version that old is
 * retained.
 */
export async function restoreAt(
  context: DriverContext,
  key: string,
  at: number,
  load: () => Promise<ProfileSession>,
): Promise<ProfileSession> {
  const history = historyOf(context);
  const storeKey = context.keys.store(key);
  const [version] = await history.list(storeKey, { before: at, limit: 1 });
  if (!version) throw versionNotFound(key, at);
  const session = await load();
  const kept = parseRecord(key, await history.read(storeKey, version.id));
  if (!kept) {
    await session.release('support');
    throw versionNotFound(key, at);
  }
  const { defaults, migrations } = context.settings;
  // A current record of a newer schema keeps it on every write of this server (it loaded as
  // backwards compatible): an older version written here would be labelled newer than it is.
  const current = parseRecord(key, session.lastWritten.stored?.record)?.meta.schema ?? 0;
  const latest = latestSchema(migrations);
  if (current > latest) {
    await session.release('support').catch(() => undefined); // reported as profile.release-failed
    throw new DataDriverError(
      ErrorCode.NewerSchema,
      `${key} is at schema ${current}, newer than this server's ${latest}: restore it from a server of schema ${current} or later; nothing was restored`,
      { details: { key, schema: current, latest } },
    );
  }
  const { meta } = kept;
  const data = fillDefaults(
    migrateData(key, kept.data, meta.schema ?? 0, migrations, meta.compatible),
    defaults,
  );
  try {
    // A version the schema refuses is not restored: the current record stays as it is.
    await matchSchema(context, key, serializeData(key, data));
  } catch (error) {
    await session.release('support').catch(() => undefined); // reported as profile.release-failed
    throw error;
  }
  session.data = data;
  // The current meta.messages is kept: a message applied after that version is not applied
  // again (its effect is rolled back with the data); those pending apply now, to the old data.
  await session.save('restore');
  const { rolledBack } = restoredMessages(
    session.messages.current,
    kept.meta.messages ?? NO_PROFILE_MESSAGES,
  );
  context.emit({
    type: 'profile.restored',
    key,
    versionTime: version.time,
    ...(rolledBack.length > 0 ? { rolledBackMessages: rolledBack } : {}),
  });
  await session.pass('load').catch(() => undefined); // a failed save: profile.save-failed
  return session;
}

/**
 * Deletes the record under `session`'s lock, then its inbox (pending messages and the ids it
 * remembers: a resend after this is new to the key), then every kept version of it.
 */
export async function erase(context: DriverContext, session: ProfileSession): Promise<void> {
  await session.erase();
  await context.store.update(context.keys.inbox(session.key), () => null);
  await context.store.versions?.purge(context.keys.store(session.key));
  await forgetInJournals(context, session.key);
  context.emit({ type: 'profile.erased', key: session.key });
}

function historyOf(context: DriverContext): StoreVersions {
  const { versions } = context.store;
  if (!versions) {
    throw new DataDriverError(
      ErrorCode.Misconfigured,
      `the store of ${context.name} keeps no versions`,
    );
  }
  return versions;
}

function versionNotFound(key: string, at: number): DataDriverError {
  return new DataDriverError(
    ErrorCode.VersionNotFound,
    `no version of ${key} as old as ${new Date(at).toISOString()} is retained`,
    { details: { key, time: at } },
  );
}
