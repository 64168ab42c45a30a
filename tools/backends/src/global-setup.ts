import type { TestProject } from 'vitest/node';
import type { Backend } from './backend.js';
import { startDynamoLocal } from './dynamodb-local.js';
import { startGooglePubSubEmulator } from './google-pubsub-emulator.js';
import { startPostgres } from './postgres.js';
import type { ProvidedKey } from './provided-context.js';
import { startPubSub } from './pubsub.js';
import { startRedis } from './redis.js';
import { startRedisCluster } from './redis-cluster.js';

export type Teardown = () => Promise<void>;
/** The shape vitest expects of a globalSetup file's default export. */
export type GlobalSetup = (project: TestProject) => Promise<Teardown>;
/** `google-pubsub` is optional: where gcloud has no pubsub-emulator, files receive ''. */
export type BackendKind =
  | 'redis'
  | 'redis-cluster'
  | 'dynamodb'
  | 'pubsub'
  | 'google-pubsub'
  | 'postgres';

interface Started extends Backend {
  readonly endpoint?: string;
  readonly nodes?: ReadonlyArray<{ readonly host: string; readonly port: number }>;
}

interface Starter {
  readonly key: ProvidedKey;
  /** Undefined: not on this machine, and optional. */
  readonly start: () => Promise<Started | undefined>;
  /** What test files receive: the form each client library takes. */
  readonly address: (backend: Started) => string;
}

const ABSENT_GOOGLE =
  "Google's Pub/Sub emulator is not on this machine (no gcloud with the pubsub-emulator " +
  'component): its tests have nothing to run against here. It runs wherever gcloud has it.';

const STARTERS: Record<BackendKind, Starter> = {
  redis: { key: 'redisUrl', start: startRedis, address: (b) => b.url },
  'redis-cluster': {
    key: 'redisClusterNodes',
    start: startRedisCluster,
    address: (b) => (b.nodes ?? []).map(({ host, port }) => `${host}:${port}`).join(','),
  },
  dynamodb: { key: 'dynamoEndpoint', start: startDynamoLocal, address: (b) => b.endpoint ?? b.url },
  pubsub: { key: 'pubsubEmulatorHost', start: startPubSub, address: (b) => b.endpoint ?? b.url },
  postgres: { key: 'postgresUrl', start: startPostgres, address: (b) => b.url },
  'google-pubsub': {
    key: 'googlePubsubEmulatorHost',
    start: () => startGooglePubSubEmulator(),
    address: (b) => b.endpoint ?? b.url,
  },
};

/**
 * A vitest globalSetup that starts the given backends once per run (in parallel), provides their
 * addresses to test files, and stops them at teardown. If any fails to start, the others are
 * stopped and the run fails with the BackendUnavailableError: there is no skipping.
 */
export function backendsGlobalSetup(...kinds: BackendKind[]): GlobalSetup {
  return async (project) => {
    const results = await Promise.allSettled(kinds.map((kind) => startAndProvide(kind, project)));
    const started = results.flatMap((r) =>
      r.status === 'fulfilled' && r.value !== undefined ? [r.value] : [],
    );
    const teardown: Teardown = async () => {
      await Promise.all(started.map((backend) => backend.stop()));
    };
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (failures.length === 0) return teardown;
    await teardown();
    throw failures.length === 1 ? failures[0] : combine(failures);
  };
}

export const redisGlobalSetup: GlobalSetup = backendsGlobalSetup('redis');
export const dynamoLocalGlobalSetup: GlobalSetup = backendsGlobalSetup('dynamodb');
export const pubSubGlobalSetup: GlobalSetup = backendsGlobalSetup('pubsub');

async function startAndProvide(
  kind: BackendKind,
  project: TestProject,
): Promise<Backend | undefined> {
  const starter = STARTERS[kind];
  const backend = await starter.start();
  if (!backend) {
    console.info(ABSENT_GOOGLE);
    project.provide(starter.key, '');
    return undefined;
  }
  project.provide(starter.key, starter.address(backend));
  return backend;
}

function combine(failures: unknown[]): AggregateError {
  const messages = failures.map((f) => (f instanceof Error ? f.message : String(f)));
  return new AggregateError(failures, messages.join('\n\n'));
}
