/**
 * Store round trips, counted at the backend: Redis's own `INFO commandstats` calls before and
 * after (so the game-server processes' commands count too), PostgreSQL's `pg_stat_statements`
 * likewise, and DynamoDB requests by an SDK middleware on the bench's own clients. Each command
 * a client sends without pipelining is one round trip, and so is each PostgreSQL statement
 * (node-postgres sends a statement's parse, bind and execute in one write and waits for one
 * reply).
 *
 * Redis counts the commands a Lua script calls as well, under their own names; only the
 * commands the adapters send themselves are counted here, and none of those is called inside
 * the store's scripts (HGET, HMGET, HSET, EXISTS, DEL, TIME).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { RECOMMENDED_REDIS_OPTIONS } from '@datadriver/redis';
import { Redis } from 'ioredis';
import type pg from 'pg';

/** Commands (lowercase, as Redis names them; DynamoDB's operations) and their counts. */
export type Calls = Readonly<Record<string, number>>;

/**
 * The PostgreSQL adapter's statements, named by what they do (the top-level statement only:
 * compare_and_set's own statements run inside it, on the server).
 */
const POSTGRES_STATEMENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/compare_and_set\(/, 'SELECT compare_and_set'],
  [/^SELECT version, record FROM /, 'SELECT record'],
  [/^WITH swept AS [\s\S]*\.presence/, 'INSERT presence'],
  [/^SELECT value FROM \S+\.presence /, 'SELECT presence'],
  [/pg_notify\(/, 'SELECT pg_notify'],
  // The naive lock the throughput is held against (postgres-throughput.ts).
  [/^BEGIN/i, 'BEGIN'],
  [/^COMMIT/i, 'COMMIT'],
  [/^SELECT coins FROM bench_naive_lock .* FOR UPDATE/, 'SELECT FOR UPDATE'],
  [/^UPDATE bench_naive_lock /, 'UPDATE'],
  [/^INSERT INTO bench_naive_lock /, 'INSERT'],
];

/**
 * What each adapter sends: the Redis store, presence and messenger; the DynamoDB store; the
 * PostgreSQL store, presence and messenger.
 */
export const STORE_COMMANDS: readonly string[] = [
  'hgetall',
  'evalsha',
  'eval',
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'SELECT record',
  'SELECT compare_and_set',
];
export const PRESENCE_COMMANDS: readonly string[] = [
  'get',
  'set',
  'INSERT presence',
  'SELECT presence',
];
export const BUS_COMMANDS: readonly string[] = ['publish', 'spublish', 'SELECT pg_notify'];
/** Every command the adapters send. */
export const ADAPTER_COMMANDS: readonly string[] = [
  ...STORE_COMMANDS,
  ...PRESENCE_COMMANDS,
  ...BUS_COMMANDS,
];

/** The sum of `names` in `calls`. */
export function total(calls: Calls, names: readonly string[]): number {
  return names.reduce((sum, name) => sum + (calls[name] ?? 0), 0);
}

/** `calls` divided by `by` (per hop, per cycle), only the commands of `names`. */
export function per(calls: Calls, by: number, names: readonly string[]): Calls {
  const result: Record<string, number> = {};
  for (const name of names) if (calls[name]) result[name] = calls[name] / by;
  return result;
}

/** "HGETALL 3.00, EVALSHA 3.00" */
export function describeCalls(calls: Calls): string {
  // A presence beat or two in a window of thousands of cycles is not part of the cycle.
  const entries = Object.entries(calls).filter(([, count]) => count >= 0.005);
  if (entries.length === 0) return 'none';
  const shown = (name: string) => (name === name.toLowerCase() ? name.toUpperCase() : name);
  return entries.map(([name, count]) => `${shown(name)} ${count.toFixed(2)}`).join(', ');
}

/** Counts, at a backend, the calls every client made to it. */
export interface CallCounter {
  /** Every call's count so far. */
  snapshot(): Promise<Calls>;
  /** The calls made since `before`. */
  since(before: Calls): Promise<Calls>;
  close(): void;
}

/** Counts of every command a redis-server ran, read with INFO commandstats. */
export class RedisCommandCounter implements CallCounter {
  private constructor(private readonly client: Redis) {}

  static open(url: string): RedisCommandCounter {
    return new RedisCommandCounter(new Redis(url, RECOMMENDED_REDIS_OPTIONS));
  }

  /** Every command's count so far (the INFO calls of this counter left out). */
  async snapshot(): Promise<Calls> {
    const info = await this.client.info('commandstats');
    const calls: Record<string, number> = {};
    for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      if (match[1] !== 'info') calls[match[1]!] = Number(match[2]);
    }
    return calls;
  }

  /** The commands run since `before`. */
  async since(before: Calls): Promise<Calls> {
    return difference(await this.snapshot(), before);
  }

  close(): void {
    this.client.disconnect();
  }
}

/**
 * Counts of the adapter's statements a PostgreSQL server ran, read from `pg_stat_statements`
 * (the server must load it: `POSTGRES_SETTINGS` in backends.ts), every database and role.
 */
export class PostgresStatementCounter implements CallCounter {
  private constructor(private readonly pool: pg.Pool) {}

  /** `pool`: one the counter may use alone and end. */
  static async open(pool: pg.Pool): Promise<PostgresStatementCounter> {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    return new PostgresStatementCounter(pool);
  }

  async snapshot(): Promise<Calls> {
    const { rows } = await this.pool.query<{ query: string; calls: string }>(
      'SELECT query, calls FROM pg_stat_statements',
    );
    const calls: Record<string, number> = {};
    for (const { query, calls: count } of rows) {
      const name = POSTGRES_STATEMENTS.find(([pattern]) => pattern.test(query))?.[1];
      if (name !== undefined) calls[name] = (calls[name] ?? 0) + Number(count);
    }
    return calls;
  }

  async since(before: Calls): Promise<Calls> {
    return difference(await this.snapshot(), before);
  }

  close(): void {
    void this.pool.end();
  }
}

export function difference(after: Calls, before: Calls): Calls {
  const result: Record<string, number> = {};
  for (const [name, count] of Object.entries(after)) {
    const delta = count - (before[name] ?? 0);
    if (delta > 0) result[name] = delta;
  }
  return result;
}

export function sum(...all: Calls[]): Calls {
  const result: Record<string, number> = {};
  for (const calls of all) {
    for (const [name, count] of Object.entries(calls)) result[name] = (result[name] ?? 0) + count;
  }
  return result;
}

/** Counts every request `client` sends (each attempt: below the SDK's retries). */
export class DynamoRequestCounter {
  private counts: Record<string, number> = {};

  watch(client: DynamoDBClient): void {
    client.middlewareStack.add(
      (next, context) => (args) => {
        const name = String(context.commandName).replace(/Command$/, '');
        this.counts[name] = (this.counts[name] ?? 0) + 1;
        return next(args);
      },
      { step: 'deserialize', name: 'benchRequestCounter' },
    );
  }

  snapshot(): Calls {
    return { ...this.counts };
  }
}
