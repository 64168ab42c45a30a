import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The newest toolchain's check (`pnpm test:newest`) is not in `pnpm test` yet: its
    // `npm install` of typescript@latest hangs when turbo runs it (turbo hands a task only the
    // environment it is told to), while it passes in 10 s run directly. README's programs are
    // still compiled with the newest toolchain in CI by tools/release-check.
    exclude: ['test/newest-toolchain.test.ts'],
    // A runnable block may use Redis: one redis-server for the run, its URL given to each block.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
