import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The client tests talk to a real gRPC server; give slow CI machines headroom.
    testTimeout: 15_000,
    hookTimeout: 15_000,
  },
});
