import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The files mostly wait on server processes: two side by side even on 2 cores (the short
    // runs on both stacks in one, the durability and load runs after each other in the other).
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
