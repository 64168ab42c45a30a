/**
 * `@datadriver/testkit/cluster`: several servers on one backend, for tests of a whole handoff
 * and the tools that measure one. The cluster and its servers, the scenarios and their checks,
 * its timing (the time ledger, the critical path, a wait's slack, the event loop's lag, the
 * lateness probe), the handoff wire samples and a logger that records. The backend contract it
 * runs on (`ClusterBackend`, `ServerPorts`, `ClusterTime`, `realTime`) is in the main entry.
 */

export * from '../scenarios/index.js';
export { memoryBackend } from './backend.js';
export { Cluster, type ClusterOptions } from './cluster.js';
export {
  type CriticalPath,
  criticalPath,
  describePathSlack,
  LOOP_LAG_MS,
  MODEL_LATENCY_MS,
  OWN_WORK_MS,
  type PathSlack,
  type PathStep,
  pathSlack,
  type Wait,
} from './critical-path.js';
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
export {
  describeUnscaled,
  LEDGER_KINDS,
  type LedgerEntry,
  type LedgerKind,
  type Span,
  type Spent,
  TimeLedger,
  type Unscaled,
} from './ledger.js';
export { LAG_SAMPLE_MS, LoopLag } from './loop-lag.js';
export { presenceExpiry } from './presence-expiry.js';
export { type LoggedLine, recordingLogger } from './recording-logger.js';
export {
  type LogLine,
  type PlayerData,
  type ServerOptions,
  TestServer,
} from './server.js';
export { scaledTimings, virtualTime } from './time.js';
export { timedPorts, timedScheduler } from './timed-ports.js';
export { releasePath, replyPath, type WaitSlack, waitSlack } from './wait-slack.js';
export { withCluster } from './with-cluster.js';
