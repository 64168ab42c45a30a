/**
 * A game server inside the bench process (a handoff and its drivers on a MemoryHost) on the
 * ports it is given, and `redisPorts` for all-Redis ones. Used by the same-server rejoins
 * (rejoin.ts puts the store behind core's fault decorator, to fail a leave save exactly), by
 * throughput and idle cost on Redis, and by the in-process hand-over profile on every backend
 * combination (combo-ports.ts, with DynamoDB and Pub/Sub).
 */
import {
  DataDriver,
  type DataDriverEvent,
  Handoff,
  type HandoffTimings,
  type MessageHandler,
  type Messenger,
  type Presence,
  type Scheduler,
  type Store,
} from '@datadriver/core';
import { MemoryHost } from '@datadriver/core/testing';
import { messageLimitsTimes } from '@datadriver/example-game-server/process';
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import { Redis, type RedisOptions } from 'ioredis';
import { MESSAGE_LIMITS_TIMES } from '../config.js';
import { quietLogger } from '../quiet-logger.js';

export interface Ports {
  readonly store: Store;
  readonly messenger: Messenger;
  readonly presence: Presence;
}

/** A server's ports and the connections behind them, closed together. */
export interface ClosablePorts extends Ports {
  close(): Promise<void>;
}

/** A server's Redis ports on one client with the adapter's recommended options, as the example
 * game server makes them; `extra` adds client options (auto-pipelining, for throughput). */
export function redisPorts(url: string, extra: RedisOptions = {}): ClosablePorts {
  const client = new Redis(url, { ...RECOMMENDED_REDIS_OPTIONS, ...extra });
  const messenger = new RedisMessenger({ client, logger: quietLogger });
  return {
    store: new RedisStore({ client, logger: quietLogger }),
    messenger,
    presence: new RedisPresence({ client, logger: quietLogger }),
    close: async () => {
      await messenger.close();
      client.disconnect();
    },
  };
}

export interface Coins {
  coins: number;
}

export interface InProcessServer {
  readonly handoff: Handoff;
  readonly host: MemoryHost;
  readonly drivers: readonly DataDriver<Coins>[];
  close(): Promise<void>;
}

export interface ServerOptions {
  readonly jobId: string;
  readonly ports: Ports;
  /** How many drivers (PlayerData, PlayerData2, ...) share the server's one handoff. */
  readonly drivers?: number;
  readonly timings?: Partial<HandoffTimings>;
  /** The drivers' and the handoff's clock; real timers and Date.now() when unset. */
  readonly scheduler?: Scheduler;
  /**
   * The drivers' `onMessage`: with one, every load reads the profile's inbox (one more store
   * call) and the server applies messages; without, as the throughput figures were measured.
   */
  readonly onMessage?: MessageHandler<Coins>;
  /**
   * The drivers' `handOverLocks`, with the handoff signing under `BENCH_SIGNING_KEY` (a holder
   * hands over only on a signed request): as the bench's game-server processes run.
   */
  readonly handOverLocks?: boolean;
}

/** The in-process servers' shared handoff signing key, for `handOverLocks`. */
const BENCH_SIGNING_KEY = 'the bench fleet key, not a secret';

export function startServer(options: ServerOptions): InProcessServer {
  const { jobId, ports } = options;
  const { scheduler } = options;
  const handoff = new Handoff({
    jobId,
    messenger: ports.messenger,
    presence: ports.presence,
    logger: quietLogger,
    timings: options.timings,
    scheduler,
    limits: messageLimitsTimes(MESSAGE_LIMITS_TIMES),
    ...(options.handOverLocks ? { signing: { key: BENCH_SIGNING_KEY } } : {}),
  });
  const host = new MemoryHost(jobId);
  const drivers = Array.from({ length: options.drivers ?? 1 }, (_, index) => {
    const driver = new DataDriver<Coins>({
      name: index === 0 ? 'PlayerData' : `PlayerData${index + 1}`,
      defaults: { coins: 0 },
      store: ports.store,
      messenger: ports.messenger,
      presence: ports.presence,
      logger: quietLogger,
      jobId,
      handoff,
      scheduler,
      ...(options.onMessage ? { onMessage: options.onMessage } : {}),
      ...(options.handOverLocks ? { handOverLocks: true } : {}),
    });
    driver.attach(host);
    return driver;
  });
  return {
    handoff,
    host,
    drivers,
    close: async () => {
      await Promise.all(drivers.map((driver) => driver.close()));
      await handoff.destroy();
    },
  };
}

/** Resolves with the first event of `type` for `key` on `driver` (after `act` runs). */
export function nextEvent<T extends DataDriverEvent['type']>(
  driver: DataDriver<Coins>,
  key: string,
  types: readonly T[],
  act: () => void = () => undefined,
): Promise<Extract<DataDriverEvent, { type: T }>> {
  return new Promise((resolve) => {
    const stop = driver.on((event) => {
      if (!('key' in event) || event.key !== key || !types.includes(event.type as T)) return;
      stop();
      resolve(event as Extract<DataDriverEvent, { type: T }>);
    });
    act();
  });
}
