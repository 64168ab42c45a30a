import { defineConfig } from 'tsup';

export default defineConfig({
  // Named entries, so the test support lands in dist beside src's modules, not under dist/src.
  entry: {
    server: 'src/server.ts',
    'fleet-cli': 'src/fleet-cli.ts',
    fleet: 'src/fleet.ts',
    'player-client': 'src/player-client.ts',
    'game-server-process': 'src/game-server-process.ts',
    'redis-down': 'src/redis-down.ts',
    'test-support': 'test/support/redis-probe-ports.ts',
  },
  format: ['esm'],
  // Types only for what other packages import (package.json "exports").
  dts: {
    entry: {
      'player-client': 'src/player-client.ts',
      'game-server-process': 'src/game-server-process.ts',
      fleet: 'src/fleet.ts',
      'test-support': 'test/support/redis-probe-ports.ts',
    },
  },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
