export {
  HELD_TOKEN,
  hostileData,
  hostileJournal,
  hostileMessage,
  hostileRecord,
  hostileText,
  unsavable,
} from './arbitraries.js';
export { type FuzzBus, type FuzzHarness, type FuzzOptions, fuzzSuite } from './fuzz-suite.js';
export { releasedBy, roundTrips, validDriverName, validProfileKey, wellFormed } from './oracles.js';
export { CI_RUNS, CI_SEED, type FuzzSettings, fuzzSettings } from './settings.js';
