import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts the local Pub/Sub emulator (and Redis, for the scenarios' store once
    // @datadriver/redis lands) once per run; a backend that cannot start fails the run.
    globalSetup: ['test/global-setup.ts'],
    // The client must not probe the GCE metadata server for credentials.
    env: { METADATA_SERVER_DETECTION: 'none' },
    // Two files at a time, so the minute of mostly-idle scenario waits overlaps the other
    // files (vitest's default on 2 cores is one).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
