/**
 * One real Colyseus server in the test process (WebSocket transport on a free loopback port),
 * its DataDriver on the run's redis-server, and real colyseus.js clients.
 */
import { matchMaker, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { freePort } from '@datadriver/backends';
import {
  DataDriver,
  type DataDriverEvent,
  type DataDriverOptions,
  Handoff,
  scaleTimings,
} from '@datadriver/core';
import { MemoryHost } from '@datadriver/core/testing';
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import { recordingLogger } from '@datadriver/testkit/cluster';
import { Client, type Room } from 'colyseus.js';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { ColyseusProfiles, type ColyseusProfilesOptions } from '../../src/index.js';
import { Arena, type PlayerData, world } from './arena.js';

/** The seed's constants a tenth as long, as the testkit's real-backend scenarios run them. */
export const SCALE = 0.1;

export interface RedisPorts {
  readonly client: Redis;
  readonly store: RedisStore;
  readonly messenger: RedisMessenger;
  readonly presence: RedisPresence;
  close(): Promise<void>;
}

/** Fresh connections to the run's Redis under `prefix`. */
export async function redisPorts(prefix: string): Promise<RedisPorts> {
  const client = new Redis(inject('redisUrl'), RECOMMENDED_REDIS_OPTIONS);
  const messenger = new RedisMessenger({ client, prefix });
  return {
    client,
    store: new RedisStore({ client, prefix }),
    messenger,
    presence: new RedisPresence({ client, prefix }),
    close: async () => {
      await messenger.close();
      await client.quit();
    },
  };
}

/** Driver options on `ports` with the scaled waits (what a joining player waits, and so on). */
export function driverOptions(
  ports: RedisPorts,
  overrides: Partial<DataDriverOptions<PlayerData>> = {},
): DataDriverOptions<PlayerData> {
  return {
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: ports.store,
    messenger: ports.messenger,
    presence: ports.presence,
    lockWaitSeconds: 15 * SCALE,
    autosaveSeconds: 30 * SCALE,
    lockTtlSeconds: 180 * SCALE,
    lockSkewSeconds: 60 * SCALE,
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    ...overrides,
  };
}

export class ColyseusWorld {
  readonly events: DataDriverEvent[] = [];
  /** What ColyseusProfiles logged (unless the test gave its own logger). */
  readonly logger: ReturnType<typeof recordingLogger>;

  private constructor(
    readonly server: Server,
    readonly port: number,
    readonly ports: RedisPorts,
    readonly driver: DataDriver<PlayerData>,
    readonly profiles: ColyseusProfiles<PlayerData>,
    logger: ReturnType<typeof recordingLogger>,
  ) {
    this.logger = logger;
    driver.on((event) => this.events.push(event));
  }

  /**
   * A Colyseus server with the `arena` rooms, and a driver (`driver` on top of the scaled
   * options) attached through ColyseusProfiles.
   */
  static async start(
    prefix: string,
    options: ColyseusProfilesOptions<PlayerData> = {},
    driver: Partial<DataDriverOptions<PlayerData>> = {},
  ): Promise<ColyseusWorld> {
    const port = await freePort();
    const server = new Server({
      transport: new WebSocketTransport(),
      gracefullyShutdown: false,
      greet: false,
    });
    server.define('arena', Arena);
    // A seat held far longer than any test waits: only a cancellation gives it up in time.
    server.define('arena-reconnect', Arena, { reconnectSeconds: 60 });
    server.define('arena-gated', Arena, { gated: true });
    await server.listen(port, '127.0.0.1');
    const ports = await redisPorts(prefix);
    // Made first, so the handoff of this process runs on the scaled constants.
    Handoff.shared(options.jobId ?? matchMaker.processId, {
      messenger: ports.messenger,
      presence: ports.presence,
      timings: scaleTimings(SCALE),
    });
    const dataDriver = new DataDriver<PlayerData>(driverOptions(ports, driver));
    const logger = recordingLogger();
    const profiles = new ColyseusProfiles(dataDriver, { logger, ...options });
    world.profiles = profiles;
    return new ColyseusWorld(server, port, ports, dataDriver, profiles, logger);
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** A real colyseus.js client of this server. */
  client(): Client {
    return new Client(this.url);
  }

  /** The stored record of `user`'s profile, read past every server. */
  async record(user: string): Promise<{ data: PlayerData; meta: { lock?: { jobId: string } } }> {
    const raw = await this.ports.store.get(`PlayerData/${user}`);
    return raw as never;
  }

  async stop(): Promise<void> {
    await this.driver.close({ deadlineSeconds: 5 });
    await this.server.gracefullyShutdown(false);
    await this.ports.close();
  }
}

/** Joins a new `arena` room (or `name`) as `user` and waits for the loaded profile. */
export async function joinArena(
  client: Client,
  user: string,
  how: { readonly roomId?: string; readonly name?: string } = {},
): Promise<{ room: Room; coins: number; roomId: string }> {
  const options = { user };
  const room = how.roomId
    ? await client.joinById(how.roomId, options)
    : await client.create(how.name ?? 'arena', options);
  const loaded = await nextMessage<{ coins: number; roomId: string }>(room, 'loaded');
  return { room, ...loaded };
}

/** The next message of `type` on `room`. */
export function nextMessage<T>(room: Room, type: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${type} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const off = room.onMessage(type, (message: T) => {
      clearTimeout(timer);
      off();
      resolve(message);
    });
  });
}

/** What a join failed with: the rejection, or an Error saying that it joined. */
export async function refusalOf(join: Promise<unknown>): Promise<unknown> {
  return join.then(
    () => new Error('joined'),
    (error: unknown) => error,
  );
}

/** Resolves with the code and reason `room` was left with. */
export function leftWith(room: Room): Promise<{ code: number; reason: string | undefined }> {
  return new Promise((resolve) => room.onLeave.once((code, reason) => resolve({ code, reason })));
}

/** Earns `coins` in `room` and resolves with the new balance. */
export async function earn(room: Room, coins: number): Promise<number | null> {
  const reply = nextMessage<number | null>(room, 'coins');
  room.send('earn', coins);
  return reply;
}

/** Waits until `check` holds, polling every 10 ms (for state another process changes). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Another game server on the same Redis: its own jobId, handoff, driver and MemoryHost. */
export async function otherServer(
  prefix: string,
  jobId: string,
  overrides: Partial<DataDriverOptions<PlayerData>> = {},
) {
  const ports = await redisPorts(prefix);
  if (overrides.handoff !== false) {
    Handoff.shared(jobId, {
      messenger: ports.messenger,
      presence: ports.presence,
      timings: scaleTimings(SCALE),
    });
  }
  const driver = new DataDriver<PlayerData>(driverOptions(ports, overrides));
  const host = new MemoryHost(jobId);
  const loads = new Map<string, (coins: number) => void>();
  driver.attach(host, { onLoad: (profile, player) => loads.get(player.id)?.(profile.data.coins) });
  return {
    driver,
    host,
    /** Joins `user` here and resolves with their coins and the wait, once loaded. */
    join: (user: string): Promise<{ coins: number; waitedMs: number }> => {
      const started = performance.now();
      const loaded = new Promise<{ coins: number; waitedMs: number }>((resolve) =>
        loads.set(user, (coins) => resolve({ coins, waitedMs: performance.now() - started })),
      );
      host.join(user);
      return loaded;
    },
    stop: async () => {
      await driver.close({ deadlineSeconds: 5 });
      await ports.close();
    },
  };
}
