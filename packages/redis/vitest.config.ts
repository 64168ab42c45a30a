import { defineConfig } from 'vitest/config';

/**
 * `DD_IOREDIS=6` runs the tests with ioredis 6 (the `ioredis-6` alias) in place of the
 * devDependency's 5.11.1, the lowest of the peer range: `pnpm test:ioredis6`. The adapters take
 * the user's client and import only ioredis's types, so the clients the tests make decide it.
 */
const ioredis6 = process.env.DD_IOREDIS === '6';

export default defineConfig({
  resolve: ioredis6 ? { alias: { ioredis: 'ioredis-6' } } : {},
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One file at a time: the handoff scenarios time real waits in tens of milliseconds, and
    // another file's bursts of Redis traffic (hundreds of concurrent updates) would skew them.
    fileParallelism: false,
    // The scenarios run concurrently within their file: they mostly wait on timers.
    maxConcurrency: 20,
  },
});
