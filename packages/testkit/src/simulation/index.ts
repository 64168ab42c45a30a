export { describeConfig, drawConfig, type ServerPlan, type SimulationConfig } from './config.js';
export { type ExploreOptions, type ExploreSummary, explore } from './explore.js';
export {
  Invariant,
  type InvariantName,
  type Violation,
} from './invariants.js';
export { Random } from './prng.js';
export {
  describeFailure,
  describeSuccess,
  runSimulation,
  type SimulationResult,
} from './run.js';
