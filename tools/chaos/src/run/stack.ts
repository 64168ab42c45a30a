/**
 * A chaos stack: the backends (a Redis of its own with its data on disk, and DynamoDB Local as
 * the store in the `dynamodb` stack), one TCP proxy per server and backend connection (so the
 * nemesis can cut one server alone from its store or its bus), and the server processes.
 */
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DynamoLocalBackend,
  type ProxyTarget,
  type RedisBackend,
  startDynamoLocal,
  startRedis,
  startTcpProxy,
  type TcpProxy,
} from '@datadriver/backends';
import { parseRecord, storeKeyOf } from '@datadriver/core/rules';
import type { HistoryWriter } from '../history.js';
import { connect } from '../server/connections.js';
import {
  type ChaosServerConfig,
  DRIVER_NAME,
  type ServerTimings,
  type StoreAddress,
} from '../server/server-config.js';

export type { ServerTimings };

import { ServerProcess } from '../server-process.js';

export type StackKind = 'redis' | 'dynamodb';

export interface StackOptions {
  readonly kind: StackKind;
  readonly servers: number;
  readonly historyDir: string;
  readonly timings: ServerTimings;
  /** False: Redis without persistence, so a backend restart loses data (the checker's own test). */
  readonly durable?: boolean;
  /** Where each server process's exit is written. */
  readonly history: HistoryWriter;
  /** A DynamoDB Local already running, for the `dynamodb` stack; else it starts its own. */
  readonly dynamoEndpoint?: string;
}

/** A table of its own per run: DDB_ENDPOINT may name a DynamoDB Local that outlives runs. */
const TABLE = `chaos-profiles-${process.pid}-${Date.now()}`;
const HOST = '127.0.0.1';

interface Slot {
  readonly jobId: string;
  incarnation: number;
  readonly storeProxy: TcpProxy;
  readonly busProxy: TcpProxy;
  process: ServerProcess | undefined;
  /** Set before the run kills or stops it: its exit is no crash. */
  exitExpected: boolean;
}

export class Stack {
  /** The DynamoDB stack's store, once started. */
  private dynamo: DynamoLocalBackend | undefined;

  private constructor(
    readonly options: StackOptions,
    readonly redis: RedisBackend,
    private readonly dataDir: string,
    private readonly slots: Slot[],
    private readonly log: WriteStream,
  ) {}

  /** When the backends (and table), then the servers, were ready, from the stack's start (ms). */
  readonly readyMs = { backends: 0, servers: 0 };

  /**
   * DynamoDB Local (a JVM, the slowest to start) starts while the servers do: their store
   * proxies listen at once and forward once it is up. No server reaches its store before the
   * stack has started: the first join comes after.
   */
  static async start(options: StackOptions): Promise<Stack> {
    const began = Date.now();
    const dataDir = mkdtempSync(join(tmpdir(), 'chaos-redis-'));
    // Always a Redis of our own, even with REDIS_URL set: the nemesis restarts it.
    const env = { ...process.env, REDIS_URL: undefined };
    const redis = await startRedis({
      env,
      ...(options.durable === false ? {} : { dataDir }),
    }).catch((error: unknown) => {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    });
    let storeTarget: ProxyTarget | undefined =
      options.kind === 'redis' ? { host: HOST, port: redis.port } : undefined;
    const slots: Slot[] = [];
    for (let index = 0; index < options.servers; index += 1) {
      slots.push({
        jobId: `${options.kind}-${index + 1}`,
        incarnation: 0,
        storeProxy: await startTcpProxy(() => storeTarget),
        busProxy: await startTcpProxy({ host: HOST, port: redis.port }),
        process: undefined,
        exitExpected: false,
      });
    }
    const log = createWriteStream(join(options.historyDir, 'servers.log'), { flags: 'a' });
    const stack = new Stack(options, redis, dataDir, slots, log);
    const backends = (async () => {
      if (options.kind === 'dynamodb') {
        stack.dynamo = await startDynamo(options.dynamoEndpoint);
        storeTarget = { host: HOST, port: Number(new URL(stack.dynamo.endpoint).port) };
      }
      stack.readyMs.backends = Date.now() - began;
    })();
    const servers = (async () => {
      await Promise.all(slots.map((slot) => stack.startServer(slot.jobId)));
      stack.readyMs.servers = Date.now() - began;
    })();
    const results = await Promise.allSettled([backends, servers]);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) {
      await stack.stop();
      throw failed.reason;
    }
    return stack;
  }

  get jobIds(): string[] {
    return this.slots.map((slot) => slot.jobId);
  }

  server(jobId: string): ServerProcess | undefined {
    return this.slot(jobId).process;
  }

  /** Starts the job's next incarnation (its first, or after a kill). */
  async startServer(jobId: string): Promise<void> {
    const slot = this.slot(jobId);
    slot.incarnation += 1;
    slot.exitExpected = false;
    const { incarnation } = slot;
    slot.process = await ServerProcess.start(this.configOf(slot), this.log, (code, signal) => {
      this.options.history.write({
        kind: 'exit',
        at: Date.now(),
        server: jobId,
        incarnation,
        code,
        signal,
        expected: slot.exitExpected || slot.incarnation !== incarnation,
      });
    });
  }

  async killServer(jobId: string): Promise<void> {
    const slot = this.slot(jobId);
    slot.exitExpected = true;
    await slot.process?.kill();
    slot.process = undefined;
  }

  /** Cuts (`false`) or heals (`true`) one server's connection to its store or its bus. */
  async connection(jobId: string, which: 'store' | 'bus', up: boolean): Promise<void> {
    const slot = this.slot(jobId);
    const proxy = which === 'store' ? slot.storeProxy : slot.busProxy;
    await (up ? proxy.start() : proxy.stop());
  }

  /** The counter each key holds in the store now, read past the proxies (null: no record). */
  async storedCounters(keys: readonly string[]): Promise<Map<string, number | null>> {
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    const ports = await connect(this.directStore(), this.redis.url, silent);
    try {
      const counters = new Map<string, number | null>();
      for (const key of keys) {
        const storeKey = storeKeyOf(DRIVER_NAME, key);
        const record = parseRecord(storeKey, await ports.store.get(storeKey));
        counters.set(key, record === undefined ? null : Number(record.data.counter));
      }
      return counters;
    } finally {
      await ports.close();
    }
  }

  /** Heals every cut and stops every server cleanly: each releases its profiles. */
  async stopServers(): Promise<void> {
    for (const slot of this.slots) {
      await slot.storeProxy.start();
      await slot.busProxy.start();
    }
    for (const slot of this.slots) slot.exitExpected = true;
    await Promise.all(this.slots.map((slot) => slot.process?.stop()));
    for (const slot of this.slots) slot.process = undefined;
  }

  /** Stops the servers, then the proxies and backends. */
  async stop(): Promise<void> {
    await this.stopServers();
    for (const slot of this.slots) {
      await slot.storeProxy.close();
      await slot.busProxy.close();
    }
    await this.redis.stop();
    await this.dynamo?.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => this.log.end(resolve));
  }

  private directStore(): StoreAddress {
    return this.dynamo
      ? { kind: 'dynamodb', endpoint: this.dynamo.endpoint, table: TABLE }
      : { kind: 'redis', url: this.redis.url };
  }

  private configOf(slot: Slot): ChaosServerConfig {
    // By kind, not by this.dynamo: the first servers start before DynamoDB Local is up.
    const store: StoreAddress =
      this.options.kind === 'dynamodb'
        ? { kind: 'dynamodb', endpoint: `http://${HOST}:${slot.storeProxy.port}`, table: TABLE }
        : { kind: 'redis', url: `redis://${HOST}:${slot.storeProxy.port}` };
    return {
      jobId: slot.jobId,
      incarnation: slot.incarnation,
      historyDir: this.options.historyDir,
      store,
      busUrl: `redis://${HOST}:${slot.busProxy.port}`,
      ...this.options.timings,
    };
  }

  private slot(jobId: string): Slot {
    const slot = this.slots.find((candidate) => candidate.jobId === jobId);
    if (!slot) throw new Error(`no server ${jobId} in this stack`);
    return slot;
  }
}

/** The AWS SDK is imported by the DynamoDB stack only: it takes seconds to load. */
async function startDynamo(endpoint: string | undefined): Promise<DynamoLocalBackend> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { ensureTable } = await import('@datadriver/dynamodb');
  // The JVM's quick compiler alone: a chaos run's store is a backend to fault, not to tune.
  // Given an endpoint, startDynamoLocal only describes it (and its stop leaves it running).
  const dynamo = await startDynamoLocal({
    quickStart: true,
    ...(endpoint ? { env: { ...process.env, DDB_ENDPOINT: endpoint } } : {}),
  });
  const client = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await ensureTable({ client, tableName: TABLE });
  } finally {
    client.destroy();
  }
  return dynamo;
}
