/** What a session starts from, what holds it, what it tells the driver, and what its writes need of it. */

import type { DataDriverError } from '../ports/errors.js';
import type { HostPlayer } from '../ports/host.js';
import type { JsonObject } from '../ports/json.js';
import type { StoreSnapshot } from '../ports/store.js';
import type { LockInfo } from '../rules/index.js';
import type { ProfileMessages } from '../rules/messages/index.js';
import type { HandOver } from './requesters.js';
import type { HookedSession } from './save-hooks.js';
import type { SessionMessages } from './session-messages.js';

/** What a session starts from: the record its load took. */
export interface SessionStart {
  readonly key: string;
  /** Its store key, made once by its load for the load's writes and the session's. */
  readonly storeKey: string;
  readonly token: string;
  readonly data: JsonObject;
  readonly userIds?: readonly string[];
  /** What the record keeps of its messages (`meta.messages`). */
  readonly messages?: ProfileMessages | undefined;
  readonly player?: HostPlayer | undefined;
  /** The record's version as the load wrote it. */
  readonly version?: number;
  /** The store's snapshot of what the load wrote: the first save needs no read. */
  readonly stored?: StoreSnapshot | undefined;
  /** True when `data` has defaults the stored record lacks: the first autosave writes them. */
  readonly filledDefaults?: boolean;
  /** The JSON of the stored record's data, when the load made it (`Acquired.dataJson`). */
  readonly dataJson?: string | undefined;
}

/** A trade holding this session: its saves and release wait for the decision. */
export interface HeldByTrade {
  readonly id: string;
  readonly decided: Promise<unknown>;
}

/** What the driver does when a session (`S`, a `ProfileSession`) changes. */
export interface SessionHooks<S> {
  /** A write settled or the state changed: same-server waits re-check. */
  changed(): void;
  /**
   * The session stopped holding its lock (released, erased, or lost to another server);
   * `released` is the store's snapshot after its release, when it was released.
   */
  deactivated(session: S, released: StoreSnapshot | undefined): void;
  /** A write found the lock taken while the player played: end their session there. */
  lockLost(session: S): void;
}

/** What the writes need from their session. */
export interface SessionIoOwner extends HookedSession {
  readonly key: string;
  readonly token: string;
  readonly data: JsonObject;
  readonly userIds: readonly string[];
  /** What the record keeps of its messages (`current`): every write carries it. */
  readonly messages: SessionMessages;
  /** The requester its release hands the lock to, if one asked since `since` (`Requesters.handOver`). */
  handOver(since: number): HandOver | undefined;
  /** A write settled: same-server waits re-check. */
  settled(): void;
  /** The release save landed: the session ends (before the release's promise resolves). */
  left(): void;
  /** The release failed with `error`: returns it, for the release to reject with. */
  leaveFailed(error: unknown): unknown;
  /** A write found the lock taken by `holder`: the session is lost. */
  lost(holder: LockInfo | undefined): DataDriverError;
}
