/**
 * `@datadriver/testkit`: what an adapter's author runs against a real backend. The port
 * conformance suites, the handoff and lifecycle scenarios (one call, on a `ClusterBackend` the
 * adapter builds on `realTime()`) and the fuzz suite. The cluster the scenarios run on and its
 * timing are in `@datadriver/testkit/cluster`; the simulator in `@datadriver/testkit/simulation`.
 */
export type { ClusterBackend, ServerPorts } from './cluster/backend.js';
export { type ClusterTime, realTime } from './cluster/time.js';
export * from './conformance/index.js';
export * from './fuzz/index.js';
export {
  runHandoffScenarios,
  runLifecycleScenarios,
  type ScenarioRunOptions,
} from './run-scenarios.js';
