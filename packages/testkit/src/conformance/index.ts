export {
  type MessengerConformanceOptions,
  type MessengerHarness,
  messengerConformance,
} from './messenger-conformance.js';
export { eventually, expectTyped, type Outage } from './outage.js';
export { type PresenceHarness, presenceConformance } from './presence-conformance.js';
export {
  type SnapshotCheck,
  type SnapshotCheckContext,
  snapshotChecks,
} from './snapshot-checks.js';
export { type StoreConformanceOptions, storeConformance } from './store-conformance.js';
export type { StoreHarness } from './store-harness.js';
