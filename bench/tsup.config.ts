import { defineConfig } from 'tsup';

export default defineConfig({
  // The CLI, a measurement in a process of its own (apart-main), core's cost alone (core-cycle-main), where a Redis cycle's time goes and what it
  // allocates (cycle-profile, cycle-allocations), the PostgreSQL adapter's own cost per write
  // (postgres-store-cost), the DynamoDB call-cost script, and the
  // processes the bench runs beside itself.
  entry: [
    'src/cli.ts',
    'src/apart-main.ts',
    'src/core-cycle-main.ts',
    'src/profiling/cycle-profile.ts',
    'src/profiling/cycle-allocations.ts',
    'src/profiling/postgres-store-cost.ts',
    'src/dynamo-call-cost.ts',
    'src/peer/lease-holder-main.ts',
    'src/processes/limit-holder-main.ts',
    'src/processes/message-holder-main.ts',
  ],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
