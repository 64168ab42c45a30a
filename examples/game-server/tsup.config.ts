import { defineConfig } from 'tsup';

export default defineConfig({
  entry: [
    'src/server.ts',
    'src/fleet-cli.ts',
    'src/fleet.ts',
    'src/player-client.ts',
    'src/game-server-process.ts',
    'src/redis-down.ts',
  ],
  format: ['esm'],
  // Types only for what other packages import (package.json "exports").
  dts: { entry: ['src/player-client.ts', 'src/game-server-process.ts', 'src/fleet.ts'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
