/** What a session starts from, and what holds it. */

import type { HostPlayer } from '../ports/host.js';
import type { JsonObject } from '../ports/json.js';
import type { StoreSnapshot } from '../ports/store.js';
import type { ProfileMessages } from '../rules/messages/index.js';

/** What a session starts from: the record its load took. */
export interface SessionStart {
  readonly key: string;
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
}

/** A trade holding this session: its saves and release wait for the decision. */
export interface HeldByTrade {
  readonly id: string;
  readonly decided: Promise<unknown>;
}
