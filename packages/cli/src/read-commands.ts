/**
 * The commands that only read: `inspect`, `servers`, `versions`, `find-user`. None writes to
 * the store, the presence or the bus (the tests compare every key before and after).
 */
import { DataDriverError, ErrorCode, type Store, type StoreVersion } from '@datadriver/core/ports';
import { parseRecord } from '@datadriver/core/rules';
import { duration, preview, table, when } from './format.js';
import { type Inspection, inspect } from './inspect.js';
import { type Beat, beatingServers } from './liveness.js';
import type { CommandContext } from './options.js';
import { renderInspection } from './render-inspection.js';
import { driverPrefix, profileOfStoreKey, storeKeyOf } from './store-keys.js';
import { parseCount, parseTime } from './time-input.js';

export async function inspectCommand(
  context: CommandContext,
  driver: string,
  key: string,
  options: { readonly data?: boolean; readonly versions?: string },
): Promise<Inspection> {
  const inspection = await inspect(
    {
      store: context.backends.store,
      presence: context.backends.presence,
      presenceExpiry: context.backends.presenceExpiry,
      driver: context.readDriver(driver),
      where: context.backends.where,
      watch: context.watch,
      verdict: {
        viewer: context.jobId,
        lockTtlSeconds: context.lockTtlSeconds,
        lockSkewSeconds: context.lockSkewSeconds,
        lockWaitSeconds: context.lockWaitSeconds,
      },
      now: context.now,
      versionsLimit:
        options.versions === undefined ? 5 : parseCount(options.versions, '--versions'),
      withData: options.data === true,
    },
    key,
  );
  print(context, inspection, () => renderInspection(inspection, context.now()));
  return inspection;
}

export async function serversCommand(context: CommandContext): Promise<readonly Beat[]> {
  const { presence } = context.backends;
  if (!presence?.scan) {
    throw new DataDriverError(
      ErrorCode.Misconfigured,
      presence
        ? 'this presence cannot list its keys'
        : 'no presence given: --redis <url>, or --presence-table <name> for DynamoDB',
    );
  }
  const servers = (await beatingServers(presence, context.watch)).sort((a, b) =>
    a.jobId.localeCompare(b.jobId),
  );
  print(context, { servers }, () =>
    servers.length === 0
      ? 'no server beats presence now\n'
      : table(
          ['server', 'last beat', 'expires in'],
          servers.map((server) => [
            server.jobId,
            server.beatAgeMs === undefined
              ? `within ${duration(server.watchedMs ?? 0)}`
              : `${duration(server.beatAgeMs)} ago`,
            server.expiresInMs === undefined ? '' : duration(server.expiresInMs),
          ]),
        ),
  );
  return servers;
}

export interface VersionRow extends StoreVersion {
  readonly data?: unknown;
  readonly schema?: number;
}

export async function versionsCommand(
  context: CommandContext,
  driver: string,
  key: string,
  options: {
    readonly limit?: string;
    readonly before?: string;
    readonly after?: string;
    readonly data?: boolean;
  },
): Promise<readonly VersionRow[]> {
  const now = context.now();
  const query = {
    limit: options.limit === undefined ? 20 : parseCount(options.limit, '--limit'),
    ...(options.before === undefined ? {} : { before: parseTime(options.before, now, '--before') }),
    ...(options.after === undefined ? {} : { after: parseTime(options.after, now, '--after') }),
  };
  const versions = await context.readDriver(driver).versions(key, query);
  const rows: VersionRow[] = [];
  for (const version of versions) {
    if (!options.data) {
      rows.push(version);
      continue;
    }
    const kept = parseRecord(
      key,
      await context.backends.store.versions?.read(storeKeyOf(driver, key), version.id),
    );
    rows.push({ ...version, ...(kept ? { data: kept.data, schema: kept.meta.schema ?? 0 } : {}) });
  }
  print(context, { driver, key, versions: rows }, () =>
    rows.length === 0
      ? `no kept version of ${storeKeyOf(driver, key)} matches\n`
      : table(
          options.data ? ['written', 'id', 'data'] : ['written', 'id'],
          rows.map((row) => [
            when(row.time, now),
            row.id,
            ...(options.data
              ? [row.data === undefined ? '(no longer kept)' : preview(row.data)]
              : []),
          ]),
        ),
  );
  return rows;
}

export interface UserMatch {
  readonly driver: string;
  readonly key: string;
  readonly userIds: readonly string[];
}

export async function findUserCommand(
  context: CommandContext,
  userId: string,
  options: { readonly driver?: string },
): Promise<readonly UserMatch[]> {
  const { store } = context.backends;
  if (!store.scan) {
    throw new DataDriverError(ErrorCode.Misconfigured, 'this store cannot list its keys');
  }
  const prefix = options.driver === undefined ? '' : driverPrefix(options.driver);
  const { matches, scanned, foreign } = await findUser(store, userId, prefix);
  print(context, { userId, matches, scanned, foreign }, () => {
    const note = `${scanned} profile record(s) scanned${foreign > 0 ? `, ${foreign} key(s) that are not DataDriver records skipped` : ''}\n`;
    return matches.length === 0
      ? `no profile is tagged with user id ${userId}; ${note}`
      : table(
          ['driver', 'key', 'user ids'],
          matches.map((match) => [match.driver, match.key, match.userIds.join(', ')]),
        ) + note;
  });
  return matches;
}

const READS_IN_FLIGHT = 16;

async function findUser(store: Store, userId: string, prefix: string) {
  const seen = new Set<string>();
  const matches: UserMatch[] = [];
  let scanned = 0;
  let foreign = 0;
  let batch: Array<{ driver: string; key: string; storeKey: string }> = [];
  const flush = async () => {
    const records = await Promise.all(
      batch.map(async (profile) => {
        try {
          return { profile, record: parseRecord(profile.key, await store.get(profile.storeKey)) };
        } catch (error) {
          if (DataDriverError.is(error, ErrorCode.InvalidRecord))
            return { profile, record: undefined, foreign: true };
          throw error;
        }
      }),
    );
    for (const { profile, record, ...rest } of records) {
      if ('foreign' in rest) foreign += 1;
      if (!record) continue;
      scanned += 1;
      const userIds = record.meta.userIds ?? [];
      if (userIds.includes(userId))
        matches.push({ driver: profile.driver, key: profile.key, userIds });
    }
    batch = [];
  };
  for await (const storeKey of store.scan!(prefix)) {
    if (seen.has(storeKey)) continue;
    seen.add(storeKey);
    const profile = profileOfStoreKey(storeKey);
    if (!profile) continue;
    batch.push({ ...profile, storeKey });
    if (batch.length >= READS_IN_FLIGHT) await flush();
  }
  await flush();
  matches.sort((a, b) => `${a.driver}/${a.key}`.localeCompare(`${b.driver}/${b.key}`));
  return { matches, scanned, foreign };
}

/** `--json` prints the value; otherwise the text for people. */
export function print(context: CommandContext, value: unknown, text: () => string): void {
  context.io.stdout(context.json ? `${JSON.stringify(value, null, 2)}\n` : text());
}
