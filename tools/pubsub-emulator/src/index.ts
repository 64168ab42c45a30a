export {
  type Attributes,
  type FilterNode,
  FilterSyntaxError,
  matchesFilter,
  parseFilter,
} from './filter.js';
export { type PubSubEmulator, type PubSubEmulatorOptions, startPubSubEmulator } from './server.js';
