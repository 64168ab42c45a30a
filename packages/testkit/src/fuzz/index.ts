export {
  HELD_TOKEN,
  hostileData,
  hostileJournal,
  hostileMessage,
  hostileRecord,
  hostileRecordJson,
  hostileText,
  unsavable,
} from './arbitraries.js';
export { countedStore, globalsSnapshot, LOAD_BOUND } from './bounds.js';
export { fuzzSuite } from './fuzz-suite.js';
export type { FuzzBus, FuzzHarness, FuzzOptions } from './harness.js';
export { releasedBy, roundTrips, validDriverName, validProfileKey, wellFormed } from './oracles.js';
export { CI_RUNS, CI_SEED, type FuzzSettings, fuzzSettings } from './settings.js';
