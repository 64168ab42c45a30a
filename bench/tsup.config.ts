import { defineConfig } from 'tsup';

export default defineConfig({
  // The CLI, and the peer's lock holder that the bench runs as separate processes.
  entry: ['src/cli.ts', 'src/peer/lease-holder-main.ts', 'src/processes/limit-holder-main.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
