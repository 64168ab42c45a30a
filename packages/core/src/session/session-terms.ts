/** What a session starts from, what it tells the driver, and what holds it. */
import type { JsonObject } from '../json.js';
import type { HostPlayer } from '../ports/host.js';
import type { StoreSnapshot } from '../ports/store.js';
import type { ProfileSession } from './profile-session.js';

/** What the driver does when a session changes. */
export interface SessionHooks {
  /** A write settled or the state changed: same-server waits re-check. */
  changed(): void;
  /**
   * The session stopped holding its lock (released, erased, or lost to another server);
   * `released` is the store's snapshot after its release, when it was released.
   */
  deactivated(session: ProfileSession, released: StoreSnapshot | undefined): void;
  /** A write found the lock taken while the player played: end their session there. */
  lockLost(session: ProfileSession): void;
}

/** What a session starts from: the record its load took. */
export interface SessionStart {
  readonly key: string;
  readonly token: string;
  readonly data: JsonObject;
  readonly userIds?: readonly string[];
  readonly player?: HostPlayer | undefined;
  /** The record's version as the load wrote it. */
  readonly version?: number;
  /** The store's snapshot of what the load wrote: the first save needs no read. */
  readonly stored?: StoreSnapshot | undefined;
}

/** A trade holding this session: its saves and release wait for the decision. */
export interface HeldByTrade {
  readonly id: string;
  readonly decided: Promise<unknown>;
}
