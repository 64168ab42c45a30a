import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // DynamoDB Local starts once per run (a JVM: seconds on a busy 2-core box).
    globalSetup: ['test/global-setup.ts'],
    hookTimeout: 90_000,
    testTimeout: 30_000,
    // One file at a time: the handoff scenarios time real waits, and another file's bursts of
    // DynamoDB Local traffic (the conformance suite's concurrent updates) would skew them.
    fileParallelism: false,
    // The SDK warns on every worker that its next majors need Node 22; the pin is deliberate.
    // The Pub/Sub client must not probe the GCE metadata server for credentials.
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      METADATA_SERVER_DETECTION: 'none',
    },
  },
});
