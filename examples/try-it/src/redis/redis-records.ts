/**
 * The demo's own connection to Redis: a ping before it serves (a wrong URL fails at start, not
 * in the middle of a case), each case's record read back once its story is over (what it holds
 * and whose lock is on it), and deleted after, so the demo leaves no player data behind.
 * Records are read through the Redis adapter, as the game servers wrote them.
 */
import { isPlainObject, type JsonValue, type StoreRecord } from '@datadriver/core';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';

/** The game server's driver name: its records live under `PlayerData/<user>`. */
const DRIVER_NAME = 'PlayerData';

/** How long the first connection may take before the demo gives up on this URL. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface RecordView {
  readonly coins: number;
  /** The jobId whose lock is on the record, `null` when unlocked. */
  readonly holderJobId: string | null;
}

function field(value: JsonValue | undefined, name: string): JsonValue | undefined {
  return isPlainObject(value) ? value[name] : undefined;
}

/** What the page shows of a record: its coins and its lock's holder. */
export function viewOf(record: StoreRecord): RecordView {
  const coins = field(field(record, 'data'), 'coins');
  const holder = field(field(field(record, 'meta'), 'lock'), 'jobId');
  return {
    coins: typeof coins === 'number' ? coins : 0,
    holderJobId: typeof holder === 'string' ? holder : null,
  };
}

export class RedisRecords {
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

  /** The record of `user`, or `undefined` when there is none. */
  async read(user: string): Promise<RecordView | undefined> {
    const record = await this.store.get(`${DRIVER_NAME}/${user}`);
    return record === undefined ? undefined : viewOf(record);
  }

  /** Deletes the record of `user`. Presence keys expire on their own, within seconds. */
  async remove(user: string): Promise<void> {
    await this.store.update(`${DRIVER_NAME}/${user}`, () => null);
  }

  async close(): Promise<void> {
    await this.client.quit();
  }
}
