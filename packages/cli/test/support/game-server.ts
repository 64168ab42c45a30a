/**
 * A game server as the tests need one: a DataDriver on the real Redis adapters with its own
 * Handoff (its jobId, presence beat and hand-over topic) and a MemoryHost for its players.
 */
import {
  DataDriver,
  type DataDriverEvent,
  type DataDriverOptions,
  Handoff,
  type HandoffTimings,
  type Messenger,
  type Presence,
  type Store,
} from '@datadriver/core';
import { MemoryHost } from '@datadriver/core/testing';
import { RedisMessenger, RedisPresence, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { quietLogger } from '../../src/quiet-logger.js';

export interface Player {
  coins: number;
}

export interface GameServer {
  readonly jobId: string;
  readonly driver: DataDriver<Player>;
  readonly host: MemoryHost;
  readonly handoff: Handoff | undefined;
  readonly events: DataDriverEvent[];
  /** A player joins and their profile loads. */
  join(key: string): Promise<void>;
  /** Stops beating presence and answering requests, as a crashed server does (no release). */
  crash(): Promise<void>;
  /** Releases everything and disconnects. */
  stop(): Promise<void>;
}

export interface GameServerOptions {
  readonly url: string;
  readonly prefix: string;
  readonly jobId: string;
  readonly name?: string;
  /** False: an older build, or handoff off (locks without the presence flag). */
  readonly handoff?: boolean;
  readonly timings?: Partial<HandoffTimings>;
  /** Backends other than the Redis ones (DynamoDB, PostgreSQL). */
  readonly store?: Store;
  readonly presence?: Presence;
  readonly messenger?: Messenger & { close(): Promise<void> };
  /** Applies the profile messages sent to the profiles it holds. */
  readonly onMessage?: DataDriverOptions<Player>['onMessage'];
}

export async function gameServer(options: GameServerOptions): Promise<GameServer> {
  const client = new Redis(options.url, { maxRetriesPerRequest: 1, commandTimeout: 5_000 });
  const { prefix } = options;
  const messenger =
    options.messenger ?? new RedisMessenger({ client, prefix, logger: quietLogger });
  const presence = options.presence ?? new RedisPresence({ client, prefix, logger: quietLogger });
  const store =
    options.store ??
    new RedisStore({ client, prefix, versions: { keep: 20 }, logger: quietLogger });
  const handoff =
    options.handoff === false
      ? undefined
      : new Handoff({
          jobId: options.jobId,
          messenger,
          presence,
          logger: quietLogger,
          ...(options.timings ? { timings: options.timings } : {}),
        });
  const driver = new DataDriver<Player>({
    name: options.name ?? 'PlayerData',
    defaults: { coins: 0 },
    store,
    messenger,
    presence,
    jobId: options.jobId,
    handoff: handoff ?? false,
    logger: quietLogger,
    ...(options.onMessage ? { onMessage: options.onMessage } : {}),
  });
  const host = new MemoryHost(options.jobId);
  driver.attach(host);
  const events: DataDriverEvent[] = [];
  driver.on((event) => events.push(event));
  let crashed = false;
  return {
    jobId: options.jobId,
    driver,
    host,
    handoff,
    events,
    join: async (key) => {
      const loaded = new Promise<void>((resolve, reject) => {
        const off = driver.on((event) => {
          if ('key' in event && event.key === key) {
            if (event.type === 'load.loaded') resolve();
            if (event.type === 'load.failed') reject(event.error);
            if (event.type === 'load.loaded' || event.type === 'load.failed') off();
          }
        });
      });
      host.join(key);
      await loaded;
    },
    crash: async () => {
      crashed = true;
      await handoff?.destroy();
    },
    stop: async () => {
      if (!crashed) await driver.close();
      await handoff?.destroy();
      await messenger.close();
      client.disconnect();
    },
  };
}
