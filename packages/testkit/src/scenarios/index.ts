import { crashScenarios } from './crash.js';

export { crashTtl } from './crash.js';

import { busDownScenarios } from './bus-down.js';
import { crossServerScenarios } from './cross-server.js';
import { messageScenarios } from './messages.js';
import { protectionScenarios } from './protection.js';
import { sameServerScenarios } from './same-server.js';
import type { Scenario } from './scenario.js';
import { supportScenarios } from './support.js';

/**
 * The lock handoff rules' nine multi-server cases, a case for every other row of their table,
 * profile messages (an offline grant, a live gift between servers), and a support tool's view.
 */
export const handoffScenarios: readonly Scenario[] = [
  ...sameServerScenarios,
  ...crossServerScenarios,
  ...busDownScenarios,
  ...crashScenarios,
  ...protectionScenarios,
  ...messageScenarios,
  ...supportScenarios,
];

export { lifecycleScenarios } from './lifecycle.js';
export { messageScenarios } from './messages.js';
export {
  expectOutcome,
  expectWait,
  type LoadOutcome,
  mark,
  realBounds,
  type Scenario,
  settled,
  type WaitBounds,
  waitingServer,
  waitOf,
} from './scenario.js';
export { expectParks, expectStoppedReads } from './schedule.js';
export { describeSlack, traceOf } from './wait-report.js';
