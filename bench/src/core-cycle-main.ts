/**
 * `node bench/dist/core-cycle-main.js [windows]`: only the core-cycle measurement (see
 * measure/core-cycle.ts), printed. Quick to run against any commit's build of core, to see
 * what one change to core bought.
 */
import { measureCoreCycle } from './measure/core-cycle.js';

const windows = Number(process.argv[2] ?? 9);
const result = await measureCoreCycle(200, windows, 1);
const sorted = [...result.cpuUsPerCycle].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
process.stdout.write(
  `core CPU per load + save + release (memory store, 200 in flight, ${windows} windows of 1 s): best ${sorted[0]?.toFixed(1)} µs, median ${median.toFixed(1)} µs; best ${Math.max(...result.cyclesPerSecond).toFixed(0)} cycles/s\n`,
);
process.exit(0);
