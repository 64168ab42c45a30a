export {
  CALIBRATION_SAMPLES,
  type Calibration,
  CHAIN,
  calibrate,
  describeCalibration,
  SLACK_FLOOR_MS,
  type Spread,
  slackFrom,
} from './calibration.js';
export {
  Cluster,
  type LogLine,
  type PlayerData,
  type ServerOptions,
  TestServer,
} from './cluster.js';
export {
  type ClusterBackend,
  memoryBackend,
  REAL_TIME_SLACK_MS,
  type ServerPorts,
} from './cluster-backend.js';
export { type ClusterTime, realTime, virtualTime } from './cluster-time.js';
export * from './conformance/index.js';
export * from './fuzz/index.js';
export { sendWireSamples, WIRE_SAMPLES } from './handoff-wire.js';
export { type LoggedLine, recordingLogger } from './recording-logger.js';
export {
  runHandoffScenarios,
  runLifecycleScenarios,
  type ScenarioRunOptions,
  withCluster,
} from './run-scenarios.js';
export * from './scenarios/index.js';
