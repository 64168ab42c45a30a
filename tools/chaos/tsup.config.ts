import { defineConfig } from 'tsup';

export default defineConfig({
  // The runner forks dist/chaos-server.js, so both land at dist's top level.
  entry: {
    cli: 'src/cli.ts',
    'chaos-server': 'src/server/chaos-server.ts',
  },
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
