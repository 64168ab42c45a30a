import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One redis-server and one PostgreSQL per run, for the real runners' tests (a missing one
    // fails, never skips).
    globalSetup: ['test/global-setup.ts'],
  },
});
