/**
 * The demo's own connection to Redis: a ping before it serves (a wrong URL fails at start, not
 * in the middle of a case), each case's record read back once its story is over (what it holds
 * and whose lock is on it), and deleted after, so the demo leaves no player data behind.
 * Records are read through the Redis adapter, as the game servers wrote them.
 */
import type { Store } from '@datadriver/core/ports';
import { parseRecord } from '@datadriver/core/rules';
import { DRIVER_NAME } from '@datadriver/example-game-server/process';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';

/** How long the first connection may take before the demo gives up on this URL. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface RecordView {
  readonly coins: number;
  /** The jobId whose lock is on the record, `null` when unlocked. */
  readonly holderJobId: string | null;
  /** Whether the lock carries the presence flag (`false` when unlocked). */
  readonly presenceFlag: boolean;
}

/** What a case runner reads and deletes of each case's record, on Redis or PostgreSQL. */
export interface CaseRecords {
  read(user: string): Promise<RecordView | undefined>;
  remove(user: string): Promise<void>;
  close(): Promise<void>;
}

/** What the page shows of the record of `user` in `store` (`undefined` when there is none). */
export async function readRecordView(store: Store, user: string): Promise<RecordView | undefined> {
  const key = `${DRIVER_NAME}/${user}`;
  const record = parseRecord(key, await store.get(key));
  if (record === undefined) return undefined;
  const { coins } = record.data;
  return {
    coins: typeof coins === 'number' ? coins : 0,
    holderJobId: record.meta.lock?.jobId ?? null,
    presenceFlag: record.meta.lock?.presence === true,
  };
}

/** Deletes the record of `user` from `store`. */
export async function removeRecord(store: Store, user: string): Promise<void> {
  await store.update(`${DRIVER_NAME}/${user}`, () => null);
}

export class RedisRecords implements CaseRecords {
  private constructor(
    private readonly client: Redis,
    private readonly store: RedisStore,
  ) {}

  /** Connects and pings, or fails with what to do about it. */
  static async connect(url: string): Promise<RedisRecords> {
    const client = new Redis(url, {
      ...RECOMMENDED_REDIS_OPTIONS,
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
    let connected = false;
    let lastError = '';
    // ioredis reports each failed reconnection; the demo's log gets each new reason once.
    // Before the first connection, connect() rejects with that same error instead.
    client.on('error', (error: Error) => {
      if (!connected || error.message === lastError) return;
      lastError = error.message;
      console.error(`Redis at ${url}: ${error.message}`);
    });
    try {
      await client.connect();
      await client.ping();
      connected = true;
    } catch (error) {
      client.disconnect();
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `cannot reach Redis at ${url} (${reason}). Start one (redis-server --port 6379) or run the demo without --redis.`,
      );
    }
    return new RedisRecords(client, new RedisStore({ client }));
  }

  /** What the page shows of the record of `user` (`undefined` when there is none). */
  read(user: string): Promise<RecordView | undefined> {
    return readRecordView(this.store, user);
  }

  /** Deletes the record of `user`. Presence keys expire on their own, within seconds. */
  remove(user: string): Promise<void> {
    return removeRecord(this.store, user);
  }

  async close(): Promise<void> {
    await this.client.quit();
  }
}
