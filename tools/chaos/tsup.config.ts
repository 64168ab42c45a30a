import { defineConfig } from 'tsup';

// The runner forks dist/chaos-server.js, so both land at dist's top level, each one file
// (no shared chunks, and no clean: the two builds run side by side into one directory).
export default defineConfig([
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    splitting: false,
    target: 'node20',
  },
  {
    // The server bundles its dependencies (core, the adapters, ioredis, the AWS SDK): a chaos
    // run starts a dozen of them, and restarts each one it kills, on a shared 2-core machine;
    // one bundle loads with about a third less CPU than hundreds of modules resolved one by one.
    entry: { 'chaos-server': 'src/server/chaos-server.ts' },
    format: ['esm'],
    sourcemap: true,
    splitting: false,
    target: 'node20',
    platform: 'node',
    noExternal: [/.*/],
    // ioredis and parts of the AWS SDK are CommonJS and require() Node's built-in modules.
    banner: {
      js: "import { createRequire as chaosCreateRequire } from 'node:module'; const require = chaosCreateRequire(import.meta.url);",
    },
  },
]);
