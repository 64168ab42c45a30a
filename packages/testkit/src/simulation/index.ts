export { describeConfig, drawConfig, type ServerPlan, type SimulationConfig } from './config.js';
export { type ExploreOptions, type ExploreSummary, explore } from './explore.js';
export {
  Invariant,
  type InvariantName,
  KNOWN_CORE_ISSUES,
  type Violation,
} from './invariants.js';
export { Random } from './prng.js';
export {
  describeFailure,
  describeSuccess,
  type RunOptions,
  runSimulation,
  type SimulationResult,
} from './run.js';
