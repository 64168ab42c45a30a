import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // npm installs from the registry on a fresh machine: generous, but bounded.
    testTimeout: 240_000,
  },
});
