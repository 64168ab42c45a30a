export { Cluster } from './cluster.js';
export {
  type ClusterBackend,
  memoryBackend,
  type ServerPorts,
} from './cluster-backend.js';
export {
  type CriticalPath,
  criticalPath,
  describePathSlack,
  LOOP_LAG_SEED_MS,
  MODEL_LATENCY_MS,
  OWN_WORK_SEED_MS,
  type PathSlack,
  type PathStep,
  pathSlack,
  type Wait,
} from './cluster-critical-path.js';
export {
  describeUnscaled,
  LEDGER_KINDS,
  type LedgerEntry,
  type LedgerKind,
  type Span,
  type Spent,
  TimeLedger,
  type Unscaled,
} from './cluster-ledger.js';
export { LAG_SAMPLE_MS, LoopLag } from './cluster-loop-lag.js';
export {
  type LogLine,
  type PlayerData,
  type ServerOptions,
  TestServer,
} from './cluster-server.js';
export { type ClusterTime, realTime, scaledTimings, virtualTime } from './cluster-time.js';
export { timedPorts, timedScheduler } from './cluster-timed-ports.js';
export { releasePath, replyPath, type WaitSlack, waitSlack } from './cluster-wait-slack.js';
export * from './conformance/index.js';
export * from './fuzz/index.js';
export {
  FOREIGN_REQUEST_BYTES,
  REPLY_BYTES,
  sendWireSamples,
  WIRE_SAMPLES,
  type WireHolder,
  wireHolder,
} from './handoff-wire.js';
export {
  CHAIN,
  type Chain,
  describeProbe,
  HOP_CHAIN,
  PROBE_FLOOR_MS,
  PROBE_MIN_SAMPLES,
  PROBE_SPACING_MS,
  type Probe,
  type ProbeFigures,
  type ProbeOptions,
  probe,
  probed,
  type Spread,
  slackFrom,
} from './lateness-probe.js';
export { presenceExpiry } from './presence-expiry.js';
export { type LoggedLine, recordingLogger } from './recording-logger.js';
export {
  runHandoffScenarios,
  runLifecycleScenarios,
  type ScenarioRunOptions,
  withCluster,
} from './run-scenarios.js';
export * from './scenarios/index.js';
export { Random } from './simulation/prng.js';
