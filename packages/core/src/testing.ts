/**
 * `@datadriver/core/testing`: the in-memory backend (one process), fault decorators that
 * work over any port, and a virtual clock on which every wait can be timed to the millisecond.
 */

export { type FaultKind, type FaultSpec, Faults, type InjectedFault } from './testing/faults.js';
export {
  FaultyMessenger,
  type FaultyOptions,
  FaultyPresence,
  FaultyStore,
} from './testing/faulty-ports.js';
export { MemoryHost, type MemoryPlayer } from './testing/memory-host.js';
export { MemoryMessenger } from './testing/memory-messenger.js';
export { MemoryPresence } from './testing/memory-presence.js';
export {
  MEMORY_MAX_RECORD_BYTES,
  MemoryStore,
  type MemoryStoreOptions,
} from './testing/memory-store.js';
export { MemoryVersions } from './testing/memory-versions.js';
export { VirtualClock, type VirtualClockOptions } from './testing/virtual-clock.js';
export { JOURNAL_DELETE_MAX_MS } from './trade/journal.js';
