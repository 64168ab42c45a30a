/**
 * `@datadriver/core/testing`: the in-memory backend (one process), fault decorators that
 * work over any port, and a virtual clock on which every wait can be timed to the millisecond.
 */
export { JOURNAL_DELETE_MAX_MS } from '../trade/journal.js';
export { type FaultKind, type FaultSpec, Faults, type InjectedFault } from './faults.js';
export {
  FaultyMessenger,
  type FaultyOptions,
  FaultyPresence,
  FaultyStore,
} from './faulty-ports.js';
export { MemoryHost, type MemoryPlayer } from './memory-host.js';
export { MemoryMessenger } from './memory-messenger.js';
export { MemoryPresence } from './memory-presence.js';
export { MEMORY_MAX_RECORD_BYTES, MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { MemoryVersions } from './memory-versions.js';
export { VirtualClock } from './virtual-clock.js';
