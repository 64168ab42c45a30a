import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One file at a time: the hand-over tests time real waits, and DynamoDB Local is slow to
    // share.
    fileParallelism: false,
  },
});
