import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/server.ts', 'src/fleet.ts', 'src/player-client.ts', 'src/game-server-process.ts'],
  format: ['esm'],
  // Types only for what the Try it page imports (package.json "exports").
  dts: { entry: ['src/player-client.ts', 'src/game-server-process.ts'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
