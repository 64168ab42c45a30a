import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      // Test the Pub/Sub launcher against the emulator's source, so this package's tests do not
      // depend on the emulator having been built first. Consumers resolve its built dist.
      '@datadriver/pubsub-emulator': fileURLToPath(
        new URL('../pubsub-emulator/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Dogfoods the wiring a test package uses: Redis started once for the run, address injected.
    globalSetup: ['test/global-setup.ts'],
    // DynamoDB Local's JVM start is slow on a busy 2-core box; the launcher's own limit is 60 s.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
