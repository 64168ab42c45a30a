import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts the local Pub/Sub emulator (and Redis, for the scenarios' store once
    // @datadriver/redis lands) once per run; a backend that cannot start fails the run.
    globalSetup: ['test/global-setup.ts'],
    // The client must not probe the GCE metadata server for credentials.
    env: { METADATA_SERVER_DETECTION: 'none' },
    // One file at a time: the scenario files time real waits, and Google's emulator (a JVM)
    // serving another file's burst would skew them.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
