import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // The files mostly wait on server processes: two side by side even on 2 cores (the short
    // runs on both stacks in one, the durability and load runs after each other in the other;
    // three at once measured slower on a loaded machine, the JVM's start starved).
    maxWorkers: 2,
    // A worker's files share its imported modules (the runner, the checker, testkit): each
    // file importing them again cost CPU that the server processes and the JVM wait for.
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
