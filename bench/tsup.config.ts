import { defineConfig } from 'tsup';

export default defineConfig({
  // The CLI, core's cost alone (core-cycle-main), and the processes the bench runs apart.
  entry: [
    'src/cli.ts',
    'src/core-cycle-main.ts',
    'src/peer/lease-holder-main.ts',
    'src/processes/limit-holder-main.ts',
  ],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
