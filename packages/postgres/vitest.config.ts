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
    // The scenarios run concurrently within their file: they mostly wait on timers.
    maxConcurrency: 20,
  },
});
