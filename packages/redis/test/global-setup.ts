/**
 * Once per run: a redis-server on a free loopback port (or REDIS_URL), a Redis Cluster of three
 * masters and three replicas (or REDIS_CLUSTER_NODES), and the adapter bundle that the server
 * fixture processes import. A backend that cannot start fails the run.
 */
import { backendsGlobalSetup } from '@datadriver/backends';
import type { TestProject } from 'vitest/node';
import { bundleAdapter } from '../scripts/bundle-adapter.mjs';

declare module 'vitest' {
  interface ProvidedContext {
    /** File URL of this package's src bundled for the server fixture (test/fixtures/server.mjs). */
    adapterModule: string;
  }
}

const startRedis = backendsGlobalSetup('redis', 'redis-cluster');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [redis, bundle] = await Promise.allSettled([startRedis(project), bundleAdapter('test')]);
  if (redis.status === 'rejected') throw redis.reason;
  if (bundle.status === 'rejected') {
    await redis.value();
    throw bundle.reason;
  }
  project.provide('adapterModule', bundle.value);
  return redis.value;
}
