import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant (stryker.config.mjs): core's own, less the one that
 * reads the built bundle (dist/ is not rebuilt per mutant, so it could not see one).
 */
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], exclude: ['test/bundle-names.test.ts'] },
});
