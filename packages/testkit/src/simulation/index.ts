export { explore } from './explore.js';
export type { InvariantName } from './invariants.js';
export { describeFailure, runSimulation, type SimulationResult } from './run.js';
