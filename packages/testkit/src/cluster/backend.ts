import type { Messenger, Presence, Store } from '@datadriver/core';
import { MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import { type ClusterTime, virtualTime } from './time.js';

/** The ports one server uses: its own connections to the shared backend. */
export interface ServerPorts {
  readonly store: Store;
  readonly messenger: Messenger;
  readonly presence: Presence;
}

/**
 * A backend that several simulated servers share: the in-memory doubles on a virtual clock,
 * or real Redis, DynamoDB or Pub/Sub with real time and scaled constants.
 */
export interface ClusterBackend {
  readonly name: string;
  readonly time: ClusterTime;
  /**
   * Real seconds per unscaled second for the handoff's constants and the driver's waits: 1 on the
   * virtual clock; for example 0.05 on a real backend so a crash takeover takes under a second.
   */
  readonly scale: number;
  /** Simulated latency of each port call (the in-memory backend only; real ones have their own). */
  readonly latency?: {
    readonly storeMs: number;
    readonly messageMs: number;
    readonly presenceMs: number;
  };
  /** New connections for one server. */
  connect(serverId: string): Promise<ServerPorts>;
  /** Peeks at a stored record, bypassing every server (for assertions). */
  read(storeKey: string): Promise<unknown>;
  /** Closes the connections `connect` made. */
  close(): Promise<void>;
}

/**
 * The in-memory backend on a virtual clock, with latencies that make waits worth measuring:
 * each store call 100 ms, each publish 20 ms, each presence call 10 ms.
 */
export function memoryBackend(
  latency = { storeMs: 100, messageMs: 20, presenceMs: 10 },
): ClusterBackend & { store: MemoryStore } {
  const time = virtualTime();
  const store = new MemoryStore({ versions: { keep: 50 }, clock: time.clock });
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(time.clock);
  return {
    name: 'memory',
    time,
    scale: 1,
    latency,
    store,
    connect: async () => ({ store, messenger, presence }),
    read: async (key) => store.peek(key),
    close: async () => undefined,
  };
}
