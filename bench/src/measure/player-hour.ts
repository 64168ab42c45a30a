/**
 * What a player-hour costs the store at the default settings (autosave 30 s, lock TTL 180 s):
 * store writes, record bytes written and, on DynamoDB, the write units the table reports, for
 * an idle player (loaded, never changed) and an active one (its data changed before every
 * autosave), on real Redis and real DynamoDB (Local). An hour of real time per figure would be
 * too long, so the driver runs on core's `VirtualClock`: each timer fires at its virtual time
 * and the clock waits, in real time, for the store calls it started to settle before moving on.
 * The counts are exact (the figure is the rule's, measured on the real store); only the
 * durations are not real. The quick run watches 10 virtual minutes and scales them to the hour.
 */

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DataDriver, type Store } from '@datadriver/core';
import type { StoreTransform, UpdateOptions } from '@datadriver/core/ports';
import { VirtualClock } from '@datadriver/core/testing';
import { DynamoStore, ensureTable } from '@datadriver/dynamodb';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { DYNAMO_TABLE, type RunningBackends } from '../backends.js';
import { quietLogger } from '../quiet-logger.js';
import { dynamoClient } from './conditional-writes.js';

export type PlayerKind = 'idle' | 'active';
export type StoreKind = 'redis' | 'dynamodb';

export interface PlayerHour {
  readonly store: StoreKind;
  readonly player: PlayerKind;
  /** Store writes (updates) in `hours` after the load; the load and release left out. */
  readonly writes: number;
  readonly reads: number;
  /** UTF-8 bytes of the record JSON those writes sent. */
  readonly bytes: number;
  /** The write capacity units DynamoDB reported for them (`ReturnConsumedCapacity`). */
  readonly writeUnits?: number;
  /** The virtual time watched, in hours. */
  readonly hours: number;
}

const AUTOSAVE_MS = 30_000;

/** Each store and player kind over `minutes` of virtual time. */
export async function measurePlayerHours(
  backends: RunningBackends,
  minutes: number,
): Promise<PlayerHour[]> {
  const results: PlayerHour[] = [];
  for (const store of ['redis', 'dynamodb'] as const) {
    for (const player of ['idle', 'active'] as const) {
      results.push(await measurePlayerHour(backends, store, player, minutes));
    }
  }
  return results;
}

async function measurePlayerHour(
  backends: RunningBackends,
  kind: StoreKind,
  player: PlayerKind,
  minutes: number,
): Promise<PlayerHour> {
  const backend = await openStore(backends, kind);
  const counted = new CountedStore(backend.store);
  const clock = new VirtualClock(Date.now());
  const driver = new DataDriver({
    name: 'PlayerHour',
    defaults: { coins: 0, level: 1 },
    store: counted,
    scheduler: clock,
    logger: quietLogger,
    jobId: `bench-player-hour-${process.pid}`,
  });
  try {
    const key = `${player}-${kind}-${process.pid}-${Date.now()}`;
    const loading = driver.load(key);
    const profile = await settle(clock, counted, loading);
    counted.reset();
    backend.units.reset();
    const ticks = (minutes * 60_000) / AUTOSAVE_MS;
    for (let tick = 1; tick <= ticks; tick += 1) {
      if (player === 'active') profile.data.coins += 1;
      await advanceSettled(clock, counted, AUTOSAVE_MS);
    }
    const measured: PlayerHour = {
      store: kind,
      player,
      writes: counted.writes,
      reads: counted.reads,
      bytes: counted.bytes,
      ...(kind === 'dynamodb' ? { writeUnits: backend.units.total } : {}),
      hours: minutes / 60,
    };
    await settle(clock, counted, driver.close());
    return measured;
  } finally {
    await backend.close();
  }
}

/** Fires every timer due in the next `ms`, each once the store calls of the last settled. */
async function advanceSettled(clock: VirtualClock, store: CountedStore, ms: number) {
  const target = clock.now() + ms;
  for (let next = clock.nextTimerAt(); next !== undefined && next <= target; ) {
    await clock.advanceTo(next);
    await store.idle();
    next = clock.nextTimerAt();
  }
  await clock.advanceTo(target);
  await store.idle();
}

/** `promise`, advancing the clock timer by timer (each once the store is idle) until it settles. */
async function settle<T>(
  clock: VirtualClock,
  store: CountedStore,
  promise: Promise<T>,
): Promise<T> {
  let done = false;
  const watched = promise.finally(() => {
    done = true;
  });
  watched.catch(() => undefined);
  await store.idle();
  while (!done) {
    const next = clock.nextTimerAt();
    if (next === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      continue;
    }
    await clock.advanceTo(next);
    await store.idle();
  }
  return watched;
}

/** A store that counts the calls reaching it, the record bytes written, and the calls in flight. */
class CountedStore implements Store {
  readonly specificationVersion = 'v2';
  readonly processLocal = false;
  writes = 0;
  reads = 0;
  bytes = 0;
  #inFlight = 0;

  constructor(private readonly inner: Store) {}

  get maxRecordBytes(): number | undefined {
    return this.inner.maxRecordBytes;
  }

  update(key: string, transform: StoreTransform, options?: UpdateOptions) {
    this.writes += 1;
    let written = 0;
    const measured: StoreTransform = (current) => {
      const next = transform(current);
      written = next ? Buffer.byteLength(JSON.stringify(next)) : 0;
      return next;
    };
    return this.#count(
      this.inner.update(key, measured, options).then((snapshot) => {
        this.bytes += written;
        return snapshot;
      }),
    );
  }

  get(key: string) {
    this.reads += 1;
    return this.#count(this.inner.get(key));
  }

  reset(): void {
    this.writes = 0;
    this.reads = 0;
    this.bytes = 0;
  }

  /** Resolves once no call is in flight, after the continuations of the last one ran. */
  async idle(): Promise<void> {
    for (let quiet = 0; quiet < 2; ) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#inFlight > 0) {
        quiet = 0;
        await new Promise((resolve) => setTimeout(resolve, 1));
      } else quiet += 1;
    }
  }

  async #count<T>(call: Promise<T>): Promise<T> {
    this.#inFlight += 1;
    try {
      return await call;
    } finally {
      this.#inFlight -= 1;
    }
  }
}

const WRITES = /^(PutItem|UpdateItem|DeleteItem|TransactWriteItems|BatchWriteItem)Command$/;

/** The write units a DynamoDB client's writes consumed, as the table reports them. */
class WriteUnits {
  total = 0;

  watch(client: DynamoDBClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { ReturnConsumedCapacity?: string };
        input.ReturnConsumedCapacity = 'TOTAL';
        const result = await next(args);
        if (!WRITES.test(String(context.commandName))) return result;
        const consumed = (result.output as { ConsumedCapacity?: Consumed | Consumed[] })
          .ConsumedCapacity;
        for (const entry of [consumed ?? []].flat()) {
          this.total += entry.WriteCapacityUnits ?? entry.CapacityUnits ?? 0;
        }
        return result;
      },
      { step: 'initialize', name: 'benchWriteUnits' },
    );
  }

  reset(): void {
    this.total = 0;
  }
}

interface Consumed {
  readonly CapacityUnits?: number;
  readonly WriteCapacityUnits?: number;
}

async function openStore(backends: RunningBackends, kind: StoreKind) {
  const units = new WriteUnits();
  if (kind === 'redis') {
    const client = new Redis(backends.redis.url, RECOMMENDED_REDIS_OPTIONS);
    const store = new RedisStore({ client, logger: quietLogger });
    return { store, units, close: async () => client.disconnect() };
  }
  const client = dynamoClient(backends.dynamo.endpoint);
  units.watch(client);
  await ensureTable({ client, tableName: DYNAMO_TABLE });
  const store = new DynamoStore({ client, tableName: DYNAMO_TABLE, logger: quietLogger });
  return { store, units, close: async () => client.destroy() };
}
