export { handoffSpanContext } from './handoff-link.js';
export {
  type InstrumentedDriver,
  type InstrumentOptions,
  instrumentDriver,
} from './instrument-driver.js';
export { instrumentHandoff } from './instrument-handoff.js';
export type { KickCause } from './kick-causes.js';
export { ATTRIBUTES, DURATION_BUCKETS, METRICS, SPANS } from './names.js';
