/**
 * The in-memory backend on a virtual clock, with each server's connections recording what
 * actually landed: every committed store write (with the record before it and the server
 * that wrote it) and every presence beat. The invariants judge these facts, not what the
 * drivers say about themselves. The recorders sit under the fault decorators, so a write
 * whose response is lost is still recorded, and a write that failed before the call is not.
 */
import type {
  Presence,
  Store,
  StoreRecord,
  StoreSnapshot,
  StoreTransform,
  UpdateOptions,
} from '@datadriver/core/ports';
import {
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  type VirtualClock,
} from '@datadriver/core/testing';
import type { ClusterBackend } from '../cluster-backend.js';
import { virtualTime } from '../cluster-time.js';
import type { Latency } from './config.js';
import { PresenceHistory } from './presence-history.js';

export interface StoreCommit {
  /** The backend's clock when the write landed. */
  readonly at: number;
  /** The jobId of the server whose connection wrote it. */
  readonly jobId: string;
  readonly key: string;
  readonly before: StoreRecord | undefined;
  readonly after: StoreRecord;
}

export type CommitListener = (commit: StoreCommit) => void;

class RecordingStore implements Store {
  readonly specificationVersion = 'v2';

  constructor(
    private readonly inner: MemoryStore,
    private readonly jobId: string,
    private readonly clock: VirtualClock,
    private readonly listener: CommitListener,
  ) {}

  update(
    key: string,
    transform: StoreTransform,
    options?: UpdateOptions,
  ): Promise<StoreSnapshot | undefined> {
    // A run may be on a snapshot whose version moved (its write then fails): only the last
    // run counts, and only if the version moved. The memory store commits synchronously,
    // within the call, so the version read right after it is the commit's.
    let last: StoreCommit | undefined;
    const recorded: StoreTransform = (current) => {
      const next = transform(current);
      last =
        next === undefined || next === null
          ? undefined
          : { at: this.clock.now(), jobId: this.jobId, key, before: current, after: next };
      return next;
    };
    const before = this.inner.versionOf(key);
    const result = this.inner.update(key, recorded, options);
    if (last && this.inner.versionOf(key) !== before) this.listener(last);
    return result;
  }

  get(key: string): Promise<StoreRecord | undefined> {
    return this.inner.get(key);
  }
}

class RecordingPresence implements Presence {
  readonly specificationVersion = 'v1';

  constructor(
    private readonly inner: MemoryPresence,
    private readonly clock: VirtualClock,
    private readonly history: PresenceHistory,
  ) {}

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.inner.set(key, value, ttlSeconds);
    this.history.record(key, this.clock.now(), ttlSeconds);
  }

  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
}

export type RecordingBackend = ClusterBackend & {
  readonly clock: VirtualClock;
  readonly store: MemoryStore;
  readonly presenceHistory: PresenceHistory;
};

export function recordingBackend(latency: Latency, listener: CommitListener): RecordingBackend {
  const time = virtualTime();
  const store = new MemoryStore();
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(time.clock);
  const presenceHistory = new PresenceHistory();
  return {
    name: 'simulation',
    time,
    clock: time.clock,
    scale: 1,
    latency,
    store,
    presenceHistory,
    connect: async (jobId) => ({
      store: new RecordingStore(store, jobId, time.clock, listener),
      messenger,
      presence: new RecordingPresence(presence, time.clock, presenceHistory),
    }),
    read: async (key) => store.peek(key),
    close: async () => undefined,
  };
}
