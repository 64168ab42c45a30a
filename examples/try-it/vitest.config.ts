import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One redis-server per run, for the Redis runner's tests (a missing one fails, never skips).
    globalSetup: ['test/global-setup.ts'],
  },
});
