/**
 * Once per run: a PostgreSQL initdb'd into a temporary folder on a free loopback port (or
 * DATABASE_URL), a redis-server (or REDIS_URL) for the mixed stack, and the adapter bundle that
 * the server fixture processes import. A backend that cannot start fails the run.
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

const startBackends = backendsGlobalSetup('postgres', 'redis');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [backends, bundle] = await Promise.allSettled([startBackends(project), bundleAdapter()]);
  if (backends.status === 'rejected') throw backends.reason;
  if (bundle.status === 'rejected') {
    await backends.value();
    throw bundle.reason;
  }
  project.provide('adapterModule', bundle.value);
  return backends.value;
}
