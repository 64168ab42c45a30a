export {
  Cluster,
  type LogLine,
  type PlayerData,
  type ServerOptions,
  TestServer,
} from './cluster.js';
export { type ClusterBackend, memoryBackend, type ServerPorts } from './cluster-backend.js';
export { type ClusterTime, realTime, virtualTime } from './cluster-time.js';
export * from './conformance/index.js';
export { type LoggedLine, recordingLogger } from './recording-logger.js';
export { runHandoffScenarios, type ScenarioRunOptions } from './run-handoff-scenarios.js';
export { runLifecycleScenarios } from './run-lifecycle-scenarios.js';
export * from './scenarios/index.js';
