/**
 * `@datadriver/testkit/simulation`: the deterministic cluster simulator. One seed draws a
 * configuration, a workload and its faults, runs them on the virtual clock and checks the
 * invariants after every step; `explore` runs many seeds and counts the flows they reached.
 */
export { type ExploreOptions, type ExploreSummary, explore } from './explore.js';
export { FLOWS, type FlowName } from './flows.js';
export { Invariant, type InvariantName, type Violation } from './invariants.js';
export { Random } from './prng.js';
export {
  describeFailure,
  type RunOptions,
  runSimulation,
  type SimulationResult,
} from './run.js';
