/**
 * The in-memory backend on a virtual clock, with each server's connections recording what
 * actually landed: every committed store write (with the record before it and the server
 * that wrote it) and every presence beat. The invariants judge these facts, not what the
 * drivers say about themselves. The recorders sit under the fault decorators, so a write
 * whose response is lost is still recorded, and a write that failed before the call is not.
 */
import type {
  Presence,
  PresenceEntry,
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
import type { ClusterBackend } from '../cluster/backend.js';
import { scaledTimings, virtualTime } from '../cluster/time.js';
import type { Latency } from './config.js';
import { PresenceHistory } from './presence-history.js';

/** How long a presence key lives after each write, by contract (the simulator runs at scale 1). */
export const PRESENCE_LIFETIME_MS = scaledTimings(1).presenceTtlSeconds * 1000;

/** The presence beat by contract: two empty reads that prove a holder stopped lie this far apart. */
export const PRESENCE_BEAT_MS = scaledTimings(1).beatSeconds * 1000;

export interface StoreCommit {
  /** The backend's clock when the write landed. */
  readonly at: number;
  /** The jobId of the server whose connection wrote it. */
  readonly jobId: string;
  /** The driver that wrote it, when not the server's own (a second driver there: "A2"). */
  readonly writer?: string;
  readonly key: string;
  readonly before: StoreRecord | undefined;
  readonly after: StoreRecord;
}

export type CommitListener = (commit: StoreCommit) => void;

/** A presence write that landed, with the TTL its writer asked for. */
export interface PresenceWrite {
  readonly at: number;
  readonly key: string;
  readonly ttlSeconds: number;
}

export interface RecordingListeners {
  readonly commit: CommitListener;
  readonly presenceWrite: (write: PresenceWrite) => void;
}

class RecordingStore implements Store {
  readonly specificationVersion = 'v2';

  constructor(
    private readonly inner: MemoryStore,
    private readonly jobId: string,
    private readonly clock: VirtualClock,
    private readonly listener: CommitListener,
    private readonly writer?: string,
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
          : {
              at: this.clock.now(),
              jobId: this.jobId,
              ...(this.writer ? { writer: this.writer } : {}),
              key,
              before: current,
              after: next,
            };
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

/** Keys the backend lost (`losePresence`): absent to every reader until their next write. */
type LostKeys = Set<string>;

class RecordingPresence implements Presence {
  readonly specificationVersion = 'v1';

  constructor(
    private readonly inner: MemoryPresence,
    private readonly clock: VirtualClock,
    private readonly history: PresenceHistory,
    private readonly lostKeys: LostKeys,
    private readonly listener: RecordingListeners['presenceWrite'],
  ) {}

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.inner.set(key, value, ttlSeconds);
    const at = this.clock.now();
    this.lostKeys.delete(key);
    this.history.record(key, at);
    this.listener({ at, key, ttlSeconds });
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.inner.get(key);
    return this.lostKeys.has(key) ? undefined : value;
  }

  async getEntry(key: string): Promise<PresenceEntry | undefined> {
    const entry = await this.inner.getEntry(key);
    return this.lostKeys.has(key) ? undefined : entry;
  }
}

export type RecordingBackend = ClusterBackend & {
  readonly clock: VirtualClock;
  readonly store: MemoryStore;
  readonly presenceHistory: PresenceHistory;
  /** The backend loses `key` now (as a failover can): absent until its server's next beat. */
  losePresence(key: string): void;
  /** A second driver's own store connection on server `jobId`: its commits name `writer`. */
  storeFor(jobId: string, writer: string): Store;
};

export function recordingBackend(
  latency: Latency,
  listeners: RecordingListeners,
): RecordingBackend {
  const time = virtualTime();
  const store = new MemoryStore();
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(time.clock);
  const presenceHistory = new PresenceHistory(PRESENCE_LIFETIME_MS);
  const lostKeys: LostKeys = new Set();
  return {
    name: 'simulation',
    time,
    clock: time.clock,
    scale: 1,
    latency,
    store,
    presenceHistory,
    losePresence: (key) => {
      lostKeys.add(key);
      presenceHistory.lost(key, time.clock.now());
    },
    connect: async (jobId) => ({
      store: new RecordingStore(store, jobId, time.clock, listeners.commit),
      messenger,
      presence: new RecordingPresence(
        presence,
        time.clock,
        presenceHistory,
        lostKeys,
        listeners.presenceWrite,
      ),
    }),
    storeFor: (jobId, writer) =>
      new RecordingStore(store, jobId, time.clock, listeners.commit, writer),
    read: async (key) => store.peek(key),
    close: async () => undefined,
  };
}
