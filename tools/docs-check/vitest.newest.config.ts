import { defineConfig } from 'vitest/config';

// `pnpm test:newest`: every documentation block on the newest typescript and @types/node.
export default defineConfig({
  test: {
    include: ['test/newest-toolchain.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
