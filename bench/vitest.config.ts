import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The quick run starts every backend and real game-server processes: up to two minutes,
    // more on a loaded CI box.
    testTimeout: 300_000,
  },
});
