import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One file at a time: the handoff scenarios time real waits in tens of milliseconds, and
    // another file's bursts of traffic would skew them.
    fileParallelism: false,
    // The scenarios run concurrently within their file: they mostly wait on timers. Fewer at
    // once than on Redis: each simulated server has PostgreSQL processes of its own (a pool and
    // a listening connection), and on a busy 2-core machine their scheduling is what the
    // scenarios' real waits would measure.
    maxConcurrency: 8,
  },
});
